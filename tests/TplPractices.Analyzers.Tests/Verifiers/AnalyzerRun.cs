using System.Collections.Concurrent;
using System.Collections.Immutable;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp;
using Microsoft.CodeAnalysis.Diagnostics;
using Microsoft.CodeAnalysis.Text;

namespace TplPractices.Analyzers.Tests.Verifiers;

/// <summary>
/// What Microsoft.CodeAnalysis.Testing does not do: run analyzers over code without expectations and hand back
/// what they report, for the robustness tests (half-typed code, fuzzing) and the all-rules meta tests. An analyzer
/// exception fails the run.
/// </summary>
public sealed class AnalyzerRun(ImmutableArray<DiagnosticAnalyzer> analyzers)
{
    public AnalyzerRun(DiagnosticAnalyzer analyzer)
        : this(ImmutableArray.Create(analyzer))
    {
    }

    /// <summary>The project's files: (name, code).</summary>
    public List<(string Name, string Code)> Sources { get; } = new();

    /// <summary>The text of /0/.editorconfig, when the test needs one.</summary>
    public string? EditorConfig { get; set; }

    public TestTarget Target { get; set; } = TestTarget.Net100;

    public LanguageVersion LanguageVersion { get; set; } = LanguageVersion.CSharp12;

    public NullableContextOptions NullableContext { get; set; } = NullableContextOptions.Enable;

    public OutputKind OutputKind { get; set; } = OutputKind.DynamicallyLinkedLibrary;

    /// <summary>Compiles with <c>runtime-async=on</c>, as a project with <c>&lt;Features&gt;runtime-async=on&lt;/Features&gt;</c> does.</summary>
    public bool RuntimeAsync { get; set; }

    public static AnalyzerRun Of(DiagnosticAnalyzer analyzer, string code) => new(analyzer) { Sources = { ("Test0.cs", code) } };

    public async Task<ImmutableArray<Diagnostic>> DiagnosticsAsync() => (await AnalyzeAsync()).Diagnostics;

    /// <summary>The titles of the code actions <paramref name="fixer"/> offers on each diagnostic the analyzer reports in <paramref name="code"/>.</summary>
    public static async Task<List<string>> CodeActionTitlesAsync(Microsoft.CodeAnalysis.CodeFixes.CodeFixProvider fixer, DiagnosticAnalyzer analyzer, string code)
    {
        var (project, diagnostics) = await Of(analyzer, code).AnalyzeAsync();
        var document = project.Documents.Single();
        var titles = new List<string>();
        foreach (var diagnostic in diagnostics)
        {
            await fixer.RegisterCodeFixesAsync(new Microsoft.CodeAnalysis.CodeFixes.CodeFixContext(document, diagnostic, (a, _) => titles.Add(a.Title), CancellationToken.None));
        }

        return titles;
    }

    /// <summary>The project built from <see cref="Sources"/>, and what the analyzers report on it, in source order.</summary>
    public async Task<(Project Project, ImmutableArray<Diagnostic> Diagnostics)> AnalyzeAsync()
    {
        var project = CreateProject();
        return (project, await DiagnosticsAsync(project));
    }

    /// <summary>
    /// What the IDE computes live for one open file: the analyzers' semantic diagnostics of that document alone,
    /// not of the whole compilation.
    /// </summary>
    public async Task<ImmutableArray<Diagnostic>> OpenFileDiagnosticsAsync(string name)
    {
        var project = CreateProject();
        var document = project.Documents.Single(d => d.Name == name);
        var model = (await document.GetSemanticModelAsync())!;
        var exceptions = new ConcurrentQueue<Exception>();
        var options = new CompilationWithAnalyzersOptions(project.AnalyzerOptions, (exception, _, _) => exceptions.Enqueue(exception), concurrentAnalysis: true, logAnalyzerExecutionTime: false);
        var diagnostics = await model.Compilation.WithAnalyzers(analyzers, options).GetAnalyzerSemanticDiagnosticsAsync(model, filterSpan: null, CancellationToken.None);
        Assert.True(exceptions.IsEmpty, "An analyzer threw: " + string.Join(Environment.NewLine, exceptions));
        return diagnostics;
    }

    private Project CreateProject()
    {
        var id = ProjectId.CreateNewId();
        var solution = new AdhocWorkspace().CurrentSolution.AddProject(ProjectInfo.Create(
            id,
            VersionStamp.Default,
            "TestProject",
            "TestProject",
            LanguageNames.CSharp,
            compilationOptions: new CSharpCompilationOptions(OutputKind, nullableContextOptions: NullableContext),
            parseOptions: new CSharpParseOptions(LanguageVersion).WithFeatures(RuntimeAsync ? [new("runtime-async", "on")] : []),
            metadataReferences: Target.References()));
        foreach (var (name, code) in Sources)
        {
            solution = solution.AddDocument(DocumentId.CreateNewId(id), name, SourceText.From(code), filePath: "/0/" + name);
        }

        if (EditorConfig is not null)
        {
            solution = solution.AddAnalyzerConfigDocument(DocumentId.CreateNewId(id), ".editorconfig", SourceText.From(EditorConfig), filePath: "/0/.editorconfig");
        }

        return solution.GetProject(id)!;
    }

    /// <summary>Runs the analyzers the way the compiler does, with the project's .editorconfig; any exception fails the test.</summary>
    private async Task<ImmutableArray<Diagnostic>> DiagnosticsAsync(Project project)
    {
        var exceptions = new ConcurrentQueue<Exception>();
        var options = new CompilationWithAnalyzersOptions(
            project.AnalyzerOptions,
            (exception, _, _) => exceptions.Enqueue(exception),
            concurrentAnalysis: true,
            logAnalyzerExecutionTime: false);
        var diagnostics = await (await project.GetCompilationAsync())!.WithAnalyzers(analyzers, options).GetAnalyzerDiagnosticsAsync();
        Assert.True(exceptions.IsEmpty, "An analyzer threw: " + string.Join(Environment.NewLine, exceptions));
        Assert.DoesNotContain(diagnostics, d => d.Id == "AD0001");
        return diagnostics
            .OrderBy(d => d.Location.SourceTree?.FilePath, StringComparer.Ordinal)
            .ThenBy(d => d.Location.SourceSpan.Start)
            .ToImmutableArray();
    }
}
