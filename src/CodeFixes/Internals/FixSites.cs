using System;
using System.Collections.Generic;
using System.Collections.Immutable;
using System.Linq;
using System.Threading;
using System.Threading.Tasks;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CodeActions;
using Microsoft.CodeAnalysis.CodeFixes;
using Microsoft.CodeAnalysis.Text;

namespace TplPractices.Analyzers.CodeFixes.Internals;

/// <summary>The analyzer → fixer contract: the rewrite each diagnostic names in <see cref="DiagnosticPropertyKeys.FixKind"/>.</summary>
internal static class FixSites
{
    public static string? KindOf(Diagnostic diagnostic) =>
        diagnostic.Properties.TryGetValue(DiagnosticPropertyKeys.FixKind, out var kind) ? kind : null;

    /// <summary>One code action per diagnostic that names a rewrite; none where the analyzer named none.</summary>
    public static void Register(
        CodeFixContext context,
        Func<string, string> title,
        Func<Document, ImmutableArray<Diagnostic>, CancellationToken, Task<Document>> fixDocumentAsync,
        string equivalenceKey)
    {
        foreach (var diagnostic in context.Diagnostics)
        {
            if (KindOf(diagnostic) is not { } kind)
            {
                continue;
            }

            var document = context.Document;
            context.RegisterCodeFix(
                CodeAction.Create(
                    title(kind),
                    cancellationToken => fixDocumentAsync(document, ImmutableArray.Create(diagnostic), cancellationToken),
                    equivalenceKey),
                diagnostic);
        }
    }

    /// <summary>
    /// The sites to rewrite, in source order, with one rewrite each. The linked copies of a multi-targeted
    /// file may each report a site (see <see cref="SequentialFixAllProvider"/>): if any copy names no rewrite
    /// the site is left alone; if the copies disagree, <paramref name="portableKind"/>, the rewrite that
    /// compiles on every target, wins.
    /// </summary>
    public static IEnumerable<(TextSpan Span, string Kind)> Of(IEnumerable<Diagnostic> diagnostics, string portableKind)
    {
        foreach (var site in diagnostics.GroupBy(d => d.Location.SourceSpan).OrderBy(g => g.Key.Start))
        {
            var kinds = site.Select(KindOf).ToList();
            if (kinds.Contains(null))
            {
                continue;
            }

            yield return (site.Key, kinds.Contains(portableKind) ? portableKind : kinds[0]!);
        }
    }
}
