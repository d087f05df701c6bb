using System.Collections.Generic;
using System.Linq;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp;
using Microsoft.CodeAnalysis.CSharp.Syntax;
using Microsoft.CodeAnalysis.Text;

namespace TplPractices.Analyzers.CodeFixes.Internals;

/// <summary>
/// A line comment written after a list's <c>)</c> (or the <c>;</c> after it) on its last argument's line
/// (<c>CancellationToken.None) // never cancel</c>) speaks of that line. Where a rewrite added arguments after that one, each on a line of its own, the
/// <c>)</c> and the comment with it ended up below them; the comment goes back after that argument's comma.
/// </summary>
internal static class ArgumentComments
{
    /// <summary>The layout step (<see cref="Layout"/>): the changes that put such comments back beside their argument.</summary>
    public static IEnumerable<TextChange> Of(SyntaxNode oldRoot, SyntaxNode newRoot, IReadOnlyList<TextSpan> changes, Style style)
    {
        var text = newRoot.SyntaxTree.GetText();
        foreach (var list in newRoot.DescendantNodes(n => changes.Any(c => c.IntersectsWith(n.FullSpan))).OfType<ArgumentListSyntax>())
        {
            var close = list.CloseParenToken;
            if (list.Arguments.Count < 2
                || TrailingComment(close) is not { } comment
                || BesideInTheOriginal(oldRoot, comment) is not { } argument)
            {
                continue;
            }

            // The argument as written, now followed by added ones that begin their own lines.
            var index = IndexOf(list, argument);
            if (index < 0
                || index == list.Arguments.Count - 1
                || !Layout.BeginsLine(text, list.Arguments[index + 1])
                || Layout.SameLine(text, list.Arguments[index].Span.End, close.SpanStart))
            {
                continue;
            }

            var comma = list.Arguments.GetSeparator(index);
            yield return new TextChange(new TextSpan(comma.Span.End, 0), " " + comment);
            yield return new TextChange(TextSpan.FromBounds(comment.Token.Span.End, comment.Span.End), string.Empty);
        }
    }

    /// <summary>
    /// The line comment after <paramref name="close"/>, or after the <c>;</c> that follows it on its line
    /// (<c>combinedToken);   // only stops the start</c>, Polly's timeout engine).
    /// </summary>
    private static SyntaxTrivia? TrailingComment(SyntaxToken close)
    {
        var carrier = close.TrailingTrivia.All(t => t.IsKind(SyntaxKind.WhitespaceTrivia)) && close.GetNextToken() is { RawKind: (int)SyntaxKind.SemicolonToken } end
            ? end
            : close;
        return carrier.TrailingTrivia.SkipWhile(t => t.IsKind(SyntaxKind.WhitespaceTrivia)).FirstOrDefault() is { RawKind: (int)SyntaxKind.SingleLineCommentTrivia } comment
            ? comment
            : null;
    }

    /// <summary>
    /// The last argument of the original list whose <c>)</c> carried the same comment, where that argument began its
    /// line and the <c>)</c> followed it there; null where no such list is found. After <c>}, state));</c> the comment
    /// speaks of the statement (it was written after a one-line call that a fix made into a block), and stays at its end.
    /// </summary>
    private static ArgumentSyntax? BesideInTheOriginal(SyntaxNode oldRoot, SyntaxTrivia comment)
    {
        var text = oldRoot.SyntaxTree.GetText();
        foreach (var trivia in oldRoot.DescendantTrivia())
        {
            if (trivia.IsKind(SyntaxKind.SingleLineCommentTrivia)
                && trivia.ToString() == comment.ToString()
                && (trivia.Token.IsKind(SyntaxKind.SemicolonToken) ? trivia.Token.GetPreviousToken() : trivia.Token) is
                    { RawKind: (int)SyntaxKind.CloseParenToken, Parent: ArgumentListSyntax { Arguments: { Count: > 0 } arguments } } close
                && TrailingComment(close) == trivia
                && Layout.SameLine(text, arguments.Last().Span.End, close.SpanStart)
                && Layout.BeginsLine(text, arguments.Last()))
            {
                return arguments.Last();
            }
        }

        return null;
    }

    /// <summary>
    /// The position in <paramref name="list"/> of the argument whose text is the original's, the last such (arguments are
    /// added after it), or -1.
    /// </summary>
    private static int IndexOf(ArgumentListSyntax list, ArgumentSyntax original)
    {
        var written = original.WithoutTrivia().ToString();
        for (var i = list.Arguments.Count - 1; i >= 0; i--)
        {
            if (list.Arguments[i].WithoutTrivia().ToString() == written)
            {
                return i;
            }
        }

        return -1;
    }
}
