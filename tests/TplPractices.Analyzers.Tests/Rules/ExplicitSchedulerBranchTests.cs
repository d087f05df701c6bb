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

    /// <summary>
    /// A name of <c>System.Threading</c>, which every target has, does not hold the import back in a branch: TPL0019's
    /// <c>CancellationToken.None</c> in an <c>#if NET</c> branch came out spelled in full where TPL0019 ran before
    /// TPL0007, and short where TPL0007 had added the using first (the long gauntlet found it; dotnet format takes the
    /// rules in an order that changes from one run to the next). Now both orders give one text with the short name.
    /// </summary>
    [Fact]
    public async Task ANamespaceEveryTargetHas_IsImportedForABranch_WhicheverRuleGoesFirst()
    {
        const string code = """
            using System;
            using System.Threading.Tasks;

            class C
            {
                static void Work() { }

                void M(int value)
                {
            #if NET
                    Task.Factory.StartNew(static () => Work());
            #else
                    Task.Factory.StartNew(static () => Work());
            #endif
                    Task.Run(() => Console.WriteLine(value));
                }
            }
            """;
        foreach (var setup in new[] { Gauntlet.GauntletSetup.Single, Gauntlet.GauntletSetup.Modern })
        {
            var scheduleFirst = await Gauntlet.FormatRun.FixAsync(setup, code, DiagnosticIds.ExplicitScheduler, DiagnosticIds.TaskRunState);
            var stateFirst = await Gauntlet.FormatRun.FixAsync(setup, code, DiagnosticIds.TaskRunState, DiagnosticIds.ExplicitScheduler);
            Assert.Equal(stateFirst, scheduleFirst);
            Assert.Contains("using System.Threading;\n", scheduleFirst, StringComparison.Ordinal);
            Assert.Contains("Task.Factory.StartNew(static () => Work(), CancellationToken.None, TaskCreationOptions.None, TaskScheduler.Current);", scheduleFirst, StringComparison.Ordinal);
            Assert.DoesNotContain("System.Threading.CancellationToken", scheduleFirst, StringComparison.Ordinal);
        }
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
