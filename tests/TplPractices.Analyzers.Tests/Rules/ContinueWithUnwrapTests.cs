using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp;
using TplPractices.Analyzers.Tests.Verifiers;
using Verify = TplPractices.Analyzers.Tests.Verifiers.CSharpCodeFixVerifier<
    TplPractices.Analyzers.Rules.ContinueWithUnwrapAnalyzer,
    TplPractices.Analyzers.CodeFixes.Rules.ContinueWithUnwrapFixer>;

namespace TplPractices.Analyzers.Tests.Rules;

/// <summary>TPL0002: which Unwrap calls end a ContinueWith chain, one diagnostic per chain.</summary>
public sealed class ContinueWithUnwrapTests
{
    [Fact]
    public async Task ExtensionAndStaticForms_ReportOncePerChain()
    {
        await new Verify.Test
        {
            TestCode = /* lang=c#-test */ """
                using System.Threading.Tasks;

                class C
                {
                    static Task A() => Task.Delay(1);
                    static Task<int> B() => Task.FromResult(1);

                    void M(Task t, Task<string> s)
                    {
                        var one = {|#0:t.ContinueWith(_ => A()).Unwrap()|};
                        var three = {|#1:t.ContinueWith(_ => A()).Unwrap().ContinueWith(_ => B()).Unwrap().ContinueWith(x => A()).Unwrap()|};
                        var fromStatic = {|#2:TaskExtensions.Unwrap(s.ContinueWith(x => B()))|};
                        var nestedStatic = {|#3:TaskExtensions.Unwrap(TaskExtensions.Unwrap(t.ContinueWith(_ => B())).ContinueWith(x => A()))|};
                        var typed = {|#4:s.ContinueWith(x => Task.FromResult(x.Result.Length)).Unwrap()|};
                    }
                }
                """,
            ExpectedDiagnostics =
            {
                Verify.Diagnostic().WithLocation(0).WithMessage("This ContinueWith/Unwrap chain of 1 link allocates a continuation and a proxy task per link; await the tasks in sequence instead"),
                Verify.Diagnostic().WithLocation(1).WithMessage("This ContinueWith/Unwrap chain of 3 links allocates a continuation and a proxy task per link; await the tasks in sequence instead"),
                Verify.Diagnostic().WithLocation(2).WithMessage("This ContinueWith/Unwrap chain of 1 link allocates a continuation and a proxy task per link; await the tasks in sequence instead"),
                Verify.Diagnostic().WithLocation(3).WithMessage("This ContinueWith/Unwrap chain of 2 links allocates a continuation and a proxy task per link; await the tasks in sequence instead"),
                Verify.Diagnostic().WithLocation(4).WithMessage("This ContinueWith/Unwrap chain of 1 link allocates a continuation and a proxy task per link; await the tasks in sequence instead"),
            },
        }.RunAsync();
    }

    [Fact]
    public async Task ChainsBuiltInALoop_ReportEachLink()
    {
        await Verify.VerifyAnalyzerAsync(/* lang=c#-test */ """
            using System.Threading.Tasks;

            class C
            {
                static Task Next() => Task.Factory.StartNew(() => { });

                static Task Chain(int count)
                {
                    Task current = Next();
                    for (int i = 1; i < count; i++)
                    {
                        current = [|current.ContinueWith(_ => Next()).Unwrap()|];
                    }

                    return current;
                }
            }
            """);
    }

    [Fact]
    public async Task LambdasLocalFunctionsAndNestedChains_Report()
    {
        await Verify.VerifyAnalyzerAsync(/* lang=c#-test */ """
            using System;
            using System.Threading.Tasks;

            class C
            {
                static Task A() => Task.Delay(1);

                Func<Task> Lambda() => () => [|A().ContinueWith(_ => A()).Unwrap()|];

                Task Local()
                {
                    return Inner();
                    Task Inner() => [|A().ContinueWith(_ => A()).Unwrap()|];
                }

                Task Nested() =>
                    [|A().ContinueWith(_ => Task.Run(() => [|A().ContinueWith(_ => A()).Unwrap()|])).Unwrap()|];
            }
            """);
    }

    [Fact]
    public async Task UnwrapOfOtherTasksAndContinueWithAlone_DoNotReport()
    {
        await Verify.VerifyAnalyzerAsync(/* lang=c#-test */ """
            using System.Threading.Tasks;

            class C
            {
                static Task A() => Task.Delay(1);

                async Task M(Task t, Task<Task<int>> nested)
                {
                    var started = Task.Factory.StartNew(async () => await A()).Unwrap();
                    var fromField = nested.Unwrap();
                    var plain = t.ContinueWith(_ => 1);
                    var notUnwrapped = t.ContinueWith(_ => A());
                    var later = notUnwrapped.Unwrap();
                    await t.ContinueWith(_ => { });
                }
            }

            static class Unrelated
            {
                public static Task Unwrap(this Task<Task> task) => task;
                public static Task Use(Task t) => t.ContinueWith(_ => Task.CompletedTask).Unwrap();
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

                await [|Task.Delay(1).ContinueWith(_ => Task.Delay(1)).Unwrap()|];
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
                Task M(Task t) => t.ContinueWith(_ => Task.Delay(1)).Unwrap();
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
                    Task M(Task t) { return [|t.ContinueWith(_ => Task.Delay(1)).Unwrap()|]; }
                }
                """,
        }.RunAsync();
    }

    [Theory]
    [InlineData("t.ContinueWith(_ => Task.Delay(1)).Unwrap(")]
    [InlineData("t.ContinueWith(_ => Task.Delay(1)).")]
    [InlineData("t.ContinueWith(_ => ).Unwrap()")]
    [InlineData("t.ContinueWith(_ => Missing()).Unwrap()")]
    [InlineData("t.ContinueWith(Missing).Unwrap()")]
    [InlineData("missing.ContinueWith(_ => Task.Delay(1)).Unwrap()")]
    [InlineData("TaskExtensions.Unwrap()")]
    [InlineData("TaskExtensions.Unwrap(t.ContinueWith(_ => Task.Delay(1)), 1)")]
    public async Task IncompleteOrInvalidCode_DoesNotThrow(string statement)
    {
        Assert.InRange(await HalfTypedCode.CountDiagnosticsAsync(new Analyzers.Rules.ContinueWithUnwrapAnalyzer(), "Task t", statement), 0, 1);
    }
}
