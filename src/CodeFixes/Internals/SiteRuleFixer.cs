using System.Collections.Immutable;
using System.Threading;
using System.Threading.Tasks;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.Diagnostics;
using Microsoft.CodeAnalysis.Editing;
using Microsoft.CodeAnalysis.Text;

namespace TplPractices.Analyzers.CodeFixes.Internals;

/// <summary>
/// A rule fixer whose sites are independent edits of one document: it rewrites each site the diagnostics name, in
/// source order, through one <see cref="DocumentEditor"/>.
/// </summary>
public abstract class SiteRuleFixer : RuleFixer
{
    protected SiteRuleFixer(DiagnosticAnalyzer analyzer, string portableKind, string equivalenceKey, string fixAllTitle)
        : base(analyzer, portableKind, equivalenceKey, fixAllTitle)
    {
    }

    protected sealed override async Task<Document> FixDocumentAsync(Document document, ImmutableArray<Diagnostic> diagnostics, CancellationToken cancellationToken)
    {
        var editor = await DocumentEditor.CreateAsync(document, cancellationToken).ConfigureAwait(false);
        foreach (var (span, kind, reported) in FixSites.Reported(diagnostics, PortableKind))
        {
            FixSite(editor, span, kind, reported, cancellationToken);
        }

        return editor.GetChangedDocument();
    }

    /// <summary>
    /// Rewrites the site at <paramref name="span"/> (of the original document) with the rewrite <paramref name="kind"/>,
    /// from what the analyzer found for it and sent in <paramref name="reported"/> (its parts, <see cref="FixSites.PartsOf"/>,
    /// and properties), for a rule that sends them; by default as <see cref="FixSite(DocumentEditor, TextSpan, string, CancellationToken)"/>.
    /// </summary>
    protected virtual void FixSite(DocumentEditor editor, TextSpan span, string kind, Diagnostic reported, CancellationToken cancellationToken) =>
        FixSite(editor, span, kind, cancellationToken);

    /// <summary>Rewrites the site at <paramref name="span"/> (of the original document) with the rewrite <paramref name="kind"/>; leaves it alone when it no longer fits.</summary>
    protected virtual void FixSite(DocumentEditor editor, TextSpan span, string kind, CancellationToken cancellationToken)
    {
    }
}
