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

    /// <summary>
    /// One code action per diagnostic whose site names a rewrite in every copy of the file (<paramref name="copies"/>
    /// holds what the rule reports in the other targets' copies); none where any copy names none.
    /// </summary>
    public static void Register(
        CodeFixContext context,
        ImmutableArray<Diagnostic> copies,
        int requiredCopies,
        string portableKind,
        Func<string, string> title,
        Func<Document, ImmutableArray<Diagnostic>, CancellationToken, Task<Document>> fixDocumentAsync,
        string equivalenceKey,
        Func<Diagnostic, bool> isFixable,
        Func<string, ImmutableArray<string>> alternatives)
    {
        foreach (var diagnostic in context.Diagnostics)
        {
            if (!isFixable(diagnostic))
            {
                continue;
            }

            var site = copies
                .Where(d => d.Id == diagnostic.Id && d.Location.SourceSpan == diagnostic.Location.SourceSpan)
                .Prepend(diagnostic)
                .ToImmutableArray();
            if (Of(site, portableKind, requiredCopies).FirstOrDefault().Kind is not { } kind)
            {
                continue;
            }

            var document = context.Document;
            var oneSite = OneSiteReasonOf(diagnostic);
            context.RegisterCodeFix(
                CodeAction.Create(
                    WithReason(title(kind), oneSite),
                    cancellationToken => FixEveryCopyAsync(document, site, fixDocumentAsync, cancellationToken),
                    oneSite is null ? equivalenceKey : OneSiteKey(equivalenceKey)),
                diagnostic);
            foreach (var alternative in alternatives(kind))
            {
                var alternativeSite = site.Select(d => WithKind(d, alternative)).ToImmutableArray();
                context.RegisterCodeFix(
                    CodeAction.Create(
                        title(alternative),
                        cancellationToken => FixEveryCopyAsync(document, alternativeSite, fixDocumentAsync, cancellationToken),
                        AlternativeKey(equivalenceKey, alternative)),
                    diagnostic);
            }
        }
    }

    /// <summary>
    /// The key of a rewrite offered beside the site's own (TPL0019's TaskScheduler.Default): its own, which Fix All
    /// does not take, because the rewrite changes what the code does and its title says so.
    /// </summary>
    public static string AlternativeKey(string equivalenceKey, string kind) => equivalenceKey + "_" + kind;

    /// <summary>
    /// The key of a site's own rewrite where it rests on code the analyzer cannot see (<see
    /// cref="DiagnosticPropertyKeys.OneSiteReason"/>): Fix All given it fixes only the other sites, so that dotnet format,
    /// which takes the key of the first site's action, still fixes the rest.
    /// </summary>
    public static string OneSiteKey(string equivalenceKey) => equivalenceKey + "_OneSite";

    /// <summary>A one-site fix's title says what it rests on: "… (relies on …)".</summary>
    public static string WithReason(string title, string? oneSiteReason) =>
        oneSiteReason is null ? title : title + " (" + oneSiteReason + ")";

    /// <summary>What a site's rewrite rests on, where the fix is offered one site at a time; null for the others.</summary>
    public static string? OneSiteReasonOf(Diagnostic diagnostic) =>
        diagnostic.Properties.TryGetValue(DiagnosticPropertyKeys.OneSiteReason, out var reason) ? reason : null;

    /// <summary>The diagnostic naming another rewrite of its site.</summary>
    public static Diagnostic WithKind(Diagnostic diagnostic, string kind) => Diagnostic.Create(
        diagnostic.Descriptor,
        diagnostic.Location,
        diagnostic.AdditionalLocations,
        diagnostic.Properties.SetItem(DiagnosticPropertyKeys.FixKind, kind));

    /// <summary>
    /// The diagnostic at <paramref name="span"/> of <paramref name="tree"/>, a later text of the one it was reported in
    /// (<paramref name="edits"/> lead there), with its parts (<see cref="WithParts"/>) moved as well; without them where
    /// an edit took one apart, so that its fixer leaves the site alone.
    /// </summary>
    public static Diagnostic Relocated(Diagnostic diagnostic, SyntaxTree tree, TextSpan span, IEnumerable<IReadOnlyList<TextChange>> edits)
    {
        var parts = new List<Location>();
        foreach (var part in diagnostic.AdditionalLocations)
        {
            if (TextEdits.Map(part.SourceSpan, edits, grows: true) is not { } moved)
            {
                return Diagnostic.Create(diagnostic.Descriptor, Location.Create(tree, span), diagnostic.Properties);
            }

            parts.Add(Location.Create(tree, moved));
        }

        return Diagnostic.Create(diagnostic.Descriptor, Location.Create(tree, span), parts, diagnostic.Properties);
    }

    /// <summary>The fixed document's text in every linked copy.</summary>
    private static async Task<Solution> FixEveryCopyAsync(
        Document document,
        ImmutableArray<Diagnostic> site,
        Func<Document, ImmutableArray<Diagnostic>, CancellationToken, Task<Document>> fixDocumentAsync,
        CancellationToken cancellationToken)
    {
        var fixedDocument = await fixDocumentAsync(document, site, cancellationToken).ConfigureAwait(false);
        var text = await fixedDocument.GetTextAsync(cancellationToken).ConfigureAwait(false);
        return LinkedCopies.WithTextInEveryCopy(fixedDocument.Project.Solution, document.Id, text);
    }

    /// <summary>
    /// The sites to rewrite as <see cref="Of"/> gives them, each with the spans of the nodes its analyzer found for the
    /// rewrite (the diagnostic's additional locations, in the order the rule gives them), so that the fixer reads them
    /// back instead of running the rule's check again.
    /// </summary>
    public static IEnumerable<(TextSpan Span, string Kind, ImmutableArray<TextSpan> Parts)> WithParts(
        ImmutableArray<Diagnostic> diagnostics, string portableKind, int requiredCopies = 1) =>
        Reported(diagnostics, portableKind, requiredCopies).Select(site => (site.Span, site.Kind, PartsOf(site.Diagnostic)));

    /// <summary>The sites as <see cref="Of"/> gives them, each with a diagnostic that names its rewrite (its properties and parts).</summary>
    public static IEnumerable<(TextSpan Span, string Kind, Diagnostic Diagnostic)> Reported(
        ImmutableArray<Diagnostic> diagnostics, string portableKind, int requiredCopies = 1)
    {
        foreach (var (span, kind) in Of(diagnostics, portableKind, requiredCopies))
        {
            yield return (span, kind, diagnostics.First(d => d.Location.SourceSpan == span && KindOf(d) == kind));
        }
    }

    /// <summary>The spans of the nodes the analyzer found for the rewrite: the diagnostic's additional locations, in order.</summary>
    public static ImmutableArray<TextSpan> PartsOf(Diagnostic diagnostic) =>
        diagnostic.AdditionalLocations.Select(l => l.SourceSpan).ToImmutableArray();

    /// <summary>
    /// The node of type <typeparamref name="T"/> whose span is exactly <paramref name="span"/>: the innermost such node
    /// (a parenthesized expression and the expression in it have different spans), or null.
    /// </summary>
    public static T? Part<T>(SyntaxNode root, TextSpan span)
        where T : SyntaxNode
    {
        if (!root.FullSpan.Contains(span))
        {
            return null;
        }

        for (var node = root.FindNode(span, getInnermostNodeForTie: true); node is not null && node.Span == span; node = node.Parent)
        {
            if (node is T found)
            {
                return found;
            }
        }

        return null;
    }

    /// <summary>
    /// The sites to rewrite, in source order, with one rewrite each. The linked copies of a multi-targeted
    /// file may each report a site (see <see cref="RuleFixAllProvider"/>): if any copy names no rewrite
    /// the site is left alone; if the copies disagree, <paramref name="portableKind"/>, the rewrite that
    /// compiles on every target, wins. A site fewer than <paramref name="requiredCopies"/> copies report is left alone.
    /// </summary>
    public static IEnumerable<(TextSpan Span, string Kind)> Of(IEnumerable<Diagnostic> diagnostics, string portableKind, int requiredCopies = 1)
    {
        foreach (var site in diagnostics.GroupBy(d => d.Location.SourceSpan).OrderBy(g => g.Key.Start))
        {
            var kinds = site.Select(KindOf).ToList();
            if (kinds.Contains(null) || site.Select(d => d.Location.SourceTree).Distinct().Count() < requiredCopies)
            {
                continue;
            }

            yield return (site.Key, kinds.Contains(portableKind) ? portableKind : kinds[0]!);
        }
    }
}
