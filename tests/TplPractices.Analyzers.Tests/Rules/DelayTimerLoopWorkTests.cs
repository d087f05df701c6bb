using System.Text.RegularExpressions;
using TplPractices.Analyzers.Tests.Verifiers;
using Verify = TplPractices.Analyzers.Tests.Verifiers.CSharpCodeFixVerifier<
    TplPractices.Analyzers.Rules.DelayTimerAnalyzer,
    TplPractices.Analyzers.CodeFixes.Rules.DelayTimerFixer>;

namespace TplPractices.Analyzers.Tests.Rules;

/// <summary>
/// TPL0017's timer loop whose pass awaits its work (<c>await PollAsync(); await Task.Delay(period);</c>, the usual
/// polling service): the delay is still the loop's timer, so it is reported and fixed as a loop of synchronous work is.
/// Another delay awaited in the pass makes the delay a pause among others: not reported.
/// </summary>
public sealed class DelayTimerLoopWorkTests
{
    private const string Loops = /* lang=c#-test */ """
        using System;
        using System.Threading;
        using System.Threading.Tasks;

        public static class Api
        {
            /// <summary>Set once the fourth poll is done, as a service's stop flag is set by other code.</summary>
            private static bool s_drained;

            private static async Task<int> PollAsync(int count)
            {
                await Task.Yield();
                s_drained = count + 1 >= 4;
                return count + 1;
            }

            public static async Task<string> WorkFirst()
            {
                var count = 0;
                var running = true;
                while (running)
                {
                    count = await PollAsync(count);
                    running = count < 3;
                    await [|Task.Delay(5)|];
                }

                return "count " + count;
            }

            public static async Task<string> DelayFirst()
            {
                var count = 0;
                for (;;)
                {
                    await [|Task.Delay(5, CancellationToken.None)|].ConfigureAwait(false);
                    try
                    {
                        count = await PollAsync(count).ConfigureAwait(false);
                    }
                    catch (InvalidOperationException)
                    {
                    }

                    if (count == 2) break;
                }

                return "count " + count;
            }

            public static async Task<string> Caught(CancellationToken token)
            {
                var count = 0;
                try
                {
                    while (!token.IsCancellationRequested)
                    {
                        count = await PollAsync(count);
                        if (s_drained) break;
                        await [|Task.Delay(5, token)|];
                    }
                }
                catch (OperationCanceledException)
                {
                }

                return "count " + count;
            }
        }
        """;

    private static readonly string LoopsFixed = Fixed(Loops, "        while (running)", "        for (;;)", "            while (!token.IsCancellationRequested)");

    /// <summary>The fix's text: one timer before each loop, whose head is given with its indentation, and ticks for the delays of 5 ms.</summary>
    private static string Fixed(string code, params string[] loopHeads)
    {
        var text = TestMarkup.Strip(code);
        foreach (var head in loopHeads)
        {
            var indent = head[..(head.Length - head.TrimStart().Length)];
            text = text.Replace(head, indent + "using var timer = new PeriodicTimer(TimeSpan.FromMilliseconds(5));\n" + head, StringComparison.Ordinal);
        }

        return Regex.Replace(text, @"Task\.Delay\(5(, )?", "timer.WaitForNextTickAsync(");
    }

    /// <summary>
    /// Work awaited first or last in the pass, in a try of its own, or beside a token whose cancellation the loop's
    /// catch takes: one PeriodicTimer for the loop.
    /// </summary>
    [Fact]
    public async Task ALoopThatAwaitsItsWork_GetsOnePeriodicTimer()
    {
        await DelayTimerLoopFix.OneLoopAtATime(Loops, LoopsFixed).RunAsync();
    }

    /// <summary>Each loop makes as many passes, awaiting its work each time, before and after the fix.</summary>
    [Theory]
    [InlineData("WorkFirst", null)]
    [InlineData("DelayFirst", null)]
    [InlineData("Caught", "none")]
    public async Task FixedLoopsWithWork_PassAsOftenAsBefore(string method, string? token)
    {
        object?[] arguments = token is null ? [] : [CancellationToken.None];
        var original = await CodeRunner.RunAsync(TestMarkup.Strip(Loops), "Api", method, arguments);
        Assert.StartsWith("returned count", original, StringComparison.Ordinal);
        Assert.Equal(original, await CodeRunner.RunAsync(LoopsFixed, "Api", method, arguments));
    }

    /// <summary>
    /// A pass that ends with its delay but can leave the loop before it on a test of its own result is a poll until
    /// something is ready, not a timer: it may never wait, and a timer made before the loop would cost one on every call
    /// that leaves at once (a stream's read that waits for data, found on a media server's progressive file stream). Not
    /// reported, with the test written as a call, a comparison or a local the pass sets, as a break or a return. Still
    /// reported: an exit on a stop flag that other code sets, an exit in a catch, and a pass that starts with its delay
    /// (every pass waits before it can leave).
    /// </summary>
    [Fact]
    public async Task APollUntilReady_IsNotATimer_AStopFlagStillIs()
    {
        const string Code = """
            using System;
            using System.Collections.Generic;
            using System.Threading;
            using System.Threading.Tasks;

            class C
            {
                private volatile bool _stopping;
                private readonly Queue<int> _queue = new();

                static Task<int> ReadAsync(CancellationToken token) => Task.FromResult(1);
                static Task<bool> IsReadyAsync() => Task.FromResult(true);
                static bool Enough(int total, long elapsed) => total > 0 || elapsed > 1000;

                async Task<int> ReadSome(CancellationToken token)
                {
                    var total = 0;
                    var clock = System.Diagnostics.Stopwatch.StartNew();
                    while (true)
                    {
                        total += await ReadAsync(token);
                        if (Enough(total, clock.ElapsedMilliseconds))
                        {
                            break;
                        }

                        await Task.Delay(50, token);
                    }

                    return total;
                }

                async Task WaitUntilReady()
                {
                    for (;;)
                    {
                        var ready = await IsReadyAsync();
                        if (ready) return;
                        await Task.Delay(100);
                    }
                }

                async Task Drain(CancellationToken token)
                {
                    while (!token.IsCancellationRequested)
                    {
                        if (_queue.Count == 0) break;
                        _queue.Dequeue();
                        await Task.Delay(10);
                    }
                }

                async Task UntilStopped()
                {
                    while (true)
                    {
                        await ReadAsync(CancellationToken.None);
                        if (_stopping) break;
                        await [|Task.Delay(1000)|];
                    }
                }

                async Task UntilFailed()
                {
                    while (true)
                    {
                        try
                        {
                            await ReadAsync(CancellationToken.None);
                        }
                        catch (InvalidOperationException)
                        {
                            break;
                        }

                        await [|Task.Delay(1000)|];
                    }
                }

                async Task WaitFirst()
                {
                    while (true)
                    {
                        await [|Task.Delay(100)|];
                        if (await IsReadyAsync()) break;
                    }
                }
            }
            """;
        await Verify.VerifyAnalyzerAsync(Code);
    }

    /// <summary>
    /// A loop that tests its condition first and may end before its first pass is a wait for something to change, not
    /// a timer: many calls may not wait at all, and a timer made before the loop would cost one each time. Not
    /// reported: a pass that only waits on another object's state (a shutdown waiting for running work, in a
    /// <c>try</c> or not), and a test of a variable the pass sets that starts from a call's result (<c>var stop =
    /// check(); while (!stop) { await Task.Delay(200); stop = check(); }</c>). Still reported: a wait-only pass on a
    /// stop flag or token of the loop's own, which keeps going for many passes; a pass with work beside the delay; a
    /// wait-only pass that runs at least once (<c>do … while</c>); and a variable that starts as a constant, where the
    /// loop runs at least once.
    /// </summary>
    [Fact]
    public async Task APollTestedFirst_IsNotATimer()
    {
        const string Code = """
            using System;
            using System.Threading;
            using System.Threading.Tasks;

            class Worker
            {
                public bool IsRunning { get; set; }
            }

            class C
            {
                private readonly Worker _worker = new();
                private volatile bool _stopped;
                private int _ticks;

                async Task StopAsync()
                {
                    while (_worker.IsRunning)
                    {
                        await Task.Delay(50);
                    }
                }

                async Task StopCaughtAsync(Worker worker)
                {
                    while (worker.IsRunning)
                    {
                        try
                        {
                            await Task.Delay(50);
                        }
                        catch (OperationCanceledException)
                        {
                        }
                    }
                }

                async Task UntilStopped()
                {
                    for (; !_stopped;)
                    {
                        await [|Task.Delay(TimeSpan.FromMilliseconds(100))|].ConfigureAwait(false);
                    }
                }

                async Task UntilCanceled(CancellationToken token)
                {
                    while (!token.IsCancellationRequested)
                    {
                        try
                        {
                            await [|Task.Delay(1000, token)|];
                        }
                        catch (OperationCanceledException)
                        {
                        }
                    }
                }

                async Task Counting()
                {
                    while (_worker.IsRunning)
                    {
                        _ticks++;
                        await [|Task.Delay(50)|];
                    }
                }

                static async Task WaitFor(Func<bool> check)
                {
                    var stop = check();
                    while (!stop)
                    {
                        await Task.Delay(200);
                        stop = check();
                    }
                }

                static async Task RunsOnce(Func<bool> check)
                {
                    var stop = false;
                    while (!stop)
                    {
                        await [|Task.Delay(200)|];
                        stop = check();
                    }
                }

                async Task AtLeastOnce()
                {
                    do
                    {
                        await [|Task.Delay(50)|];
                    }
                    while (_worker.IsRunning);
                }
            }
            """;
        await Verify.VerifyAnalyzerAsync(Code);
    }

    /// <summary>
    /// Not reported: a pass that awaits two delays (each is a pause among others), and a period computed anew in each
    /// pass (a heartbeat that subtracts the last round trip). Reported without a fix: awaited work beside a token the
    /// loop does not catch (the tick's exception type would differ), and a period a local of the pass sets from a
    /// constant (the same every pass, but not a constant the timer can be made with).
    /// </summary>
    [Fact]
    public async Task TwoDelaysInAPass_AreNotATimer_AndAnUncaughtTokenHasNoFix()
    {
        const string Code = """
            using System.Threading;
            using System.Threading.Tasks;

            class C
            {
                private volatile bool _stopped;

                static Task SendAsync() => Task.CompletedTask;

                async Task TwoPauses()
                {
                    while (!_stopped)
                    {
                        await Task.Delay(100);
                        await SendAsync();
                        await Task.Delay(1000);
                    }
                }

                async Task Uncaught(CancellationToken token)
                {
                    while (!token.IsCancellationRequested)
                    {
                        await SendAsync();
                        await [|Task.Delay(1000, token)|];
                    }
                }

                private int _roundTrip;

                async Task Heartbeat(int interval)
                {
                    while (!_stopped)
                    {
                        await SendAsync();
                        var wait = System.Math.Max(0, interval - _roundTrip);
                        await Task.Delay(wait);
                    }
                }

                async Task SetInThePass()
                {
                    while (!_stopped)
                    {
                        await SendAsync();
                        var period = System.TimeSpan.FromSeconds(1);
                        await [|Task.Delay(period)|];
                    }
                }
            }
            """;
        await Verify.VerifyCodeFixAsync(Code, Code);
    }

    /// <summary>
    /// The hosted service's pass: work and the delay in a try whose catch takes the cancellation
    /// (<c>catch (OperationCanceledException) { break; }</c>), the delay last in the try and the try last in the pass,
    /// or both first. An exception before the delay skips the wait alike, whether a delay or a tick.
    /// </summary>
    private const string InATry = /* lang=c#-test */ """
        using System;
        using System.Threading;
        using System.Threading.Tasks;

        public static class Api
        {
            private static async Task<int> PollAsync(int count)
            {
                await Task.Yield();
                if (count == 1) throw new InvalidOperationException();
                return count + 1;
            }

            public static async Task<string> Hosted(int stopAt)
            {
                using var source = new CancellationTokenSource();
                var count = 0;
                var failures = 0;
                while (!source.Token.IsCancellationRequested)
                {
                    try
                    {
                        count = await PollAsync(count == 1 ? 2 : count);
                        if (count >= stopAt) source.Cancel();
                        await [|Task.Delay(5, source.Token)|];
                    }
                    catch (OperationCanceledException)
                    {
                        break;
                    }
                    catch (InvalidOperationException)
                    {
                        failures++;
                    }
                }

                return "count " + count + ", failures " + failures;
            }

            public static async Task<string> Guarded(int stopAt)
            {
                using var source = new CancellationTokenSource();
                var count = 0;
                while (true)
                {
                    try
                    {
                        await [|Task.Delay(5, source.Token)|];
                    }
                    catch (OperationCanceledException)
                    {
                        break;
                    }

                    count = await PollAsync(count == 1 ? 2 : count);
                    if (count >= stopAt) source.Cancel();
                }

                return "count " + count;
            }

            public static async Task<string> WaitFirst(int stopAt)
            {
                var count = 0;
                for (;;)
                {
                    try
                    {
                        await [|Task.Delay(5)|];
                        count = await PollAsync(count == 1 ? 2 : count);
                    }
                    finally
                    {
                        count++;
                    }

                    if (count >= stopAt) break;
                }

                return "count " + count;
            }
        }
        """;

    private static readonly string InATryFixed = Fixed(InATry, "        while (!source.Token.IsCancellationRequested)", "        while (true)", "        for (;;)");

    [Fact]
    public async Task ADelayAtTheEdgeOfATryAtTheEdgeOfThePass_GetsOnePeriodicTimer()
    {
        await DelayTimerLoopFix.OneLoopAtATime(InATry, InATryFixed).RunAsync();
    }

    [Theory]
    [InlineData("Hosted", 4)]
    [InlineData("Guarded", 5)]
    [InlineData("WaitFirst", 6)]
    public async Task ADelayInATry_FixedLoopsPassAsOftenAsBefore(string method, int stopAt)
    {
        var original = await CodeRunner.RunAsync(TestMarkup.Strip(InATry), "Api", method, stopAt);
        Assert.StartsWith("returned count", original, StringComparison.Ordinal);
        Assert.Equal(original, await CodeRunner.RunAsync(InATryFixed, "Api", method, stopAt));
    }

    /// <summary>
    /// Reported without a fix: a try in the pass that catches the delay's own TaskCanceledException (the tick throws an
    /// OperationCanceledException it would not catch). Not reported: a try that starts the pass with the delay at its
    /// end after work (more work follows the try: the delay is in the middle of the pass), and a delay in a catch.
    /// </summary>
    [Fact]
    public async Task ADelayInATry_WithADifferentCatchOrSide_IsNotFixed()
    {
        const string Code = """
            using System;
            using System.Threading;
            using System.Threading.Tasks;

            class C
            {
                static Task SendAsync() => Task.CompletedTask;

                async Task OwnCatch(CancellationToken token)
                {
                    while (!token.IsCancellationRequested)
                    {
                        try
                        {
                            await SendAsync();
                            await [|Task.Delay(1000, token)|];
                        }
                        catch (TaskCanceledException)
                        {
                        }
                    }
                }

                async Task OtherSide(CancellationToken token)
                {
                    while (!token.IsCancellationRequested)
                    {
                        try
                        {
                            await SendAsync();
                            await Task.Delay(1000, token);
                        }
                        catch (OperationCanceledException)
                        {
                            break;
                        }

                        await SendAsync();
                    }
                }

                async Task InACatch(CancellationToken token)
                {
                    while (!token.IsCancellationRequested)
                    {
                        try
                        {
                            await SendAsync();
                        }
                        catch (InvalidOperationException)
                        {
                            await Task.Delay(1000, token);
                        }
                    }
                }
            }
            """;
        await Verify.VerifyCodeFixAsync(Code, Code);
    }
}
