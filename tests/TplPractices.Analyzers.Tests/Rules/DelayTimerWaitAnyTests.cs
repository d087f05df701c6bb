using TplPractices.Analyzers.Rules;
using TplPractices.Analyzers.Tests.Verifiers;
using Verify = TplPractices.Analyzers.Tests.Verifiers.CSharpCodeFixVerifier<
    TplPractices.Analyzers.Rules.DelayTimerAnalyzer,
    TplPractices.Analyzers.CodeFixes.Rules.DelayTimerFixer>;

namespace TplPractices.Analyzers.Tests.Rules;

/// <summary>
/// TPL0017's race waited for by a blocked thread: <c>Task.WaitAny(work, Task.Delay(t))</c> leaves the delay's timer
/// queued as <c>await Task.WhenAny</c> does, and takes the same fix, in the same places.
/// </summary>
public sealed class DelayTimerWaitAnyTests
{
    private const string Races = /* lang=c#-test */ """
        using System;
        using System.Threading;
        using System.Threading.Tasks;

        public static class Api
        {
            private static Task Work(bool done) => done ? Task.CompletedTask : new TaskCompletionSource().Task;

            public static string All() => string.Join(";", Statement(true), Index(false), Compared(true), Bodied(false), Held(true), Held(false));

            public static string Statement(bool done)
            {
                var work = Work(done);
                Task.WaitAny(work, {|#0:Task.Delay(200)|});
                return work.IsCompleted ? "work" : "timeout";
            }

            public static string Index(bool done)
            {
                var work = Work(done);
                var first = Task.WaitAny(new[] { work, {|#1:Task.Delay(200)|} });
                return first == 0 ? "work" : "timeout";
            }

            public static string Compared(bool done)
            {
                var work = Work(done);
                // At most 200 ms.
                if (Task.WaitAny(work, {|#2:Task.Delay(TimeSpan.FromMilliseconds(200))|}) != 0)
                {
                    return "timeout";
                }

                return "work";
            }

            public static string Bodied(bool done) => InTime(Work(done), CancellationToken.None) ? "work" : "timeout";

            private static bool InTime(Task work, CancellationToken token) => Task.WaitAny(work, {|#3:Task.Delay(200, token)|}) == 0;

            public static string Held(bool done)
            {
                var work = Work(done);
                var timeout = {|#4:Task.Delay(200)|};
                return Task.WaitAny(work, timeout) == 0 ? "work" : "timeout";
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

            public static string All() => string.Join(";", Statement(true), Index(false), Compared(true), Bodied(false), Held(true), Held(false));

            public static string Statement(bool done)
            {
                var work = Work(done);
                using var delayCancellation = new CancellationTokenSource();
                Task.WaitAny(work, Task.Delay(200, delayCancellation.Token));
                delayCancellation.Cancel();
                return work.IsCompleted ? "work" : "timeout";
            }

            public static string Index(bool done)
            {
                var work = Work(done);
                using var delayCancellation = new CancellationTokenSource();
                var first = Task.WaitAny(new[] { work, Task.Delay(200, delayCancellation.Token) });
                delayCancellation.Cancel();
                return first == 0 ? "work" : "timeout";
            }

            public static string Compared(bool done)
            {
                var work = Work(done);
                // At most 200 ms.
                using var delayCancellation = new CancellationTokenSource();
                var winner = Task.WaitAny(work, Task.Delay(TimeSpan.FromMilliseconds(200), delayCancellation.Token));
                delayCancellation.Cancel();
                if (winner != 0)
                {
                    return "timeout";
                }

                return "work";
            }

            public static string Bodied(bool done) => InTime(Work(done), CancellationToken.None) ? "work" : "timeout";

            private static bool InTime(Task work, CancellationToken token)
            {
                using var delayCancellation = CancellationTokenSource.CreateLinkedTokenSource(token);
                var winner = Task.WaitAny(work, Task.Delay(200, delayCancellation.Token));
                delayCancellation.Cancel();
                return winner == 0;
            }

            public static string Held(bool done)
            {
                var work = Work(done);
                using var delayCancellation = new CancellationTokenSource();
                var timeout = Task.Delay(200, delayCancellation.Token);
                var winner = Task.WaitAny(work, timeout);
                delayCancellation.Cancel();
                return winner == 0 ? "work" : "timeout";
            }
        }
        """;

    /// <summary>
    /// WaitAny as a statement, as a local's value, first in an <c>if</c> or an expression body, and with a held delay: the
    /// delay takes a source's token (linked to the caller's where it had one), canceled once WaitAny returns.
    /// </summary>
    [Fact]
    public async Task AWaitAnyRace_CancelsItsDelayOnceDecided()
    {
        await DelayTimerRaceChecks.FixesAsync(Races, RacesFixed, DelayTimer.RaceMessage, DelayTimer.RaceMessage, DelayTimer.RaceMessage, DelayTimer.TokenRaceMessage, DelayTimer.RaceMessage);
    }

    /// <summary>WaitAny returns the same index before and after: the work done already, or never done.</summary>
    [Fact]
    public async Task FixedWaitAny_ReturnsTheSameIndex()
    {
        await DelayTimerRaceChecks.DecidesTheSameAsync(Races, RacesFixed, "work;timeout;work;timeout;work;timeout");
    }

    /// <summary>
    /// Shared with netstandard2.0 at C# 7.3: WaitAny as a statement and first in an <c>if</c> takes the using block every
    /// copy compiles (the second source takes a name of its own); a WaitAny whose index a declaration keeps declares the
    /// local first, with its type, and the block assigns it (the block would hide a declaration).
    /// </summary>
    [Fact]
    public async Task SharedWithCSharp73_AUsingBlockHoldsTheWaitAny()
    {
        const string Code = """
            using System.Threading.Tasks;

            class C
            {
                bool Wait(Task work)
                {
                    Task.WaitAny(work, {|#0:Task.Delay(100)|});
                    if (Task.WaitAny(work, {|#1:Task.Delay(200)|}) != 0)
                    {
                        return false;
                    }

                    var index = Task.WaitAny(new[] { work, {|#2:Task.Delay(300)|} });
                    return index == 0;
                }
            }
            """;
        const string Fixed = """
            using System.Threading;
            using System.Threading.Tasks;

            class C
            {
                bool Wait(Task work)
                {
                    using (var delayCancellation = new CancellationTokenSource())
                    {
                        Task.WaitAny(work, Task.Delay(100, delayCancellation.Token));
                        delayCancellation.Cancel();
                    }
                    using (var delayCancellation2 = new CancellationTokenSource())
                    {
                        var winner = Task.WaitAny(work, Task.Delay(200, delayCancellation2.Token));
                        delayCancellation2.Cancel();
                        if (winner != 0)
                        {
                            return false;
                        }
                    }

                    int index;
                    using (var delayCancellation3 = new CancellationTokenSource())
                    {
                        index = Task.WaitAny(new[] { work, Task.Delay(300, delayCancellation3.Token) });
                        delayCancellation3.Cancel();
                    }
                    return index == 0;
                }
            }
            """;
        await DelayTimerRaceChecks.FixesBesideCSharp73Async(Code, Fixed, DelayTimer.RaceMessage, DelayTimer.RaceMessage, DelayTimer.RaceMessage);
    }

    /// <summary>
    /// No race (a lone delay, with or without WaitAny's own time-out), a delay on a source of the code's own: not
    /// reported. WaitAny's index handed to another call first is reported without a fix: moving the race would not
    /// change the order, but the statement is not one the fix rewrites.
    /// </summary>
    [Fact]
    public async Task ALoneDelayOrAnOwnedToken_IsNoReport_AndAnArgumentIsNotMoved()
    {
        const string code = """
            using System;
            using System.Threading;
            using System.Threading.Tasks;

            class C
            {
                void Lone()
                {
                    Task.WaitAny(Task.Delay(100));
                    Task.WaitAny(new[] { Task.Delay(100) }, 50);
                }

                void Owned(Task work)
                {
                    using var source = new CancellationTokenSource();
                    Task.WaitAny(work, Task.Delay(100, source.Token));
                    source.Cancel();
                }

                void Printed(Task work) => Console.WriteLine(Task.WaitAny(work, {|#0:Task.Delay(100)|}));
            }
            """;
        await DelayTimerRaceChecks.HasNoFixAsync(code, DelayTimer.RaceMessage);
    }

    // WhenAny's task waited for by a blocked thread: .Result, .GetAwaiter().GetResult(), .Wait().
    private const string Blocked = /* lang=c#-test */ """
        using System;
        using System.Threading;
        using System.Threading.Tasks;

        public static class Api
        {
            private static Task Work(bool done) => done ? Task.CompletedTask : new TaskCompletionSource<bool>().Task;

            public static string All() => string.Join(
                ";", Compared(true), Compared(false), Declared(true), Declared(false), Returned(true), Returned(false), Awaiter(true), Awaiter(false), Waited(true), Waited(false));

            public static string Compared(bool done)
            {
                var work = Work(done);
                if (Task.WhenAny(work, {|#0:Task.Delay(30)|}).Result == work)
                {
                    return "work";
                }

                return "timeout";
            }

            public static string Declared(bool done)
            {
                var work = Work(done);
                var first = Task.WhenAny(work, {|#1:Task.Delay(30)|}).Result;
                return first == work ? "work" : "timeout";
            }

            public static string Returned(bool done)
            {
                var work = Work(done);
                return Task.WhenAny(work, {|#2:Task.Delay(30)|}).Result == work ? "work" : "timeout";
            }

            public static string Awaiter(bool done)
            {
                var work = Work(done);
                var first = Task.WhenAny(work, {|#3:Task.Delay(30)|}).ConfigureAwait(false).GetAwaiter().GetResult();
                return first == work ? "work" : "timeout";
            }

            public static string Waited(bool done)
            {
                var work = Work(done);
                Task.WhenAny(work, {|#4:Task.Delay(30)|}).Wait();
                return work.IsCompleted ? "work" : "timeout";
            }
        }
        """;

    private const string BlockedFixed = /* lang=c#-test */ """
        using System;
        using System.Threading;
        using System.Threading.Tasks;

        public static class Api
        {
            private static Task Work(bool done) => done ? Task.CompletedTask : new TaskCompletionSource<bool>().Task;

            public static string All() => string.Join(
                ";", Compared(true), Compared(false), Declared(true), Declared(false), Returned(true), Returned(false), Awaiter(true), Awaiter(false), Waited(true), Waited(false));

            public static string Compared(bool done)
            {
                var work = Work(done);
                using var delayCancellation = new CancellationTokenSource();
                var winner = Task.WhenAny(work, Task.Delay(30, delayCancellation.Token)).Result;
                delayCancellation.Cancel();
                if (winner == work)
                {
                    return "work";
                }

                return "timeout";
            }

            public static string Declared(bool done)
            {
                var work = Work(done);
                using var delayCancellation = new CancellationTokenSource();
                var first = Task.WhenAny(work, Task.Delay(30, delayCancellation.Token)).Result;
                delayCancellation.Cancel();
                return first == work ? "work" : "timeout";
            }

            public static string Returned(bool done)
            {
                var work = Work(done);
                using var delayCancellation = new CancellationTokenSource();
                var winner = Task.WhenAny(work, Task.Delay(30, delayCancellation.Token)).Result;
                delayCancellation.Cancel();
                return winner == work ? "work" : "timeout";
            }

            public static string Awaiter(bool done)
            {
                var work = Work(done);
                using var delayCancellation = new CancellationTokenSource();
                var first = Task.WhenAny(work, Task.Delay(30, delayCancellation.Token)).ConfigureAwait(false).GetAwaiter().GetResult();
                delayCancellation.Cancel();
                return first == work ? "work" : "timeout";
            }

            public static string Waited(bool done)
            {
                var work = Work(done);
                using var delayCancellation = new CancellationTokenSource();
                Task.WhenAny(work, Task.Delay(30, delayCancellation.Token)).Wait();
                delayCancellation.Cancel();
                return work.IsCompleted ? "work" : "timeout";
            }
        }
        """;

    /// <summary>
    /// WhenAny's task waited for by a blocked thread (<c>.Result</c>, <c>.GetAwaiter().GetResult()</c>, <c>.Wait()</c>)
    /// returns once the race is decided, as WaitAny does: the same fix, in the same places.
    /// </summary>
    [Fact]
    public async Task AWhenAnyABlockedThreadWaitsFor_CancelsItsDelayOnceDecided()
    {
        await DelayTimerRaceChecks.FixesAsync(Blocked, BlockedFixed, Enumerable.Repeat(DelayTimer.RaceMessage, 5).ToArray());
    }

    [Fact]
    public async Task FixedBlockedRace_DecidesTheSame()
    {
        await DelayTimerRaceChecks.DecidesTheSameAsync(Blocked, BlockedFixed, "work;timeout;work;timeout;work;timeout;work;timeout;work;timeout");
    }
}
