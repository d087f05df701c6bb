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
/// <c>#pragma warning</c> or <c>#region</c> lines, which left it without a fix (found on a DNS server application: a
/// <c>#region</c> in the <c>try</c> of a <c>GetOrAdd</c> callback). The rewrite reads the state back in a new first
/// statement and leaves the lambda's statements where they were, so each line keeps the same code on each side. A line
/// inside one of the lambda's expressions still leaves it alone.
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
                try
                {
                    #region the name
                    return name + value;
                    #endregion
                }
                finally
                {
                    value = 0;
                }
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
            FixedCode = StartNewLayout(After),
        };
        test.TestState.AnalyzerConfigFiles.Add(("/.editorconfig", On));
        test.FixedState.AnalyzerConfigFiles.Add(("/.editorconfig", On));
        await test.RunAsync();
    }

    /// <summary>
    /// TPL0007's layout of the same rewrite: one argument a line, the lambda one indent deeper; the directive lines stay
    /// at the start of theirs.
    /// </summary>
    private static string StartNewLayout(string fixedCode)
    {
        var lines = fixedCode.Split('\n');
        var first = Array.FindIndex(lines, l => l.EndsWith("StartNew(static state =>", StringComparison.Ordinal));
        var last = Array.FindIndex(lines, l => l == "    }, (x, name));");
        var moved = lines.Select((line, i) => i > first && i < last && !line.StartsWith('#') ? "    " + line : line).ToList();
        moved[first] = moved[first].Replace("StartNew(static state =>", "StartNew(\n        static state =>", StringComparison.Ordinal);
        moved[last] = "        },\n        (x, name),\n        CancellationToken.None,\n        TaskCreationOptions.DenyChildAttach,\n        TaskScheduler.Default);";
        return string.Join('\n', moved);
    }

    /// <summary>
    /// A line between the lambda's arrow and its brace (MQTTnet's tests silence CS4014 up to there) is in the head the
    /// rewrite rebuilds: reported, not fixed.
    /// </summary>
    [Fact]
    public async Task ALineBeforeTheLambdasBrace_LeavesTheSiteUnfixed()
    {
        const string Code = """
            using System.Threading.Tasks;

            public static class Work
            {
                public static void Log(int x)
                {
            #pragma warning disable CS4014
                    Task.Factory.StartNew([|() =>
            #pragma warning restore CS4014
                    {
                        System.Console.WriteLine(x);
                    }|]);
                }
            }
            """;
        await Verify.VerifyCodeFixAsync(Code, Code);
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
