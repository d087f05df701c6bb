using TplPractices.Analyzers.Rules;
using TplPractices.Analyzers.Tests.Verifiers;

namespace TplPractices.Analyzers.Tests.Rules;

/// <summary>
/// TPL0017's race beside other delays that are not its sites: a delay that makes no timer (<c>Task.Delay(-1, stop)</c>,
/// the usual way to race a token), inline or held in a local, and a delay inside work the race takes. The fix cancels
/// the one reported delay, and the others keep their text. Two reported delays in one race stay without a fix: each
/// fix would rewrite the race's statement.
/// </summary>
public sealed class DelayTimerOtherDelaysTests
{
    private const string Races = /* lang=c#-test */ """
        using System;
        using System.Threading;
        using System.Threading.Tasks;

        public static class Api
        {
            private static Task Work(bool done) => done ? Task.CompletedTask : new TaskCompletionSource<bool>().Task;

            public static async Task<string> All()
            {
                using var stopping = new CancellationTokenSource();
                var results = await Task.WhenAll(
                    Stoppable(true, stopping.Token), Stoppable(false, stopping.Token),
                    HeldStop(true, CancellationToken.None), HeldStop(false, CancellationToken.None),
                    Nested(true), Nested(false));
                using var stopped = new CancellationTokenSource();
                stopped.Cancel();
                return string.Join(";", results) + ";" + await Stoppable(false, stopped.Token) + ";" + await HeldStop(false, stopped.Token);
            }

            public static async Task<string> Stoppable(bool done, CancellationToken stop)
            {
                var first = await Task.WhenAny(Work(done), Task.Delay(Timeout.InfiniteTimeSpan, stop), {|#0:Task.Delay(300)|});
                return first.IsCanceled ? "stopped" : first.IsCompleted && done ? "work" : "timeout";
            }

            public static async Task<string> HeldStop(bool done, CancellationToken stop)
            {
                var work = Work(done);
                var stopped = Task.Delay(-1, stop);
                if (await Task.WhenAny(work, stopped, {|#1:Task.Delay(300)|}) == work) return "work";
                return stopped.IsCanceled ? "stopped" : "timeout";
            }

            public static async Task<string> Nested(bool done)
            {
                var work = Task.Run(async () => { if (!done) await Task.Delay(5000); });
                return await Task.WhenAny(work, {|#2:Task.Delay(300)|}) == work ? "work" : "timeout";
            }
        }
        """;

    private const string RacesFixed = /* lang=c#-test */ """
        using System;
        using System.Threading;
        using System.Threading.Tasks;

        public static class Api
        {
            private static Task Work(bool done) => done ? Task.CompletedTask : new TaskCompletionSource<bool>().Task;

            public static async Task<string> All()
            {
                using var stopping = new CancellationTokenSource();
                var results = await Task.WhenAll(
                    Stoppable(true, stopping.Token), Stoppable(false, stopping.Token),
                    HeldStop(true, CancellationToken.None), HeldStop(false, CancellationToken.None),
                    Nested(true), Nested(false));
                using var stopped = new CancellationTokenSource();
                stopped.Cancel();
                return string.Join(";", results) + ";" + await Stoppable(false, stopped.Token) + ";" + await HeldStop(false, stopped.Token);
            }

            public static async Task<string> Stoppable(bool done, CancellationToken stop)
            {
                using var delayCancellation = new CancellationTokenSource();
                var first = await Task.WhenAny(Work(done), Task.Delay(Timeout.InfiniteTimeSpan, stop), Task.Delay(300, delayCancellation.Token));
                delayCancellation.Cancel();
                return first.IsCanceled ? "stopped" : first.IsCompleted && done ? "work" : "timeout";
            }

            public static async Task<string> HeldStop(bool done, CancellationToken stop)
            {
                var work = Work(done);
                var stopped = Task.Delay(-1, stop);
                using var delayCancellation = new CancellationTokenSource();
                var winner = await Task.WhenAny(work, stopped, Task.Delay(300, delayCancellation.Token));
                delayCancellation.Cancel();
                if (winner == work) return "work";
                return stopped.IsCanceled ? "stopped" : "timeout";
            }

            public static async Task<string> Nested(bool done)
            {
                var work = Task.Run(async () => { if (!done) await Task.Delay(5000); });
                using var delayCancellation = new CancellationTokenSource();
                var winner = await Task.WhenAny(work, Task.Delay(300, delayCancellation.Token));
                delayCancellation.Cancel();
                return winner == work ? "work" : "timeout";
            }
        }
        """;

    [Fact]
    public async Task ARaceBesideDelaysThatAreNotSites_IsFixed()
    {
        await DelayTimerRaceChecks.FixesAsync(Races, RacesFixed, DelayTimer.RaceMessage, DelayTimer.RaceMessage, DelayTimer.RaceMessage);
    }

    [Fact]
    public async Task FixedRaceBesideOtherDelays_DecidesTheSame()
    {
        await DelayTimerRaceChecks.DecidesTheSameAsync(Races, RacesFixed, "work;timeout;work;timeout;work;timeout;stopped;stopped");
    }

    /// <summary>Two reported delays in one race take one source (DelayTimerSeveralDelaysTests): an expression body too.</summary>
    [Fact]
    public async Task TwoReportedDelaysInOneRace_ShareOneSource()
    {
        const string Code = """
            using System.Threading.Tasks;

            class C
            {
                async Task<bool> Twice(Task work) =>
                    await Task.WhenAny(work, {|#0:Task.Delay(100)|}, {|#1:Task.Delay(200)|}) == work;
            }
            """;
        const string Fixed = """
            using System.Threading;
            using System.Threading.Tasks;

            class C
            {
                async Task<bool> Twice(Task work)
                {
                    using var delayCancellation = new CancellationTokenSource();
                    var winner = await Task.WhenAny(work, Task.Delay(100, delayCancellation.Token), Task.Delay(200, delayCancellation.Token));
                    delayCancellation.Cancel();
                    return winner == work;
                }
            }
            """;
        await DelayTimerRaceChecks.FixesAsync(Code, Fixed, DelayTimer.RaceMessage, DelayTimer.RaceMessage);
    }
}
