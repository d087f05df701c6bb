using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp;
using TplPractices.Analyzers.Tests.Verifiers;
using Verify = TplPractices.Analyzers.Tests.Verifiers.CSharpCodeFixVerifier<
    TplPractices.Analyzers.Rules.ExplicitSchedulerAnalyzer,
    TplPractices.Analyzers.CodeFixes.Rules.ExplicitSchedulerFixer>;

namespace TplPractices.Analyzers.Tests.Rules;

/// <summary>
/// A fix inside an <c>#if</c> branch that the file's usings are not in writes the names it needs in full and adds no
/// using: the using would reach every target, also one that skips the branch because it lacks the namespace (NLog
/// builds its LogFactory for net35, which has no System.Threading.Tasks, and spells the namespace out in the code it
/// keeps under <c>#if !NET35</c>). Shown with TPL0019; the choice is the shared layer's, so every rule's fix makes it.
/// </summary>
public sealed class ExplicitSchedulerBranchTests
{
    private const string Method = """
        public System.Threading.Tasks.Task<int> Next(System.Threading.Tasks.Task<int> t) => t.[|ContinueWith|](x => x.Result + 1);
        """;

    private const string Fixed = """
        public System.Threading.Tasks.Task<int> Next(System.Threading.Tasks.Task<int> t) => t.ContinueWith(
                x => x.Result + 1,
                CancellationToken.None,
                System.Threading.Tasks.TaskContinuationOptions.None,
                System.Threading.Tasks.TaskScheduler.Current);
        """;

    [Theory]
    [InlineData("top of the file")]
    [InlineData("inside the namespace")]
    public async Task InABranch_TheNamesAreWrittenInFull_AndNoUsingIsAdded(string usingsAt)
    {
        var test = new Verify.Test
        {
            TestCode = File(usingsAt, "#if NET\n    " + Method + "\n#endif"),
            FixedCode = File(usingsAt, "#if NET\n    " + Fixed + "\n#endif"),
        };
        await OnBothTargets(test);
    }

    /// <summary>The same call outside any branch: every target compiles it, so the using is added and the names are short.</summary>
    [Fact]
    public async Task OutsideABranch_TheUsingIsAdded()
    {
        var test = new Verify.Test
        {
            TestCode = File("top of the file", "    " + Method),
            FixedCode = File("top of the file", "    " + Fixed.Replace("System.Threading.Tasks.TaskContinuationOptions", "TaskContinuationOptions", StringComparison.Ordinal)
                    .Replace("System.Threading.Tasks.TaskScheduler", "TaskScheduler", StringComparison.Ordinal))
                .Replace("using System.Threading;\n", "using System.Threading;\nusing System.Threading.Tasks;\n", StringComparison.Ordinal),
        };
        await OnBothTargets(test);
    }

    /// <summary>net10.0 (NET defined) with a netstandard2.0 copy at C# 7.3, as an SDK project gives each target its symbols.</summary>
    private static Task OnBothTargets(Verify.Test test)
    {
        test.PreprocessorSymbols.Add("NET");
        test.LinkedTargets.Add(new LinkedTarget(TestTarget.NetStandard20, LanguageVersion.CSharp7_3, NullableContextOptions.Disable, ["NETSTANDARD2_0"]));
        return test.RunAsync();
    }

    private static string File(string usingsAt, string member)
    {
        var body = string.Join("\n", ("public sealed class Chain\n{\n" + member + "\n}").Split('\n').Select(l => l.Length == 0 || l.StartsWith('#') ? l : "    " + l));
        return usingsAt == "top of the file"
            ? "using System;\nusing System.Threading;\n\nnamespace Lib\n{\n" + body + "\n}\n"
            : "namespace Lib\n{\n    using System;\n    using System.Threading;\n\n" + body + "\n}\n";
    }
}
