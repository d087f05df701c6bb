using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp;
using TplPractices.Analyzers.Rules;
using TplPractices.Analyzers.Tests.Verifiers;
using Verify = TplPractices.Analyzers.Tests.Verifiers.CSharpCodeFixVerifier<
    TplPractices.Analyzers.Rules.DelayTimerAnalyzer,
    TplPractices.Analyzers.CodeFixes.Rules.DelayTimerFixer>;

namespace TplPractices.Analyzers.Tests.Rules;

/// <summary>
/// TPL0017 in every loop form and race spelling: <c>for (;;)</c>, <c>do … while</c>, the delay first or last, flags in any
/// spelling, loops in lambdas and local functions, periods the type fixes; races through params, arrays, collection
/// expressions and lists, tokens that cannot cancel, delays held in locals; the fix that cancels a raced delay.
/// </summary>
public sealed class DelayTimerReachTests
{
    private static string Class(string members) => $$"""
        using System;
        using System.Collections.Generic;
        using System.Threading;
        using System.Threading.Tasks;

        class C(TimeSpan every)
        {
            private static readonly TimeSpan Period = TimeSpan.FromSeconds(1);
            private readonly int _millis;
            private volatile bool _stopped;
            private int _count;
            public C(int millis) : this(TimeSpan.Zero) { _millis = millis; }
            void Work() => _count++;
        {{members}}
        }
        """;

    [Fact]
    public async Task EveryLoopForm_IsReported()
    {
        var test = new Verify.Test { TestCode = Class("""
                async Task Forever() { while (true) { Work(); await {|#0:Task.Delay(1000)|}; } }
                async Task For(CancellationToken token) { for (;;) { Work(); await {|#1:Task.Delay(Period, token)|}; } }
                async Task DoWhile(CancellationToken token) { do { Work(); await {|#2:Task.Delay(_millis, token)|}; } while (!token.IsCancellationRequested); }
                async Task First(CancellationToken token) { while (!token.IsCancellationRequested) { await {|#3:Task.Delay(every, token)|}; Work(); } }
                async Task Flag() { while (!_stopped) { Work(); await {|#4:Task.Delay(1000)|}; } }
                async Task FlagEquals() { while (_stopped == false) { Work(); await {|#5:Task.Delay(1000)|}; } }
                async Task FlagIs() { while (_stopped is false) { Work(); await {|#6:Task.Delay(1000)|}; } }
                async Task Running(bool running) { while (running) { Work(); await {|#7:Task.Delay(1000)|}; } }
                Task OnPool(CancellationToken token) => Task.Run(async () => { while (!token.IsCancellationRequested) { Work(); await {|#8:Task.Delay(1000, token)|}; } });
                Task Local(CancellationToken token)
                {
                    return Poll();

                    async Task Poll() { for (;;) { Work(); await {|#9:Task.Delay(TimeSpan.FromSeconds(5), token)|}; } }
                }
            """) };
        test.ExpectedDiagnostics.AddRange(Enumerable.Range(0, 10).Select(i => Verify.Diagnostic().WithLocation(i).WithArguments(DelayTimer.LoopMessage)));
        await test.RunAsync();
    }

    /// <summary>
    /// Arithmetic of values that hold still (<c>seconds * 1000</c>, as Garnet's compaction loop waits) is a fixed period
    /// too: reported, without a fix since it is no constant. An operand the loop writes makes it change.
    /// </summary>
    [Fact]
    public async Task ArithmeticOfFixedValues_IsAFixedPeriod()
    {
        var test = new Verify.Test { TestCode = Class("""
                async Task Scaled(int seconds, CancellationToken token) { while (true) { if (token.IsCancellationRequested) return; Work(); await {|#0:Task.Delay(seconds * 1000, token)|}; } }
                async Task Halved(int seconds) { while (!_stopped) { Work(); await {|#1:Task.Delay(TimeSpan.FromSeconds(seconds / 2 + _millis))|}; } }
                async Task Growing(int seconds) { while (!_stopped) { Work(); await Task.Delay(seconds * 1000); seconds++; } }
            """) };
        test.ExpectedDiagnostics.AddRange(Enumerable.Range(0, 2).Select(i => Verify.Diagnostic().WithLocation(i).WithArguments(DelayTimer.LoopMessage)));
        await test.RunAsync();
    }

    /// <summary>A primary-constructor parameter some member assigns may change between passes: not a fixed period.</summary>
    [Fact]
    public async Task APrimaryConstructorParameterThatIsAssigned_IsNotAFixedPeriod()
    {
        await Verify.VerifyAnalyzerAsync("""
            using System;
            using System.Threading.Tasks;

            class C(TimeSpan every)
            {
                public void Slower() => every += every;
                async Task Forever() { while (true) { await Task.Delay(every); } }
            }
            """);
    }

    /// <summary>The loop forms this class added, fixed: for (;;), do … while, the delay first; each ends through its flag.</summary>
    private const string NewLoops = /* lang=c#-test */ """
        using System;
        using System.Threading;
        using System.Threading.Tasks;

        public static class Api
        {
            /// <summary>A stop flag other code sets, here the third pass's work.</summary>
            private static bool s_stopped;

            private static void Work(int count) => s_stopped = count == 3;

            public static async Task<string> Forever()
            {
                var count = 0;
                for (;;)
                {
                    Work(++count);
                    if (s_stopped) break;
                    await [|Task.Delay(5)|];
                }

                return "count " + count;
            }

            public static async Task<string> DoWhile()
            {
                var count = 0;
                var stopped = false;
                do
                {
                    stopped = ++count == 2;
                    await [|Task.Delay(5)|].ConfigureAwait(false);
                }
                while (!stopped);

                return "count " + count;
            }

            public static async Task<string> DelayFirst()
            {
                var count = 0;
                var running = true;
                while (running)
                {
                    await [|Task.Delay(TimeSpan.FromMilliseconds(5))|];
                    running = ++count < 4;
                }

                return "count " + count;
            }
        }
        """;

    private static readonly string NewLoopsFixed = TestMarkup.Strip(NewLoops)
        .Replace("        for (;;)", "        using var timer = new PeriodicTimer(TimeSpan.FromMilliseconds(5));\n        for (;;)", StringComparison.Ordinal)
        .Replace("        do\n", "        using var timer = new PeriodicTimer(TimeSpan.FromMilliseconds(5));\n        do\n", StringComparison.Ordinal)
        .Replace("        while (running)", "        using var timer = new PeriodicTimer(TimeSpan.FromMilliseconds(5));\n        while (running)", StringComparison.Ordinal)
        .Replace("await Task.Delay(5);", "await timer.WaitForNextTickAsync();", StringComparison.Ordinal)
        .Replace("await Task.Delay(5).ConfigureAwait(false);", "await timer.WaitForNextTickAsync().ConfigureAwait(false);", StringComparison.Ordinal)
        .Replace("await Task.Delay(TimeSpan.FromMilliseconds(5));", "await timer.WaitForNextTickAsync();", StringComparison.Ordinal);

    [Fact]
    public async Task NewLoopForms_GetOnePeriodicTimer()
    {
        await DelayTimerLoopFix.OneLoopAtATime(NewLoops, NewLoopsFixed).RunAsync();
    }

    /// <summary>Each loop makes as many passes and returns the same way before and after the fix.</summary>
    [Theory]
    [InlineData("Forever")]
    [InlineData("DoWhile")]
    [InlineData("DelayFirst")]
    public async Task FixedLoops_PassAsOftenAsBefore(string method)
    {
        var original = await CodeRunner.RunAsync(TestMarkup.Strip(NewLoops), "Api", method);
        Assert.Equal(original, await CodeRunner.RunAsync(NewLoopsFixed, "Api", method));
        Assert.StartsWith("returned", original, StringComparison.Ordinal);
    }

    /// <summary>
    /// A loop that ends on several flags or tokens (<c>!disposed &amp;&amp; !token.IsCancellationRequested</c>) is a timer loop
    /// too, and so is a flag tested through <c>!( … is true)</c>; a test of anything else in the mix (a count) is not.
    /// </summary>
    private const string CombinedTests = /* lang=c#-test */ """
        using System;
        using System.Threading;
        using System.Threading.Tasks;

        public static class Api
        {
            public static async Task<string> BothFlags()
            {
                var count = 0;
                var disposed = false;
                using var source = new CancellationTokenSource();
                while (!disposed && !source.Token.IsCancellationRequested)
                {
                    disposed = ++count == 3;
                    await [|Task.Delay(5)|];
                }

                return "count " + count;
            }

            public static async Task<string> EitherFlag()
            {
                var count = 0;
                var running = true;
                var draining = false;
                while (running || (draining is true))
                {
                    draining = running;
                    running = ++count < 2;
                    await [|Task.Delay(5)|];
                }

                return "count " + count;
            }

            public static async Task<string> NotIsTrue()
            {
                var count = 0;
                var stopped = false;
                while (!(stopped is true))
                {
                    stopped = ++count == 4;
                    await [|Task.Delay(5)|];
                }

                return "count " + count;
            }

            public static async Task<string> FlagAndCount()
            {
                var count = 0;
                var stopped = false;
                while (!stopped && count < 3)
                {
                    count++;
                    await Task.Delay(5);
                }

                return "count " + count;
            }
        }
        """;

    private static readonly string CombinedTestsFixed = TestMarkup.Strip(CombinedTests)
        .Replace("        while (!disposed", "        using var timer = new PeriodicTimer(TimeSpan.FromMilliseconds(5));\n        while (!disposed", StringComparison.Ordinal)
        .Replace("        while (running ||", "        using var timer = new PeriodicTimer(TimeSpan.FromMilliseconds(5));\n        while (running ||", StringComparison.Ordinal)
        .Replace("        while (!(stopped", "        using var timer = new PeriodicTimer(TimeSpan.FromMilliseconds(5));\n        while (!(stopped", StringComparison.Ordinal);

    [Fact]
    public async Task LoopsEndingOnSeveralFlags_GetOnePeriodicTimer()
    {
        var fixedCode = CombinedTestsFixed;
        foreach (var loop in new[] { "disposed = ++count == 3;", "running = ++count < 2;", "stopped = ++count == 4;" })
        {
            fixedCode = fixedCode.Replace(loop + "\n            await Task.Delay(5);", loop + "\n            await timer.WaitForNextTickAsync();", StringComparison.Ordinal);
        }

        Assert.Equal(3, fixedCode.Split("WaitForNextTickAsync").Length - 1);
        await DelayTimerLoopFix.OneLoopAtATime(CombinedTests, fixedCode).RunAsync();
        foreach (var method in new[] { "BothFlags", "EitherFlag", "NotIsTrue", "FlagAndCount" })
        {
            var original = await CodeRunner.RunAsync(TestMarkup.Strip(CombinedTests), "Api", method);
            Assert.Equal(original, await CodeRunner.RunAsync(fixedCode, "Api", method));
            Assert.StartsWith("returned", original, StringComparison.Ordinal);
        }
    }

    [Fact]
    public async Task EveryRaceSpelling_IsReported_AndALoneDelayIsNot()
    {
        var test = new Verify.Test { TestCode = Class("""
                Task<Task> Params(Task a, Task b) => Task.WhenAny(a, b, {|#0:Task.Delay(1000)|});
                Task<Task> Array(Task a) => Task.WhenAny(new Task[] { a, {|#1:Task.Delay(1000)|} });
                Task<Task> Collection(Task a) => Task.WhenAny([a, {|#2:Task.Delay(1000)|}]);
                Task<Task> List(Task a) => Task.WhenAny(new List<Task> { a, {|#3:Task.Delay(1000)|} });
                Task<Task> None(Task a) => Task.WhenAny(a, {|#4:Task.Delay(1000, CancellationToken.None)|});
                Task<Task> Default(Task a) => Task.WhenAny(a, {|#5:Task.Delay(1000, default)|});
                async Task<bool> Held(Task a)
                {
                    var timeout = {|#6:Task.Delay(1000)|};
                    return await Task.WhenAny(a, timeout) != timeout;
                }

                Task<Task> Named(Task a) => Task.WhenAny(a, {|#7:Task.Delay(cancellationToken: default, millisecondsDelay: 1000)|});
                Task<Task> Callers(Task a, CancellationToken token) => Task.WhenAny(a, {|#8:Task.Delay(1000, token)|});
                Task<Task> CallersNamed(Task a, CancellationToken token) => Task.WhenAny(a, {|#9:Task.Delay(cancellationToken: token, millisecondsDelay: 1000)|});
                async Task<bool> CallersHeld(Task a, CancellationToken token)
                {
                    var timeout = {|#10:Task.Delay(every, token)|};
                    return await Task.WhenAny(a, timeout) != timeout;
                }

                Task<Task> Lone() => Task.WhenAny(Task.Delay(1000));
                Task<Task> LoneArray() => Task.WhenAny(new[] { Task.Delay(1000) });
                Task<Task> NotRaced() { var timeout = Task.Delay(1000); return Task.WhenAny(timeout); }
            """) };
        test.ExpectedDiagnostics.AddRange(Enumerable.Range(0, 8).Select(i => Verify.Diagnostic().WithLocation(i).WithArguments(DelayTimer.RaceMessage)));
        test.ExpectedDiagnostics.AddRange(Enumerable.Range(8, 3).Select(i => Verify.Diagnostic().WithLocation(i).WithArguments(DelayTimer.TokenRaceMessage)));
        await test.RunAsync();
    }

    /// <summary>
    /// An infinite delay makes no timer: it never fires, and on the caller's token it is the usual way to turn the token
    /// into a task, raced once per pass of a receive loop. Not reported in a race or a loop, in any spelling.
    /// </summary>
    [Fact]
    public async Task AnInfiniteDelay_MakesNoTimer()
    {
        await new Verify.Test { TestCode = Class("""
                async Task Receive(Func<Task> receive, CancellationToken token)
                {
                    var closed = Task.Delay(-1, token);
                    while (!token.IsCancellationRequested)
                    {
                        var next = receive();
                        if (await Task.WhenAny(closed, next) == closed) break;
                    }
                }

                Task<Task> Forever(Task a, CancellationToken token) => Task.WhenAny(a, Task.Delay(Timeout.Infinite, token));
                Task<Task> ForeverSpan(Task a) => Task.WhenAny(a, Task.Delay(Timeout.InfiniteTimeSpan));
                Task<Task> ForeverMillis(Task a) => Task.WhenAny(a, Task.Delay(TimeSpan.FromMilliseconds(-1)));
                async Task Parked(CancellationToken token) { while (true) { Work(); await Task.Delay(-1, token); } }
            """) }.RunAsync();
    }

    /// <summary>
    /// A token of this code's own source (the usual way to cancel a delay after a race), a parameter something assigns
    /// (it may be that source's token by the race), and a primary constructor's parameter (other members may write it)
    /// are left alone.
    /// </summary>
    [Fact]
    public async Task ADelayOnATokenThisCodeOwns_IsNotReported()
    {
        await new Verify.Test { TestCode = Class("""
                async Task<bool> Owned(Task a, CancellationToken token)
                {
                    using var source = CancellationTokenSource.CreateLinkedTokenSource(token);
                    var first = await Task.WhenAny(a, Task.Delay(1000, source.Token));
                    source.Cancel();
                    return first == a;
                }

                async Task<bool> Reassigned(Task a, CancellationToken token, CancellationTokenSource source)
                {
                    token = source.Token;
                    var first = await Task.WhenAny(a, Task.Delay(1000, token));
                    source.Cancel();
                    return first == a;
                }

                async Task<bool> InALambda(Task a, CancellationToken token)
                {
                    Action swap = () => token = default;
                    return await Task.WhenAny(a, Task.Delay(1000, token)) == a;
                }
            """) }.RunAsync();
        await new Verify.Test { TestCode = """
            using System.Threading;
            using System.Threading.Tasks;

            class Primary(CancellationToken token)
            {
                async Task<bool> Race(Task a) => await Task.WhenAny(a, Task.Delay(1000, token)) == a;
                void Swap(CancellationTokenSource source) => token = source.Token;
            }
            """ }.RunAsync();
    }

    /// <summary>
    /// A backoff whose arguments are named out of order is still a period that changes: no timer loop. A steady loop
    /// whose delay takes a token that cannot cancel is fixed like one without a token: neither throws, and the tick takes
    /// the same token by its name.
    /// </summary>
    [Fact]
    public async Task NamedArgumentsOutOfOrder_AreReadByParameter()
    {
        const string Backoff = """
                async Task Backoff(CancellationToken token)
                {
                    var wait = 100;
                    while (!token.IsCancellationRequested) { Work(); await Task.Delay(cancellationToken: token, millisecondsDelay: wait); wait *= 2; }
                }

            """;
        var test = DelayTimerLoopFix.OneLoopAtATime(
            Class(Backoff + """
                async Task Steady()
                {
                    while (true) { Work(); await {|#0:Task.Delay(cancellationToken: default, millisecondsDelay: 1000)|}; }
                }
            """),
            Class(Backoff + """
                async Task Steady()
                {
                    using var timer = new PeriodicTimer(TimeSpan.FromMilliseconds(1000));
                    while (true) { Work(); await timer.WaitForNextTickAsync(cancellationToken: default); }
                }
            """));
        test.ExpectedDiagnostics.Add(Verify.Diagnostic().WithLocation(0).WithArguments(DelayTimer.LoopMessage));
        await test.RunAsync();
    }

    private const string Races = /* lang=c#-test */ """
        using System;
        using System.Threading;
        using System.Threading.Tasks;

        public static class Api
        {
            private static async Task Work(int millis) => await Task.Delay(millis, CancellationToken.None);

            public static async Task<string> Race(int workMillis)
            {
                var work = Work(workMillis);
                var first = await Task.WhenAny(work, [|Task.Delay(400)|]);
                return first == work ? "work" : "timeout";
            }

            public static async Task<string> Configured(int workMillis)
            {
                var work = Work(workMillis);
                Task first;
                first = await Task.WhenAny(work, [|Task.Delay(400, CancellationToken.None)|]).ConfigureAwait(false);
                return first == work ? "work" : "timeout";
            }

            public static async Task<string> Discarded(int workMillis)
            {
                var work = Work(workMillis);
                await Task.WhenAny(work, [|Task.Delay(400)|]);
                return work.IsCompleted ? "work" : "timeout";
            }
        }
        """;

    private static readonly string RacesFixed = TestMarkup.Strip(Races)
        .Replace("        var first = await Task.WhenAny(work, Task.Delay(400));\n", "        using var delayCancellation = new CancellationTokenSource();\n        var first = await Task.WhenAny(work, Task.Delay(400, delayCancellation.Token));\n        delayCancellation.Cancel();\n", StringComparison.Ordinal)
        .Replace("        first = await Task.WhenAny(work, Task.Delay(400, CancellationToken.None)).ConfigureAwait(false);\n", "        using var delayCancellation = new CancellationTokenSource();\n        first = await Task.WhenAny(work, Task.Delay(400, delayCancellation.Token)).ConfigureAwait(false);\n        delayCancellation.Cancel();\n", StringComparison.Ordinal)
        .Replace("        await Task.WhenAny(work, Task.Delay(400));\n", "        using var delayCancellation = new CancellationTokenSource();\n        await Task.WhenAny(work, Task.Delay(400, delayCancellation.Token));\n        delayCancellation.Cancel();\n", StringComparison.Ordinal);

    [Fact]
    public async Task ARaceAsAStatement_CancelsItsDelayOnceDecided()
    {
        await new Verify.Test { TestCode = Races, FixedCode = RacesFixed }.RunAsync();
    }

    /// <summary>
    /// The token goes after the delay's last argument through the shared rebuild: where a line break ends that argument
    /// (the ')' on a line of its own, a line comment), the token stays on the argument's line; it began the next line
    /// with a comma before.
    /// </summary>
    [Fact]
    public async Task ADelayWhoseArgumentEndsItsLine_TakesTheTokenOnThatLine()
    {
        await new Verify.Test
        {
            TestCode = /* lang=c#-test */ """
                using System.Threading.Tasks;

                static class Api
                {
                    static async Task<bool> Own(Task work)
                    {
                        var first = await Task.WhenAny(work, [|Task.Delay(
                            400
                        )|]);
                        return first == work;
                    }

                    static async Task<bool> Commented(Task work)
                    {
                        var first = await Task.WhenAny(work, [|Task.Delay(400 // the time-out
                        )|]);
                        return first == work;
                    }
                }
                """,
            FixedCode = /* lang=c#-test */ """
                using System.Threading;
                using System.Threading.Tasks;

                static class Api
                {
                    static async Task<bool> Own(Task work)
                    {
                        using var delayCancellation = new CancellationTokenSource();
                        var first = await Task.WhenAny(work, Task.Delay(
                            400, delayCancellation.Token
                        ));
                        delayCancellation.Cancel();
                        return first == work;
                    }

                    static async Task<bool> Commented(Task work)
                    {
                        using var delayCancellation = new CancellationTokenSource();
                        var first = await Task.WhenAny(work, Task.Delay(400, delayCancellation.Token // the time-out
                        ));
                        delayCancellation.Cancel();
                        return first == work;
                    }
                }
                """,
        }.RunAsync();
    }

    /// <summary>
    /// The winner, and so what the code after the race does, is the same before and after the fix. The work is done
    /// already (0) or never ends (-1), so the winner does not hang on how busy the machine is.
    /// </summary>
    [Theory]
    [InlineData("Race", 0)]
    [InlineData("Race", -1)]
    [InlineData("Configured", 0)]
    [InlineData("Discarded", 0)]
    public async Task FixedRace_DecidesTheSame(string method, int workMillis)
    {
        var original = await CodeRunner.RunAsync(TestMarkup.Strip(Races), "Api", method, workMillis);
        Assert.Equal(original, await CodeRunner.RunAsync(RacesFixed, "Api", method, workMillis));
        Assert.Equal(workMillis < 0 ? "returned timeout" : "returned work", original);
    }

    private const string LinkedRaces = /* lang=c#-test */ """
        using System;
        using System.Threading;
        using System.Threading.Tasks;

        public static class Api
        {
            private static async Task Work(int millis) => await Task.Delay(millis, CancellationToken.None);

            /// <summary>The caller cancels before the races (0), while they wait (1), or never (-1).</summary>
            public static async Task<string> Linked(int workMillis, int cancel)
            {
                using var caller = new CancellationTokenSource();
                if (cancel == 0)
                {
                    caller.Cancel();
                }

                var work = Work(workMillis);
                var races = Task.WhenAll(Race(work, caller.Token), Named(work, caller.Token));
                if (cancel > 0)
                {
                    caller.Cancel();
                }

                var winners = await races;
                return winners[0] + "," + winners[1];
            }

            public static async Task<string> All() => string.Join(";", await Task.WhenAll(Linked(0, -1), Linked(-1, -1), Linked(-1, 0), Linked(-1, 1)));

            private static async Task<string> Race(Task work, CancellationToken token)
            {
                var first = await Task.WhenAny(work, {|#0:Task.Delay(400, token)|});
                return first == work ? "work" : first.IsCanceled ? "canceled" : "timeout";
            }

            private static async Task<string> Named(Task work, CancellationToken token)
            {
                Task first;
                first = await Task.WhenAny(work, {|#1:Task.Delay(cancellationToken: token, millisecondsDelay: 400)|}).ConfigureAwait(false);
                return first == work ? "work" : first.IsCanceled ? "canceled" : "timeout";
            }
        }
        """;

    private static readonly string LinkedRacesFixed = TestMarkup.Strip(LinkedRaces)
        .Replace("        var first = await Task.WhenAny(work, Task.Delay(400, token));\n", "        using var delayCancellation = CancellationTokenSource.CreateLinkedTokenSource(token);\n        var first = await Task.WhenAny(work, Task.Delay(400, delayCancellation.Token));\n        delayCancellation.Cancel();\n", StringComparison.Ordinal)
        .Replace("        first = await Task.WhenAny(work, Task.Delay(cancellationToken: token, millisecondsDelay: 400)).ConfigureAwait(false);\n", "        using var delayCancellation = CancellationTokenSource.CreateLinkedTokenSource(token);\n        first = await Task.WhenAny(work, Task.Delay(cancellationToken: delayCancellation.Token, millisecondsDelay: 400)).ConfigureAwait(false);\n        delayCancellation.Cancel();\n", StringComparison.Ordinal);

    /// <summary>A delay on the caller's token races with a source linked to that token, which the caller's cancellation still cancels.</summary>
    [Fact]
    public async Task ARaceOnTheCallersToken_LinksItsSourceToTheToken()
    {
        var test = new Verify.Test { TestCode = LinkedRaces, FixedCode = LinkedRacesFixed };
        test.ExpectedDiagnostics.Add(Verify.Diagnostic().WithLocation(0).WithArguments(DelayTimer.TokenRaceMessage));
        test.ExpectedDiagnostics.Add(Verify.Diagnostic().WithLocation(1).WithArguments(DelayTimer.TokenRaceMessage));
        await test.RunAsync();
    }

    /// <summary>
    /// The same winner before and after, and a delay the caller cancels (before the race or during it) is still the
    /// canceled winner: the linked source takes the caller's cancellation as the delay did. The cases run at once, in
    /// one compiled copy of each.
    /// </summary>
    [Fact]
    public async Task FixedLinkedRace_DecidesTheSame()
    {
        var original = await CodeRunner.RunAsync(TestMarkup.Strip(LinkedRaces), "Api", "All");
        Assert.Equal("returned work,work;timeout,timeout;canceled,canceled;canceled,canceled", original);
        Assert.Equal(original, await CodeRunner.RunAsync(LinkedRacesFixed, "Api", "All"));
    }

    private const string UsedRaces = /* lang=c#-test */ """
        using System;
        using System.Threading;
        using System.Threading.Tasks;

        public static class Api
        {
            private static async Task Work(int millis) => await Task.Delay(millis, CancellationToken.None);

            private static async Task Faulty(int millis)
            {
                await Task.Delay(millis, CancellationToken.None);
                throw new InvalidOperationException();
            }

            public static async Task<string> All() => string.Join(";", await Task.WhenAll(Checked(0), Checked(-1), Bodied(0), Bodied(-1), Awaited(0), Awaited(-1)));

            public static async Task<string> Checked(int workMillis)
            {
                var work = Work(workMillis);
                // At most 400 ms.
                if (await Task.WhenAny(work, {|#0:Task.Delay(400)|}) != work)
                {
                    return "timeout";
                }

                return "work";
            }

            public static Task<string> Bodied(int workMillis) => InTime(Work(workMillis), CancellationToken.None);

            private static async Task<string> InTime(Task work, CancellationToken token) => await Task.WhenAny(work, {|#1:Task.Delay(400, token)|}) == work ? "work" : "timeout";

            public static async Task<string> Awaited(int workMillis)
            {
                var work = Faulty(workMillis);
                try
                {
                    await await Task.WhenAny(work, {|#2:Task.Delay(400)|});
                    return "passed";
                }
                catch (InvalidOperationException)
                {
                    return "faulted";
                }
            }
        }
        """;

    private static readonly string UsedRacesFixed = TestMarkup.Strip(UsedRaces)
        .Replace("        // At most 400 ms.\n        if (await Task.WhenAny(work, Task.Delay(400)) != work)\n", "        // At most 400 ms.\n        using var delayCancellation = new CancellationTokenSource();\n        var winner = await Task.WhenAny(work, Task.Delay(400, delayCancellation.Token));\n        delayCancellation.Cancel();\n        if (winner != work)\n", StringComparison.Ordinal)
        .Replace("\n    private static async Task<string> InTime(Task work, CancellationToken token) => await Task.WhenAny(work, Task.Delay(400, token)) == work ? \"work\" : \"timeout\";\n", "\n    private static async Task<string> InTime(Task work, CancellationToken token)\n    {\n        using var delayCancellation = CancellationTokenSource.CreateLinkedTokenSource(token);\n        var winner = await Task.WhenAny(work, Task.Delay(400, delayCancellation.Token));\n        delayCancellation.Cancel();\n        return winner == work ? \"work\" : \"timeout\";\n    }\n", StringComparison.Ordinal)
        .Replace("        {\n            await await Task.WhenAny(work, Task.Delay(400));\n", "        {\n            using var delayCancellation = new CancellationTokenSource();\n            var winner = await Task.WhenAny(work, Task.Delay(400, delayCancellation.Token));\n            delayCancellation.Cancel();\n            await winner;\n", StringComparison.Ordinal);

    /// <summary>
    /// A race the statement goes on to use (an <c>if</c> that compares the winner, an expression body, an awaited
    /// winner) moves into a local of its own, and the cancel follows it; the statement's comment leads the new lines.
    /// </summary>
    [Fact]
    public async Task ARaceTheStatementUses_MovesIntoALocalBeforeIt()
    {
        var test = new Verify.Test { TestCode = UsedRaces, FixedCode = UsedRacesFixed };
        test.ExpectedDiagnostics.Add(Verify.Diagnostic().WithLocation(0).WithArguments(DelayTimer.RaceMessage));
        test.ExpectedDiagnostics.Add(Verify.Diagnostic().WithLocation(1).WithArguments(DelayTimer.TokenRaceMessage));
        test.ExpectedDiagnostics.Add(Verify.Diagnostic().WithLocation(2).WithArguments(DelayTimer.RaceMessage));
        await test.RunAsync();
    }

    /// <summary>The winner, a faulted work's exception and so what the code after the race does are the same before and after.</summary>
    [Fact]
    public async Task FixedUsedRace_DecidesTheSame()
    {
        var original = await CodeRunner.RunAsync(TestMarkup.Strip(UsedRaces), "Api", "All");
        Assert.Equal("returned work;timeout;work;timeout;faulted;passed", original);
        Assert.Equal(original, await CodeRunner.RunAsync(UsedRacesFixed, "Api", "All"));
    }

    private const string HeldRaces = /* lang=c#-test */ """
        using System;
        using System.Threading;
        using System.Threading.Tasks;

        public static class Api
        {
            private static async Task Work(int millis) => await Task.Delay(millis, CancellationToken.None);

            public static async Task<string> All() => string.Join(";", await Task.WhenAll(Compared(0), Compared(-1), Linked(0), Linked(-1)));

            public static async Task<string> Compared(int workMillis)
            {
                var work = Work(workMillis);
                var timeout = {|#0:Task.Delay(400)|};
                var first = await Task.WhenAny(work, timeout);
                return first == timeout ? "timeout" : "work";
            }

            public static Task<string> Linked(int workMillis) => InTime(Work(workMillis), CancellationToken.None);

            private static async Task<string> InTime(Task work, CancellationToken token)
            {
                var timeout = {|#1:Task.Delay(400, token)|};
                if (await Task.WhenAny(new[] { work, timeout }) != timeout)
                {
                    return "work";
                }

                return "timeout";
            }
        }
        """;

    private static readonly string HeldRacesFixed = TestMarkup.Strip(HeldRaces)
        .Replace("        var work = Work(workMillis);\n        var timeout = Task.Delay(400);\n", "        var work = Work(workMillis);\n        using var delayCancellation = new CancellationTokenSource();\n        var timeout = Task.Delay(400, delayCancellation.Token);\n", StringComparison.Ordinal)
        .Replace("        var first = await Task.WhenAny(work, timeout);\n", "        var first = await Task.WhenAny(work, timeout);\n        delayCancellation.Cancel();\n", StringComparison.Ordinal)
        .Replace("    {\n        var timeout = Task.Delay(400, token);\n        if (await Task.WhenAny(new[] { work, timeout }) != timeout)\n", "    {\n        using var delayCancellation = CancellationTokenSource.CreateLinkedTokenSource(token);\n        var timeout = Task.Delay(400, delayCancellation.Token);\n        var winner = await Task.WhenAny(new[] { work, timeout });\n        delayCancellation.Cancel();\n        if (winner != timeout)\n", StringComparison.Ordinal);

    /// <summary>
    /// A delay held in a local for one race, and read after it only to compare the winner with it, takes the source's
    /// token where it is declared (the source declared just before it); the cancel follows the race.
    /// </summary>
    [Fact]
    public async Task ADelayHeldForTheRace_TakesTheSourceWhereItIsDeclared()
    {
        var test = new Verify.Test { TestCode = HeldRaces, FixedCode = HeldRacesFixed };
        test.ExpectedDiagnostics.Add(Verify.Diagnostic().WithLocation(0).WithArguments(DelayTimer.RaceMessage));
        test.ExpectedDiagnostics.Add(Verify.Diagnostic().WithLocation(1).WithArguments(DelayTimer.TokenRaceMessage));
        await test.RunAsync();
    }

    /// <summary>Both winners, on a held delay and on one with the caller's token, decide the same before and after.</summary>
    [Fact]
    public async Task FixedHeldRace_DecidesTheSame()
    {
        var original = await CodeRunner.RunAsync(TestMarkup.Strip(HeldRaces), "Api", "All");
        Assert.Equal("returned work;timeout;work;timeout", original);
        Assert.Equal(original, await CodeRunner.RunAsync(HeldRacesFixed, "Api", "All"));
    }

    /// <summary>
    /// A held delay whose state is read after the race (its task awaited or tested), that is handed elsewhere, read in a
    /// lambda, declared in another block than the race, or declared before C# 8 with a statement between it and the race
    /// (the using block would take that statement in too), is reported without a fix: canceled, it would read
    /// differently there, or the source has no place.
    /// </summary>
    [Fact]
    public async Task ADelayObservedAfterTheRace_KeepsItsTimer()
    {
        const string Code = """
            using System;
            using System.Threading.Tasks;

            class C
            {
                async Task<bool> Tested(Task work)
                {
                    var timeout = {|#0:Task.Delay(1000)|};
                    await Task.WhenAny(work, timeout);
                    return timeout.IsCompleted;
                }

                async Task Awaited(Task work)
                {
                    var timeout = {|#1:Task.Delay(1000)|};
                    await Task.WhenAny(work, timeout);
                    await timeout;
                }

                async Task<Task> Handed(Task work, Action<Task> keep)
                {
                    var timeout = {|#2:Task.Delay(1000)|};
                    keep(timeout);
                    return await Task.WhenAny(work, timeout);
                }

                async Task<bool> InALambda(Task work)
                {
                    var timeout = {|#3:Task.Delay(1000)|};
                    var first = await Task.WhenAny(work, timeout);
                    Func<bool> late = () => first == timeout;
                    return late();
                }

                async Task<bool> Elsewhere(Task work, bool race)
                {
                    var timeout = {|#4:Task.Delay(1000)|};
                    if (race)
                    {
                        var first = await Task.WhenAny(work, timeout);
                        return first == work;
                    }

                    return false;
                }
            }
            """;
        var test = new Verify.Test { TestCode = Code, FixedCode = Code };
        test.ExpectedDiagnostics.AddRange(Enumerable.Range(0, 5).Select(i => Verify.Diagnostic().WithLocation(i).WithArguments(DelayTimer.RaceMessage)));
        await test.RunAsync();

        const string Old = """
            using System.Threading.Tasks;

            class C
            {
                async Task<bool> Compared(Task work)
                {
                    var timeout = [|Task.Delay(1000)|];
                    Task first;
                    first = await Task.WhenAny(work, timeout);
                    return first == work;
                }
            }
            """;
        await new Verify.Test
        {
            Target = TestTarget.NetStandard20,
            LanguageVersion = LanguageVersion.CSharp7_3,
            NullableContext = NullableContextOptions.Disable,
            TestCode = Old,
            FixedCode = Old,
        }.RunAsync();
    }

    /// <summary>C# 7.3: a using block holds the race's local, the cancel and the statement; an expression body becomes a block that holds it.</summary>
    [Fact]
    public async Task OnCSharp73_AUsingBlockHoldsTheMovedRace()
    {
        const string Code = """
            using System;
            using System.Threading;
            using System.Threading.Tasks;

            class C
            {
                async Task<bool> Checked(Task work)
                {
                    if (await Task.WhenAny(work, [|Task.Delay(1000)|]) != work)
                    {
                        return false;
                    }

                    return true;
                }

                async Task<bool> Bodied(Task work) => await Task.WhenAny(work, [|Task.Delay(1000)|]) == work;
            }
            """;
        const string Fixed = """
            using System;
            using System.Threading;
            using System.Threading.Tasks;

            class C
            {
                async Task<bool> Checked(Task work)
                {
                    using (var delayCancellation = new CancellationTokenSource())
                    {
                        var winner = await Task.WhenAny(work, Task.Delay(1000, delayCancellation.Token));
                        delayCancellation.Cancel();
                        if (winner != work)
                        {
                            return false;
                        }
                    }

                    return true;
                }

                async Task<bool> Bodied(Task work)
                {
                    using (var delayCancellation = new CancellationTokenSource())
                    {
                        var winner = await Task.WhenAny(work, Task.Delay(1000, delayCancellation.Token));
                        delayCancellation.Cancel();
                        return winner == work;
                    }
                }
            }
            """;
        await new Verify.Test
        {
            Target = TestTarget.NetStandard20,
            LanguageVersion = LanguageVersion.CSharp7_3,
            NullableContext = NullableContextOptions.Disable,
            TestCode = Code,
            FixedCode = Fixed,
        }.RunAsync();
    }

    /// <summary>
    /// An expression body that is the race alone becomes a block with the race as a statement where nothing is returned
    /// (a method returning Task, an async lambda given as Func&lt;Task, Task&gt;), and with the winner returned where it is.
    /// </summary>
    [Fact]
    public async Task ARaceThatIsTheWholeBody_IsAStatementOrAReturn()
    {
        const string Code = """
            using System;
            using System.Threading.Tasks;

            class C
            {
                async Task Waits(Task work) => await Task.WhenAny(work, [|Task.Delay(1000)|]);

                async Task<Task> Returns(Task work) => await Task.WhenAny(work, [|Task.Delay(1000)|]);

                Func<Task, Task> Lambda => async work => await Task.WhenAny(work, [|Task.Delay(1000)|]);
            }
            """;
        const string Fixed = """
            using System;
            using System.Threading;
            using System.Threading.Tasks;

            class C
            {
                async Task Waits(Task work)
                {
                    using var delayCancellation = new CancellationTokenSource();
                    await Task.WhenAny(work, Task.Delay(1000, delayCancellation.Token));
                    delayCancellation.Cancel();
                }

                async Task<Task> Returns(Task work)
                {
                    using var delayCancellation = new CancellationTokenSource();
                    var winner = await Task.WhenAny(work, Task.Delay(1000, delayCancellation.Token));
                    delayCancellation.Cancel();
                    return winner;
                }

                Func<Task, Task> Lambda => async work =>
                {
                    using var delayCancellation = new CancellationTokenSource();
                    await Task.WhenAny(work, Task.Delay(1000, delayCancellation.Token));
                    delayCancellation.Cancel();
                };
            }
            """;
        await new Verify.Test { TestCode = Code, FixedCode = Fixed }.RunAsync();
    }

    /// <summary>
    /// A using declaration cannot stand directly in a switch section (CS8647): a race there gets the using block that
    /// holds it and the cancel, as before C# 8. A declared winner, which the block would hide, is declared first, typed
    /// without the <c>?</c> that <c>var</c> gives it under nullable annotations (a winner is never null), and the block
    /// assigns it.
    /// </summary>
    [Fact]
    public async Task ARaceInASwitchSection_GetsAUsingBlock()
    {
        const string Code = """
            using System.Threading.Tasks;

            class C
            {
                async Task<int> Pick(int kind, Task work)
                {
                    switch (kind)
                    {
                        case 1:
                            await Task.WhenAny(work, {|#0:Task.Delay(1000)|});
                            return 1;
                        case 2:
                            var first = await Task.WhenAny(work, {|#1:Task.Delay(1000)|});
                            return first == work ? 2 : 0;
                        default:
                            return 0;
                    }
                }
            }
            """;
        const string Fixed = """
            using System.Threading;
            using System.Threading.Tasks;

            class C
            {
                async Task<int> Pick(int kind, Task work)
                {
                    switch (kind)
                    {
                        case 1:
                            using (var delayCancellation = new CancellationTokenSource())
                            {
                                await Task.WhenAny(work, Task.Delay(1000, delayCancellation.Token));
                                delayCancellation.Cancel();
                            }
                            return 1;
                        case 2:
                            Task first;
                            using (var delayCancellation2 = new CancellationTokenSource())
                            {
                                first = await Task.WhenAny(work, Task.Delay(1000, delayCancellation2.Token));
                                delayCancellation2.Cancel();
                            }
                            return first == work ? 2 : 0;
                        default:
                            return 0;
                    }
                }
            }
            """;
        var test = new Verify.Test { TestCode = Code, FixedCode = Fixed };
        test.ExpectedDiagnostics.AddRange(Enumerable.Range(0, 2).Select(i => Verify.Diagnostic().WithLocation(i).WithArguments(DelayTimer.RaceMessage)));
        await test.RunAsync();
    }

    /// <summary>
    /// Not fixed (reported only): a race that declares a variable (moved out, its scope would change), one after another
    /// operand. A race in a while loop's condition is fixed (DelayTimerLoopRaceTests).
    /// </summary>
    [Fact]
    public async Task ARaceAfterOtherWork_OrDeclaringAVariable_IsNotMoved()
    {
        const string Code = """
            using System.Threading.Tasks;

            class C
            {
                static Task Start(out int id) { id = 1; return Task.CompletedTask; }

                async Task<int> Declares()
                {
                    if (await Task.WhenAny(Start(out var id), {|#0:Task.Delay(1000)|}) != null) return id;
                    return 0;
                }

                async Task<bool> After(Task work, Task other) => other.IsCompleted | await Task.WhenAny(work, {|#1:Task.Delay(1000)|}) == work;
            }
            """;
        var test = new Verify.Test { TestCode = Code, FixedCode = Code };
        test.ExpectedDiagnostics.AddRange(Enumerable.Range(0, 2).Select(i => Verify.Diagnostic().WithLocation(i).WithArguments(DelayTimer.RaceMessage)));
        await test.RunAsync();
    }

    /// <summary>
    /// C# 7.3 has no using declaration: the race and the cancel move into a using block; a declared winner is declared
    /// first, with the type <c>var</c> stood for, and the block assigns it.
    /// </summary>
    [Fact]
    public async Task OnCSharp73_AUsingBlockHoldsTheRace()
    {
        const string Code = """
            using System.Threading;
            using System.Threading.Tasks;

            class C
            {
                async Task<bool> Wait(Task work)
                {
                    Task first;
                    first = await Task.WhenAny(work, [|Task.Delay(2000)|]);
                    var second = await Task.WhenAny(work, [|Task.Delay(10)|]);
                    return first == work && second == work;
                }

                async Task<bool> Linked(Task work, CancellationToken token)
                {
                    await Task.WhenAny(work, {|#0:Task.Delay(2000, token)|});
                    return work.IsCompleted;
                }
            }
            """;
        await new Verify.Test
        {
            Target = TestTarget.NetStandard20,
            LanguageVersion = LanguageVersion.CSharp7_3,
            NullableContext = NullableContextOptions.Disable,
            TestCode = Code,
            FixedCode = Code
                .Replace("        first = await Task.WhenAny(work, [|Task.Delay(2000)|]);\n", "        using (var delayCancellation = new CancellationTokenSource())\n        {\n            first = await Task.WhenAny(work, Task.Delay(2000, delayCancellation.Token));\n            delayCancellation.Cancel();\n        }\n", StringComparison.Ordinal)
                .Replace("        var second = await Task.WhenAny(work, [|Task.Delay(10)|]);\n", "        Task second;\n        using (var delayCancellation2 = new CancellationTokenSource())\n        {\n            second = await Task.WhenAny(work, Task.Delay(10, delayCancellation2.Token));\n            delayCancellation2.Cancel();\n        }\n", StringComparison.Ordinal)
                .Replace("        await Task.WhenAny(work, {|#0:Task.Delay(2000, token)|});\n", "        using (var delayCancellation = CancellationTokenSource.CreateLinkedTokenSource(token))\n        {\n            await Task.WhenAny(work, Task.Delay(2000, delayCancellation.Token));\n            delayCancellation.Cancel();\n        }\n", StringComparison.Ordinal),
            ExpectedDiagnostics = { Verify.Diagnostic().WithLocation(0).WithArguments(DelayTimer.TokenRaceMessage) },
        }.RunAsync();
    }

    /// <summary>
    /// A file that netstandard2.0 compiles at C# 7.3 beside net10.0 (a library's usual pair) takes the form both compile:
    /// the using block; a declared winner, which the block would hide, is declared before it in both copies.
    /// </summary>
    [Fact]
    public async Task SharedWithCSharp73_AUsingBlockHoldsTheRaceInEveryCopy()
    {
        const string Code = """
            using System.Threading;
            using System.Threading.Tasks;

            class C
            {
                async Task<bool> Wait(Task work, CancellationToken token)
                {
                    Task first;
                    first = await Task.WhenAny(work, {|#0:Task.Delay(2000, token)|});
                    var second = await Task.WhenAny(work, {|#1:Task.Delay(10)|});
                    return first == work && second == work;
                }
            }
            """;
        await DelayTimerRaceChecks.FixesBesideCSharp73Async(
            Code,
            Code
                .Replace("        first = await Task.WhenAny(work, {|#0:Task.Delay(2000, token)|});\n", "        using (var delayCancellation = CancellationTokenSource.CreateLinkedTokenSource(token))\n        {\n            first = await Task.WhenAny(work, Task.Delay(2000, delayCancellation.Token));\n            delayCancellation.Cancel();\n        }\n", StringComparison.Ordinal)
                .Replace("        var second = await Task.WhenAny(work, {|#1:Task.Delay(10)|});\n", "        Task second;\n        using (var delayCancellation2 = new CancellationTokenSource())\n        {\n            second = await Task.WhenAny(work, Task.Delay(10, delayCancellation2.Token));\n            delayCancellation2.Cancel();\n        }\n", StringComparison.Ordinal),
            DelayTimer.TokenRaceMessage,
            DelayTimer.RaceMessage);
    }

    [Fact]
    public async Task FixAll_GivesEachRaceItsOwnSource()
    {
        const string Code = """
            using System.Threading;
            using System.Threading.Tasks;

            class C
            {
                async Task Twice(Task a, Task b)
                {
                    await Task.WhenAny(a, [|Task.Delay(100)|]);
                    await Task.WhenAny(b, [|Task.Delay(200)|]);
                }
            }
            """;
        await new Verify.Test
        {
            TestCode = Code,
            FixedCode = Code
                .Replace("        await Task.WhenAny(a, [|Task.Delay(100)|]);\n", "        using var delayCancellation = new CancellationTokenSource();\n        await Task.WhenAny(a, Task.Delay(100, delayCancellation.Token));\n        delayCancellation.Cancel();\n", StringComparison.Ordinal)
                .Replace("        await Task.WhenAny(b, [|Task.Delay(200)|]);\n", "        using var delayCancellation2 = new CancellationTokenSource();\n        await Task.WhenAny(b, Task.Delay(200, delayCancellation2.Token));\n        delayCancellation2.Cancel();\n", StringComparison.Ordinal),
            NumberOfFixAllIterations = 1,
        }.RunAsync();
    }
}
