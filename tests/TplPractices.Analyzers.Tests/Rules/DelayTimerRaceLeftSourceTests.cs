using TplPractices.Analyzers.Rules;
using TplPractices.Analyzers.Tests.Verifiers;
using Verify = TplPractices.Analyzers.Tests.Verifiers.CSharpCodeFixVerifier<
    TplPractices.Analyzers.Rules.DelayTimerAnalyzer,
    TplPractices.Analyzers.CodeFixes.Rules.DelayTimerFixer>;

namespace TplPractices.Analyzers.Tests.Rules;

/// <summary>
/// TPL0017's race on a token of the code's own source that the race leaves uncanceled when the work wins: a connect
/// with a time-out whose linked source cancels the work only in the branch the delay won (Garnet's client), or a linked
/// source nothing cancels. The delay's timer stays queued until it fires each time the work wins; the fix links a
/// source of its own to the delay's token and cancels it once the race is decided.
/// </summary>
public sealed class DelayTimerRaceLeftSourceTests
{
    private const string Connects = /* lang=c#-test */ """
        using System;
        using System.Threading;
        using System.Threading.Tasks;

        public static class Api
        {
            private static async Task Work(int millis, CancellationToken token) => await Task.Delay(millis, token);

            public static async Task<string> Connect(int workMillis, CancellationToken cancellationToken)
            {
                using var timeoutCts = CancellationTokenSource.CreateLinkedTokenSource(cancellationToken);
                var connect = Work(workMillis, timeoutCts.Token);
                if (await Task.WhenAny(connect, {|#0:Task.Delay(400, timeoutCts.Token)|}).ConfigureAwait(false) == connect)
                {
                    await connect.ConfigureAwait(false);
                    return "work";
                }
                else
                {
                    timeoutCts.Cancel();
                    return "timeout";
                }
            }

            public static async Task<string> NotWon(int workMillis, CancellationToken cancellationToken)
            {
                var cts = new CancellationTokenSource();
                var work = Work(workMillis, cts.Token);
                var first = await Task.WhenAny(work, {|#1:Task.Delay(400, cts.Token)|});
                if (first != work)
                {
                    await cts.CancelAsync();
                    return "timeout";
                }

                return "work";
            }

            public static async Task<string> AfterReturn(int workMillis, CancellationToken cancellationToken)
            {
                using var cts = CancellationTokenSource.CreateLinkedTokenSource(cancellationToken);
                var work = Work(workMillis, cts.Token);
                var first = await Task.WhenAny(work, {|#3:Task.Delay(400, cts.Token)|});
                if (first == work)
                {
                    return "work";
                }

                cts.Cancel();
                return "timeout";
            }

            public static async Task<string> LinkedOnly(int workMillis, CancellationToken cancellationToken)
            {
                using var linked = CancellationTokenSource.CreateLinkedTokenSource(cancellationToken);
                var first = await Task.WhenAny(Work(workMillis, CancellationToken.None), {|#2:Task.Delay(400, linked.Token)|});
                return first.IsCompleted && !linked.IsCancellationRequested ? "decided" : "?";
            }
        }
        """;

    private static readonly string ConnectsFixed = TestMarkup.Strip(Connects)
        .Replace(
            "        if (await Task.WhenAny(connect, Task.Delay(400, timeoutCts.Token)).ConfigureAwait(false) == connect)\n",
            "        using var delayCancellation = CancellationTokenSource.CreateLinkedTokenSource(timeoutCts.Token);\n"
            + "        var winner = await Task.WhenAny(connect, Task.Delay(400, delayCancellation.Token)).ConfigureAwait(false);\n"
            + "        delayCancellation.Cancel();\n"
            + "        if (winner == connect)\n",
            StringComparison.Ordinal)
        // NotWon's race and AfterReturn's, written alike.
        .Replace(
            "        var first = await Task.WhenAny(work, Task.Delay(400, cts.Token));\n",
            "        using var delayCancellation = CancellationTokenSource.CreateLinkedTokenSource(cts.Token);\n"
            + "        var first = await Task.WhenAny(work, Task.Delay(400, delayCancellation.Token));\n"
            + "        delayCancellation.Cancel();\n",
            StringComparison.Ordinal)
        .Replace(
            "        var first = await Task.WhenAny(Work(workMillis, CancellationToken.None), Task.Delay(400, linked.Token));\n",
            "        using var delayCancellation = CancellationTokenSource.CreateLinkedTokenSource(linked.Token);\n"
            + "        var first = await Task.WhenAny(Work(workMillis, CancellationToken.None), Task.Delay(400, delayCancellation.Token));\n"
            + "        delayCancellation.Cancel();\n",
            StringComparison.Ordinal);

    [Fact]
    public async Task ASourceCanceledOnlyWhereTheDelayWon_IsReportedAndFixed()
    {
        Assert.Equal(4, ConnectsFixed.Split("delayCancellation.Cancel();").Length - 1);
        var test = new Verify.Test { TestCode = Connects, FixedCode = ConnectsFixed };
        for (var i = 0; i < 4; i++)
        {
            test.ExpectedDiagnostics.Add(Verify.Diagnostic().WithLocation(i).WithArguments(DelayTimer.LeftSourceRaceMessage));
        }

        await test.RunAsync();
    }

    /// <summary>The winner, and what the code does after the race, are the same before and after the fix.</summary>
    [Theory]
    [InlineData("Connect", 0)]
    [InlineData("Connect", -1)]
    [InlineData("NotWon", 0)]
    [InlineData("NotWon", -1)]
    [InlineData("AfterReturn", 0)]
    [InlineData("AfterReturn", -1)]
    [InlineData("LinkedOnly", 0)]
    public async Task FixedRace_DecidesTheSame(string method, int workMillis)
    {
        var original = await CodeRunner.RunAsync(TestMarkup.Strip(Connects), "Api", method, workMillis, CancellationToken.None);
        Assert.Equal(original, await CodeRunner.RunAsync(ConnectsFixed, "Api", method, workMillis, CancellationToken.None));
        Assert.Equal(
            (method, workMillis) switch
            {
                ("LinkedOnly", _) => "returned decided",
                (_, < 0) => "returned timeout",
                _ => "returned work",
            },
            original);
    }

    /// <summary>
    /// A library of two targets, netstandard2.0 at C# 7.3 beside net10.0 with nullable on: the source linked for the
    /// delay goes in a using block before C# 8 that holds the race and the test of its winner; the author's cancel after
    /// the test stays after it, reached only where the delay won.
    /// </summary>
    [Fact]
    public async Task OnCSharp73BesideNet10_TheRaceIsFixedWithAUsingBlock()
    {
        await new Verify.Test
        {
            SharedByNetStandardAndNet10 = true,
            TestCode = /* lang=c#-test */ """
                using System.Threading;
                using System.Threading.Tasks;

                public static class Api
                {
                    public static async Task<bool> Connect(Task work, CancellationToken token)
                    {
                        using (var cts = CancellationTokenSource.CreateLinkedTokenSource(token))
                        {
                            if (await Task.WhenAny(work, [|Task.Delay(400, cts.Token)|]).ConfigureAwait(false) == work)
                            {
                                return true;
                            }

                            cts.Cancel();
                            return false;
                        }
                    }
                }
                """,
            FixedCode = /* lang=c#-test */ """
                using System.Threading;
                using System.Threading.Tasks;

                public static class Api
                {
                    public static async Task<bool> Connect(Task work, CancellationToken token)
                    {
                        using (var cts = CancellationTokenSource.CreateLinkedTokenSource(token))
                        {
                            using (var delayCancellation = CancellationTokenSource.CreateLinkedTokenSource(cts.Token))
                            {
                                var winner = await Task.WhenAny(work, Task.Delay(400, delayCancellation.Token)).ConfigureAwait(false);
                                delayCancellation.Cancel();
                                if (winner == work)
                                {
                                    return true;
                                }
                            }

                            cts.Cancel();
                            return false;
                        }
                    }
                }
                """,
        }.RunAsync();
    }

    /// <summary>
    /// Not reported where the race's own code may cancel the delay when the work wins, or where the source has a timer
    /// of its own: a Cancel in the branch the work won, one after both branches or before the test, one beside a comparison with another
    /// task, a race of three, and a time-out source. (After the branches counts where the work's branch returns.)
    /// </summary>
    [Fact]
    public async Task ASourceTheWorksWinMayCancel_IsNotReported()
    {
        await new Verify.Test
        {
            TestCode = /* lang=c#-test */ """
                using System.Threading;
                using System.Threading.Tasks;

                public static class Api
                {
                    public static async Task<bool> WorkWon(Task work, CancellationToken token)
                    {
                        using var cts = CancellationTokenSource.CreateLinkedTokenSource(token);
                        if (await Task.WhenAny(work, Task.Delay(400, cts.Token)) == work)
                        {
                            cts.Cancel();
                            return true;
                        }

                        return false;
                    }

                    public static async Task<bool> AfterBoth(Task work, CancellationToken token)
                    {
                        using var cts = CancellationTokenSource.CreateLinkedTokenSource(token);
                        var first = await Task.WhenAny(work, Task.Delay(400, cts.Token));
                        if (first == work)
                        {
                            System.Console.WriteLine("in time");
                        }

                        cts.Cancel();
                        return first == work;
                    }

                    public static async Task<bool> BeforeTheTest(Task work, CancellationToken token)
                    {
                        using var cts = CancellationTokenSource.CreateLinkedTokenSource(token);
                        var first = await Task.WhenAny(work, Task.Delay(400, cts.Token));
                        cts.Cancel();
                        if (first == work)
                        {
                            return true;
                        }

                        return false;
                    }

                    public static async Task<bool> OtherTask(Task work, Task other, CancellationToken token)
                    {
                        using var cts = CancellationTokenSource.CreateLinkedTokenSource(token);
                        var first = await Task.WhenAny(work, Task.Delay(400, cts.Token));
                        if (first == other)
                        {
                            return true;
                        }
                        else
                        {
                            cts.Cancel();
                            return false;
                        }
                    }

                    public static async Task<bool> Three(Task work, Task more, CancellationToken token)
                    {
                        using var cts = CancellationTokenSource.CreateLinkedTokenSource(token);
                        var first = await Task.WhenAny(work, more, Task.Delay(400, cts.Token));
                        if (first == work)
                        {
                            return true;
                        }
                        else
                        {
                            cts.Cancel();
                            return false;
                        }
                    }

                    public static async Task<bool> Reassigned(Task work)
                    {
                        var cts = new CancellationTokenSource();
                        var first = await Task.WhenAny(work, Task.Delay(400, cts.Token));
                        first = work;
                        if (first != work)
                        {
                            cts.Cancel();
                        }

                        return true;
                    }

                    public static async Task<bool> TimedSource(Task work)
                    {
                        using var cts = new CancellationTokenSource(1000);
                        if (await Task.WhenAny(work, Task.Delay(400, cts.Token)) == work)
                        {
                            return true;
                        }

                        cts.Cancel();
                        return false;
                    }
                }
                """,
        }.RunAsync();
    }
}
