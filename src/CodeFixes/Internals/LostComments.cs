using System.Collections.Generic;
using System.Linq;
using System.Threading;
using System.Threading.Tasks;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp;
using Microsoft.CodeAnalysis.CSharp.Syntax;
using static Microsoft.CodeAnalysis.CSharp.SyntaxFactory;

namespace TplPractices.Analyzers.CodeFixes.Internals;

/// <summary>
/// Comments a rewrite dropped (they sat on tokens it took apart: between chain links, flags, a lock's braces) are
/// put back, each on its own line above the statement or member that now holds the rewritten code.
/// </summary>
internal static class LostComments
{
    public static async Task<Document> RestoreAsync(Document original, Document rewritten, CancellationToken cancellationToken)
    {
        var oldRoot = await original.GetSyntaxRootAsync(cancellationToken).ConfigureAwait(false);
        var newRoot = await rewritten.GetSyntaxRootAsync(cancellationToken).ConfigureAwait(false);
        if (oldRoot is null || newRoot is null)
        {
            return rewritten;
        }

        var kept = Comments(newRoot).GroupBy(c => c.ToString()).ToDictionary(g => g.Key, g => g.Count());
        var lost = new List<SyntaxTrivia>();
        foreach (var comment in Comments(oldRoot))
        {
            if (kept.TryGetValue(comment.ToString(), out var count) && count > 0)
            {
                kept[comment.ToString()] = count - 1;
            }
            else
            {
                lost.Add(comment);
            }
        }

        if (lost.Count == 0)
        {
            return rewritten;
        }

        var changes = (await rewritten.GetTextChangesAsync(original, cancellationToken).ConfigureAwait(false)).ToList();
        var text = await rewritten.GetTextAsync(cancellationToken).ConfigureAwait(false);
        var endOfLine = NewLines.Of(newRoot);
        var added = new Dictionary<SyntaxToken, List<SyntaxTrivia>>();
        foreach (var comment in lost)
        {
            // Each on its own line above the statement (or member) the rewritten code now sits in.
            var token = Anchor(newRoot.FindToken(Map(comment.SpanStart, changes)));
            var line = text.Lines.GetLineFromPosition(token.SpanStart);
            var indentation = text.ToString(Microsoft.CodeAnalysis.Text.TextSpan.FromBounds(line.Start, token.SpanStart));
            if (!added.TryGetValue(token, out var trivia))
            {
                added[token] = trivia = new List<SyntaxTrivia>();
            }

            trivia.Add(comment);
            trivia.Add(endOfLine);
            trivia.Add(Whitespace(indentation.Substring(0, indentation.Length - indentation.TrimStart().Length)));
        }

        return rewritten.WithSyntaxRoot(newRoot.ReplaceTokens(added.Keys, (token, _) => token.WithLeadingTrivia(token.LeadingTrivia.AddRange(added[token]))));
    }

    /// <summary>
    /// A copy of code a fix writes a second time (a signature's types, its constraints), without the comments inside
    /// it: they stay once, where the author wrote them.
    /// </summary>
    public static T WithoutComments<T>(T node)
        where T : SyntaxNode =>
        node.ReplaceTrivia(node.DescendantTrivia().Where(t => t.IsKind(SyntaxKind.SingleLineCommentTrivia) || t.IsKind(SyntaxKind.MultiLineCommentTrivia)), (_, _) => Space);

    /// <summary>The first token of the innermost statement or member around the token: the start of a line.</summary>
    private static SyntaxToken Anchor(SyntaxToken token) =>
        token.Parent?.AncestorsAndSelf().FirstOrDefault(n => n is StatementSyntax and not BlockSyntax || n is MemberDeclarationSyntax)?.GetFirstToken() is { } first
        && first != default
            ? first
            : token;

    private static IEnumerable<SyntaxTrivia> Comments(SyntaxNode root) =>
        root.DescendantTrivia().Where(t => t.IsKind(SyntaxKind.SingleLineCommentTrivia) || t.IsKind(SyntaxKind.MultiLineCommentTrivia));

    /// <summary>Where a position of the original text lies in the rewritten one: inside a change, at the start of its new text.</summary>
    private static int Map(int position, List<Microsoft.CodeAnalysis.Text.TextChange> changes)
    {
        var shift = 0;
        foreach (var change in changes.OrderBy(c => c.Span.Start))
        {
            if (change.Span.End <= position && !(change.Span.Length == 0 && change.Span.Start == position))
            {
                shift += (change.NewText?.Length ?? 0) - change.Span.Length;
            }
            else if (change.Span.Start <= position)
            {
                return change.Span.Start + shift;
            }
            else
            {
                break;
            }
        }

        return position + shift;
    }
}
