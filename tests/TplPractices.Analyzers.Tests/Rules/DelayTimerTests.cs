using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.Testing;
using TplPractices.Analyzers.Rules;
using TplPractices.Analyzers.Tests.Verifiers;
using Verify = TplPractices.Analyzers.Tests.Verifiers.CSharpCodeFixVerifier<
    TplPractices.Analyzers.Rules.DelayTimerAnalyzer,
    TplPractices.Analyzers.CodeFixes.Rules.DelayTimerFixer>;

namespace TplPractices.Analyzers.Tests.Rules;

/// <summary>TPL0017: timer loops and delay races, what is fixed, what is only reported, and what is left alone.</summary>
public sealed class DelayTimerTests
{
    /// <summary>A loop that cancels itself after three passes: the same count, and the same way out, before and after.</summary>
    private const string Loops = /* lang=c#-test */ """
        using System;
        using System.Threading;
        using System.Threading.Tasks;

        public static class Api
        {
            public static async Task<string> Polled()
            {
                using var source = new CancellationTokenSource();
                var count = 0;
                try
                {
                    while (!source.Token.IsCancellationRequested)
                    {
                        if (++count == 3) source.Cancel();
                        await {|#0:Task.Delay(10, source.Token)|};
                    }
                }
                catch (OperationCanceledException)
                {
                }

                return "count " + count;
            }

            public static async Task<string> Untokened()
            {
                using var source = new CancellationTokenSource();
                var count = 0;
                while (!source.IsCancellationRequested)
                {
                    if (++count == 2) source.Cancel();
                    await {|#1:Task.Delay(TimeSpan.FromMilliseconds(5))|}.ConfigureAwait(false);
                }

                return "count " + count;
            }

            // A period in a field only its initializer sets: read once by the timer, as every pass read it.
            private static readonly TimeSpan Pause = TimeSpan.FromMilliseconds(5);

            public static async Task<string> FieldPeriod()
            {
                using var stop = new CancellationTokenSource();
                var count = 0;
                while (!stop.IsCancellationRequested)
                {
                    if (++count == 3) stop.Cancel();
                    await {|#2:Task.Delay(Pause)|};
                }

                return "count " + count;
            }
        }
        """;

    private static readonly string LoopsFixed = Loops
        .Replace("            while (!source.Token.IsCancellationRequested)", "            using var timer = new PeriodicTimer(TimeSpan.FromMilliseconds(10));\n            while (!source.Token.IsCancellationRequested)", StringComparison.Ordinal)
        .Replace("await {|#0:Task.Delay(10, source.Token)|};", "await timer.WaitForNextTickAsync(source.Token);", StringComparison.Ordinal)
        .Replace("        while (!source.IsCancellationRequested)", "        using var timer = new PeriodicTimer(TimeSpan.FromMilliseconds(5));\n        while (!source.IsCancellationRequested)", StringComparison.Ordinal)
        .Replace("await {|#1:Task.Delay(TimeSpan.FromMilliseconds(5))|}.ConfigureAwait(false);", "await timer.WaitForNextTickAsync().ConfigureAwait(false);", StringComparison.Ordinal)
        .Replace("        while (!stop.IsCancellationRequested)", "        using var timer = new PeriodicTimer(Pause);\n        while (!stop.IsCancellationRequested)", StringComparison.Ordinal)
        .Replace("await {|#2:Task.Delay(Pause)|};", "await timer.WaitForNextTickAsync();", StringComparison.Ordinal);

    /// <summary>Each pass does work (it counts), so each loop is fixed through its own light bulb.</summary>
    [Fact]
    public async Task TimerLoops_GetOnePeriodicTimer()
    {
        var test = DelayTimerLoopFix.OneLoopAtATime(Loops, LoopsFixed);
        test.ExpectedDiagnostics.Add(Verify.Diagnostic().WithLocation(0).WithArguments(DelayTimer.LoopMessage));
        test.ExpectedDiagnostics.Add(Verify.Diagnostic().WithLocation(1).WithArguments(DelayTimer.LoopMessage));
        test.ExpectedDiagnostics.Add(Verify.Diagnostic().WithLocation(2).WithArguments(DelayTimer.LoopMessage));
        await test.RunAsync();
    }

    /// <summary>
    /// Fix All and dotnet format take the loops that only wait, whose passes start a period apart with a delay or a
    /// tick, and leave the loops whose passes do work: a pause after each message or a rate limit would then start a
    /// pass every period, the work's time included. A <c>finally</c> beside the delay is work each pass runs.
    /// </summary>
    [Fact]
    public async Task FixAll_TakesOnlyTheLoopsThatOnlyWait()
    {
        const string Paced = """

                async Task Paced(CancellationToken token)
                {
                    while (!token.IsCancellationRequested) { Work(); await [|Task.Delay(1000)|]; }
                }

                async Task Finally(CancellationToken token)
                {
                    while (!token.IsCancellationRequested) { try { await [|Task.Delay(1000)|]; } finally { Work(); } }
                }
            """;
        var before = Class("""
                async Task Idle(CancellationToken token)
                {
                    while (!token.IsCancellationRequested) { await [|Task.Delay(1000)|]; }
                }

                async Task Guarded(CancellationToken token)
                {
                    while (true)
                    {
                        try { await [|Task.Delay(500, token)|]; } catch (OperationCanceledException) { return; }
                    }
                }
            """ + Paced);
        var after = Class("""
                async Task Idle(CancellationToken token)
                {
                    using var timer = new PeriodicTimer(TimeSpan.FromMilliseconds(1000));
                    while (!token.IsCancellationRequested) { await timer.WaitForNextTickAsync(); }
                }

                async Task Guarded(CancellationToken token)
                {
                    using var timer = new PeriodicTimer(TimeSpan.FromMilliseconds(500));
                    while (true)
                    {
                        try { await timer.WaitForNextTickAsync(token); } catch (OperationCanceledException) { return; }
                    }
                }
            """ + Paced);
        await new Verify.Test
        {
            TestCode = before,
            FixedState = { Sources = { after }, MarkupHandling = MarkupMode.Allow },
            CodeActionEquivalenceKey = TplPractices.Analyzers.CodeFixes.Rules.DelayTimerFixer.EquivalenceKey,
        }.RunAsync();
    }

    [Theory]
    [InlineData("Polled")]
    [InlineData("Untokened")]
    [InlineData("FieldPeriod")]
    public async Task FixedCode_ReturnsWhatTheOriginalReturned(string method)
    {
        var original = await CodeRunner.RunAsync(TestMarkup.Strip(Loops), "Api", method);
        Assert.Equal(original, await CodeRunner.RunAsync(LoopsFixed, "Api", method));
        Assert.StartsWith("returned", original, StringComparison.Ordinal);
    }

    /// <summary>
    /// A pass that waits on one of two paths: the same delay before a <c>continue</c> when the work failed, and at the end
    /// otherwise. Each pass waits once, so one timer ticks for both; it runs the same number of passes.
    /// </summary>
    private const string EarlyWaitLoop = /* lang=c#-test */ """
        using System;
        using System.Threading;
        using System.Threading.Tasks;

        public static class Poller
        {
            private static Task<bool> TryStep(int pass) => Task.FromResult(pass % 2 == 0);

            public static async Task<string> Poll()
            {
                using var stop = new CancellationTokenSource();
                int passes = 0, failed = 0;
                try
                {
                    while (!stop.IsCancellationRequested)
                    {
                        if (++passes == 5) stop.Cancel();
                        if (!await TryStep(passes))
                        {
                            failed++;
                            await Task.Delay(5, stop.Token).ConfigureAwait(false);
                            continue;
                        }

                        await {|#0:Task.Delay(5, stop.Token)|}.ConfigureAwait(false);
                    }
                }
                catch (OperationCanceledException)
                {
                }

                return passes + " passes, " + failed + " failed";
            }
        }
        """;

    private static readonly string EarlyWaitLoopFixed = EarlyWaitLoop
        .Replace("            while (!stop.IsCancellationRequested)", "            using var timer = new PeriodicTimer(TimeSpan.FromMilliseconds(5));\n            while (!stop.IsCancellationRequested)", StringComparison.Ordinal)
        .Replace("await Task.Delay(5, stop.Token).ConfigureAwait(false);", "await timer.WaitForNextTickAsync(stop.Token).ConfigureAwait(false);", StringComparison.Ordinal)
        .Replace("await {|#0:Task.Delay(5, stop.Token)|}.ConfigureAwait(false);", "await timer.WaitForNextTickAsync(stop.Token).ConfigureAwait(false);", StringComparison.Ordinal);

    [Fact]
    public async Task TheSameDelayBeforeAContinue_TakesTheTickToo()
    {
        var test = DelayTimerLoopFix.OneLoopAtATime(EarlyWaitLoop, EarlyWaitLoopFixed);
        test.ExpectedDiagnostics.Add(Verify.Diagnostic().WithLocation(0).WithArguments(DelayTimer.LoopMessage));
        await test.RunAsync();

        var original = await CodeRunner.RunAsync(TestMarkup.Strip(EarlyWaitLoop), "Poller", "Poll");
        Assert.Equal("returned 5 passes, 3 failed", original);
        Assert.Equal(original, await CodeRunner.RunAsync(EarlyWaitLoopFixed, "Poller", "Poll"));
    }

    /// <summary>
    /// Another delay is a pause among others, not the same wait on another path: a different period (a retry's back-off),
    /// a path that goes on after it, a <c>continue</c> of an inner loop, or a pass whose delay comes first.
    /// </summary>
    [Fact]
    public async Task AnotherDelay_NotTheSameWaitBeforeAContinue_IsNotReported()
    {
        await Verify.VerifyAnalyzerAsync(Class("""
                async Task Backoff(CancellationToken token)
                {
                    while (!token.IsCancellationRequested)
                    {
                        try { await WorkAsync(); }
                        catch (InvalidOperationException) { await Task.Delay(5000, token); continue; }
                        await Task.Delay(1000, token);
                    }
                }

                async Task GoesOn(CancellationToken token)
                {
                    while (!token.IsCancellationRequested)
                    {
                        if (_count > 3) { await Task.Delay(1000, token); Work(); }
                        await Task.Delay(1000, token);
                    }
                }

                async Task InnerLoop(CancellationToken token)
                {
                    while (!token.IsCancellationRequested)
                    {
                        for (var i = 0; i < 3; i++) { if (i == _count) { await Task.Delay(1000, token); continue; } Work(); }
                        await Task.Delay(1000, token);
                    }
                }

                async Task DelayFirst(CancellationToken token)
                {
                    while (!token.IsCancellationRequested)
                    {
                        await Task.Delay(1000, token);
                        if (_count > 3) { await Task.Delay(1000, token); continue; }
                        Work();
                    }
                }
            """));
    }

    private static string Class(string members) => $$"""
        using System;
        using System.Threading;
        using System.Threading.Tasks;

        class C
        {
            private readonly TimeSpan _period = TimeSpan.FromSeconds(1);
            private int _count;
            void Work() => _count++;
            Task WorkAsync() => Task.CompletedTask;
        {{members}}
        }
        """;

    /// <summary>
    /// A readonly field that only its initializer sets holds the same period wherever it is read: the timer reads it once
    /// before the loop, static or not, a TimeSpan or milliseconds.
    /// </summary>
    [Fact]
    public async Task APeriodInAFieldOnlyItsInitializerSets_IsFixed()
    {
        var before = Class("""
                private static readonly TimeSpan Interval = TimeSpan.FromSeconds(30);
                private static readonly int PauseMs = 250;

                async Task Static() { while (true) { Work(); await [|Task.Delay(Interval)|]; } }
                async Task Milliseconds() { while (true) { Work(); await [|Task.Delay(PauseMs)|]; } }
                async Task Instance() { while (true) { Work(); await [|Task.Delay(_period)|]; } }
            """);
        var after = Class("""
                private static readonly TimeSpan Interval = TimeSpan.FromSeconds(30);
                private static readonly int PauseMs = 250;

                async Task Static()
                {
                    using var timer = new PeriodicTimer(Interval);
                    while (true) { Work(); await timer.WaitForNextTickAsync(); }
                }
                async Task Milliseconds()
                {
                    using var timer = new PeriodicTimer(TimeSpan.FromMilliseconds(PauseMs));
                    while (true) { Work(); await timer.WaitForNextTickAsync(); }
                }
                async Task Instance()
                {
                    using var timer = new PeriodicTimer(_period);
                    while (true) { Work(); await timer.WaitForNextTickAsync(); }
                }
            """);
        await DelayTimerLoopFix.OneLoopAtATime(before, after).RunAsync();
    }

    /// <summary>
    /// Reported without a fix: the tick's OperationCanceledException would reach a caller that saw TaskCanceledException, a
    /// catch that tells them apart, a period that may be zero, a loop that runs forever with nothing to catch its end.
    /// </summary>
    [Fact]
    public async Task LoopsWhoseMeaningTheTimerWouldChange_AreReportedWithoutAFix()
    {
        var code = Class("""
                async Task Uncaught(CancellationToken token)
                {
                    while (!token.IsCancellationRequested) { Work(); await [|Task.Delay(1000, token)|]; }
                }

                async Task CaughtAsTaskCanceled(CancellationToken token)
                {
                    try { while (!token.IsCancellationRequested) { Work(); await [|Task.Delay(1000, token)|]; } }
                    catch (TaskCanceledException) { }
                }

                async Task CaughtWithTheException(CancellationToken token)
                {
                    try { while (true) { Work(); await [|Task.Delay(1000, token)|]; } }
                    catch (OperationCanceledException e) { Console.WriteLine(e.GetType().Name); }
                }

                async Task Rethrown(CancellationToken token)
                {
                    try { while (true) { Work(); await [|Task.Delay(1000, token)|]; } }
                    catch (OperationCanceledException) { throw; }
                }

                // A constructor sets the period: it may be zero.
                private readonly TimeSpan _configured;
                C(TimeSpan configured) => _configured = configured;

                async Task Configured(CancellationToken token)
                {
                    while (!token.IsCancellationRequested) { Work(); await [|Task.Delay(_configured)|]; }
                }

                async Task Embedded(CancellationToken token)
                {
                    if (_count >= 0)
                        while (!token.IsCancellationRequested) { Work(); await [|Task.Delay(1000)|]; }
                }

                // Under a millisecond the delay waits nothing and PeriodicTimer throws; past uint.MaxValue - 1 ms the
                // timer would throw before the first pass, where each delay threw after a pass's work.
                async Task HalfAMillisecond() { while (true) { Work(); await [|Task.Delay(TimeSpan.FromMilliseconds(0.5))|]; } }
                async Task FiveThousandTicks() { while (true) { Work(); await [|Task.Delay(TimeSpan.FromTicks(5000))|]; } }
                async Task SixtyDays() { while (true) { Work(); await [|Task.Delay(TimeSpan.FromDays(60))|]; } }

                // A field only its initializer sets, whose period the timer refuses.
                private static readonly TimeSpan Tiny = TimeSpan.FromTicks(10);
                async Task TinyField() { while (true) { Work(); await [|Task.Delay(Tiny)|]; } }
            """);
        await Verify.VerifyCodeFixAsync(code, code);
    }

    [Fact]
    public async Task OtherWaits_VaryingDelays_AndOtherLoops_AreNotReported()
    {
        await Verify.VerifyAnalyzerAsync(Class("""
                // A zero delay makes no timer (its task is complete at once: TPL0005 and TPL0014 report it), in a loop or a race.
                async Task Zero(CancellationToken token)
                {
                    while (!token.IsCancellationRequested) { Work(); await Task.Delay(0); }
                }

                async Task ZeroRace(Task work) => await Task.WhenAny(work, Task.Delay(TimeSpan.Zero));

                async Task Backoff(CancellationToken token)
                {
                    var delay = 100;
                    while (!token.IsCancellationRequested) { Work(); await Task.Delay(delay, token); delay *= 2; }
                }

                async Task Growing(CancellationToken token)
                {
                    var delay = 100;
                    while (!token.IsCancellationRequested) { Work(); delay += 10; await Task.Delay(delay, token); }
                }

                async Task InTheMiddle(CancellationToken token)
                {
                    while (!token.IsCancellationRequested) { Work(); await Task.Delay(1000, token); Work(); }
                }

                async Task UntilDone(CancellationToken token)
                {
                    while (_count < 10) { Work(); await Task.Delay(1000, token); }
                }

                async Task Once() { Work(); await Task.Delay(1000); }

                async Task Counted(CancellationToken token)
                {
                    for (var i = 0; i < 10; i++) { Work(); await Task.Delay(1000, token); }
                }

                async Task Raced(Task work, CancellationTokenSource source) => await Task.WhenAny(work, Task.Delay(1000, source.Token));

                // SuppressThrowing goes on past a canceled wait, where a tick would throw; ValueTask<bool> takes no options.
                async Task Swallowed(CancellationToken token)
                {
                    while (true) { Work(); await Task.Delay(1000, token).ConfigureAwait(ConfigureAwaitOptions.SuppressThrowing); }
                }

                async Task Yielding(CancellationToken token)
                {
                    while (!token.IsCancellationRequested) { Work(); await Task.Delay(1000).ConfigureAwait(ConfigureAwaitOptions.ForceYielding); }
                }
            """));
    }

    /// <summary>
    /// The race keeps a timer queued whoever wins; reported on every target. Compared in an expression body, the race
    /// moves into a local of a block body and the cancel follows it; where something of the expression is evaluated
    /// before the race (a test before <c>&amp;&amp;</c>, an argument before it) or the race is returned, there is no fix.
    /// </summary>
    [Theory]
    [InlineData(TestTarget.Net100)]
    [InlineData(TestTarget.NetStandard20)]
    public async Task DelayRacingWithoutAToken_InAnExpression_IsFixedWhereTheRaceComesFirst(TestTarget target)
    {
        const string Code = """
            using System;
            using System.Threading.Tasks;

            class C
            {
                async Task<bool> InTime(Task work) => await Task.WhenAny(work, {|#0:Task.Delay(1000)|}) == work;
                async Task<bool> InTimeArray(Task work) => await Task.WhenAny(new[] { work, {|#1:Task.Delay(TimeSpan.FromSeconds(1))|} }) == work;
                async Task<bool> Second(Task work, bool ready) => ready && await Task.WhenAny(work, {|#2:Task.Delay(1000)|}) == work;
                async Task<bool> Argument(Task work) => Equals(work, await Task.WhenAny(work, {|#3:Task.Delay(1000)|}));
                Task<Task> Returned(Task work) => Task.WhenAny(work, {|#4:Task.Delay(1000)|});
            }
            """;
        const string Fixed = """
            using System;
            using System.Threading;
            using System.Threading.Tasks;

            class C
            {
                async Task<bool> InTime(Task work)
                {
                    using var delayCancellation = new CancellationTokenSource();
                    var winner = await Task.WhenAny(work, Task.Delay(1000, delayCancellation.Token));
                    delayCancellation.Cancel();
                    return winner == work;
                }
                async Task<bool> InTimeArray(Task work)
                {
                    using var delayCancellation = new CancellationTokenSource();
                    var winner = await Task.WhenAny(new[] { work, Task.Delay(TimeSpan.FromSeconds(1), delayCancellation.Token) });
                    delayCancellation.Cancel();
                    return winner == work;
                }
                async Task<bool> Second(Task work, bool ready) => ready && await Task.WhenAny(work, {|#2:Task.Delay(1000)|}) == work;
                async Task<bool> Argument(Task work) => Equals(work, await Task.WhenAny(work, {|#3:Task.Delay(1000)|}));
                Task<Task> Returned(Task work) => Task.WhenAny(work, {|#4:Task.Delay(1000)|});
            }
            """;
        var test = new Verify.Test { Target = target, TestCode = Code, FixedCode = Fixed, FixedState = { MarkupHandling = Microsoft.CodeAnalysis.Testing.MarkupMode.Allow } };
        test.ExpectedDiagnostics.AddRange(Enumerable.Range(0, 5).Select(i => Verify.Diagnostic().WithLocation(i).WithArguments(DelayTimer.RaceMessage)));
        test.FixedState.ExpectedDiagnostics.AddRange(Enumerable.Range(2, 3).Select(i => Verify.Diagnostic().WithLocation(i).WithArguments(DelayTimer.RaceMessage)));
        await test.RunAsync();
    }

    [Theory]
    [InlineData(TestTarget.NetStandard20)]
    [InlineData(TestTarget.Net472)]
    public async Task TargetsWithoutPeriodicTimer_DoNotReportLoops(TestTarget target)
    {
        await Verify.VerifyAnalyzerAsync("""
            using System.Threading;
            using System.Threading.Tasks;

            class C
            {
                int _count;
                async Task Loop(CancellationToken token)
                {
                    while (!token.IsCancellationRequested) { _count++; await Task.Delay(1000); }
                }
            }
            """, target);
    }

    /// <summary>netstandard2.0 has no PeriodicTimer: its copy would not compile the rewrite, so a shared file gets none.</summary>
    [Fact]
    public async Task MultiTargetedWithATargetWithoutPeriodicTimer_HasNoFix()
    {
        const string Code = """
            using System.Threading;
            using System.Threading.Tasks;

            class C
            {
                int _count;
                async Task Loop(CancellationToken token)
                {
                    while (!token.IsCancellationRequested) { _count++; await [|Task.Delay(1000)|]; }
                }
            }
            """;
        await new Verify.Test
        {
            TestCode = Code,
            FixedState = { Sources = { Code }, MarkupHandling = MarkupMode.Allow },
            LinkedTargets = { new LinkedTarget(TestTarget.NetStandard20, Microsoft.CodeAnalysis.CSharp.LanguageVersion.CSharp7_3, NullableContextOptions.Disable) },
        }.RunAsync();
    }

    [Fact]
    public async Task NameInUse_TopLevel_AndFixAll()
    {
        var before = Class("""
                async Task A(CancellationToken token)
                {
                    var timer = _count;
                    while (!token.IsCancellationRequested) { await [|Task.Delay(1000)|]; }
                    Console.WriteLine(timer);
                }

                async Task B(CancellationToken token)
                {
                    while (true)
                    {
                        await [|Task.Delay(TimeSpan.FromSeconds(2))|];
                    }
                }
            """);
        var after = Class("""
                async Task A(CancellationToken token)
                {
                    var timer = _count;
                    using var timer2 = new PeriodicTimer(TimeSpan.FromMilliseconds(1000));
                    while (!token.IsCancellationRequested) { await timer2.WaitForNextTickAsync(); }
                    Console.WriteLine(timer);
                }

                async Task B(CancellationToken token)
                {
                    using var timer = new PeriodicTimer(TimeSpan.FromSeconds(2));
                    while (true)
                    {
                        await timer.WaitForNextTickAsync();
                    }
                }
            """);
        await new Verify.Test { TestCode = before, FixedCode = after, NumberOfFixAllIterations = 1 }.RunAsync();

        const string TopLevel = """
            using System;
            using System.Threading;
            using System.Threading.Tasks;

            using var source = new CancellationTokenSource(50);
            var timer = 0;
            while (!source.IsCancellationRequested)
            {
                timer++;
                await [|Task.Delay(10)|];
            }

            Console.WriteLine(timer > 0);
            """;
        var topLevel = DelayTimerLoopFix.OneLoopAtATime(
            TopLevel,
            TopLevel
                .Replace("while (!source.IsCancellationRequested)", "using var timer2 = new PeriodicTimer(TimeSpan.FromMilliseconds(10));\nwhile (!source.IsCancellationRequested)", StringComparison.Ordinal)
                .Replace("await [|Task.Delay(10)|];", "await timer2.WaitForNextTickAsync();", StringComparison.Ordinal));
        topLevel.TestState.OutputKind = OutputKind.ConsoleApplication;
        await topLevel.RunAsync();
    }

    /// <summary>
    /// The race's source and cancel stand with it: the blank lines and comments above the race go above the source, a
    /// blank line below it stays below the cancel, and a race laid out one task a line keeps that layout (the shared
    /// layer joined such a list, and the formatter dropped the blank lines beside the new statements). Real code
    /// (Orleans' membership table) races twice in a row, with a blank line after each race.
    /// </summary>
    [Fact]
    public async Task RaceFix_KeepsTheBlankLinesCommentsAndLayoutAroundTheRace()
    {
        var before = Class("""
                async Task<bool> Stop(Task update, Task gossip)
                {
                    await Task.WhenAny({|#0:Task.Delay(TimeSpan.FromMilliseconds(500))|}, update);

                    // the second race
                    await Task.WhenAny(
                        gossip,
                        {|#1:Task.Delay(TimeSpan.FromMinutes(1))|});

                    var winner = await Task.WhenAny(gossip, {|#2:Task.Delay(100)|});

                    return winner == gossip;
                }
            """);
        var after = Class("""
                async Task<bool> Stop(Task update, Task gossip)
                {
                    using var delayCancellation = new CancellationTokenSource();
                    await Task.WhenAny(Task.Delay(TimeSpan.FromMilliseconds(500), delayCancellation.Token), update);
                    delayCancellation.Cancel();

                    // the second race
                    using var delayCancellation2 = new CancellationTokenSource();
                    await Task.WhenAny(
                        gossip,
                        Task.Delay(TimeSpan.FromMinutes(1), delayCancellation2.Token));
                    delayCancellation2.Cancel();

                    using var delayCancellation3 = new CancellationTokenSource();
                    var winner = await Task.WhenAny(gossip, Task.Delay(100, delayCancellation3.Token));
                    delayCancellation3.Cancel();

                    return winner == gossip;
                }
            """);
        var test = new Verify.Test { TestCode = before, FixedCode = after, NumberOfFixAllIterations = 1 };
        test.ExpectedDiagnostics.AddRange(Enumerable.Range(0, 3).Select(i => Verify.Diagnostic().WithLocation(i).WithArguments(DelayTimer.RaceMessage)));
        await test.RunAsync();

        const string TopLevel = """
            using System;
            using System.Threading.Tasks;

            var work = Task.Run(() => 1);

            // race at the top level
            await Task.WhenAny(work, [|Task.Delay(100)|]);

            Console.WriteLine(work.IsCompleted);
            """;
        await new Verify.Test
        {
            TestCode = TopLevel,
            FixedCode = """
                using System;
                using System.Threading;
                using System.Threading.Tasks;

                var work = Task.Run(() => 1);

                // race at the top level
                using var delayCancellation = new CancellationTokenSource();
                await Task.WhenAny(work, Task.Delay(100, delayCancellation.Token));
                delayCancellation.Cancel();

                Console.WriteLine(work.IsCompleted);
                """,
            TestState = { OutputKind = OutputKind.ConsoleApplication },
        }.RunAsync();
    }

    [Fact]
    public async Task GeneratedCode_DoesNotReport()
    {
        await Verify.VerifyAnalyzerAsync("// <auto-generated/>\n" + Class("""
                async Task Loop(CancellationToken token) { while (!token.IsCancellationRequested) { Work(); await Task.Delay(1000); } }
            """));
    }

    [Theory]
    [InlineData("CancellationToken token", "while (!token.IsCancellationRequested) { await Task.Delay(1000 }")]
    [InlineData("CancellationToken token", "while (!token.IsCancellationRequested) { await Task.Delay() }")]
    [InlineData("", "Task.WhenAny(Task.Delay(")]
    [InlineData("CancellationToken token", "while (!token.) { await Task.Delay(1000); }")]
    public async Task IncompleteCode_NeitherThrowsNorReports(string parameters, string statement)
    {
        Assert.Equal(0, await HalfTypedCode.CountDiagnosticsAsync(new DelayTimerAnalyzer(), parameters, statement));
    }
}
