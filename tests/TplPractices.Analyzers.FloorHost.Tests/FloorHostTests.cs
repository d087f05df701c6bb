using System.Collections.Immutable;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CodeActions;
using Microsoft.CodeAnalysis.CodeFixes;
using Microsoft.CodeAnalysis.CSharp;
using Microsoft.CodeAnalysis.Diagnostics;
using Microsoft.CodeAnalysis.Text;
using Microsoft.CodeAnalysis.Host.Mef;

namespace TplPractices.Analyzers.FloorHost.Tests;

/// <summary>
/// The package in the oldest host it claims: a Roslyn 4.8 workspace composed with MEF, the samples as its project,
/// every rule raised. Every analyzer must run without an exception and report, and every fixer must offer its fixes
/// and apply them, single and Fix All, to code that still compiles (each checked in the documents it changed, where
/// any error it makes is reported).
/// </summary>
public sealed class FloorHostTests
{
    private static readonly Lazy<Task<Run>> Samples = new(Run.StartAsync);

    [Fact]
    public void TheHost_IsRoslyn48()
    {
        Assert.Equal(new Version(4, 8, 0, 0), typeof(Workspace).Assembly.GetName().Version);
        Assert.Equal(new Version(4, 8, 0, 0), typeof(CSharpCompilation).Assembly.GetName().Version);
    }

    [Fact]
    public async Task EveryAnalyzer_RunsWithoutAnException_AndReportsOnTheSamples()
    {
        var run = await Samples.Value;
        Assert.Empty(run.Errors);
        Assert.Empty(run.AnalyzerExceptions);
        var reported = run.Diagnostics.Select(d => d.Id).ToHashSet();
        Assert.All(run.RuleIds, id => Assert.Contains(id, reported));
    }

    /// <summary>The rules that report without a fix, each page saying why no rewrite keeps the behaviour.</summary>
    private static readonly string[] ReportOnly = ["TPL0018"];

    [Fact]
    public async Task EveryFixer_OffersAFix_AndItCompiles()
    {
        var run = await Samples.Value;
        var fixers = Shipped.Fixers();
        Assert.Equal(run.RuleIds.Except(ReportOnly).OrderBy(id => id), fixers.Select(f => f.FixableDiagnosticIds[0]).OrderBy(id => id));
        foreach (var fixer in fixers)
        {
            var offered = 0;
            foreach (var diagnostic in run.Diagnostics.Where(d => fixer.FixableDiagnosticIds.Contains(d.Id)))
            {
                foreach (var action in await run.ActionsAsync(fixer, diagnostic))
                {
                    offered++;
                    var fixedSolution = await ChangedSolutionAsync(await action.GetOperationsAsync(CancellationToken.None));
                    Assert.Empty(await Run.ErrorsInChangedDocumentsAsync(fixedSolution.Projects.Single(), run.Project));
                }
            }

            Assert.True(offered > 0, fixer.GetType().Name + " offered no fix on the samples");
        }
    }

    [Fact]
    public async Task EveryFixer_FixesAllInTheSolution_AndItCompiles()
    {
        var run = await Samples.Value;
        foreach (var fixer in Shipped.Fixers())
        {
            var id = fixer.FixableDiagnosticIds[0];
            var first = await FirstActionAsync(run, fixer);
            var provider = fixer.GetFixAllProvider();
            if (provider is null)
            {
                // A fix offered one site at a time (TPL0013's): the single fix applies and compiles on Roslyn 4.8.
                var single = (await ChangedSolutionAsync(await first.Action.GetOperationsAsync(CancellationToken.None))).Projects.Single();
                Assert.Empty(await Run.ErrorsInChangedDocumentsAsync(single, run.Project));
                Assert.True((await Run.DiagnosticsAsync(single, run.AnalyzersOf(id))).Count(d => d.Id == id) < run.Diagnostics.Count(d => d.Id == id), id + "'s single fix left its diagnostic");
                continue;
            }

            var context = new FixAllContext(
                run.Project.GetDocument(first.Diagnostic.Location.SourceTree)!,
                fixer,
                FixAllScope.Solution,
                first.Action.EquivalenceKey,
                new[] { id },
                new AnalyzerDiagnostics(run),
                CancellationToken.None);
            var fixAll = await provider!.GetFixAsync(context);
            Assert.NotNull(fixAll);
            var fixedProject = (await ChangedSolutionAsync(await fixAll!.GetOperationsAsync(CancellationToken.None))).Projects.Single();
            Assert.Empty(await Run.ErrorsInChangedDocumentsAsync(fixedProject, run.Project));
            var before = run.Diagnostics.Count(d => d.Id == id);
            var after = (await Run.DiagnosticsAsync(fixedProject, run.AnalyzersOf(id))).Count(d => d.Id == id);
            Assert.True(after < before, $"Fix All of {id} left {after} of {before} diagnostics");
        }
    }

    private static async Task<(Diagnostic Diagnostic, CodeAction Action)> FirstActionAsync(Run run, CodeFixProvider fixer)
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

    private static Task<Solution> ChangedSolutionAsync(ImmutableArray<CodeActionOperation> operations) =>
        Task.FromResult(Assert.Single(operations.OfType<ApplyChangesOperation>()).ChangedSolution);

    /// <summary>The samples in a Roslyn 4.8 workspace, analyzed once with every rule raised to a warning.</summary>
    private sealed class Run
    {
        public required Project Project { get; init; }

        public required ImmutableArray<DiagnosticAnalyzer> Analyzers { get; init; }

        public required ImmutableArray<string> RuleIds { get; init; }

        public required ImmutableArray<Diagnostic> Diagnostics { get; init; }

        public required ImmutableArray<Diagnostic> Errors { get; init; }

        public required List<string> AnalyzerExceptions { get; init; }

        public static async Task<Run> StartAsync()
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
            return new Run
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
    }

    /// <summary>
    /// What Fix All asks for: the analyzers' diagnostics on the documents and projects it fixes. It asks once a document;
    /// the samples as they were are analyzed already, so only a changed solution is analyzed again.
    /// </summary>
    private sealed class AnalyzerDiagnostics(Run run) : FixAllContext.DiagnosticProvider
    {
        public override async Task<IEnumerable<Diagnostic>> GetDocumentDiagnosticsAsync(Document document, CancellationToken cancellationToken)
        {
            var tree = await document.GetSyntaxTreeAsync(cancellationToken);
            return (await ForAsync(document.Project)).Where(d => d.Location.SourceTree == tree);
        }

        public override async Task<IEnumerable<Diagnostic>> GetProjectDiagnosticsAsync(Project project, CancellationToken cancellationToken) =>
            (await ForAsync(project)).Where(d => !d.Location.IsInSource);

        public override async Task<IEnumerable<Diagnostic>> GetAllDiagnosticsAsync(Project project, CancellationToken cancellationToken) =>
            await ForAsync(project);

        private async Task<ImmutableArray<Diagnostic>> ForAsync(Project project) =>
            ReferenceEquals(project.Solution, run.Project.Solution) ? run.Diagnostics : await Run.DiagnosticsAsync(project, run.Analyzers);
    }
}
