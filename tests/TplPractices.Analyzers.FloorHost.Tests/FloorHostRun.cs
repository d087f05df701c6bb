using System.Collections.Immutable;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CodeActions;
using Microsoft.CodeAnalysis.CodeFixes;
using Microsoft.CodeAnalysis.CSharp;
using Microsoft.CodeAnalysis.Diagnostics;
using Microsoft.CodeAnalysis.Text;
using Microsoft.CodeAnalysis.Host.Mef;

namespace TplPractices.Analyzers.FloorHost.Tests;

/// <summary>The samples in a Roslyn 4.8 workspace, analyzed once with every rule raised to a warning.</summary>
internal sealed class FloorHostRun
{
    /// <summary>Analyzed once for the process, by whichever test asks first.</summary>
    public static readonly Lazy<Task<FloorHostRun>> Samples = new(StartAsync);

    public required Project Project { get; init; }

    public required ImmutableArray<DiagnosticAnalyzer> Analyzers { get; init; }

    public required ImmutableArray<string> RuleIds { get; init; }

    public required ImmutableArray<Diagnostic> Diagnostics { get; init; }

    public required ImmutableArray<Diagnostic> Errors { get; init; }

    public required List<string> AnalyzerExceptions { get; init; }

    private static async Task<FloorHostRun> StartAsync()
    {
        var analyzers = Shipped.Analyzers();
        var ids = analyzers.SelectMany(a => a.SupportedDiagnostics).Select(d => d.Id).Where(id => id.StartsWith("TPL", StringComparison.Ordinal)).Distinct().ToImmutableArray();
        var workspace = new AdhocWorkspace(MefHostServices.Create(MefHostServices.DefaultAssemblies));
        var options = new CSharpCompilationOptions(OutputKind.DynamicallyLinkedLibrary, nullableContextOptions: NullableContextOptions.Enable)
            .WithSpecificDiagnosticOptions(ids.Select(id => new KeyValuePair<string, ReportDiagnostic>(id, ReportDiagnostic.Warn)));
        var project = workspace.AddProject(ProjectInfo.Create(
            ProjectId.CreateNewId(),
            VersionStamp.Default,
            "Samples",
            "Samples",
            LanguageNames.CSharp,
            compilationOptions: options,
            parseOptions: new CSharpParseOptions(LanguageVersion.Latest, preprocessorSymbols: new[] { "NET", "NETCOREAPP", "NET8_0_OR_GREATER", "NET10_0_OR_GREATER" }),
            metadataReferences: FrameworkReferences()));
        foreach (var file in Directory.GetFiles(Path.Combine(Shipped.RepositoryRoot, "samples", "TplPractices.Samples"), "*.cs").Order(StringComparer.Ordinal))
        {
            project = project.AddDocument(Path.GetFileName(file), File.ReadAllText(file), filePath: file).Project;
        }

        // The samples' options: TPL0012 speaks only on the members they mark as hot paths.
        var config = Path.Combine(Shipped.RepositoryRoot, "samples", "TplPractices.Samples", ".editorconfig");
        project = project.AddAnalyzerConfigDocument(".editorconfig", SourceText.From(File.ReadAllText(config)), filePath: config).Project;

        var exceptions = new List<string>();
        return new FloorHostRun
        {
            Project = project,
            Analyzers = analyzers,
            RuleIds = ids,
            Diagnostics = await DiagnosticsAsync(project, analyzers, exceptions),
            Errors = await ErrorsAsync(project),
            AnalyzerExceptions = exceptions,
        };
    }

    /// <summary>The analyzers that report <paramref name="id"/>: a rule's count after its fix needs no other rule's run.</summary>
    public ImmutableArray<DiagnosticAnalyzer> AnalyzersOf(string id) =>
        Analyzers.Where(a => a.SupportedDiagnostics.Any(d => d.Id == id)).ToImmutableArray();

    public async Task<List<CodeAction>> ActionsAsync(CodeFixProvider fixer, Diagnostic diagnostic)
    {
        var actions = new List<CodeAction>();
        var document = Project.GetDocument(diagnostic.Location.SourceTree)!;
        await fixer.RegisterCodeFixesAsync(new CodeFixContext(document, diagnostic, (a, _) => actions.Add(a), CancellationToken.None));
        return actions;
    }

    /// <summary>
    /// The errors in the documents a fix changed: it rewrites code inside members, so any error it makes is there,
    /// and binding only those documents keeps this host's check of every fix cheap.
    /// </summary>
    public static async Task<ImmutableArray<Diagnostic>> ErrorsInChangedDocumentsAsync(Project project, Project original)
    {
        var compilation = (await project.GetCompilationAsync())!;
        var errors = ImmutableArray.CreateBuilder<Diagnostic>();
        foreach (var id in project.GetChanges(original).GetChangedDocuments())
        {
            var tree = await project.GetDocument(id)!.GetSyntaxTreeAsync();
            errors.AddRange(compilation.GetSemanticModel(tree!).GetDiagnostics().Where(d => d.Severity == DiagnosticSeverity.Error));
        }

        return errors.ToImmutable();
    }

    public static async Task<ImmutableArray<Diagnostic>> ErrorsAsync(Project project) =>
        (await project.GetCompilationAsync())!.GetDiagnostics().Where(d => d.Severity == DiagnosticSeverity.Error).ToImmutableArray();

    public static async Task<ImmutableArray<Diagnostic>> DiagnosticsAsync(Project project, ImmutableArray<DiagnosticAnalyzer> analyzers, List<string>? exceptions = null)
    {
        var compilation = (await project.GetCompilationAsync())!;
        var options = new CompilationWithAnalyzersOptions(
            project.AnalyzerOptions,
            (exception, analyzer, _) => exceptions?.Add(analyzer + ": " + exception),
            concurrentAnalysis: true,
            logAnalyzerExecutionTime: false);
        return await compilation.WithAnalyzers(analyzers, options).GetAnalyzerDiagnosticsAsync();
    }

    /// <summary>
    /// How many <paramref name="id"/> diagnostics the project has after a fix: those of the documents it left as they
    /// were, counted before, and those the analyzers find in the documents it changed, analyzed alone (the whole
    /// project's analysis, once for every fixer, was most of this host's time).
    /// </summary>
    public async Task<int> CountAfterAsync(Project fixedProject, string id)
    {
        var changed = fixedProject.GetChanges(Project).GetChangedDocuments().Select(d => fixedProject.GetDocument(d)!).ToList();
        var changedPaths = changed.Select(d => d.FilePath).ToHashSet(StringComparer.Ordinal);
        var kept = Diagnostics.Count(d => d.Id == id && !changedPaths.Contains(d.Location.SourceTree?.FilePath));
        var compilation = (await fixedProject.GetCompilationAsync())!;
        var withAnalyzers = compilation.WithAnalyzers(AnalyzersOf(id), new CompilationWithAnalyzersOptions(fixedProject.AnalyzerOptions, null, concurrentAnalysis: true, logAnalyzerExecutionTime: false));
        foreach (var document in changed)
        {
            var model = compilation.GetSemanticModel((await document.GetSyntaxTreeAsync())!);
            kept += (await withAnalyzers.GetAnalyzerSemanticDiagnosticsAsync(model, null, CancellationToken.None)).Count(d => d.Id == id);
        }

        return kept;
    }

    /// <summary>The runtime's own assemblies: offline, and enough for the samples' net10.0 build.</summary>
    private static IEnumerable<MetadataReference> FrameworkReferences() =>
        Directory.GetFiles(Path.GetDirectoryName(typeof(object).Assembly.Location)!, "*.dll")
            .Where(f => !Path.GetFileName(f).StartsWith("Microsoft.CodeAnalysis", StringComparison.Ordinal))
            .Where(IsManaged)
            .Select(f => MetadataReference.CreateFromFile(f));

    private static bool IsManaged(string path)
    {
        using var pe = new System.Reflection.PortableExecutable.PEReader(File.OpenRead(path));
        return pe.HasMetadata;
    }

    /// <summary>The solution a fix makes: one change to apply, as a host applies it.</summary>
    public static Task<Solution> ChangedSolutionAsync(ImmutableArray<CodeActionOperation> operations) =>
        Task.FromResult(Assert.Single(operations.OfType<ApplyChangesOperation>()).ChangedSolution);
}
