using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp;
using TplPractices.Analyzers.Tests.Verifiers;
using Verify = TplPractices.Analyzers.Tests.Verifiers.CSharpCodeFixVerifier<
    TplPractices.Analyzers.Rules.AwaitInLoopAnalyzer,
    TplPractices.Analyzers.CodeFixes.Rules.AwaitInLoopFixer>;

namespace TplPractices.Analyzers.Tests.Rules;

/// <summary>TPL0005: both rewrites, and every shape reported without a fix.</summary>
public sealed class AwaitInLoopFixTests
{
    [Fact]
    public async Task LoopsMoveIntoOneTaskRun_AndCompletedTasksGiveTheirValues()
    {
        await Verify.VerifyCodeFixAsync(AwaitInLoopCases.Before, AwaitInLoopCases.After);
    }

    /// <summary>The same file shared with netstandard2.0 and .NET Framework, as a multi-targeted library has it.</summary>
    [Fact]
    public async Task MultiTargetedProject_EveryTargetCompilesTheFix()
    {
        await new Verify.Test
        {
            TestCode = /* lang=c#-test */ """
                using System.Threading.Tasks;

                public static class Loops
                {
                    private static int Square(int i) => i * i;

                    public static async Task<int> Sum(int n)
                    {
                        var total = 0;
                        for (var i = 0; i < n; i++) total += [|await Task.Run(() => Square(i))|];
                        return total;
                    }

                    public static async Task<int> Completed(int n)
                    {
                        var total = await Task.Run(() => Square(0));
                        for (var i = 0; i < n; i++) total += [|await Task.FromResult(i)|];
                        return total;
                    }
                }
                """,
            FixedCode = /* lang=c#-test */ """
                using System.Threading.Tasks;

                public static class Loops
                {
                    private static int Square(int i) => i * i;

                    public static async Task<int> Sum(int n)
                    {
                        var total = 0;
                        await Task.Run(() =>
                        {
                            for (var i = 0; i < n; i++) total += Square(i);
                        });
                        return total;
                    }

                    public static async Task<int> Completed(int n)
                    {
                        var total = await Task.Run(() => Square(0));
                        for (var i = 0; i < n; i++) total += i;
                        return total;
                    }
                }
                """,
            LinkedTargets = { TestTarget.NetStandard20, TestTarget.Net472 },
        }.RunAsync();
    }

    [Fact]
    public async Task ShapesThatCannotMove_ReportWithoutFix()
    {
        const string Source = /* lang=c#-test */ """
            using System;
            using System.Collections.Generic;
            using System.Threading;
            using System.Threading.Tasks;

            class C
            {
                static int Work(int i) => i;
                int _field;

                async Task<int> M(int n, CancellationToken token, IEnumerable<int> items)
                {
                    var total = 0;

                    // Another await in the loop.
                    for (var i = 0; i < n; i++) { total += [|await Task.Run(() => Work(i))|]; await Task.Delay(1); }

                    // A return inside the loop would return from the lambda instead.
                    for (var i = 0; i < n; i++) { if (i > 5) return total; total += [|await Task.Run(() => Work(i))|]; }

                    // Code outside the delegate that may need the original thread (a UI control, say).
                    for (var i = 0; i < n; i++) { Console.WriteLine(i); total += [|await Task.Run(() => Work(i))|]; }
                    foreach (var item in Produce()) total += [|await Task.Run(() => Work(item))|];

                    // A field: code on the original context could use it while the loop runs on the pool.
                    for (var i = 0; i < n; i++) _field += [|await Task.Run(() => Work(i))|];

                    // StartNew runs on TaskScheduler.Current, Task.Run on the pool; a token changes when it starts.
                    for (var i = 0; i < n; i++) total += [|await Task.Factory.StartNew(() => Work(i))|];
                    for (var i = 0; i < n; i++) total += [|await Task.Run(() => Work(i), token)|];

                    // The delegate is a method group, or a statement lambda whose value is used.
                    for (var i = 0; i < n; i++) [|await Task.Run(Nothing)|];
                    for (var i = 0; i < n; i++) total += [|await Task.Run(() => { return Work(i); })|];

                    // Its value alone would not be a statement.
                    for (var i = 0; i < n; i++) [|await Task.Run(() => i + 1)|];

                    // A local only assigned inside the loop would not be definitely assigned after the lambda.
                    int last;
                    do { last = [|await Task.Run(() => Work(n))|]; } while (last < 0);
                    total += last;

                    return total;
                }

                async Task Only(int n)
                {
                    // The method's only await: removing it would leave an async method without await (CS1998).
                    for (var i = 0; i < n; i++) [|await Task.CompletedTask|];
                }

                async Task<int> Discarded(int n)
                {
                    // A discarded value that is neither a plain value nor a statement.
                    for (var i = 0; i < n; i++) [|await Task.FromResult(_field + i)|];
                    return await Task.FromResult(n);
                }

                static void Nothing() { }
                static IEnumerable<int> Produce() { yield return 1; }
            }
            """;
        await Verify.VerifyCodeFixAsync(Source, Source);
    }

    [Fact]
    public async Task AsyncMethodWithoutAwait_ReportsWithoutFix()
    {
        const string Source = /* lang=c#-test */ """
            using System.Threading.Tasks;

            class C
            {
                static async Task<int> Double(int i) => i * 2;

                async Task<int> M(int n)
                {
                    var total = 0;
                    for (var i = 0; i < n; i++) total += [|await Double(i)|];
                    return total;
                }
            }
            """;
        await Verify.VerifyCodeFixAsync(Source, Source);
    }

    [Fact]
    public async Task LoopInALambda_IsMovedInsideTheLambda()
    {
        await Verify.VerifyCodeFixAsync(/* lang=c#-test */ """
            using System;
            using System.Threading.Tasks;

            class C
            {
                static int Work(int i) => i;

                Func<int, Task<int>> Make() => async n =>
                {
                    var total = 0;
                    while (n-- > 0) total += [|await Task.Run(() => Work(n))|];
                    return total;
                };
            }
            """, /* lang=c#-test */ """
            using System;
            using System.Threading.Tasks;

            class C
            {
                static int Work(int i) => i;

                Func<int, Task<int>> Make() => async n =>
                {
                    var total = 0;
                    await Task.Run(() =>
                    {
                        while (n-- > 0) total += Work(n);
                    });
                    return total;
                };
            }
            """);
    }

    [Fact]
    public async Task TopLevelStatements_AreFixed()
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
            FixedCode = /* lang=c#-test */ """
                using System.Threading.Tasks;

                var total = 0;
                await Task.Run(() =>
                {
                    for (var i = 0; i < 10; i++) total += i * i;
                });
                System.Console.WriteLine(total);
                """,
        }.RunAsync();
    }

    [Fact]
    public async Task CSharp73OnNetFramework_IsFixed()
    {
        await new Verify.Test
        {
            OnCSharp73NetFramework = true,
            TestCode = /* lang=c#-test */ """
                using System.Threading.Tasks;

                class C
                {
                    async Task<int> M(int n)
                    {
                        var total = 0;
                        for (var i = 0; i < n; i++) { total += [|await Task.FromResult(i)|]; await Task.Delay(1); }
                        return total;
                    }
                }
                """,
            FixedCode = /* lang=c#-test */ """
                using System.Threading.Tasks;

                class C
                {
                    async Task<int> M(int n)
                    {
                        var total = 0;
                        for (var i = 0; i < n; i++) { total += i; await Task.Delay(1); }
                        return total;
                    }
                }
                """,
        }.RunAsync();
    }

    /// <summary>
    /// A loop whose awaits sit in #if branches: moved into a lambda, the other target's branch would keep an await in a
    /// lambda that is not async. Reported, without a fix.
    /// </summary>
    [Fact]
    public async Task LoopHoldingAnIf_HasNoFix()
    {
        const string Code = /* lang=c#-test */ """
            using System.Threading.Tasks;

            class C
            {
                static int Square(int i) => i * i;

                async Task<int> Sum(int n)
                {
                    var total = 0;
                    for (var i = 0; i < n; i++)
                    {
            #if NET
                        total += await Task.Run(() => Square(i));
            #else
                        total += [|await Task.Run(() => Square(i) + 1)|];
            #endif
                    }

                    return total;
                }
            }
            """;
        await new Verify.Test { TestCode = Code, FixedCode = Code, FixedState = { MarkupHandling = Microsoft.CodeAnalysis.Testing.MarkupMode.Allow } }.RunAsync();
    }
}
