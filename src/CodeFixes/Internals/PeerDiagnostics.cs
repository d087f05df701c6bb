using System.Collections.Generic;
using System.Collections.Immutable;
using System.Linq;
using System.Threading;
using System.Threading.Tasks;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.Diagnostics;
using Microsoft.CodeAnalysis.Text;

namespace TplPractices.Analyzers.CodeFixes.Internals;

/// <summary>
/// A peer analyzer's diagnostics that a rule's fix also serves (CA2027 for TPL0017): the peer reports the site without
/// a fix, and the rule's fix is offered on it. The peer's diagnostic carries none of what the rule's fixer reads, so
/// the rule's own diagnostic at the same site is found by running the rule on the document, on whatever its severity
/// (the user chose the peer's rule, maybe not this one).
/// </summary>
internal static class PeerDiagnostics
{
    /// <summary>
    /// The rule's diagnostics in <paramref name="document"/> (within <paramref name="span"/>, the light bulb's, where
    /// given) whose site one of <paramref name="peers"/> reports.
    /// </summary>
    public static async Task<ImmutableArray<Diagnostic>> OursAsync(
        Document document, DiagnosticAnalyzer analyzer, IReadOnlyCollection<Diagnostic> peers, TextSpan? span, CancellationToken cancellationToken)
    {
        if (peers.Count == 0 || await document.GetSemanticModelAsync(cancellationToken).ConfigureAwait(false) is not { } model)
        {
            return ImmutableArray<Diagnostic>.Empty;
        }

        var id = analyzer.SupportedDiagnostics[0].Id;
        var options = model.Compilation.Options;
        var forced = model.Compilation.WithOptions(options
            .WithSyntaxTreeOptionsProvider(null)
            .WithSpecificDiagnosticOptions(options.SpecificDiagnosticOptions.SetItem(id, ReportDiagnostic.Warn)));
        var withAnalyzer = forced.WithAnalyzers(ImmutableArray.Create(analyzer), document.Project.AnalyzerOptions);
        var ours = await withAnalyzer.GetAnalyzerSemanticDiagnosticsAsync(forced.GetSemanticModel(model.SyntaxTree), span, cancellationToken).ConfigureAwait(false);
        return ours
            .Where(o => o.Id == id && peers.Any(p => p.Location.SourceTree == o.Location.SourceTree && p.Location.SourceSpan.IntersectsWith(o.Location.SourceSpan)))
            .ToImmutableArray();
    }
}
