using Microsoft.CodeAnalysis.CSharp;
using TplPractices.Analyzers.Rules;
using Verify = TplPractices.Analyzers.Tests.Verifiers.CSharpCodeFixVerifier<
    TplPractices.Analyzers.Rules.DelayTimerAnalyzer,
    TplPractices.Analyzers.CodeFixes.Rules.DelayTimerFixer>;

namespace TplPractices.Analyzers.Tests.Rules;

/// <summary>
/// TPL0017's race where the delay takes the token of a source the code made itself and never cancels: a
/// <c>new CancellationTokenSource()</c> whose token and state are only read (disposing it does not cancel the delay).
/// The race leaves the timer queued as with no token at all, and the fix links a source to that token, as it does for
/// the caller's, so whatever could cancel the delay before still can.
/// </summary>
public sealed class DelayTimerOwnSourceTests
{
    private const string Races = /* lang=c#-test */ """
        using System;
        using System.Threading;
        using System.Threading.Tasks;

        public static class Api
        {
            private static Task Work(bool done) => done ? Task.CompletedTask : new TaskCompletionSource().Task;

            public static async Task<string> All() => string.Join(";", await Task.WhenAll(
                Scoped(true), Scoped(false), Shared(false), Shared(true)));

            public static async Task<string> Scoped(bool done)
            {
                var work = Work(done);
                using var source = new CancellationTokenSource();
                var first = await Task.WhenAny(work, {|#0:Task.Delay(200, source.Token)|});
                return first == work ? "work" : "timeout";
            }

            // The work takes the same token: only the delay's own source is canceled after the race, never this one.
            public static async Task<string> Shared(bool done)
            {
                var source = new CancellationTokenSource();
                var work = Started(done, source.Token);
                if (await Task.WhenAny(work, {|#1:Task.Delay(200, source.Token)|}) != work)
                {
                    return "timeout";
                }

                source.Dispose();
                return source.IsCancellationRequested ? "canceled" : "work";
            }

            private static Task Started(bool done, CancellationToken token) => token.IsCancellationRequested ? Task.FromCanceled(token) : Work(done);
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
                Scoped(true), Scoped(false), Shared(false), Shared(true)));

            public static async Task<string> Scoped(bool done)
            {
                var work = Work(done);
                using var source = new CancellationTokenSource();
                using var delayCancellation = CancellationTokenSource.CreateLinkedTokenSource(source.Token);
                var first = await Task.WhenAny(work, Task.Delay(200, delayCancellation.Token));
                delayCancellation.Cancel();
                return first == work ? "work" : "timeout";
            }

            // The work takes the same token: only the delay's own source is canceled after the race, never this one.
            public static async Task<string> Shared(bool done)
            {
                var source = new CancellationTokenSource();
                var work = Started(done, source.Token);
                using var delayCancellation = CancellationTokenSource.CreateLinkedTokenSource(source.Token);
                var winner = await Task.WhenAny(work, Task.Delay(200, delayCancellation.Token));
                delayCancellation.Cancel();
                if (winner != work)
                {
                    return "timeout";
                }

                source.Dispose();
                return source.IsCancellationRequested ? "canceled" : "work";
            }

            private static Task Started(bool done, CancellationToken token) => token.IsCancellationRequested ? Task.FromCanceled(token) : Work(done);
        }
        """;

    /// <summary>A source used only for its token (in a using declaration, or disposed by hand) races its delay linked to it.</summary>
    [Fact]
    public async Task ASourceNothingCancels_GivesTheDelayALinkedSourceCanceledAfterTheRace()
    {
        await DelayTimerRaceChecks.FixesAsync(Races, RacesFixed, DelayTimer.OwnSourceRaceMessage, DelayTimer.OwnSourceRaceMessage);
    }

    /// <summary>The same winners before and after, and the work's token is never canceled by the fix.</summary>
    [Fact]
    public async Task FixedRaceOnAnOwnSource_DecidesTheSame()
    {
        await DelayTimerRaceChecks.DecidesTheSameAsync(Races, RacesFixed, "work;timeout;timeout;work");
    }

    /// <summary>
    /// Sources something can cancel are left alone: canceled after the race (the usual pattern), in a lambda, made with
    /// a delay of their own, handed to a method, assigned again, or canceled on the work's path only. (A linked source
    /// nothing else cancels is the caller's token once removed, and is reported: <see cref="DelayTimerRaceLeftSourceTests"/>.)
    /// </summary>
    [Fact]
    public async Task ASourceSomethingMayCancel_IsNotReported()
    {
        await Verify.VerifyAnalyzerAsync(/* lang=c#-test */ """
            using System;
            using System.Threading;
            using System.Threading.Tasks;

            public class Races
            {
                public async Task<bool> CanceledAfter(Task work)
                {
                    using var source = new CancellationTokenSource();
                    var winner = await Task.WhenAny(work, Task.Delay(1000, source.Token));
                    source.Cancel();
                    return winner == work;
                }

                public async Task<bool> CanceledInALambda(Task work)
                {
                    using var source = new CancellationTokenSource();
                    _ = work.ContinueWith(_ => source.Cancel(), CancellationToken.None, TaskContinuationOptions.None, TaskScheduler.Default);
                    return await Task.WhenAny(work, Task.Delay(1000, source.Token)) == work;
                }

                public async Task<bool> TimedOut(Task work)
                {
                    using var source = new CancellationTokenSource(500);
                    return await Task.WhenAny(work, Task.Delay(1000, source.Token)) == work;
                }

                public async Task<bool> Handed(Task work)
                {
                    using var source = new CancellationTokenSource();
                    Keep(source);
                    return await Task.WhenAny(work, Task.Delay(1000, source.Token)) == work;
                }

                public async Task<bool> Assigned(Task work, CancellationTokenSource other)
                {
                    var source = new CancellationTokenSource();
                    if (work.IsCompleted)
                    {
                        source = other;
                    }

                    return await Task.WhenAny(work, Task.Delay(1000, source.Token)) == work;
                }

                public async Task<bool> CanceledAsync(Task work)
                {
                    var source = new CancellationTokenSource();
                    var winner = await Task.WhenAny(work, Task.Delay(1000, source.Token));
                    await source.CancelAsync();
                    return winner == work;
                }

                // Canceled on the path where the work wins only: the common time-out helper, left alone as written.
                public async Task<T> CanceledWhenTheWorkWins<T>(Task<T> work, TimeSpan timeout)
                {
                    var source = new CancellationTokenSource();
                    if (work == await Task.WhenAny(work, Task.Delay(timeout, source.Token)).ConfigureAwait(false))
                    {
                        source.Cancel();
                        return await work.ConfigureAwait(false);
                    }

                    throw new TimeoutException();
                }

                // A derived source, and a type of the same name elsewhere: either may cancel itself.
                public async Task<bool> Derived(Task work)
                {
                    using CancellationTokenSource source = new SelfCanceling();
                    return await Task.WhenAny(work, Task.Delay(1000, source.Token)) == work;
                }

                public async Task<bool> NamedAlike(Task work)
                {
                    var source = new Other.CancellationTokenSource();
                    return await Task.WhenAny(work, Task.Delay(1000, source.Token)) == work;
                }

                private static void Keep(CancellationTokenSource source) { }
            }

            public sealed class SelfCanceling : CancellationTokenSource
            {
                public SelfCanceling() => CancelAfter(100);
            }

            namespace Other
            {
                public sealed class CancellationTokenSource
                {
                    private readonly System.Threading.CancellationTokenSource _inner = new(100);

                    public CancellationToken Token => _inner.Token;
                }
            }
            """);
    }

    /// <summary>C# 7.3: a using block holds the race and the cancel, inside the source's own block.</summary>
    [Fact]
    public async Task OnCSharp73_AUsingBlockHoldsTheRace()
    {
        var test = new Verify.Test
        {
            TestCode = /* lang=c#-test */ """
                using System.Threading;
                using System.Threading.Tasks;

                public class Races
                {
                    public async Task<bool> Scoped(Task work)
                    {
                        using (var source = new CancellationTokenSource())
                        {
                            await Task.WhenAny(work, {|#0:Task.Delay(1000, source.Token)|});
                            return work.IsCompleted;
                        }
                    }
                }
                """,
            FixedCode = /* lang=c#-test */ """
                using System.Threading;
                using System.Threading.Tasks;

                public class Races
                {
                    public async Task<bool> Scoped(Task work)
                    {
                        using (var source = new CancellationTokenSource())
                        {
                            using (var delayCancellation = CancellationTokenSource.CreateLinkedTokenSource(source.Token))
                            {
                                await Task.WhenAny(work, Task.Delay(1000, delayCancellation.Token));
                                delayCancellation.Cancel();
                            }
                            return work.IsCompleted;
                        }
                    }
                }
                """,
            LanguageVersion = LanguageVersion.CSharp7_3,
            NullableContext = Microsoft.CodeAnalysis.NullableContextOptions.Disable,
            Target = Verifiers.TestTarget.NetStandard20,
        };
        test.ExpectedDiagnostics.Add(Verify.Diagnostic().WithLocation(0).WithArguments(DelayTimer.OwnSourceRaceMessage));
        await test.RunAsync();
    }
}
