using TplPractices.Analyzers.Rules;

namespace TplPractices.Analyzers.Tests.Rules;

/// <summary>
/// TPL0017's race on the right of a comparison (<c>if (task == await Task.WhenAny(task, Task.Delay(t)))</c>, the way
/// time-out helpers are often written): the left operand is read after the race instead of before it, which is exact
/// only where it reads the same value then.
/// </summary>
public sealed class DelayTimerRaceOperandTests
{
    private const string Races = /* lang=c#-test */ """
        using System;
        using System.Threading;
        using System.Threading.Tasks;

        public static class Api
        {
            private static Task<int> Work(bool done) => done ? Task.FromResult(1) : new TaskCompletionSource<int>().Task;

            public static async Task<string> All() => string.Join(";", await Task.WhenAll(WithTimeout(true), WithTimeout(false), Held(true), Held(false)));

            public static async Task<string> WithTimeout(bool done)
            {
                var task = Work(done);
                if (task == await Task.WhenAny(task, {|#0:Task.Delay(200)|}).ConfigureAwait(false))
                {
                    return "work " + await task;
                }

                return "timeout";
            }

            public static async Task<string> Held(bool done)
            {
                var task = Work(done);
                var timeout = {|#1:Task.Delay(200)|};
                return timeout != await Task.WhenAny(task, timeout) ? "work" : "timeout";
            }
        }
        """;

    private const string RacesFixed = /* lang=c#-test */ """
        using System;
        using System.Threading;
        using System.Threading.Tasks;

        public static class Api
        {
            private static Task<int> Work(bool done) => done ? Task.FromResult(1) : new TaskCompletionSource<int>().Task;

            public static async Task<string> All() => string.Join(";", await Task.WhenAll(WithTimeout(true), WithTimeout(false), Held(true), Held(false)));

            public static async Task<string> WithTimeout(bool done)
            {
                var task = Work(done);
                using var delayCancellation = new CancellationTokenSource();
                var winner = await Task.WhenAny(task, Task.Delay(200, delayCancellation.Token)).ConfigureAwait(false);
                delayCancellation.Cancel();
                if (task == winner)
                {
                    return "work " + await task;
                }

                return "timeout";
            }

            public static async Task<string> Held(bool done)
            {
                var task = Work(done);
                using var delayCancellation = new CancellationTokenSource();
                var timeout = Task.Delay(200, delayCancellation.Token);
                var winner = await Task.WhenAny(task, timeout);
                delayCancellation.Cancel();
                return timeout != winner ? "work" : "timeout";
            }
        }
        """;

    /// <summary>
    /// A race compared with a local nothing writes (the work, or the held delay itself) moves into a local before the
    /// statement, and the comparison reads both afterwards.
    /// </summary>
    [Fact]
    public async Task ARaceComparedWithASteadyLocal_MovesIntoALocalBeforeIt()
    {
        await DelayTimerRaceChecks.FixesAsync(Races, RacesFixed, DelayTimer.RaceMessage, DelayTimer.RaceMessage);
    }

    /// <summary>Both winners, in the <c>if</c> and with the held delay, decide the same before and after.</summary>
    [Fact]
    public async Task FixedComparedRace_DecidesTheSame()
    {
        await DelayTimerRaceChecks.DecidesTheSameAsync(Races, RacesFixed, "work 1;timeout;work;timeout");
    }

    /// <summary>
    /// Reported without a fix: a field on the left (another thread may write it while the race waits), a parameter
    /// something assigns, and a comparison after <c>&amp;&amp;</c> (the race may not run at all).
    /// </summary>
    [Fact]
    public async Task ARaceComparedWithWhatMayChange_IsNotMoved()
    {
        const string Code = """
            using System.Threading.Tasks;

            class C
            {
                private Task _work = Task.CompletedTask;

                async Task<bool> Field() => _work == await Task.WhenAny(_work, {|#0:Task.Delay(1000)|});

                async Task<bool> Assigned(Task work)
                {
                    work = work.ContinueWith(_ => { }, TaskScheduler.Default);
                    return work == await Task.WhenAny(work, {|#1:Task.Delay(1000)|});
                }

                async Task<bool> Short(Task work, bool ready) => ready && work == await Task.WhenAny(work, {|#2:Task.Delay(1000)|});
            }
            """;
        await DelayTimerRaceChecks.HasNoFixAsync(Code, DelayTimer.RaceMessage, DelayTimer.RaceMessage, DelayTimer.RaceMessage);
    }
}
