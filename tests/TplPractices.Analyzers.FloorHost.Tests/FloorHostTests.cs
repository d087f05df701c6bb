using System.Collections.Immutable;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CodeActions;
using Microsoft.CodeAnalysis.CSharp;

namespace TplPractices.Analyzers.FloorHost.Tests;

/// <summary>
/// The package in the oldest host it claims: a Roslyn 4.8 workspace composed with MEF, the samples as its project,
/// every rule raised. Every analyzer must run without an exception and report, and every fixer must offer its fixes
/// and apply them, single and Fix All, to code that still compiles (each checked in the documents it changed, where
/// any error it makes is reported).
/// </summary>
public sealed class FloorHostTests
{
    [Fact]
    public void TheHost_IsRoslyn48()
    {
        Assert.Equal(new Version(4, 8, 0, 0), typeof(Workspace).Assembly.GetName().Version);
        Assert.Equal(new Version(4, 8, 0, 0), typeof(CSharpCompilation).Assembly.GetName().Version);
    }

    [Fact]
    public async Task EveryAnalyzer_RunsWithoutAnException_AndReportsOnTheSamples()
    {
        var run = await FloorHostRun.Samples.Value;
        Assert.Empty(run.Errors);
        Assert.Empty(run.AnalyzerExceptions);
        var reported = run.Diagnostics.Select(d => d.Id).ToHashSet();
        Assert.All(run.RuleIds, id => Assert.Contains(id, reported));
    }

    /// <summary>The rules that report without a fix, each page saying why no rewrite keeps the behaviour.</summary>
    private static readonly string[] ReportOnly = ["TPL0018"];

    /// <summary>How many sites of each kind of rewrite the single fixes are applied on.</summary>
    private const int SitesPerKind = 2;

    [Fact]
    public async Task EveryFixer_OffersAFix_AndItCompiles()
    {
        var run = await FloorHostRun.Samples.Value;
        var fixers = Shipped.Fixers();
        Assert.Equal(run.RuleIds.Except(ReportOnly).OrderBy(id => id), fixers.Select(f => f.FixableDiagnosticIds[0]).OrderBy(id => id));
        foreach (var fixer in fixers)
        {
            var offered = 0;
            // Each kind of rewrite on its first sites: this host shows the shipped fixes run and compile on Roslyn 4.8;
            // the rule tests and CI's consumer runs apply every site on today's Roslyn.
            var sites = run.Diagnostics.Where(d => fixer.FixableDiagnosticIds.Contains(d.Id))
                .GroupBy(d => d.Properties.TryGetValue("FixKind", out var kind) ? kind : null)
                .SelectMany(kind => kind.Take(SitesPerKind));
            foreach (var diagnostic in sites)
            {
                foreach (var action in await run.ActionsAsync(fixer, diagnostic))
                {
                    offered++;
                    var fixedSolution = await ChangedSolutionAsync(await action.GetOperationsAsync(CancellationToken.None));
                    Assert.Empty(await FloorHostRun.ErrorsInChangedDocumentsAsync(fixedSolution.Projects.Single(), run.Project));
                }
            }

            Assert.True(offered > 0, fixer.GetType().Name + " offered no fix on the samples");
        }
    }

    private static Task<Solution> ChangedSolutionAsync(ImmutableArray<CodeActionOperation> operations) => FloorHostRun.ChangedSolutionAsync(operations);
}
