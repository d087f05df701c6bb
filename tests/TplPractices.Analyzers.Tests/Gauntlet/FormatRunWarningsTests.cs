using System.Collections.Immutable;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CodeActions;
using Microsoft.CodeAnalysis.CodeFixes;
using TplPractices.Analyzers.CodeFixes.Internals;
using TplPractices.Analyzers.Tests.Meta;

namespace TplPractices.Analyzers.Tests.Gauntlet;

/// <summary>
/// What dotnet format prints besides fixing. Where a rule reports only sites its fix must leave (a lambda whose
/// expression holds a <c>#pragma</c>, a race whose result a continuation reads), dotnet format asks for a Fix All without a key and
/// printed "Unable to fix TPL0001. Code fix … didn't return a Fix All action." once per project and target (48 lines
/// for one site on the NATS .NET client, four targets of twelve projects). Nothing was wrong: there was nothing to fix.
/// </summary>
public sealed class FormatRunWarningsTests
{
    [Theory]
    [InlineData("TPL0001", """
        using System;
        using System.Threading.Tasks;

        public static class Work
        {
            public static Task Log(int x) => Task.Factory.StartNew(() => Console.WriteLine(
        #pragma warning disable CS0618
                x
        #pragma warning restore CS0618
            ));
        }
        """)]
    [InlineData("TPL0017", """
        using System;
        using System.Threading;
        using System.Threading.Tasks;

        public static class Work
        {
            public static Task<bool> InTime(Task work, CancellationToken token) =>
                Task.WhenAny(work, Task.Delay(5000, token)).ContinueWith(t => t.Result == work, TaskScheduler.Default);
        }
        """)]
    [InlineData("TPL0007", """
        using System;
        using System.Threading.Tasks;

        public static class Work
        {
            public static Task<int> Run(Func<int, ValueTask<int>> callback, int state) => Task.Run(() => callback(state).AsTask());
        }
        """)]
    public async Task RuleWithOnlySitesWithoutAFix_GivesNoWarning_AndChangesNothing(string rule, string code)
    {
        await KeyedFixAll_OfSitesWithoutAFix_IsEmptyAsync(rule, code);
        var warnings = new List<string>();
        var solution = await FormatRun.RunAsync(GauntletSetup.Single.Create([("Test0.cs", code)], OutputKind.DynamicallyLinkedLibrary), [rule], warnings);
        var reported = (await FormatRun.AnalysisAsync(solution.Projects.Single())).Reported;

        Assert.Contains(reported, d => d.Id == rule);
        Assert.Empty(warnings);
        Assert.Equal(code, (await solution.Projects.Single().Documents.Single().GetTextAsync()).ToString());
    }

    /// <summary>
    /// dotnet format also asks with the rule's key, taken from a site it could fix elsewhere, for a project whose sites
    /// all lack a fix (Polly's Task.Run sites of non-async lambdas, beside its fixed time-out engine): the same empty
    /// action, not none.
    /// </summary>
    private static async Task KeyedFixAll_OfSitesWithoutAFix_IsEmptyAsync(string rule, string code)
    {
        var solution = GauntletSetup.Single.Create([("Test0.cs", code)], OutputKind.DynamicallyLinkedLibrary);
        var project = solution.Projects.Single();
        var diagnostics = (await FormatRun.AnalysisAsync(project)).Reported.Where(d => d.Id == rule).ToImmutableArray();
        var fixer = Repository.Fixers()[rule];
        var context = new FixAllContext(
            project.Documents.Single(), fixer, FixAllScope.Solution, ((RuleFixer)fixer).RuleKey, [rule], new FormatRun.Provider(new() { [project.Id] = diagnostics }), CancellationToken.None);
        var action = await fixer.GetFixAllProvider()!.GetFixAsync(context);

        Assert.NotNull(action);
        var changed = Assert.Single((await action.GetOperationsAsync(CancellationToken.None)).OfType<ApplyChangesOperation>()).ChangedSolution;
        Assert.Empty(changed.GetChanges(solution).GetProjectChanges());
    }
}
