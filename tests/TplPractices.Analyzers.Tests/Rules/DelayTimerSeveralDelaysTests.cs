using TplPractices.Analyzers.Rules;

namespace TplPractices.Analyzers.Tests.Rules;

/// <summary>
/// TPL0017's race of several delays that nothing can cancel (<c>Task.WhenAny(Task.Delay(50), Task.Delay(5000), work)</c>,
/// a soft and a hard limit, as CA2027's own inputs race them): each delay is reported, and the fix of either gives every
/// one of them the token of one source, canceled once the race is decided. A delay on a token that something may cancel
/// beside them would cancel the others through a linked source: no fix there.
/// </summary>
public sealed class DelayTimerSeveralDelaysTests
{
    private const string Races = /* lang=c#-test */ """
        using System;
        using System.Threading;
        using System.Threading.Tasks;

        public static class Api
        {
            private static Task<int> Work(bool done) => done ? Task.FromResult(1) : new TaskCompletionSource<int>().Task;

            public static async Task<string> All() =>
                string.Join(";", await Task.WhenAll(Soft(true), Soft(false), Checked(true), Checked(false)));

            public static async Task<string> Soft(bool done)
            {
                var work = Work(done);
                var soft = TimeSpan.FromMilliseconds(20);
                var first = await Task.WhenAny({|#0:Task.Delay(soft)|}, {|#1:Task.Delay(5000)|}, work);
                return first == work ? "work" : "soft limit";
            }

            public static async Task<string> Checked(bool done)
            {
                var work = Work(done);
                if (await Task.WhenAny(work, {|#2:Task.Delay(30)|}, {|#3:Task.Delay(60_000)|}).ConfigureAwait(false) != work)
                {
                    return "late";
                }

                return "in time";
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

            public static async Task<string> All() =>
                string.Join(";", await Task.WhenAll(Soft(true), Soft(false), Checked(true), Checked(false)));

            public static async Task<string> Soft(bool done)
            {
                var work = Work(done);
                var soft = TimeSpan.FromMilliseconds(20);
                using var delayCancellation = new CancellationTokenSource();
                var first = await Task.WhenAny(Task.Delay(soft, delayCancellation.Token), Task.Delay(5000, delayCancellation.Token), work);
                delayCancellation.Cancel();
                return first == work ? "work" : "soft limit";
            }

            public static async Task<string> Checked(bool done)
            {
                var work = Work(done);
                using var delayCancellation = new CancellationTokenSource();
                var winner = await Task.WhenAny(work, Task.Delay(30, delayCancellation.Token), Task.Delay(60_000, delayCancellation.Token)).ConfigureAwait(false);
                delayCancellation.Cancel();
                if (winner != work)
                {
                    return "late";
                }

                return "in time";
            }
        }
        """;

    /// <summary>One source a race, whichever of its delays is fixed first; Fix All takes each race once.</summary>
    [Fact]
    public async Task SeveralDelaysOfOneRace_ShareOneSource()
    {
        await DelayTimerRaceChecks.FixesAsync(Races, RacesFixed, DelayTimer.RaceMessage, DelayTimer.RaceMessage, DelayTimer.RaceMessage, DelayTimer.RaceMessage);
    }

    /// <summary>The work, or the shorter delay, wins as before; the longer delay's timer leaves the queue at once.</summary>
    [Fact]
    public async Task FixedRaces_DecideTheSame()
    {
        await DelayTimerRaceChecks.DecidesTheSameAsync(Races, RacesFixed, "work;soft limit;in time;late");
    }

    /// <summary>
    /// A netstandard2.0 copy at C# 7.3 shares the file: a using block holds the race and its cancel, and the declared
    /// winner is declared before it.
    /// </summary>
    [Fact]
    public async Task BesideCSharp73_AUsingBlockHoldsTheRace()
    {
        const string Code = """
            using System.Threading.Tasks;

            class C
            {
                async Task<bool> InTime(Task work)
                {
                    var first = await Task.WhenAny([|Task.Delay(100)|], [|Task.Delay(1000)|], work);
                    return first == work;
                }
            }
            """;
        const string Fixed = """
            using System.Threading;
            using System.Threading.Tasks;

            class C
            {
                async Task<bool> InTime(Task work)
                {
                    Task first;
                    using (var delayCancellation = new CancellationTokenSource())
                    {
                        first = await Task.WhenAny(Task.Delay(100, delayCancellation.Token), Task.Delay(1000, delayCancellation.Token), work);
                        delayCancellation.Cancel();
                    }
                    return first == work;
                }
            }
            """;
        await DelayTimerRaceChecks.FixesBesideCSharp73Async(Code, Fixed);
    }

    /// <summary>
    /// Beside a delay on the caller's token, a source linked to that token would cancel the other delay too when the
    /// caller cancels, and the race could return that one instead: reported, no fix. So is a delay the race holds in a local
    /// beside one it makes.
    /// </summary>
    [Fact]
    public async Task BesideADelayThatCanBeCanceled_HasNoFix()
    {
        const string Code = """
            using System.Threading;
            using System.Threading.Tasks;

            class C
            {
                async Task<Task> Mixed(Task work, CancellationToken token) =>
                    await Task.WhenAny({|#0:Task.Delay(1000)|}, {|#1:Task.Delay(2000, token)|}, work);
            }
            """;
        await DelayTimerRaceChecks.HasNoFixAsync(Code, DelayTimer.RaceMessage, DelayTimer.TokenRaceMessage);
    }
}
