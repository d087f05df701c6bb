using System.Collections.Immutable;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CodeActions;
using Microsoft.CodeAnalysis.CodeFixes;
using Microsoft.CodeAnalysis.CSharp;
using Microsoft.CodeAnalysis.Diagnostics;

namespace TplPractices.Analyzers.Tests.Verifiers;

/// <summary>
/// A multi-targeted project, as the IDE and dotnet format see it: one project per target, whose documents share
/// file paths ("linked" documents). The test's project is the first target; each linked target gets a copy of its
/// documents and .editorconfig, with its own reference assemblies.
/// </summary>
internal static class LinkedProjects
{
    private const string Marker = " linked to ";

    public static async Task<Project> AddAsync(Project primary, IReadOnlyList<LinkedTarget> targets, CancellationToken cancellationToken)
    {
        if (targets.Count == 0)
        {
            return primary;
        }

        var solution = primary.Solution;
        foreach (var target in targets)
        {
            var id = ProjectId.CreateNewId(target.ToString());
            var parseOptions = (CSharpParseOptions)primary.ParseOptions!;
            var compilationOptions = (CSharpCompilationOptions)primary.CompilationOptions!;
            solution = solution.AddProject(ProjectInfo.Create(
                id,
                VersionStamp.Default,
                $"{target.Target}{Marker}{primary.Name}",
                primary.AssemblyName,
                primary.Language,
                compilationOptions: compilationOptions.WithNullableContextOptions(target.Nullable ?? compilationOptions.NullableContextOptions),
                parseOptions: parseOptions
                    .WithLanguageVersion(target.LanguageVersion ?? parseOptions.LanguageVersion)
                    .WithPreprocessorSymbols(target.PreprocessorSymbols ?? parseOptions.PreprocessorSymbolNames),
                metadataReferences: target.Target.References()));
            foreach (var document in primary.Documents)
            {
                var text = await document.GetTextAsync(cancellationToken);
                solution = solution.AddDocument(DocumentId.CreateNewId(id), document.Name, text, document.Folders, document.FilePath ?? document.Name);
            }

            foreach (var config in primary.AnalyzerConfigDocuments)
            {
                var text = await config.GetTextAsync(cancellationToken);
                solution = solution.AddAnalyzerConfigDocument(DocumentId.CreateNewId(id), config.Name, text, config.Folders, config.FilePath);
            }
        }

        // Copies are linked by file path, so the test's own documents need one too.
        foreach (var document in primary.Documents.Where(d => d.FilePath is null))
        {
            solution = solution.WithDocumentFilePath(document.Id, document.Name);
        }

        return solution.GetProject(primary.Id)!;
    }

    /// <summary>
    /// The markup describes the first target, so the analyzers' diagnostics in the copies are left out; compiler
    /// diagnostics of every copy stay, so a fix that breaks another target fails the test.
    /// </summary>
    public static ImmutableArray<(Project Project, Diagnostic Diagnostic)> Filter(ImmutableArray<(Project Project, Diagnostic Diagnostic)> diagnostics) =>
        diagnostics.RemoveAll(d => d.Project.Name.Contains(Marker, StringComparison.Ordinal)
            && !d.Diagnostic.Descriptor.CustomTags.Contains(WellKnownDiagnosticTags.Compiler));

    /// <summary>The action, made to give each document it changes in <paramref name="solution"/> to that document's unchanged linked copies.</summary>
    public static CodeAction ReachEveryCopy(CodeAction action, Solution solution) => new EveryCopyAction(action, solution);

    /// <summary>Every linked copy of the project's documents has the document's text: a fix must reach each target.</summary>
    public static void AssertCopiesAgree(Project project)
    {
        foreach (var document in project.Documents)
        {
            var text = Text(document);
            foreach (var id in document.GetLinkedDocumentIds())
            {
                var copy = project.Solution.GetDocument(id)!;
                Assert.True(Text(copy) == text, $"The copy of {document.Name} in {copy.Project.Name} differs from the one in {project.Name}:{Environment.NewLine}{Text(copy)}");
            }
        }
    }

    // The library's hook is synchronous; the test's documents are in memory, so this does not wait on I/O.
    private static string Text(Document document) => document.GetTextAsync().GetAwaiter().GetResult().ToString();

    /// <summary>Diagnostics for Fix All from every project, linked copies included.</summary>
    public static FixAllContext.DiagnosticProvider EveryTargetsDiagnostics(ImmutableArray<DiagnosticAnalyzer> analyzers) => new EveryTargetProvider(analyzers);

    private sealed class EveryTargetProvider(ImmutableArray<DiagnosticAnalyzer> analyzers) : FixAllContext.DiagnosticProvider
    {
        public override async Task<IEnumerable<Diagnostic>> GetDocumentDiagnosticsAsync(Document document, CancellationToken cancellationToken)
        {
            var tree = await document.GetSyntaxTreeAsync(cancellationToken);
            return (await GetAllDiagnosticsAsync(document.Project, cancellationToken)).Where(d => d.Location.SourceTree == tree);
        }

        public override Task<IEnumerable<Diagnostic>> GetProjectDiagnosticsAsync(Project project, CancellationToken cancellationToken) =>
            Task.FromResult(Enumerable.Empty<Diagnostic>());

        public override async Task<IEnumerable<Diagnostic>> GetAllDiagnosticsAsync(Project project, CancellationToken cancellationToken) =>
            await (await project.GetCompilationAsync(cancellationToken))!
                .WithAnalyzers(analyzers, project.AnalyzerOptions)
                .GetAnalyzerDiagnosticsAsync(cancellationToken);
    }

    private sealed class EveryCopyAction(CodeAction inner, Solution original) : CodeAction
    {
        public override string Title => inner.Title;

        public override string? EquivalenceKey => inner.EquivalenceKey;

        protected override async Task<Solution?> GetChangedSolutionAsync(CancellationToken cancellationToken)
        {
            var operations = await inner.GetOperationsAsync(cancellationToken);
            var changed = operations.OfType<ApplyChangesOperation>().Single().ChangedSolution;
            var edited = changed.GetChanges(original).GetProjectChanges().SelectMany(p => p.GetChangedDocuments(onlyGetDocumentsWithTextChanges: true)).ToHashSet();
            foreach (var id in edited)
            {
                var text = await changed.GetDocument(id)!.GetTextAsync(cancellationToken);
                foreach (var copy in changed.GetDocument(id)!.GetLinkedDocumentIds().Where(copy => !edited.Contains(copy)))
                {
                    changed = changed.WithDocumentText(copy, text);
                }
            }

            return changed;
        }
    }
}

/// <summary>
/// One more target of a multi-targeted project; what it leaves null it shares with the test's own target. An SDK
/// project gives each target its own language version default, nullable setting and symbols (NET, NETSTANDARD2_0).
/// </summary>
public sealed record LinkedTarget(
    TestTarget Target, LanguageVersion? LanguageVersion = null, NullableContextOptions? Nullable = null, string[]? PreprocessorSymbols = null)
{
    public static implicit operator LinkedTarget(TestTarget target) => new(target);
}
