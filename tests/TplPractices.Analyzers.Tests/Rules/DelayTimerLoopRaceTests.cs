using TplPractices.Analyzers.Rules;
using TplPractices.Analyzers.Tests.Verifiers;
using Verify = TplPractices.Analyzers.Tests.Verifiers.CSharpCodeFixVerifier<
    TplPractices.Analyzers.Rules.DelayTimerAnalyzer,
    TplPractices.Analyzers.CodeFixes.Rules.DelayTimerFixer>;

namespace TplPractices.Analyzers.Tests.Rules;

/// <summary>
/// TPL0017's race in a <c>while</c> loop's condition (a heartbeat while work runs: <c>while (await Task.WhenAny(work,
/// Task.Delay(t)) != work) { … }</c>), which leaves one timer queued per pass: the loop runs <c>while (true)</c>, and each
/// pass races with its own source, cancels it and breaks where the condition no longer holds, before the body.
/// </summary>
public sealed class DelayTimerLoopRaceTests
{
    // The work completes in the pass that the loop is meant to end after, so every race before it is the delay's, and
    // the one after it the work's (WhenAny and WaitAny take a completed task first, in argument order): the passes do
    // not depend on timing.
    internal const string Loops = /* lang=c#-test */ """
        using System;
        using System.Threading;
        using System.Threading.Tasks;

        public static class Api
        {
            private static int Beat(TaskCompletionSource<bool> done, int beats, int last)
            {
                if (++beats == last) done.SetResult(true);
                return beats;
            }

            public static async Task<string> All() =>
                string.Join(";", await Heartbeats(Task.CompletedTask), await Heartbeats(null), await Skips(), await OneLine(CancellationToken.None), await Waits());

            public static async Task<int> Heartbeats(Task? finished)
            {
                var done = new TaskCompletionSource<bool>();
                var work = finished ?? done.Task;
                var beats = 0;
                // Beat until the work is done.
                while (await Task.WhenAny(work, {|#0:Task.Delay(20)|}) != work)
                {
                    beats = Beat(done, beats, 3);
                }

                return beats;
            }

            public static async Task<string> Skips()
            {
                var done = new TaskCompletionSource<bool>();
                var seen = "";
                var pass = 0;
                while (!(await Task.WhenAny(done.Task, {|#1:Task.Delay(20)|})).Equals(done.Task))
                {
                    pass = Beat(done, pass, 4);
                    if (pass % 2 == 0) continue;
                    seen += pass;
                }

                return seen;
            }

            public static async Task<int> OneLine(CancellationToken token)
            {
                var done = new TaskCompletionSource<bool>();
                var beats = 0;
                while (await Task.WhenAny(done.Task, {|#2:Task.Delay(TimeSpan.FromMilliseconds(20), token)|}).ConfigureAwait(false) != done.Task && !token.IsCancellationRequested)
                    beats = Beat(done, beats, 2);
                return beats;
            }

            public static async Task<int> Waits()
            {
                var done = new TaskCompletionSource<bool>();
                var beats = 0;
                while (Task.WaitAny(done.Task, {|#3:Task.Delay(20)|}) != 0) beats = Beat(done, beats, 2);
                await done.Task;
                return beats;
            }
        }
        """;

    internal const string LoopsFixed = /* lang=c#-test */ """
        using System;
        using System.Threading;
        using System.Threading.Tasks;

        public static class Api
        {
            private static int Beat(TaskCompletionSource<bool> done, int beats, int last)
            {
                if (++beats == last) done.SetResult(true);
                return beats;
            }

            public static async Task<string> All() =>
                string.Join(";", await Heartbeats(Task.CompletedTask), await Heartbeats(null), await Skips(), await OneLine(CancellationToken.None), await Waits());

            public static async Task<int> Heartbeats(Task? finished)
            {
                var done = new TaskCompletionSource<bool>();
                var work = finished ?? done.Task;
                var beats = 0;
                // Beat until the work is done.
                while (true)
                {
                    using var delayCancellation = new CancellationTokenSource();
                    var winner = await Task.WhenAny(work, Task.Delay(20, delayCancellation.Token));
                    delayCancellation.Cancel();
                    if (winner == work)
                    {
                        break;
                    }
                    beats = Beat(done, beats, 3);
                }

                return beats;
            }

            public static async Task<string> Skips()
            {
                var done = new TaskCompletionSource<bool>();
                var seen = "";
                var pass = 0;
                while (true)
                {
                    using var delayCancellation = new CancellationTokenSource();
                    var winner = await Task.WhenAny(done.Task, Task.Delay(20, delayCancellation.Token));
                    delayCancellation.Cancel();
                    if (winner.Equals(done.Task))
                    {
                        break;
                    }
                    pass = Beat(done, pass, 4);
                    if (pass % 2 == 0) continue;
                    seen += pass;
                }

                return seen;
            }

            public static async Task<int> OneLine(CancellationToken token)
            {
                var done = new TaskCompletionSource<bool>();
                var beats = 0;
                while (true)
                {
                    using var delayCancellation = CancellationTokenSource.CreateLinkedTokenSource(token);
                    var winner = await Task.WhenAny(done.Task, Task.Delay(TimeSpan.FromMilliseconds(20), delayCancellation.Token)).ConfigureAwait(false);
                    delayCancellation.Cancel();
                    if (!(winner != done.Task && !token.IsCancellationRequested))
                    {
                        break;
                    }
                    beats = Beat(done, beats, 2);
                }
                return beats;
            }

            public static async Task<int> Waits()
            {
                var done = new TaskCompletionSource<bool>();
                var beats = 0;
                while (true)
                {
                    using var delayCancellation = new CancellationTokenSource();
                    var winner = Task.WaitAny(done.Task, Task.Delay(20, delayCancellation.Token));
                    delayCancellation.Cancel();
                    if (winner == 0)
                    {
                        break;
                    }
                    beats = Beat(done, beats, 2);
                }
                await done.Task;
                return beats;
            }
        }
        """;

    [Fact]
    public async Task ARaceInAWhileCondition_RacesAtTheTopOfEachPass()
    {
        await DelayTimerRaceChecks.FixesAsync(
            Loops, LoopsFixed, DelayTimer.RaceMessage, DelayTimer.RaceMessage, DelayTimer.TokenRaceMessage, DelayTimer.RaceMessage);
    }

    [Fact]
    public async Task FixedLoopRace_MakesTheSamePasses()
    {
        await DelayTimerRaceChecks.DecidesTheSameAsync(Loops, LoopsFixed, "0;3;13;2;2");
    }

    /// <summary>
    /// Reported without a fix: a held delay raced in a loop's condition (canceled after the first pass, it would win
    /// every later race), a race in the condition of a <c>do … while</c> whose body has a <c>continue</c> (it goes to the
    /// condition, past a race moved into the body), and a loop whose body declares a name its condition reads.
    /// </summary>
    [Fact]
    public async Task HeldDelaysAndDoWhileWithContinue_HaveNoLoopFix()
    {
        const string Code = """
            using System;
            using System.Threading.Tasks;

            class C
            {
                async Task Held(Task work)
                {
                    var timeout = {|#0:Task.Delay(1000)|};
                    while (await Task.WhenAny(work, timeout) != work)
                    {
                        Console.WriteLine("waiting");
                    }
                }

                async Task DoWhile(Task work, int every)
                {
                    var pass = 0;
                    do
                    {
                        if (++pass % every != 0) continue;
                        Console.WriteLine("waiting");
                    }
                    while (await Task.WhenAny(work, {|#1:Task.Delay(1000)|}) != work);
                }
            }
            """;
        await DelayTimerRaceChecks.HasNoFixAsync(Code, DelayTimer.RaceMessage, DelayTimer.RaceMessage);

        // The body declares a local of a name the condition reads (here a field): moved after the body, or before it in
        // the same block, the condition would read the local.
        const string Hiding = """
            using System;
            using System.Threading.Tasks;

            class C
            {
                private Task _work = Task.CompletedTask;

                async Task Resend()
                {
                    do
                    {
                        var _work = Task.Delay(1);
                        await _work;
                    }
                    while (await Task.WhenAny(_work, {|#0:Task.Delay(1000)|}) != _work);
                }

                async Task Wait()
                {
                    while (await Task.WhenAny(_work, {|#1:Task.Delay(1000)|}) != _work)
                    {
                        var _work = Task.Delay(1);
                        await _work;
                    }
                }
            }
            """;
        await DelayTimerRaceChecks.HasNoFixAsync(Hiding, DelayTimer.RaceMessage, DelayTimer.RaceMessage);
    }

    /// <summary>
    /// The shapes public code writes the heartbeat in: the delay first, a period held in a local, a loop in a local
    /// function, and a body that breaks on its own.
    /// </summary>
    [Fact]
    public async Task ALoopInALocalFunction_WithTheDelayFirst_IsFixed()
    {
        const string Code = """
            using System;
            using System.Threading;
            using System.Threading.Tasks;

            class C
            {
                Task Watch(Task job, CancellationToken token)
                {
                    return Poll(500);

                    async Task Poll(int every)
                    {
                        while (await Task.WhenAny({|#0:Task.Delay(every)|}, job) != job)
                        {
                            if (token.IsCancellationRequested)
                            {
                                break;
                            }
                            Console.WriteLine("working");
                        }
                    }
                }
            }
            """;
        const string Fixed = """
            using System;
            using System.Threading;
            using System.Threading.Tasks;

            class C
            {
                Task Watch(Task job, CancellationToken token)
                {
                    return Poll(500);

                    async Task Poll(int every)
                    {
                        while (true)
                        {
                            using var delayCancellation = new CancellationTokenSource();
                            var winner = await Task.WhenAny(Task.Delay(every, delayCancellation.Token), job);
                            delayCancellation.Cancel();
                            if (winner == job)
                            {
                                break;
                            }
                            if (token.IsCancellationRequested)
                            {
                                break;
                            }
                            Console.WriteLine("working");
                        }
                    }
                }
            }
            """;
        await DelayTimerRaceChecks.FixesAsync(Code, Fixed, DelayTimer.RaceMessage);
    }

    /// <summary>
    /// A file that netstandard2.0 compiles at C# 7.3 beside net10.0 (a library's usual pair): no using declaration, so
    /// each pass declares the winner, a using block assigns it and cancels, and the test follows; the race after the
    /// loop, a statement of its own, takes the using block alone. Both copies compile the one text.
    /// </summary>
    [Fact]
    public async Task SharedWithCSharp73_EachPassDeclaresItsWinnerBeforeAUsingBlock()
    {
        const string Code = """
            using System;
            using System.Threading;
            using System.Threading.Tasks;

            class C
            {
                async Task Watch(Task work)
                {
                    while (await Task.WhenAny(work, {|#0:Task.Delay(1000)|}) != work)
                    {
                        Console.WriteLine("waiting");
                    }

                    await Task.WhenAny(work, {|#1:Task.Delay(10)|});
                }
            }
            """;
        const string Fixed = """
            using System;
            using System.Threading;
            using System.Threading.Tasks;

            class C
            {
                async Task Watch(Task work)
                {
                    while (true)
                    {
                        Task winner;
                        using (var delayCancellation = new CancellationTokenSource())
                        {
                            winner = await Task.WhenAny(work, Task.Delay(1000, delayCancellation.Token));
                            delayCancellation.Cancel();
                        }
                        if (winner == work)
                        {
                            break;
                        }
                        Console.WriteLine("waiting");
                    }

                    using (var delayCancellation2 = new CancellationTokenSource())
                    {
                        await Task.WhenAny(work, Task.Delay(10, delayCancellation2.Token));
                        delayCancellation2.Cancel();
                    }
                }
            }
            """;
        await DelayTimerRaceChecks.FixesBesideCSharp73Async(Code, Fixed, DelayTimer.RaceMessage, DelayTimer.RaceMessage);
    }

    /// <summary>
    /// Bodies the author wrote on the loop's line (an empty statement, an empty block, a block of one statement): the
    /// loop gets a block laid out a statement a line, as the formatter writes one, instead of braces that share lines
    /// with the race's statements or a ';' left on a line of its own. A local already named 'winner' is not reused.
    /// </summary>
    [Fact]
    public async Task BodiesOnTheLoopsLine_AreLaidOutAStatementALine()
    {
        const string Code = """
            using System.Threading;
            using System.Threading.Tasks;

            class C
            {
                async Task Spin(Task work)
                {
                    while (await Task.WhenAny(work, {|#0:Task.Delay(100)|}) != work) ;
                }

                async Task Empty(Task work)
                {
                    while (await Task.WhenAny(work, {|#1:Task.Delay(100)|}) != work) { }
                }

                async Task<int> Count(Task work)
                {
                    var winner = 1;
                    while (await Task.WhenAny(work, {|#2:Task.Delay(100)|}) != work) { winner++; }
                    return winner;
                }
            }
            """;
        const string Fixed = """
            using System.Threading;
            using System.Threading.Tasks;

            class C
            {
                async Task Spin(Task work)
                {
                    while (true)
                    {
                        using var delayCancellation = new CancellationTokenSource();
                        var winner = await Task.WhenAny(work, Task.Delay(100, delayCancellation.Token));
                        delayCancellation.Cancel();
                        if (winner == work)
                        {
                            break;
                        }
                    }
                }

                async Task Empty(Task work)
                {
                    while (true)
                    {
                        using var delayCancellation = new CancellationTokenSource();
                        var winner = await Task.WhenAny(work, Task.Delay(100, delayCancellation.Token));
                        delayCancellation.Cancel();
                        if (winner == work)
                        {
                            break;
                        }
                    }
                }

                async Task<int> Count(Task work)
                {
                    var winner = 1;
                    while (true)
                    {
                        using var delayCancellation = new CancellationTokenSource();
                        var winner2 = await Task.WhenAny(work, Task.Delay(100, delayCancellation.Token));
                        delayCancellation.Cancel();
                        if (winner2 == work)
                        {
                            break;
                        }
                        winner++;
                    }
                    return winner;
                }
            }
            """;
        await DelayTimerRaceChecks.FixesAsync(Code, Fixed, DelayTimer.RaceMessage, DelayTimer.RaceMessage, DelayTimer.RaceMessage);
    }

    // A resend loop (a frame sent until its receipt comes, the delay on the caller's token) and a paced loop ended by a
    // stop signal: the work completes in the pass the loop is meant to end after, so the passes do not depend on timing.
    internal const string DoLoops = /* lang=c#-test */ """
        using System;
        using System.Threading;
        using System.Threading.Tasks;

        public static class Api
        {
            public static async Task<string> All() => await Resend(CancellationToken.None) + ";" + await Paced();

            public static async Task<int> Resend(CancellationToken token)
            {
                var receipt = new TaskCompletionSource<bool>();
                var sent = 0;
                do
                {
                    if (++sent == 3) receipt.SetResult(true);
                }
                while (await Task.WhenAny(receipt.Task, {|#0:Task.Delay(20, token)|}) != receipt.Task && !receipt.Task.IsFaulted);

                return sent;
            }

            public static async Task<int> Paced()
            {
                var stop = new TaskCompletionSource<bool>();
                var written = 0;
                do { if (++written == 2) stop.SetResult(true); } while (await Task.WhenAny({|#1:Task.Delay(20)|}, stop.Task) != stop.Task);
                return written;
            }
        }
        """;

    internal const string DoLoopsFixed = /* lang=c#-test */ """
        using System;
        using System.Threading;
        using System.Threading.Tasks;

        public static class Api
        {
            public static async Task<string> All() => await Resend(CancellationToken.None) + ";" + await Paced();

            public static async Task<int> Resend(CancellationToken token)
            {
                var receipt = new TaskCompletionSource<bool>();
                var sent = 0;
                while (true)
                {
                    if (++sent == 3) receipt.SetResult(true);
                    using var delayCancellation = CancellationTokenSource.CreateLinkedTokenSource(token);
                    var winner = await Task.WhenAny(receipt.Task, Task.Delay(20, delayCancellation.Token));
                    delayCancellation.Cancel();
                    if (!(winner != receipt.Task && !receipt.Task.IsFaulted))
                    {
                        break;
                    }
                }

                return sent;
            }

            public static async Task<int> Paced()
            {
                var stop = new TaskCompletionSource<bool>();
                var written = 0;
                while (true)
                {
                    if (++written == 2) stop.SetResult(true);
                    using var delayCancellation = new CancellationTokenSource();
                    var winner = await Task.WhenAny(Task.Delay(20, delayCancellation.Token), stop.Task);
                    delayCancellation.Cancel();
                    if (winner == stop.Task)
                    {
                        break;
                    }
                }
                return written;
            }
        }
        """;

    /// <summary>
    /// A race in a <c>do … while</c> condition whose body has no <c>continue</c> of its own: the loop runs <c>while
    /// (true)</c>, and each pass ends with the race, the cancel and the test, after the body, as the condition did.
    /// </summary>
    [Fact]
    public async Task ARaceInADoWhileCondition_EndsEachPass()
    {
        await DelayTimerRaceChecks.FixesAsync(DoLoops, DoLoopsFixed, DelayTimer.TokenRaceMessage, DelayTimer.RaceMessage);
    }

    [Fact]
    public async Task FixedDoWhileRace_MakesTheSamePasses()
    {
        await DelayTimerRaceChecks.DecidesTheSameAsync(DoLoops, DoLoopsFixed, "3;2");
    }

    /// <summary>At the top level the loop is a global statement: the same rewrite.</summary>
    [Fact]
    public async Task ALoopRaceAtTheTopLevel_IsFixed()
    {
        const string Code = """
            using System;
            using System.Threading.Tasks;

            var work = Console.Out.FlushAsync();
            while (await Task.WhenAny(work, {|#0:Task.Delay(100)|}) != work) Console.WriteLine("waiting");
            Console.WriteLine("done");

            """;
        const string Fixed = """
            using System;
            using System.Threading;
            using System.Threading.Tasks;

            var work = Console.Out.FlushAsync();
            while (true)
            {
                using var delayCancellation = new CancellationTokenSource();
                var winner = await Task.WhenAny(work, Task.Delay(100, delayCancellation.Token));
                delayCancellation.Cancel();
                if (winner == work)
                {
                    break;
                }
                Console.WriteLine("waiting");
            }
            Console.WriteLine("done");

            """;
        await new Verify.Test
        {
            TestCode = Code,
            FixedCode = Fixed,
            TestState = { OutputKind = Microsoft.CodeAnalysis.OutputKind.ConsoleApplication },
            ExpectedDiagnostics = { Verify.Diagnostic().WithLocation(0).WithArguments(DelayTimer.RaceMessage) },
        }.RunAsync();
    }
}
