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
            private static async Task<int> PollAsync(int count)
            {
                await Task.Yield();
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
                        if (count == 4) break;
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

    private static readonly string LoopsFixed = TestMarkup.Strip(Loops)
        .Replace("        while (running)", "        using var timer = new PeriodicTimer(TimeSpan.FromMilliseconds(5));\n        while (running)", StringComparison.Ordinal)
        .Replace("        for (;;)", "        using var timer = new PeriodicTimer(TimeSpan.FromMilliseconds(5));\n        for (;;)", StringComparison.Ordinal)
        .Replace("            while (!token.IsCancellationRequested)", "            using var timer = new PeriodicTimer(TimeSpan.FromMilliseconds(5));\n            while (!token.IsCancellationRequested)", StringComparison.Ordinal)
        .Replace("await Task.Delay(5);", "await timer.WaitForNextTickAsync();", StringComparison.Ordinal)
        .Replace("await Task.Delay(5, CancellationToken.None).ConfigureAwait(false);", "await timer.WaitForNextTickAsync(CancellationToken.None).ConfigureAwait(false);", StringComparison.Ordinal)
        .Replace("await Task.Delay(5, token);", "await timer.WaitForNextTickAsync(token);", StringComparison.Ordinal);

    /// <summary>
    /// Work awaited first or last in the pass, in a try of its own, or beside a token whose cancellation the loop's
    /// catch takes: one PeriodicTimer for the loop.
    /// </summary>
    [Fact]
    public async Task ALoopThatAwaitsItsWork_GetsOnePeriodicTimer()
    {
        await new Verify.Test { TestCode = Loops, FixedCode = LoopsFixed }.RunAsync();
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
}
