using System.Collections.Immutable;
using System.Runtime.CompilerServices;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CodeActions;
using Microsoft.CodeAnalysis.CodeFixes;
using Microsoft.CodeAnalysis.Diagnostics;
using TplPractices.Analyzers.Tests.Meta;

namespace TplPractices.Analyzers.Tests.Gauntlet;

/// <summary>
/// What <c>dotnet format analyzers --severity info</c> does with our rules, step for step: analyze every project once;
/// then, one reported rule after another, analyze again the projects that reported it and apply the rule's Fix All in
/// Solution scope with those diagnostics. dotnet format takes the rules in the order of a hash set of their IDs, which
/// changes from one process to the next, so a run here takes the order it is given.
/// </summary>
internal static class FormatRun
{
    public static readonly ImmutableArray<DiagnosticAnalyzer> Analyzers = Repository.Analyzers();
    private static readonly IReadOnlyDictionary<string, CodeFixProvider> Fixers = Repository.Fixers();

    public static readonly ImmutableArray<string> RuleIds = Fixers.Keys.OrderBy(id => id, StringComparer.Ordinal).ToImmutableArray();

    /// <param name="warnings">Where to put what dotnet format would print as a warning for a rule it could not fix.</param>
    /// <param name="firstReported">Where to put the IDs of the order's rules the first analysis reports in any project:
    /// the only ones the run fixes, so two orders alike on them make the same run.</param>
    public static async Task<Solution> RunAsync(Solution solution, IReadOnlyList<string> order, ICollection<string>? warnings = null, ISet<string>? firstReported = null)
    {
        // dotnet format analyzes every project first, and again before each rule it fixes. Both take the project's
        // one analysis (AnalysisAsync): an analyzer reports the same with or without the others beside it, so only
        // a fix, which makes a new project, can change what the next rule finds.
        var reported = new Dictionary<ProjectId, HashSet<string>>();
        foreach (var project in solution.Projects)
        {
            reported[project.Id] = (await AnalysisAsync(project)).Reported.Select(d => d.Id).Where(order.Contains).ToHashSet();
            firstReported?.UnionWith(reported[project.Id]);
        }

        foreach (var id in order)
        {
            var diagnostics = new Dictionary<ProjectId, ImmutableArray<Diagnostic>>();
            foreach (var project in solution.Projects.Where(p => reported[p.Id].Contains(id)))
            {
                diagnostics[project.Id] = (await AnalysisAsync(project)).Reported.Where(d => d.Id == id).ToImmutableArray();
            }

            if (diagnostics.Values.SelectMany(d => d).FirstOrDefault(d => d.Location.SourceTree is not null) is not { } first
                || solution.GetDocument(first.Location.SourceTree) is not { } document)
            {
                continue;
            }

            // dotnet format applies only what a Fix All can: a rule whose fix is offered one site at a time is skipped.
            var fixer = Fixers[id];
            if (fixer.GetFixAllProvider() is null)
            {
                warnings?.Add($"Unable to fix {id}: no Fix All in Solution");
                continue;
            }

            CodeAction? action = null;
            await fixer.RegisterCodeFixesAsync(new CodeFixContext(document, first, (a, _) => action ??= a, CancellationToken.None));
            var context = new FixAllContext(
                document, fixer, FixAllScope.Solution, action?.EquivalenceKey!, [id], new Provider(diagnostics), CancellationToken.None);
            if (await fixer.GetFixAllProvider()!.GetFixAsync(context) is not { } fixAll)
            {
                warnings?.Add($"Unable to fix {id}: no Fix All action");
                continue;
            }

            var operations = await fixAll.GetOperationsAsync(CancellationToken.None);
            solution = operations.OfType<ApplyChangesOperation>().Single().ChangedSolution;
        }

        return solution;
    }

    /// <summary>The code of one file after the rules' fixes, as dotnet format leaves it on net10.0 (for the behaviour tests).</summary>
    public static Task<string> FixAsync(string code, params string[] rules) => FixAsync(GauntletSetup.Single, code, rules);

    /// <summary>The code of one file after the rules' fixes, in a project of the setup's targets (one linked copy each).</summary>
    public static async Task<string> FixAsync(GauntletSetup setup, string code, params string[] rules)
    {
        var solution = await RunAsync(setup.Create([("Test0.cs", code)], OutputKind.DynamicallyLinkedLibrary), rules);
        return (await solution.Projects.First().Documents.Single().GetTextAsync()).ToString();
    }

    /// <summary>
    /// The code of one file after a user takes the rule's light-bulb fix at every site, one after another (for a rule
    /// whose fix is kept out of Fix All, so dotnet format leaves it alone).
    /// </summary>
    public static async Task<string> FixEachSiteAsync(string code, string rule)
    {
        var solution = GauntletSetup.Single.Create([("Test0.cs", code)], OutputKind.DynamicallyLinkedLibrary);
        for (var pass = 0; pass < 20; pass++)
        {
            var project = solution.Projects.Single();
            var document = project.Documents.Single();
            CodeAction? action = null;
            foreach (var diagnostic in (await AnalysisAsync(project)).Reported.Where(d => d.Id == rule))
            {
                await Fixers[rule].RegisterCodeFixesAsync(new CodeFixContext(document, diagnostic, (a, _) => action ??= a, CancellationToken.None));
                if (action is not null)
                {
                    break;
                }
            }

            if (action is null)
            {
                break;
            }

            solution = (await action.GetOperationsAsync(CancellationToken.None)).OfType<ApplyChangesOperation>().Single().ChangedSolution;
        }

        return (await solution.Projects.Single().Documents.Single().GetTextAsync()).ToString();
    }

    /// <summary>Whether dotnet format can apply the rule's fix (a Fix All exists for it).</summary>
    public static bool FixesInBulk(string rule) => Fixers[rule].GetFixAllProvider() is not null;

    /// <summary>The compiler's warnings and errors, and what every shipped analyzer reports, from one binding of the code.</summary>
    /// <param name="Compiler">The compiler's diagnostics at severity warning and above, not suppressed.</param>
    /// <param name="Reported">What the analyzers report at severity info and above, as dotnet format asks for it.</param>
    internal sealed record Analysis(IReadOnlyList<Diagnostic> Compiler, ImmutableArray<Diagnostic> Reported);

    private static readonly ConditionalWeakTable<Project, Task<Analysis>> Analyses = new();

    private static readonly IReadOnlySet<string> AnalyzerIds = Analyzers.SelectMany(a => a.SupportedDiagnostics).Select(d => d.Id).ToHashSet(StringComparer.Ordinal);

    /// <summary>
    /// The project's analysis, made once while the project lives: the gauntlet asks one project several times whether
    /// it compiles and what each rule reports, and binding the code again for each question took a fifth of its time.
    /// </summary>
    public static Task<Analysis> AnalysisAsync(Project project) => Analyses.GetValue(project, AnalyzeAsync);

    private static async Task<Analysis> AnalyzeAsync(Project project)
    {
        var compilation = (await project.GetCompilationAsync())!;
        var exceptions = new List<Exception>();
        var options = new CompilationWithAnalyzersOptions(project.AnalyzerOptions, (e, _, _) => { lock (exceptions) { exceptions.Add(e); } }, concurrentAnalysis: true, logAnalyzerExecutionTime: false);
        var all = await compilation.WithAnalyzers(Analyzers, options).GetAllDiagnosticsAsync();
        Assert.True(exceptions.Count == 0, "An analyzer threw: " + string.Join(Environment.NewLine, exceptions));
        return new Analysis(
            all.Where(d => !AnalyzerIds.Contains(d.Id) && d.Severity >= DiagnosticSeverity.Warning && !d.IsSuppressed).ToList(),
            all.Where(d => AnalyzerIds.Contains(d.Id) && d.Severity >= DiagnosticSeverity.Info && !d.IsSuppressed).ToImmutableArray());
    }

    /// <summary>dotnet format's provider: the diagnostics of the analysis just made, by project.</summary>
    internal sealed class Provider(Dictionary<ProjectId, ImmutableArray<Diagnostic>> diagnostics) : FixAllContext.DiagnosticProvider
    {
        public override Task<IEnumerable<Diagnostic>> GetAllDiagnosticsAsync(Project project, CancellationToken cancellationToken) =>
            GetProjectDiagnosticsAsync(project, cancellationToken);

        public override async Task<IEnumerable<Diagnostic>> GetDocumentDiagnosticsAsync(Document document, CancellationToken cancellationToken) =>
            (await GetProjectDiagnosticsAsync(document.Project, cancellationToken)).Where(d => d.Location.SourceTree?.FilePath == document.FilePath);

        public override Task<IEnumerable<Diagnostic>> GetProjectDiagnosticsAsync(Project project, CancellationToken cancellationToken) =>
            Task.FromResult<IEnumerable<Diagnostic>>(diagnostics.TryGetValue(project.Id, out var found) ? found : ImmutableArray<Diagnostic>.Empty);
    }
}
