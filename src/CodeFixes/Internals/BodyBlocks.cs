using System.Collections.Generic;
using System.Linq;
using System.Text;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp;
using Microsoft.CodeAnalysis.CSharp.Syntax;
using Microsoft.CodeAnalysis.Text;

namespace TplPractices.Analyzers.CodeFixes.Internals;

/// <summary>
/// A body's block (a lambda's, a local function's, a member's) laid out one statement a line, the braces on lines of
/// their own at the indentation of the line the body's owner starts on (the layout the formatter gives a block it
/// builds), or the opening one at the end of the owner's line where <c>csharp_new_line_before_open_brace</c> says so. The state rewrites turn an expression body into a block; where that body ran over several lines, or the
/// block grew too long, it is laid out so.
/// </summary>
internal static class BodyBlocks
{
    /// <summary>Body blocks the rewrite made run over several lines whose braces share lines with statements.</summary>
    public static IEnumerable<TextChange> Mixed(SyntaxNode oldRoot, SyntaxNode newRoot, IReadOnlyList<TextSpan> changes, Style style)
    {
        var text = newRoot.SyntaxTree.GetText();
        var done = new List<TextSpan>();
        foreach (var block in newRoot.DescendantNodes(n => changes.Any(c => c.IntersectsWith(n.FullSpan))).OfType<BlockSyntax>())
        {
            // A lambda's block whose braces share lines with its statements (a rewrite's `{ var x = …; F(\n …); }`), or
            // an author's one-line member body `{ a; F(…); }` into which a rewrite wrote lines, its statements still
            // beside a brace (a fix that made that line too long wraps it so, and one that wrote lines must agree,
            // whichever ran first). Statements an author put side by side inside a block laid out on lines are theirs,
            // as is a member's brace beside a comment.
            if (IsBody(block) && CanExpand(block) && changes.Any(c => c.IntersectsWith(block.Span))
                && !done.Any(d => d.Contains(block.Span))
                && (WillSplit(text, block, style) || (Layout.Spans(text, block) > 1 && BracesShareLines(text, block))))
            {
                done.Add(block.Span);
                yield return Expand(block, style);
            }
        }
    }

    /// <summary>
    /// A lambda block of several statements written side by side, in a file whose author writes one statement a line
    /// (StyleCop's SA1107): it gets one statement a line, whatever its length.
    /// </summary>
    public static bool WillSplit(SourceText text, BlockSyntax block, Style style) =>
        !style.StatementsShareLines && block.Parent is AnonymousFunctionExpressionSyntax && CanExpand(block) && WrittenShapes.StatementsShareALine(text, block);

    /// <summary>Whether the block is the body of a lambda, an anonymous method, a local function, a method or an accessor.</summary>
    public static bool IsBody(BlockSyntax block) => block.Parent is AnonymousFunctionExpressionSyntax || IsMemberBody(block);

    /// <summary>Whether the block is the body of a method, a local function or an accessor (not of a lambda).</summary>
    public static bool IsMemberBody(BlockSyntax block) =>
        block.Parent is LocalFunctionStatementSyntax or BaseMethodDeclarationSyntax or AccessorDeclarationSyntax;

    /// <summary>
    /// The first statement begins on the opening brace's line, or the closing brace does not begin its line (a lambda's)
    /// or shares it with the last statement (a member's: a comment beside it is the author's).
    /// </summary>
    private static bool BracesShareLines(SourceText text, BlockSyntax block) =>
        Layout.SameLine(text, block.OpenBraceToken.SpanStart, block.Statements[0].SpanStart)
        || (IsMemberBody(block)
            ? Layout.SameLine(text, block.Statements.Last().Span.End, block.CloseBraceToken.SpanStart)
            : !Layout.BeginsLine(text, block.CloseBraceToken.SpanStart));

    /// <summary>
    /// Whether <see cref="Expand"/> can lay the block out: it has statements, and no directive, whose lines and
    /// inactive branches a rebuild from the statements would lose.
    /// </summary>
    public static bool CanExpand(BlockSyntax block) => block.Statements.Count > 0 && !block.ContainsDirectives;

    /// <summary>The body block written one statement a line.</summary>
    public static TextChange Expand(BlockSyntax block, Style style)
    {
        var text = block.SyntaxTree.GetText();
        var outer = style.Indentation(text.Lines.GetLineFromPosition(block.Parent!.SpanStart).ToString());
        var inner = outer + style.IndentSize;
        var arrow = block.OpenBraceToken.GetPreviousToken();
        var lineStart = style.NewLine + style.Whitespace(outer);
        var lines = new StringBuilder(Layout.Comments(arrow.TrailingTrivia.Concat(block.OpenBraceToken.LeadingTrivia), lineStart) is { Length: > 0 } before ? " " + before : string.Empty);
        // A line comment before the brace ends the line: the brace then goes on the next whatever the setting.
        var ownLine = style.BraceOnItsOwnLine(block)
            || arrow.TrailingTrivia.Concat(block.OpenBraceToken.LeadingTrivia).Any(t => t.IsKind(SyntaxKind.SingleLineCommentTrivia));
        lines.Append(ownLine ? lineStart : " ").Append('{').Append(Inline(block.OpenBraceToken.TrailingTrivia, lineComments: true));
        foreach (var statement in block.Statements)
        {
            foreach (var comment in statement.GetLeadingTrivia().Where(t => t.IsKind(SyntaxKind.SingleLineCommentTrivia)))
            {
                lines.Append(style.NewLine).Append(style.Whitespace(inner)).Append(comment.ToString());
            }

            var shift = MovedLines.Shift(text, statement, inner, inner, style);
            var leading = Inline(statement.GetLeadingTrivia(), lineComments: false);
            lines.Append(style.NewLine).Append(style.Whitespace(inner)).Append(leading.TrimStart()).Append(leading.Length > 0 ? " " : string.Empty)
                .Append(MovedLines.Shifted(statement, shift, style)).Append(Inline(statement.GetTrailingTrivia(), lineComments: true));
        }

        foreach (var comment in block.CloseBraceToken.LeadingTrivia.Where(Layout.IsComment))
        {
            lines.Append(style.NewLine).Append(style.Whitespace(inner)).Append(comment.ToString());
        }

        lines.Append(style.NewLine).Append(style.Whitespace(outer)).Append('}');
        return new TextChange(TextSpan.FromBounds(arrow.Span.End, block.Span.End), lines.ToString());
    }

    /// <summary>The comments of the trivia that stay on the line they were on, each after a space.</summary>
    private static string Inline(SyntaxTriviaList trivia, bool lineComments) => string.Concat(trivia
        .Where(t => t.IsKind(SyntaxKind.MultiLineCommentTrivia) || (lineComments && t.IsKind(SyntaxKind.SingleLineCommentTrivia)))
        .Select(t => " " + t));

}
