using System.Collections.Immutable;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CodeActions;
using Microsoft.CodeAnalysis.CodeFixes;

namespace TplPractices.Analyzers.FloorHost.Tests;

/// <summary>Fix All of every fixer in the Roslyn 4.8 host (see <see cref="FloorHostTests"/>): a class of its own, so it runs beside the single fixes.</summary>
public sealed class FloorHostFixAllTests
{
    [Fact]
    public async Task EveryFixer_FixesAllInTheSolution_AndItCompiles()
    {
        var run = await FloorHostRun.Samples.Value;
        foreach (var fixer in Shipped.Fixers())
        {
            var id = fixer.FixableDiagnosticIds[0];
            var first = await FirstActionAsync(run, fixer);
            var provider = fixer.GetFixAllProvider();
            if (provider is null)
            {
                // A fix offered one site at a time (TPL0013's): the single fix applies and compiles on Roslyn 4.8.
                var single = (await ChangedSolutionAsync(await first.Action.GetOperationsAsync(CancellationToken.None))).Projects.Single();
                Assert.Empty(await FloorHostRun.ErrorsInChangedDocumentsAsync(single, run.Project));
                Assert.True(await run.CountAfterAsync(single, id) < run.Diagnostics.Count(d => d.Id == id), id + "'s single fix left its diagnostic");
                continue;
            }

            var context = new FixAllContext(
                run.Project.GetDocument(first.Diagnostic.Location.SourceTree)!,
                fixer,
                FixAllScope.Solution,
                first.Action.EquivalenceKey,
                new[] { id },
                new FloorHostAnalyzerDiagnostics(run),
                CancellationToken.None);
            var fixAll = await provider!.GetFixAsync(context);
            Assert.NotNull(fixAll);
            var fixedProject = (await ChangedSolutionAsync(await fixAll!.GetOperationsAsync(CancellationToken.None))).Projects.Single();
            Assert.Empty(await FloorHostRun.ErrorsInChangedDocumentsAsync(fixedProject, run.Project));
            var before = run.Diagnostics.Count(d => d.Id == id);
            var after = await run.CountAfterAsync(fixedProject, id);
            Assert.True(after < before, $"Fix All of {id} left {after} of {before} diagnostics");
        }
    }

    private static async Task<(Diagnostic Diagnostic, CodeAction Action)> FirstActionAsync(FloorHostRun run, CodeFixProvider fixer)
    {
        foreach (var diagnostic in run.Diagnostics.Where(d => fixer.FixableDiagnosticIds.Contains(d.Id)))
        {
            var actions = await run.ActionsAsync(fixer, diagnostic);
            if (actions.Count > 0)
            {
                return (diagnostic, actions[0]);
            }
        }

        throw new InvalidOperationException(fixer.GetType().Name + " offered no fix on the samples");
    }

    private static Task<Solution> ChangedSolutionAsync(ImmutableArray<CodeActionOperation> operations) => FloorHostRun.ChangedSolutionAsync(operations);
}
