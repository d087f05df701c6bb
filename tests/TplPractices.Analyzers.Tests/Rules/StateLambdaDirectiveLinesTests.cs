using TplPractices.Analyzers.Tests.Verifiers;
using RunVerify = TplPractices.Analyzers.Tests.Verifiers.CSharpCodeFixVerifier<
    TplPractices.Analyzers.Rules.TaskRunStateAnalyzer,
    TplPractices.Analyzers.CodeFixes.Rules.TaskRunStateFixer>;
using Verify = TplPractices.Analyzers.Tests.Verifiers.CSharpCodeFixVerifier<
    TplPractices.Analyzers.Rules.UseTaskStateAnalyzer,
    TplPractices.Analyzers.CodeFixes.Rules.UseTaskStateFixer>;

namespace TplPractices.Analyzers.Tests.Rules;

/// <summary>
/// The state rules (TPL0001, TPL0006, TPL0007, TPL0015 share one fixer) on a lambda whose statements are separated by
/// <c>#pragma warning</c> or <c>#region</c> lines, which left it without a fix (found on the NATS .NET client). The
/// rewrite reads the state back in a new first statement and leaves the lambda's statements where they were, so each
/// line keeps the same code on each side. A line inside one of the lambda's expressions still leaves it alone.
/// </summary>
public sealed class StateLambdaDirectiveLinesTests
{
    private const string Before = /* lang=c#-test */ """
        using System;
        using System.Threading;
        using System.Threading.Tasks;

        public static class Work
        {
            [Obsolete("old")] private static int Old(int x) => x * 10;

            public static Task<string> Log(int x, string name) => Task.Factory.StartNew([|() =>
            {
        #pragma warning disable CS0618 // the old call stays silenced
                var value = Old(x);
        #pragma warning restore CS0618
                #region the name
                return name + value;
                #endregion
            }|]);

            public static async Task<string> Run(int x) => await Log(x, "n");
        }
        """;

    private static readonly string After = TestMarkup.Strip(Before)
        .Replace("StartNew(() =>\n    {\n", "StartNew(static state =>\n    {\n        var (x, name) = ((int, string))state!;\n", StringComparison.Ordinal)
        .Replace("    });\n", "    }, (x, name));\n", StringComparison.Ordinal);

    [Fact]
    public async Task LinesBetweenTheLambdasStatements_LeaveTheFixOffered()
    {
        await Verify.VerifyCodeFixAsync(Before, After);
    }

    [Theory]
    [InlineData(1)]
    [InlineData(4)]
    public async Task FixedCode_ReturnsWhatTheOriginalReturned(int x)
    {
        var original = await CodeRunner.RunAsync(TestMarkup.Strip(Before), "Work", "Run", x);
        Assert.Equal($"returned n{x * 10}", original);
        Assert.Equal(original, await CodeRunner.RunAsync(After, "Work", "Run", x));
    }

    /// <summary>TPL0007's Task.Run, rewritten to StartNew, keeps the lines the same way.</summary>
    [Fact]
    public async Task TaskRun_KeepsTheLinesToo()
    {
        const string On = "root = true\n[*.cs]\ndotnet_diagnostic.TPL0007.severity = suggestion\n";
        var test = new RunVerify.Test
        {
            TestCode = Before.Replace("Task.Factory.StartNew(", "Task.Run(", StringComparison.Ordinal),
            FixedCode = /* lang=c#-test */ """
                using System;
                using System.Threading;
                using System.Threading.Tasks;

                public static class Work
                {
                    [Obsolete("old")] private static int Old(int x) => x * 10;

                    public static Task<string> Log(int x, string name) => Task.Factory.StartNew(
                        static state =>
                        {
                            var (x, name) = ((int, string))state!;
                #pragma warning disable CS0618 // the old call stays silenced
                            var value = Old(x);
                #pragma warning restore CS0618
                            #region the name
                            return name + value;
                            #endregion
                        },
                        (x, name),
                        CancellationToken.None,
                        TaskCreationOptions.DenyChildAttach,
                        TaskScheduler.Default);

                    public static async Task<string> Run(int x) => await Log(x, "n");
                }
                """,
        };
        test.TestState.AnalyzerConfigFiles.Add(("/.editorconfig", On));
        test.FixedState.AnalyzerConfigFiles.Add(("/.editorconfig", On));
        await test.RunAsync();
    }

    /// <summary>A line inside an expression of the lambda is inside code the rewrite rebuilds: reported, not fixed.</summary>
    [Fact]
    public async Task ALineInsideAnExpression_LeavesTheSiteUnfixed()
    {
        const string Code = """
            using System;
            using System.Threading.Tasks;

            public static class Work
            {
                [Obsolete("old")] private static int Old(int x) => x * 10;

                public static Task<int> Log(int x) => Task.Factory.StartNew([|() => Old(
            #pragma warning disable CS0618
                    x
            #pragma warning restore CS0618
                )|]);
            }
            """;
        await Verify.VerifyCodeFixAsync(Code, Code);
    }
}
