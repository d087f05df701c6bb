using TplPractices.Analyzers.Rules;

namespace TplPractices.Analyzers.Tests.Rules;

/// <summary>
/// TPL0017's race after a guard: <c>if (!work.IsCompleted &amp;&amp; await Task.WhenAny(work, Task.Delay(t)) != work)
/// throw …;</c>, the time-out idiom that skips the race for work already done (seen in a caching library's lock path).
/// With no <c>else</c>, the fix tests the guard first and races inside it, so the race runs exactly when the
/// <c>&amp;&amp;</c> ran it. An <c>if</c> with an <c>else</c> (which runs when either test fails), <c>||</c>, a guard in
/// an expression body, and a race with more <c>&amp;&amp;</c> tests after it keep the report without a fix.
/// </summary>
public sealed class DelayTimerGuardedRaceTests
{
    private const string Guarded = /* lang=c#-test */ """
        using System;
        using System.Threading;
        using System.Threading.Tasks;

        public static class Api
        {
            private static async Task<int> Work(int millis) { await Task.Delay(millis, CancellationToken.None); return millis; }

            public static async Task<string> All() =>
                string.Join(";", await Task.WhenAll(Once(Task.FromResult(7)), Once(Work(0)), Once(Work(-1)), Twice(Work(0), true), Twice(Work(0), false)));

            private static async Task<string> Once(Task<int> work)
            {
                try
                {
                    return (await GetOrWait(work)).ToString();
                }
                catch (TimeoutException)
                {
                    return "timeout";
                }
            }

            public static async Task<int> GetOrWait(Task<int> work)
            {
                // Work already done needs no timer.
                if (!work.IsCompleted && await Task.WhenAny(work, {|#0:Task.Delay(400)|}) != work)
                    throw new TimeoutException();

                return await work;
            }

            private static async Task<string> Twice(Task<int> work, bool wait)
            {
                var seen = "none";
                if (wait && await Task.WhenAny(work, {|#1:Task.Delay(400, CancellationToken.None)|}) == work)
                {
                    seen = "work";
                }

                return seen;
            }
        }
        """;

    private static readonly string GuardedFixed = Guarded
        .Replace("""
                    if (!work.IsCompleted && await Task.WhenAny(work, {|#0:Task.Delay(400)|}) != work)
                        throw new TimeoutException();
            """, """
                    if (!work.IsCompleted)
                    {
                        using var delayCancellation = new CancellationTokenSource();
                        var winner = await Task.WhenAny(work, Task.Delay(400, delayCancellation.Token));
                        delayCancellation.Cancel();
                        if (winner != work)
                            throw new TimeoutException();
                    }
            """, StringComparison.Ordinal)
        .Replace("""
                    if (wait && await Task.WhenAny(work, {|#1:Task.Delay(400, CancellationToken.None)|}) == work)
                    {
                        seen = "work";
                    }
            """, """
                    if (wait)
                    {
                        using var delayCancellation = new CancellationTokenSource();
                        var winner = await Task.WhenAny(work, Task.Delay(400, delayCancellation.Token));
                        delayCancellation.Cancel();
                        if (winner == work)
                        {
                            seen = "work";
                        }
                    }
            """, StringComparison.Ordinal);

    [Fact]
    public async Task RaceAfterAGuard_IsRacedInsideIt()
    {
        await DelayTimerRaceChecks.FixesAsync(Guarded, GuardedFixed, DelayTimer.RaceMessage, DelayTimer.RaceMessage);
    }

    [Fact]
    public async Task FixedGuardedRace_DecidesTheSame()
    {
        Assert.DoesNotContain("&&", GuardedFixed, StringComparison.Ordinal);
        await DelayTimerRaceChecks.DecidesTheSameAsync(Guarded, GuardedFixed, "7;0;timeout;work;none");
    }

    /// <summary>Before C# 8 a using block holds the race, the cancel and the test; a delay on the caller's token takes a linked source.</summary>
    [Fact]
    public async Task RaceAfterAGuard_BesideCSharp73_TakesAUsingBlock()
    {
        await DelayTimerRaceChecks.FixesBesideCSharp73Async(/* lang=c#-test */ """
            using System;
            using System.Threading;
            using System.Threading.Tasks;

            public static class Api
            {
                public static async Task<int> GetOrWait(Task<int> work, CancellationToken token)
                {
                    if (!work.IsCompleted && await Task.WhenAny(work, {|#0:Task.Delay(400, token)|}) != work)
                    {
                        throw new TimeoutException();
                    }

                    return await work;
                }
            }
            """, """
            using System;
            using System.Threading;
            using System.Threading.Tasks;

            public static class Api
            {
                public static async Task<int> GetOrWait(Task<int> work, CancellationToken token)
                {
                    if (!work.IsCompleted)
                    {
                        using (var delayCancellation = CancellationTokenSource.CreateLinkedTokenSource(token))
                        {
                            var winner = await Task.WhenAny(work, Task.Delay(400, delayCancellation.Token));
                            delayCancellation.Cancel();
                            if (winner != work)
                            {
                                throw new TimeoutException();
                            }
                        }
                    }

                    return await work;
                }
            }
            """, DelayTimer.TokenRaceMessage);
    }

    [Fact]
    public async Task RaceAfterAGuard_WithAnElse_OrOr_InAnExpressionBody_OrBeforeMoreTests_HasNoFix()
    {
        await DelayTimerRaceChecks.HasNoFixAsync(/* lang=c#-test */ """
            using System;
            using System.Threading.Tasks;

            public static class Api
            {
                public static async Task<string> Else(Task work, bool ready)
                {
                    if (ready && await Task.WhenAny(work, {|#0:Task.Delay(400)|}) == work)
                    {
                        return "work";
                    }
                    else
                    {
                        return "other";
                    }
                }

                public static async Task<string> Either(Task work, bool done)
                {
                    if (done || await Task.WhenAny(work, {|#1:Task.Delay(400)|}) == work)
                    {
                        return "work";
                    }

                    return "timeout";
                }

                public static async Task<bool> Body(Task work, bool ready) => ready && await Task.WhenAny(work, {|#2:Task.Delay(400)|}) == work;

                public static async Task<string> More(Task work, bool ready)
                {
                    if (ready && await Task.WhenAny(work, {|#3:Task.Delay(400)|}) == work && !work.IsFaulted)
                    {
                        return "work";
                    }

                    return "other";
                }
            }
            """, DelayTimer.RaceMessage, DelayTimer.RaceMessage, DelayTimer.RaceMessage, DelayTimer.RaceMessage);
    }
}
