using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp;
using TplPractices.Analyzers.Tests.Verifiers;
using Verify = TplPractices.Analyzers.Tests.Verifiers.CSharpCodeFixVerifier<
    TplPractices.Analyzers.Rules.AwaitInLoopAnalyzer,
    TplPractices.Analyzers.CodeFixes.Rules.AwaitInLoopFixer>;

namespace TplPractices.Analyzers.Tests.Rules;

/// <summary>TPL0005: the three cases in every kind of loop, and the awaits of real asynchronous work it leaves alone.</summary>
public sealed class AwaitInLoopTests
{
    [Fact]
    public async Task SynchronousWorkOnThePool_ReportsInEveryLoopKind()
    {
        await Verify.VerifyAnalyzerAsync(/* lang=c#-test */ """
            using System.Collections.Generic;
            using System.Threading.Tasks;

            class C
            {
                static int Work(int i) => i * 2;
                static void Log(int i) { }

                async Task<int> M(int n, List<int> items)
                {
                    var total = 0;
                    for (var i = 0; i < n; i++) total += [|await Task.Run(() => Work(i))|];
                    foreach (var item in items) [|await Task.Factory.StartNew(() => Log(item))|];
                    var j = 0;
                    while (j++ < n) [|await Task.Run(() => { Log(j); })|];
                    do { total += [|await Task.Run<int>(() => Work(j)).ConfigureAwait(false)|]; } while (--j > 0);
                    for (var k = 0; k < n; k++) [|await Task.Run(Done)|];
                    return total;
                }

                static void Done() { }
            }
            """);
    }

    [Fact]
    public async Task AlreadyCompletedTasks_Report()
    {
        await Verify.VerifyAnalyzerAsync(/* lang=c#-test */ """
            using System.Threading.Tasks;

            class C
            {
                async ValueTask<int> M(int n)
                {
                    var total = 0;
                    for (var i = 0; i < n; i++)
                    {
                        total += [|await Task.FromResult(i)|];
                        [|await Task.CompletedTask|];
                        total += [|await new ValueTask<int>(i)|];
                        total += [|await ValueTask.FromResult(i)|];
                        [|await default(ValueTask)|];
                        [|await ValueTask.CompletedTask|];
                        [|await Task.CompletedTask.ConfigureAwait(false)|];
                    }

                    return total;
                }
            }
            """);
    }

    /// <summary>An await that forces a yield, swallows, or computes its ConfigureAwait argument does something even on a completed task.</summary>
    [Fact]
    public async Task CompletedTasksConfiguredToDoMore_DoNotReport()
    {
        await Verify.VerifyAnalyzerAsync(/* lang=c#-test */ """
            using System.Threading.Tasks;

            class C
            {
                int _passes;

                async Task M(int n)
                {
                    for (var i = 0; i < n; i++)
                    {
                        await Task.CompletedTask.ConfigureAwait(ConfigureAwaitOptions.ForceYielding);
                        await Task.FromResult(i).ConfigureAwait(ConfigureAwaitOptions.ForceYielding | ConfigureAwaitOptions.ContinueOnCapturedContext);
                        await Task.CompletedTask.ConfigureAwait(ConfigureAwaitOptions.SuppressThrowing);
                        await Task.CompletedTask.ConfigureAwait(_passes++ > 0);
                        [|await Task.CompletedTask.ConfigureAwait(ConfigureAwaitOptions.None)|];
                    }
                }
            }
            """);
    }

    [Fact]
    public async Task AsyncMethodsThatNeverAwait_Report()
    {
        await Verify.VerifyAnalyzerAsync(/* lang=c#-test */ """
            using System.Threading.Tasks;

            class C
            {
                static async Task<int> Double(int i) => i * 2;
                async Task Nothing() { }
                async Task<int> AwaitsInALambdaOnly(int i) { System.Func<Task> f = async () => await Task.Delay(i); return i; }
                async Task<int> Awaits(int i) { await Task.Delay(i); return i; }
                protected virtual async Task<int> Virtual(int i) => i;

                async Task<int> M(int n)
                {
                    var total = 0;
                    for (var i = 0; i < n; i++)
                    {
                        total += [|await Double(i)|];
                        [|await Nothing()|];
                        total += [|await AwaitsInALambdaOnly(i)|];
                        total += [|await Local(i)|];
                        total += await Awaits(i);
                        total += await Virtual(i);
                    }

                    return total;

                    static async Task<int> Local(int i) => i + 1;
                }
            }
            """);
    }

    /// <summary>
    /// An await whose line is preceded by the word in a comment or in the inactive branch of an <c>#if</c> (a
    /// connect helper that awaits one API on .NET Framework and another elsewhere) is still an await: the method is
    /// not one that never awaits.
    /// </summary>
    [Fact]
    public async Task AnAwaitAfterTheWordInACommentOrInactiveCode_CountsAsAnAwait()
    {
        await Verify.VerifyAnalyzerAsync(/* lang=c#-test */ """
            using System.Threading.Tasks;

            class C
            {
                async Task<bool> Connect(int i)
                {
            #if OLD_FRAMEWORK
                    await Task.Delay(i + 1);
            #else
                    await Task.Delay(i);
            #endif
                    return true;
                }

                async Task<int> Commented(int i)
                {
                    // await the delay, then answer
                    await Task.Delay(i);
                    return i;
                }

                async Task<int> OnlyInactive(int i)
                {
            #if OLD_FRAMEWORK
                    await Task.Delay(i);
            #endif
                    return i;
                }

                async Task<int> M(int n)
                {
                    var total = 0;
                    for (var i = 0; i < n; i++)
                    {
                        if (await Connect(i)) total++;
                        total += await Commented(i);
                        total += [|await OnlyInactive(i)|];
                    }

                    return total;
                }
            }
            """);
    }

    /// <summary>A call binds to a partial method's declaring part; the implementing part's body decides.</summary>
    [Fact]
    public async Task PartialMethods_AreReadInTheirImplementingPart()
    {
        await Verify.VerifyAnalyzerAsync(/* lang=c#-test */ """
            using System.Threading.Tasks;

            partial class C
            {
                public partial Task<int> FetchAsync(int i);

                private partial Task<int> ComputeAsync(int i);

                async Task M(int[] ids)
                {
                    foreach (var id in ids)
                    {
                        await FetchAsync(id);
                        [|await ComputeAsync(id)|];
                    }
                }
            }

            partial class C
            {
                public partial async Task<int> FetchAsync(int i)
                {
                    await Task.Delay(i);
                    return i;
                }

                private partial async Task<int> ComputeAsync(int i) => i * 2;
            }
            """);
    }

    [Fact]
    public async Task Messages_SayWhichCaseApplies()
    {
        await new Verify.Test
        {
            TestCode = /* lang=c#-test */ """
                using System.Threading.Tasks;

                class C
                {
                    static async Task<int> Double(int i) => i * 2;

                    async Task<int> M(int n)
                    {
                        var total = 0;
                        for (var i = 0; i < n; i++)
                        {
                            total += {|#0:await Task.Run(() =>
                            {
                                return i * 3;
                            })|};
                            total += {|#1:await Task.FromResult(i)|};
                            total += {|#2:await Double(i)|};
                        }

                        return total;
                    }
                }
                """,
            ExpectedDiagnostics =
            {
                Verify.Diagnostic().WithLocation(0).WithMessage("'Task.Run(...)' queues synchronous work to the thread pool on every iteration; run the whole loop in one Task.Run"),
                Verify.Diagnostic().WithLocation(1).WithMessage("'Task.FromResult(i)' awaits a task that is already complete on every iteration; use the value directly"),
                Verify.Diagnostic().WithLocation(2).WithMessage("'Double(i)' calls an async method that never awaits, paying for a state machine on every iteration; make it synchronous"),
            },
        }.RunAsync();
    }

    [Fact]
    public async Task RealAsynchronousWork_DoesNotReport()
    {
        await Verify.VerifyAnalyzerAsync(/* lang=c#-test */ """
            using System.Collections.Generic;
            using System.IO;
            using System.Threading;
            using System.Threading.Tasks;

            interface IWorker { Task<int> WorkAsync(int i); }

            class C
            {
                static Task<int> SlowAsync(int i) => Task.Delay(i).ContinueWith(_ => i);

                async Task M(Stream stream, byte[] buffer, IWorker worker, IAsyncEnumerable<int> values, CancellationToken token, int n)
                {
                    for (var i = 0; i < n; i++)
                    {
                        await stream.WriteAsync(buffer, 0, buffer.Length);
                        await Task.Delay(100, token);
                        await Task.WhenAll(SlowAsync(i), SlowAsync(i + 1));
                        await Task.WhenAny(SlowAsync(i), Task.Delay(10));
                        await Task.Yield();
                        await worker.WorkAsync(i);
                        await SlowAsync(i);
                        await Task.Run(async () => await SlowAsync(i));
                        await Task.Run(() => SlowAsync(i));
                        await Task.Factory.StartNew(() => SlowAsync(i)).Unwrap();
                    }

                    while (await stream.ReadAsync(buffer, 0, buffer.Length) > 0)
                    {
                    }

                    await foreach (var value in values)
                    {
                    }

                    for (var i = 0; i < n; i++)
                    {
                        await using var file = new FileStream("x", FileMode.Open);
                    }

                    await Task.Run(() => n * 2);
                    await Task.FromResult(n);
                    for (var i = 0; i < n; i++)
                    {
                        System.Func<Task> later = async () => await Task.Run(() => i);
                    }
                }
            }
            """);
    }

    [Fact]
    public async Task LoopsInLambdasAndLocalFunctions_AndNestedLoops_Report()
    {
        await Verify.VerifyAnalyzerAsync(/* lang=c#-test */ """
            using System;
            using System.Threading.Tasks;

            class C
            {
                static int Work(int i) => i;

                Func<int, Task<int>> Lambda() => async n =>
                {
                    var total = 0;
                    for (var i = 0; i < n; i++) total += [|await Task.Run(() => Work(i))|];
                    return total;
                };

                async Task<int> Nested(int n)
                {
                    var total = 0;
                    for (var i = 0; i < n; i++)
                        for (var j = 0; j < n; j++)
                            total += [|await Task.Run(() => Work(i + j))|];

                    return total + await Local();

                    async Task<int> Local()
                    {
                        var sum = 0;
                        foreach (var x in new[] { 1, 2 }) sum += [|await Task.FromResult(x)|];
                        return sum;
                    }
                }
            }
            """);
    }

    [Fact]
    public async Task TopLevelStatements_Report()
    {
        await new Verify.Test
        {
            TestState = { OutputKind = OutputKind.ConsoleApplication },
            TestCode = /* lang=c#-test */ """
                using System.Threading.Tasks;

                var total = 0;
                for (var i = 0; i < 10; i++) total += [|await Task.Run(() => i * i)|];
                System.Console.WriteLine(total);
                """,
        }.RunAsync();
    }

    [Fact]
    public async Task GeneratedCode_DoesNotReport()
    {
        await Verify.VerifyAnalyzerAsync(/* lang=c#-test */ """
            // <auto-generated/>
            using System.Threading.Tasks;

            class C
            {
                async Task M(int n) { for (var i = 0; i < n; i++) await Task.Run(() => i); }
            }
            """);
    }

    [Fact]
    public async Task OlderLanguageVersion_Reports()
    {
        await new Verify.Test
        {
            OnCSharp73NetFramework = true,
            TestCode = /* lang=c#-test */ """
                using System.Threading.Tasks;

                class C
                {
                    async Task M(int n) { for (var i = 0; i < n; i++) { [|await Task.CompletedTask|]; await Task.Delay(1); } }
                }
                """,
        }.RunAsync();
    }

    [Theory]
    [InlineData("for (var i = 0; i < 3; i++) await Task.Run(() => i")]
    [InlineData("for (var i = 0; i < 3; i++) await Task.Run(")]
    [InlineData("for (var i = 0; i < 3; i++) await Task.FromResult(")]
    [InlineData("for (var i = 0; i < 3; i++) await Missing(i)")]
    [InlineData("for (var i = 0; i < 3; i++) await Task.Run(() => Missing(i))")]
    [InlineData("for (var i = 0; i < 3; i++) await")]
    [InlineData("while (true) await Task.Run(async () => )")]
    [InlineData("foreach (var x in missing) await Task.CompletedTask")]
    public async Task IncompleteOrInvalidCode_DoesNotThrow(string statement)
    {
        Assert.InRange(await HalfTypedCode.CountDiagnosticsAsync(new Analyzers.Rules.AwaitInLoopAnalyzer(), "Task t", statement), 0, 1);
    }
}
