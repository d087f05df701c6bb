using Microsoft.CodeAnalysis.Testing;
using TplPractices.Analyzers.Tests.Verifiers;
using Verify = TplPractices.Analyzers.Tests.Verifiers.CSharpCodeFixVerifier<
    TplPractices.Analyzers.Rules.DelayTimerAnalyzer,
    TplPractices.Analyzers.CodeFixes.Rules.DelayTimerFixer>;

namespace TplPractices.Analyzers.Tests.Rules;

/// <summary>
/// TPL0017's timer loop with a stop test beside its delay: <c>while (true) { if (token.IsCancellationRequested) break;
/// await Task.Delay(p); Work(); }</c>, the older spelling of a loop that runs until stopped. The test leaves the loop as
/// a condition would and does no work, so the delay still starts (or ends) the pass, and a pass of a delay and stop
/// tests only waits.
/// </summary>
public sealed class DelayTimerStopTestTests
{
    private const string Usings = """
        using System;
        using System.Collections.Concurrent;
        using System.Threading;
        using System.Threading.Tasks;


        """;

    /// <summary>
    /// A pass of its delay and stop tests (a break on a flag, a return on a token, <c>ThrowIfCancellationRequested</c>,
    /// before or after the delay) only waits: Fix All gives it a timer. A pass with work beside them keeps its rhythm only
    /// through the light bulb, so Fix All leaves it.
    /// </summary>
    [Fact]
    public async Task FixAll_TimesTheWaitOnlyPassesWithStopTests()
    {
        const string Working = """

                async Task Working(CancellationToken token)
                {
                    while (true)
                    {
                        if (token.IsCancellationRequested) break;
                        await [|Task.Delay(1000)|];
                        Work();
                    }
                }
            }
            """;
        var before = Usings + """
            class C
            {
                private volatile bool _stopped;

                void Work() { }

                async Task FlagAfter()
                {
                    while (true)
                    {
                        await [|Task.Delay(1000)|];
                        if (_stopped) { break; }
                    }
                }

                async Task TokenFirst(CancellationToken token)
                {
                    for (;;)
                    {
                        if (token.IsCancellationRequested) return;
                        token.ThrowIfCancellationRequested();
                        await [|Task.Delay(250)|];
                    }
                }
            """ + Working;
        var after = Usings + """
            class C
            {
                private volatile bool _stopped;

                void Work() { }

                async Task FlagAfter()
                {
                    using var timer = new PeriodicTimer(TimeSpan.FromMilliseconds(1000));
                    while (true)
                    {
                        await timer.WaitForNextTickAsync();
                        if (_stopped) { break; }
                    }
                }

                async Task TokenFirst(CancellationToken token)
                {
                    using var timer = new PeriodicTimer(TimeSpan.FromMilliseconds(250));
                    for (;;)
                    {
                        if (token.IsCancellationRequested) return;
                        token.ThrowIfCancellationRequested();
                        await timer.WaitForNextTickAsync();
                    }
                }
            """ + Working;
        await new Verify.Test
        {
            TestCode = before,
            FixedState = { Sources = { after }, MarkupHandling = MarkupMode.Allow },
            CodeActionEquivalenceKey = TplPractices.Analyzers.CodeFixes.Rules.DelayTimerFixer.EquivalenceKey,
        }.RunAsync();
    }

    /// <summary>
    /// Work after a delay that follows a stop test, and work before a delay followed by one: the delay starts or ends the
    /// pass, so the loop is a timer, fixed one loop at a time (its passes then start every period).
    /// </summary>
    [Fact]
    public async Task AWorkingPassBesideAStopTest_IsFixedOneLoopAtATime()
    {
        var before = Usings + """
            class C
            {
                void Work() { }

                async Task TestThenWait(CancellationToken token)
                {
                    while (true)
                    {
                        if (token.IsCancellationRequested) break;
                        await [|Task.Delay(TimeSpan.FromSeconds(1))|];
                        Work();
                    }
                }

                async Task WaitThenTest(CancellationToken token)
                {
                    do
                    {
                        Work();
                        await [|Task.Delay(500)|];
                        if (token.IsCancellationRequested) break;
                    }
                    while (true);
                }
            }
            """;
        var after = Usings + """
            class C
            {
                void Work() { }

                async Task TestThenWait(CancellationToken token)
                {
                    using var timer = new PeriodicTimer(TimeSpan.FromSeconds(1));
                    while (true)
                    {
                        if (token.IsCancellationRequested) break;
                        await timer.WaitForNextTickAsync();
                        Work();
                    }
                }

                async Task WaitThenTest(CancellationToken token)
                {
                    using var timer = new PeriodicTimer(TimeSpan.FromMilliseconds(500));
                    do
                    {
                        Work();
                        await timer.WaitForNextTickAsync();
                        if (token.IsCancellationRequested) break;
                    }
                    while (true);
                }
            }
            """;
        await DelayTimerLoopFix.OneLoopAtATime(before, after).RunAsync();
    }

    /// <summary>
    /// Not stop tests, so the delay sits in the middle of the pass or the loop is a poll: a test of another object's
    /// state (a queue's <c>IsEmpty</c>, a property with a body), of a local the pass sets, a test with an <c>else</c>, and
    /// a <c>return</c> of a value. None is reported.
    /// </summary>
    [Fact]
    public async Task TestsThatAreNotStops_KeepTheDelayInTheMiddle()
    {
        var code = Usings + """
            class C
            {
                private readonly ConcurrentQueue<int> _queue = new();

                bool Done => _queue.Count > 3;

                void Work() { }

                async Task Drain()
                {
                    while (true)
                    {
                        if (_queue.IsEmpty) break;
                        await Task.Delay(100);
                        Work();
                    }
                }

                async Task UntilDone()
                {
                    while (true)
                    {
                        if (Done) break;
                        await Task.Delay(100);
                        Work();
                    }
                }

                async Task UntilReady()
                {
                    var ready = false;
                    while (true)
                    {
                        if (ready) break;
                        await Task.Delay(100);
                        ready = _queue.TryDequeue(out _);
                    }
                }

                async Task Otherwise(CancellationToken token)
                {
                    while (true)
                    {
                        if (token.IsCancellationRequested) break; else Work();
                        await Task.Delay(100);
                        Work();
                    }
                }

                async Task<int> Counted(CancellationToken token)
                {
                    var count = 0;
                    while (true)
                    {
                        if (token.IsCancellationRequested) return count;
                        await Task.Delay(100);
                        count++;
                    }
                }
            }
            """;
        await Verify.VerifyAnalyzerAsync(code);
    }

    private const string Runs = /* lang=c#-test */ """
        using System;
        using System.Threading;
        using System.Threading.Tasks;

        public static class Api
        {
            public static async Task<string> Stops()
            {
                using var stop = new CancellationTokenSource();
                var passes = 0;
                while (true)
                {
                    if (stop.Token.IsCancellationRequested) break;
                    await [|Task.Delay(5)|];
                    if (++passes == 3) stop.Cancel();
                }

                return "passes " + passes;
            }
        }
        """;

    /// <summary>The fixed loop leaves on its stop test after as many passes as before.</summary>
    [Fact]
    public async Task AFixedLoop_StopsAfterAsManyPasses()
    {
        var fixedCode = TestMarkup.Strip(Runs)
            .Replace("        while (true)", "        using var timer = new PeriodicTimer(TimeSpan.FromMilliseconds(5));\n        while (true)", StringComparison.Ordinal)
            .Replace("Task.Delay(5)", "timer.WaitForNextTickAsync()", StringComparison.Ordinal);
        await DelayTimerLoopFix.OneLoopAtATime(Runs, fixedCode).RunAsync();

        var original = await CodeRunner.RunAsync(TestMarkup.Strip(Runs), "Api", "Stops");
        Assert.Equal("returned passes 3", original);
        Assert.Equal(original, await CodeRunner.RunAsync(fixedCode, "Api", "Stops"));
    }
}
