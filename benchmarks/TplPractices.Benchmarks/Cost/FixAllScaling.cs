using System;
using System.Collections.Generic;
using System.Collections.Immutable;
using System.Diagnostics;
using System.Linq;
using System.Reflection;
using System.Threading;
using System.Threading.Tasks;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CodeActions;
using Microsoft.CodeAnalysis.CodeFixes;
using Microsoft.CodeAnalysis.CSharp;
using Microsoft.CodeAnalysis.Diagnostics;
using Microsoft.CodeAnalysis.Text;
using TplPractices.Analyzers.CodeFixes.Rules;
using TplPractices.Analyzers.Rules;

namespace TplPractices.Benchmarks.Cost;

/// <summary>
/// <c>--fixall-scaling [hit files] [files] [TPL0008,TPL0010]</c>: each rule's Fix All in Solution scope, as the IDE and dotnet format run it,
/// on the same hits (the build-cost template's, in the first hit files) in a project of the given size and in one four
/// times larger (the rest hit-free). Only the Fix All is timed (finding the diagnostics is an analysis of the whole
/// project), the best of three runs of each size, taken in turn after one of each to warm up. A rule whose Fix All asks a question of the whole project per
/// document shows it as a ratio above one; the run fails above <see cref="Budget"/>.
/// </summary>
public static class FixAllScaling
{
    public const double Budget = 1.3;
    private const int Growth = 4;
    private const int Runs = 3;

    public static async Task<int> RunAsync(int hitFiles, int files, ISet<string>? only = null)
    {
        Console.WriteLine($"Fix All scaling: the hits of {hitFiles} files, in projects of {files} and {files * Growth} files (Release, in-process, best of three runs each)");
        Console.WriteLine($"| Rule | Fixes | Fix All, {files} files | per fix | Fix All, {files * Growth} files | per fix | Ratio |");
        Console.WriteLine("|---|---:|---:|---:|---:|---:|---:|");
        var failures = 0;
        foreach (var (id, fixer) in Fixers().Where(f => only is null || only.Contains(f.Id)))
        {
            if ((await TimeAsync(id, fixer, hitFiles, files).ConfigureAwait(false)).Fixes == 0)
            {
                Console.WriteLine($"| {id} | 0 | the template's hit has no fix | | | | |");
                continue;
            }

            var (small, large) = await BestAsync(id, fixer, hitFiles, files).ConfigureAwait(false);
            var ratio = large.Milliseconds / Math.Max(1, small.Milliseconds);
            failures += ratio > Budget ? 1 : 0;
            Console.WriteLine($"| {id} | {small.Fixes} | {small.Milliseconds:F0} ms | {small.Milliseconds / small.Fixes:F1} ms | {large.Milliseconds:F0} ms | {large.Milliseconds / large.Fixes:F1} ms | {ratio:F2}{(ratio > Budget ? " FAIL" : string.Empty)} |");
        }

        Console.WriteLine(failures == 0 ? $"fix all scaling: passed (every ratio at most {Budget})" : $"FAIL fix all scaling: {failures} rules above {Budget}");
        return failures;
    }

    /// <summary>
    /// Both sizes warmed up, then timed in turn, the best of <see cref="Runs"/> each: on two cores a run's collections and
    /// tiered JIT move a single figure by a third, and taking turns spreads that over both sizes alike.
    /// </summary>
    private static async Task<((double Milliseconds, int Fixes) Small, (double Milliseconds, int Fixes) Large)> BestAsync(
        string id, CodeFixProvider fixer, int hitFiles, int files)
    {
        _ = await TimeAsync(id, fixer, hitFiles, files * Growth).ConfigureAwait(false);
        var small = (Milliseconds: double.MaxValue, Fixes: 0);
        var large = (Milliseconds: double.MaxValue, Fixes: 0);
        for (var run = 0; run < Runs; run++)
        {
            var one = await TimeAsync(id, fixer, hitFiles, files).ConfigureAwait(false);
            var four = await TimeAsync(id, fixer, hitFiles, files * Growth).ConfigureAwait(false);
            small = one.Milliseconds < small.Milliseconds ? one : small;
            large = four.Milliseconds < large.Milliseconds ? four : large;
        }

        return (small, large);
    }

    private static async Task<(double Milliseconds, int Fixes)> TimeAsync(string id, CodeFixProvider fixer, int hitFiles, int files)
    {
        var project = Project(hitFiles, files);
        var analyzers = Analyzers().Where(a => a.SupportedDiagnostics.Any(d => d.Id == id)).ToImmutableArray();
        var compilation = (await project.GetCompilationAsync().ConfigureAwait(false))!;
        var diagnostics = (await compilation.WithAnalyzers(analyzers, project.AnalyzerOptions).GetAnalyzerDiagnosticsAsync().ConfigureAwait(false))
            .Where(d => d.Id == id && d.Properties.ContainsKey(TplPractices.Analyzers.DiagnosticPropertyKeys.FixKind))
            .ToImmutableArray();
        if (diagnostics.IsEmpty)
        {
            return (0, 0);
        }

        var document = project.GetDocument(diagnostics[0].Location.SourceTree)!;
        CodeAction? action = null;
        await fixer.RegisterCodeFixesAsync(new CodeFixContext(document, diagnostics[0], (a, _) => action ??= a, CancellationToken.None)).ConfigureAwait(false);
        var context = new FixAllContext(document, fixer, FixAllScope.Solution, action!.EquivalenceKey, new[] { id }, new Given(diagnostics), CancellationToken.None);

        var clock = Stopwatch.StartNew();
        var fixAll = await fixer.GetFixAllProvider()!.GetFixAsync(context).ConfigureAwait(false);
        _ = (await fixAll!.GetOperationsAsync(CancellationToken.None).ConfigureAwait(false)).OfType<ApplyChangesOperation>().Single().ChangedSolution;
        clock.Stop();
        return (clock.Elapsed.TotalMilliseconds, diagnostics.Length);
    }

    /// <summary>One net8.0 project, every rule raised to a warning, the first <paramref name="hitFiles"/> files with hits.</summary>
    private static Project Project(int hitFiles, int files)
    {
        var id = ProjectId.CreateNewId();
        var solution = new AdhocWorkspace().CurrentSolution.AddProject(ProjectInfo.Create(
            id,
            VersionStamp.Default,
            "Generated",
            "Generated",
            LanguageNames.CSharp,
            compilationOptions: new CSharpCompilationOptions(OutputKind.DynamicallyLinkedLibrary)
                .WithSpecificDiagnosticOptions(new SuggestionRulesAnalyzer().SupportedDiagnostics.Select(r => new KeyValuePair<string, ReportDiagnostic>(r.Id, ReportDiagnostic.Warn))),
            parseOptions: new CSharpParseOptions(LanguageVersion.CSharp12),
            metadataReferences: Basic.Reference.Assemblies.Net80.References.All));
        for (var n = 0; n < files; n++)
        {
            solution = solution.AddDocument(DocumentId.CreateNewId(id), $"File{n}.cs", SourceText.From(GeneratedFiles.Render(n, hits: n < hitFiles)), filePath: $"/generated/File{n}.cs");
        }

        return solution.GetProject(id)!;
    }

    private static IEnumerable<DiagnosticAnalyzer> Analyzers() => typeof(CacheConstantTaskResultAnalyzer).Assembly.GetTypes()
        .Where(t => !t.IsAbstract && typeof(DiagnosticAnalyzer).IsAssignableFrom(t))
        .Select(t => (DiagnosticAnalyzer)Activator.CreateInstance(t)!);

    private static IEnumerable<(string Id, CodeFixProvider Fixer)> Fixers() => typeof(UseTaskStateFixer).Assembly.GetTypes()
        .Where(t => !t.IsAbstract && typeof(CodeFixProvider).IsAssignableFrom(t) && t.GetCustomAttribute<ExportCodeFixProviderAttribute>() is not null)
        .Select(t => (CodeFixProvider)Activator.CreateInstance(t)!)
        .Select(f => (f.FixableDiagnosticIds.Single(), f))
        .OrderBy(p => p.Item1, StringComparer.Ordinal);

    /// <summary>The diagnostics found before the clock starts.</summary>
    private sealed class Given(ImmutableArray<Diagnostic> diagnostics) : FixAllContext.DiagnosticProvider
    {
        public override Task<IEnumerable<Diagnostic>> GetAllDiagnosticsAsync(Project project, CancellationToken cancellationToken) =>
            Task.FromResult<IEnumerable<Diagnostic>>(diagnostics);

        public override async Task<IEnumerable<Diagnostic>> GetDocumentDiagnosticsAsync(Document document, CancellationToken cancellationToken)
        {
            var tree = await document.GetSyntaxTreeAsync(cancellationToken).ConfigureAwait(false);
            return diagnostics.Where(d => d.Location.SourceTree == tree);
        }

        public override Task<IEnumerable<Diagnostic>> GetProjectDiagnosticsAsync(Project project, CancellationToken cancellationToken) =>
            Task.FromResult(Enumerable.Empty<Diagnostic>());
    }
}
