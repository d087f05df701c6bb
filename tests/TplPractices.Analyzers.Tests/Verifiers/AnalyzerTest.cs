using System.Collections.Concurrent;
using System.Collections.Immutable;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CodeActions;
using Microsoft.CodeAnalysis.CodeFixes;
using Microsoft.CodeAnalysis.CSharp;
using Microsoft.CodeAnalysis.Diagnostics;
using Microsoft.CodeAnalysis.Text;

namespace TplPractices.Analyzers.Tests.Verifiers;

/// <summary>
/// A small offline stand-in for Microsoft.CodeAnalysis.Testing, which the package mirror does not carry.
/// It keeps that library's contract: markup gives the expected diagnostics; the source must compile;
/// analyzer exceptions fail the test; every fix is checked one diagnostic at a time and through Fix All in
/// document, project and solution scope, and each fixed result must equal the expected code and compile.
/// </summary>
public class AnalyzerTest
{
    private readonly ImmutableArray<DiagnosticAnalyzer> _analyzers;
    private readonly CodeFixProvider? _fixer;
    private int _originalErrors;

    public AnalyzerTest(DiagnosticAnalyzer analyzer, CodeFixProvider? fixer)
        : this(ImmutableArray.Create(analyzer), fixer)
    {
    }

    /// <summary>Several analyzers at once (the robustness tests run them all); markup then needs explicit IDs.</summary>
    public AnalyzerTest(ImmutableArray<DiagnosticAnalyzer> analyzers, CodeFixProvider? fixer)
    {
        _analyzers = analyzers;
        _fixer = fixer;
    }

    /// <summary>The source of Test0.cs, with markup.</summary>
    public string TestCode { get; set; } = string.Empty;

    /// <summary>The expected Test0.cs after fixing; null to skip the fix checks.</summary>
    public string? FixedCode { get; set; }

    /// <summary>More files of the same project, with markup: (name, code).</summary>
    public List<(string Name, string Code)> AdditionalSources { get; } = new();

    /// <summary>Expected contents of <see cref="AdditionalSources"/> after fixing, in the same order.</summary>
    public List<(string Name, string Code)> FixedAdditionalSources { get; } = new();

    /// <summary>The text of /0/.editorconfig, when the test needs one.</summary>
    public string? EditorConfig { get; set; }

    public TestTarget Target { get; set; } = TestTarget.Net80;

    /// <summary>The oldest setup the rules support: C# 7.3 with nullable off, on .NET Framework 4.7.2.</summary>
    public bool OnCSharp73NetFramework
    {
        get => LanguageVersion == LanguageVersion.CSharp7_3 && Target == TestTarget.Net472;
        set
        {
            if (value)
            {
                LanguageVersion = LanguageVersion.CSharp7_3;
                NullableContext = NullableContextOptions.Disable;
                Target = TestTarget.Net472;
            }
        }
    }

    public LanguageVersion LanguageVersion { get; set; } = LanguageVersion.CSharp12;

    public OutputKind OutputKind { get; set; } = OutputKind.DynamicallyLinkedLibrary;

    public NullableContextOptions NullableContext { get; set; } = NullableContextOptions.Enable;

    /// <summary>For half-typed code: compiler errors in the source are expected, not a test mistake.</summary>
    public bool AllowCompilerErrors { get; set; }

    /// <summary>When set, only code actions with this key are applied.</summary>
    public string? CodeActionEquivalenceKey { get; set; }

    /// <summary>
    /// More targets that share every file as linked documents, as a multi-targeted project does. The markup
    /// describes the main <see cref="Target"/>; the fix is checked through Fix All in solution scope (what
    /// dotnet format runs), and every target's copy must equal <see cref="FixedCode"/> and compile.
    /// </summary>
    public List<TestTarget> LinkedTargets { get; } = new();

    /// <summary>When set, the messages of the reported diagnostics, in source order.</summary>
    public List<string>? ExpectedMessages { get; set; }

    public async Task RunAsync()
    {
        var (solution, expected) = CreateSolution(Sources(TestCode, AdditionalSources));
        var project = MainProject(solution);
        if (!AllowCompilerErrors)
        {
            await AssertCompilesAsync(project, "the test source");
        }

        _originalErrors = (await project.GetCompilationAsync())!.GetDiagnostics().Count(d => d.Severity == DiagnosticSeverity.Error);

        var actual = await GetDiagnosticsAsync(project);
        AssertDiagnostics(expected, actual, "the test source");
        if (ExpectedMessages is not null)
        {
            Assert.Equal(ExpectedMessages, actual.Select(d => d.GetMessage(System.Globalization.CultureInfo.InvariantCulture)));
        }

        if (FixedCode is null || _fixer is null)
        {
            return;
        }

        var fixedSources = Sources(FixedCode, FixedAdditionalSources.Count > 0 ? FixedAdditionalSources : AdditionalSources);
        if (LinkedTargets.Count > 0)
        {
            await VerifyFixedAsync(await ApplyFixAllAsync(solution, FixAllScope.Solution), fixedSources, "Fix All across linked targets");
            return;
        }

        await VerifyFixedAsync(await ApplyOneByOneAsync(solution), fixedSources, "fixing one diagnostic at a time");
        await VerifyFixedAsync(await ApplyFixAllAsync(solution, FixAllScope.Document), fixedSources, "Fix All in document");
        await VerifyFixedAsync(await ApplyFixAllAsync(solution, FixAllScope.Project), fixedSources, "Fix All in project");
        await VerifyFixedAsync(await ApplyFixAllAsync(solution, FixAllScope.Solution), fixedSources, "Fix All in solution");
    }

    /// <summary>Only runs the analyzer over <see cref="TestCode"/> (no markup), failing if it throws.</summary>
    public async Task<ImmutableArray<Diagnostic>> CollectDiagnosticsAsync() => (await AnalyzeAsync()).Diagnostics;

    /// <summary>The project built from <see cref="TestCode"/> and what the analyzers report on it; fails if one throws.</summary>
    public async Task<(Project Project, ImmutableArray<Diagnostic> Diagnostics)> AnalyzeAsync()
    {
        var (solution, _) = CreateSolution(Sources(TestCode, AdditionalSources));
        var project = MainProject(solution);
        return (project, await GetDiagnosticsAsync(project));
    }

    private static List<(string Name, string Code)> Sources(string first, List<(string Name, string Code)> more) =>
        new[] { ("/0/Test0.cs", first) }.Concat(more.Select(s => ("/0/" + s.Name, s.Code))).ToList();

    private (Solution Solution, List<ExpectedDiagnostic> Expected) CreateSolution(List<(string Name, string Code)> sources)
    {
        var workspace = new AdhocWorkspace();
        var projectId = ProjectId.CreateNewId();
        var solution = workspace.CurrentSolution.AddProject(ProjectInfo.Create(
            projectId,
            VersionStamp.Default,
            "TestProject",
            "TestProject",
            LanguageNames.CSharp,
            compilationOptions: new CSharpCompilationOptions(OutputKind, nullableContextOptions: NullableContext),
            parseOptions: new CSharpParseOptions(LanguageVersion),
            metadataReferences: Target.References()));
        var expected = new List<ExpectedDiagnostic>();
        var texts = new List<(string Name, SourceText Text)>();
        foreach (var (name, code) in sources)
        {
            var (plain, spans) = Markup.Parse(code, name);
            expected.AddRange(spans);
            texts.Add((name, SourceText.From(plain)));
            solution = solution.AddDocument(DocumentId.CreateNewId(projectId, name), name, texts[^1].Text, filePath: name);
        }

        solution = WithEditorConfig(solution, projectId);

        // Same file paths in another project make linked documents, as in a multi-targeted project.
        foreach (var target in LinkedTargets)
        {
            var linkedId = ProjectId.CreateNewId();
            solution = solution.AddProject(ProjectInfo.Create(
                    linkedId, VersionStamp.Default, $"TestProject({target})", "TestProject", LanguageNames.CSharp,
                    compilationOptions: new CSharpCompilationOptions(OutputKind, nullableContextOptions: NullableContext),
                    parseOptions: new CSharpParseOptions(LanguageVersion),
                    metadataReferences: target.References()));
            foreach (var (name, text) in texts)
            {
                solution = solution.AddDocument(DocumentId.CreateNewId(linkedId, name), name, text, filePath: name);
            }

            solution = WithEditorConfig(solution, linkedId);
        }

        return (solution, expected);
    }

    /// <summary>Each project of a multi-targeted project sees the same .editorconfig.</summary>
    private Solution WithEditorConfig(Solution solution, ProjectId projectId) =>
        EditorConfig is null
            ? solution
            : solution.AddAnalyzerConfigDocument(
                DocumentId.CreateNewId(projectId), ".editorconfig", SourceText.From(EditorConfig), filePath: "/0/.editorconfig");

    /// <summary>Runs the analyzer the way the compiler does; any analyzer exception fails the test.</summary>
    internal async Task<ImmutableArray<Diagnostic>> GetDiagnosticsAsync(Project project)
    {
        var compilation = (await project.GetCompilationAsync())!;
        var exceptions = new ConcurrentQueue<Exception>();
        var options = new CompilationWithAnalyzersOptions(
            // The project's options carry its .editorconfig, where the compiler reads generated_code.
            project.AnalyzerOptions,
            (exception, _, _) => exceptions.Enqueue(exception),
            concurrentAnalysis: true,
            logAnalyzerExecutionTime: false);
        var diagnostics = await compilation
            .WithAnalyzers(_analyzers, options)
            .GetAnalyzerDiagnosticsAsync();
        Assert.True(exceptions.IsEmpty, "The analyzer threw: " + string.Join(Environment.NewLine, exceptions));
        Assert.DoesNotContain(diagnostics, d => d.Id == "AD0001");
        return diagnostics
            .OrderBy(d => d.Location.SourceTree?.FilePath, StringComparer.Ordinal)
            .ThenBy(d => d.Location.SourceSpan.Start)
            .ToImmutableArray();
    }

    private void AssertDiagnostics(List<ExpectedDiagnostic> expected, ImmutableArray<Diagnostic> actual, string stage)
    {
        var defaultId = _analyzers[0].SupportedDiagnostics[0].Id;
        var want = expected
            .Select(e => $"{e.Id ?? defaultId} {e.FilePath} {e.Span}")
            .OrderBy(s => s, StringComparer.Ordinal);
        var got = actual
            .Select(d => $"{d.Id} {d.Location.SourceTree?.FilePath} {d.Location.SourceSpan}")
            .OrderBy(s => s, StringComparer.Ordinal);
        Assert.True(
            want.SequenceEqual(got),
            $"Diagnostics in {stage} differ.{Environment.NewLine}Expected:{Environment.NewLine}  {string.Join(Environment.NewLine + "  ", want)}"
            + $"{Environment.NewLine}Actual:{Environment.NewLine}  {string.Join(Environment.NewLine + "  ", actual.Select(Describe))}");
    }

    private static string Describe(Diagnostic d) =>
        $"{d.Id} {d.Location.SourceTree?.FilePath} {d.Location.SourceSpan} '{d.Location.SourceTree?.GetText().ToString(d.Location.SourceSpan)}'";

    /// <summary>No compiler error; with <see cref="AllowCompilerErrors"/>, no more than <paramref name="allowed"/>.</summary>
    private async Task AssertCompilesAsync(Project project, string stage, int allowed = 0)
    {
        var compilation = (await project.GetCompilationAsync())!;
        var errors = compilation.GetDiagnostics().Where(d => d.Severity == DiagnosticSeverity.Error).ToList();
        Assert.True(
            errors.Count <= (AllowCompilerErrors ? allowed : 0),
            $"Compiler errors in {stage}:{Environment.NewLine}{string.Join(Environment.NewLine, errors)}");
    }

    /// <summary>Shows the whitespace a failed comparison may hinge on.</summary>
    private static string Escape(string text) => text.Replace("\r", "\\r").Replace("\t", "\\t").Replace(" \n", "·\n");

    private async Task VerifyFixedAsync(Solution solution, List<(string Name, string Code)> fixedSources, string stage)
    {
        var (_, expected) = CreateSolution(fixedSources);
        foreach (var project in solution.Projects)
        {
            foreach (var (name, code) in fixedSources)
            {
                var document = project.Documents.Single(d => d.FilePath == name);
                var text = (await document.GetTextAsync()).ToString();
                Assert.True(Markup.Parse(code, name).Source == text, $"After {stage}, {name} of {project.Name} differs. Actual (escaped):{Environment.NewLine}{Escape(text)}");
            }

            await AssertCompilesAsync(project, $"{project.Name} after {stage}", _originalErrors);
        }

        AssertDiagnostics(expected, await GetDiagnosticsAsync(MainProject(solution)), "the code after " + stage);
    }

    private static Project MainProject(Solution solution) => solution.Projects.Single(p => p.Name == "TestProject");

    private async Task<Solution> ApplyOneByOneAsync(Solution solution)
    {
        for (var iteration = 0; iteration < 50; iteration++)
        {
            var next = await FirstActionAsync(solution);
            if (next is null)
            {
                return solution;
            }

            solution = await ApplyAsync(next.Value.Action);
        }

        throw new InvalidOperationException("The fixes did not converge.");
    }

    private async Task<Solution> ApplyFixAllAsync(Solution solution, FixAllScope scope)
    {
        for (var iteration = 0; iteration < 10; iteration++)
        {
            var next = await FirstActionAsync(solution);
            if (next is null)
            {
                return solution;
            }

            var (action, diagnostic) = next.Value;
            var document = solution.GetDocument(diagnostic.Location.SourceTree)!;
            var context = new FixAllContext(
                document,
                _fixer!,
                scope,
                action.EquivalenceKey,
                _fixer!.FixableDiagnosticIds,
                new DiagnosticProvider(this),
                CancellationToken.None);
            var fixAll = await _fixer.GetFixAllProvider()!.GetFixAsync(context);
            Assert.NotNull(fixAll);
            solution = await ApplyAsync(fixAll!);
        }

        throw new InvalidOperationException("Fix All did not converge.");
    }

    private async Task<(CodeAction Action, Diagnostic Diagnostic)?> FirstActionAsync(Solution solution)
    {
        var project = MainProject(solution);
        foreach (var diagnostic in await GetDiagnosticsAsync(project))
        {
            if (!_fixer!.FixableDiagnosticIds.Contains(diagnostic.Id))
            {
                continue;
            }

            var actions = new List<CodeAction>();
            var document = solution.GetDocument(diagnostic.Location.SourceTree)!;
            await _fixer.RegisterCodeFixesAsync(new CodeFixContext(
                document, diagnostic, (action, _) => actions.Add(action), CancellationToken.None));
            var chosen = actions.FirstOrDefault(a => CodeActionEquivalenceKey is null || a.EquivalenceKey == CodeActionEquivalenceKey);
            if (chosen is not null)
            {
                return (chosen, diagnostic);
            }
        }

        return null;
    }

    private static async Task<Solution> ApplyAsync(CodeAction action)
    {
        var operations = await action.GetOperationsAsync(CancellationToken.None);
        return operations.OfType<ApplyChangesOperation>().Single().ChangedSolution;
    }

    /// <summary>Feeds Fix All the diagnostics of the current state of each project.</summary>
    private sealed class DiagnosticProvider(AnalyzerTest test) : FixAllContext.DiagnosticProvider
    {
        public override async Task<IEnumerable<Diagnostic>> GetDocumentDiagnosticsAsync(Document document, CancellationToken cancellationToken)
        {
            var tree = await document.GetSyntaxTreeAsync(cancellationToken);
            return (await test.GetDiagnosticsAsync(document.Project)).Where(d => d.Location.SourceTree == tree);
        }

        public override Task<IEnumerable<Diagnostic>> GetProjectDiagnosticsAsync(Project project, CancellationToken cancellationToken) =>
            Task.FromResult(Enumerable.Empty<Diagnostic>());

        public override async Task<IEnumerable<Diagnostic>> GetAllDiagnosticsAsync(Project project, CancellationToken cancellationToken) =>
            await test.GetDiagnosticsAsync(project);
    }
}
