using System.Collections.Immutable;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CodeFixes;

namespace TplPractices.Analyzers.FloorHost.Tests;

/// <summary>
/// What Fix All asks for: the analyzers' diagnostics on the documents and projects it fixes. It asks once a document;
/// the samples as they were are analyzed already, so only a changed solution is analyzed again.
/// </summary>
internal sealed class FloorHostAnalyzerDiagnostics(FloorHostRun run) : FixAllContext.DiagnosticProvider
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
        ReferenceEquals(project.Solution, run.Project.Solution) ? run.Diagnostics : await FloorHostRun.DiagnosticsAsync(project, run.Analyzers);
}
