using TplPractices.Analyzers.Rules;

namespace TplPractices.Analyzers.Tests.Rules;

/// <summary>
/// TPL0017's race with a delay on a <c>TimeProvider</c> (.NET 8 on): <c>Task.Delay(t, timeProvider)</c> makes the
/// provider's timer, which stays until it fires as the plain delay's does. The fix gives the token to the overload that
/// takes the provider and a token, after the provider, never in its place.
/// </summary>
public sealed class DelayTimerTimeProviderTests
{
    private const string Races = /* lang=c#-test */ """
        using System;
        using System.Threading;
        using System.Threading.Tasks;

        public static class Api
        {
            private static Task Work(bool done) => done ? Task.CompletedTask : new TaskCompletionSource().Task;

            public static async Task<string> All() => string.Join(";", await Task.WhenAll(
                Plain(true, TimeProvider.System), Plain(false, TimeProvider.System), Uncancelable(false), Named(true), Callers(false, CancellationToken.None)));

            public static async Task<string> Plain(bool done, TimeProvider clock)
            {
                var work = Work(done);
                var first = await Task.WhenAny(work, {|#0:Task.Delay(TimeSpan.FromMilliseconds(200), clock)|});
                return first == work ? "work" : "timeout";
            }

            public static async Task<string> Uncancelable(bool done)
            {
                var work = Work(done);
                await Task.WhenAny(work, {|#1:Task.Delay(TimeSpan.FromMilliseconds(200), TimeProvider.System, CancellationToken.None)|});
                return work.IsCompleted ? "work" : "timeout";
            }

            public static async Task<string> Named(bool done)
            {
                var work = Work(done);
                await Task.WhenAny(work, {|#2:Task.Delay(timeProvider: TimeProvider.System, delay: TimeSpan.FromMilliseconds(200))|});
                return work.IsCompleted ? "work" : "timeout";
            }

            public static async Task<string> Callers(bool done, CancellationToken token)
            {
                var work = Work(done);
                await Task.WhenAny(work, {|#3:Task.Delay(TimeSpan.FromMilliseconds(200), TimeProvider.System, token)|});
                return work.IsCompleted ? "work" : "timeout";
            }
        }
        """;

    private const string RacesFixed = /* lang=c#-test */ """
        using System;
        using System.Threading;
        using System.Threading.Tasks;

        public static class Api
        {
            private static Task Work(bool done) => done ? Task.CompletedTask : new TaskCompletionSource().Task;

            public static async Task<string> All() => string.Join(";", await Task.WhenAll(
                Plain(true, TimeProvider.System), Plain(false, TimeProvider.System), Uncancelable(false), Named(true), Callers(false, CancellationToken.None)));

            public static async Task<string> Plain(bool done, TimeProvider clock)
            {
                var work = Work(done);
                using var delayCancellation = new CancellationTokenSource();
                var first = await Task.WhenAny(work, Task.Delay(TimeSpan.FromMilliseconds(200), clock, delayCancellation.Token));
                delayCancellation.Cancel();
                return first == work ? "work" : "timeout";
            }

            public static async Task<string> Uncancelable(bool done)
            {
                var work = Work(done);
                using var delayCancellation = new CancellationTokenSource();
                await Task.WhenAny(work, Task.Delay(TimeSpan.FromMilliseconds(200), TimeProvider.System, delayCancellation.Token));
                delayCancellation.Cancel();
                return work.IsCompleted ? "work" : "timeout";
            }

            public static async Task<string> Named(bool done)
            {
                var work = Work(done);
                using var delayCancellation = new CancellationTokenSource();
                await Task.WhenAny(
                    work,
                    Task.Delay(timeProvider: TimeProvider.System, delay: TimeSpan.FromMilliseconds(200), cancellationToken: delayCancellation.Token));
                delayCancellation.Cancel();
                return work.IsCompleted ? "work" : "timeout";
            }

            public static async Task<string> Callers(bool done, CancellationToken token)
            {
                var work = Work(done);
                using var delayCancellation = CancellationTokenSource.CreateLinkedTokenSource(token);
                await Task.WhenAny(work, Task.Delay(TimeSpan.FromMilliseconds(200), TimeProvider.System, delayCancellation.Token));
                delayCancellation.Cancel();
                return work.IsCompleted ? "work" : "timeout";
            }
        }
        """;

    /// <summary>
    /// A provider's delay with no token, with one that cannot cancel, with named arguments in another order (the new
    /// one named too; the line grows past the file's longest and is wrapped), and on the caller's token: each takes the
    /// source's token, and the provider keeps its place.
    /// </summary>
    [Fact]
    public async Task ARaceOnATimeProvider_CancelsItsDelayOnceDecided()
    {
        await DelayTimerRaceChecks.FixesAsync(Races, RacesFixed, DelayTimer.RaceMessage, DelayTimer.RaceMessage, DelayTimer.RaceMessage, DelayTimer.TokenRaceMessage);
    }

    /// <summary>The same winners before and after: the work done already wins, pending work loses to the provider's timer.</summary>
    [Fact]
    public async Task FixedRaceOnATimeProvider_DecidesTheSame()
    {
        await DelayTimerRaceChecks.DecidesTheSameAsync(Races, RacesFixed, "work;timeout;timeout;work;timeout");
    }

    /// <summary>A provider's loop keeps its delay: PeriodicTimer would need the provider's own constructor, which the fix does not write.</summary>
    [Fact]
    public async Task ALoopOnATimeProvider_IsReportedWithoutAFix()
    {
        await DelayTimerRaceChecks.HasNoFixAsync(/* lang=c#-test */ """
            using System;
            using System.Threading;
            using System.Threading.Tasks;

            public class Poller
            {
                private int _polls;

                public async Task Run(TimeProvider clock, CancellationToken token)
                {
                    while (!token.IsCancellationRequested)
                    {
                        _polls++;
                        await {|#0:Task.Delay(TimeSpan.FromSeconds(1), clock)|};
                    }
                }
            }
            """, DelayTimer.LoopMessage);
    }
}
