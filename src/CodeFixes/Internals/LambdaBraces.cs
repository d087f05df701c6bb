using System.Collections.Generic;
using System.Linq;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp.Syntax;
using Microsoft.CodeAnalysis.Text;

namespace TplPractices.Analyzers.CodeFixes.Internals;

/// <summary>
/// A lambda block the author indented from the line the lambda starts on (<c>new Timer(state =&gt;</c>, then the
/// <c>{</c> one indent deeper, the arguments after it at that depth too) keeps that depth when a rewrite rebuilds the
/// lambda: the formatter puts a block it builds at the line's own indentation, which would leave the block shallower
/// than the arguments that follow it. Where the lambda is matched only by what comes before it on its line, and
/// that text begins one such lambda in each version, the whole block moves back; anything else is left as it is.
/// </summary>
internal static class LambdaBraces
{
    public static IEnumerable<TextChange> Of(SyntaxNode oldRoot, SyntaxNode newRoot, IReadOnlyList<TextSpan> changes, Style style)
    {
        var newText = newRoot.SyntaxTree.GetText();
        var rebuilt = newRoot.DescendantNodes(n => changes.Any(c => c.IntersectsWith(n.FullSpan)))
            .OfType<AnonymousFunctionExpressionSyntax>()
            .Where(l => changes.Any(c => c.IntersectsWith(l.Span)))
            .Select(l => (Lambda: l, Depth: BraceDepth(newText, l, style)))
            .Where(l => l.Depth is not null)
            .ToList();
        if (rebuilt.Count == 0)
        {
            yield break;
        }

        var oldText = oldRoot.SyntaxTree.GetText();
        var written = oldRoot.DescendantNodes()
            .OfType<AnonymousFunctionExpressionSyntax>()
            .Select(l => (Prefix: Prefix(oldText, l), Depth: BraceDepth(oldText, l, style)))
            .Where(l => l.Depth is not null)
            .ToLookup(l => l.Prefix, l => l.Depth!.Value);
        var newPrefixes = rebuilt.ToLookup(l => Prefix(newText, l.Lambda));
        foreach (var (lambda, depth) in rebuilt)
        {
            var prefix = Prefix(newText, lambda);
            var was = written[prefix].ToList();
            if (was.Count != 1 || newPrefixes[prefix].Count() != 1 || was[0] == depth)
            {
                continue;
            }

            // From the brace's line to the closing brace's: ShiftLines moves the lines after the first line given.
            var block = (BlockSyntax)lambda.Body;
            var braceLine = newText.Lines.GetLineFromPosition(block.OpenBraceToken.SpanStart).LineNumber;
            var closeLine = newText.Lines.GetLineFromPosition(block.CloseBraceToken.SpanStart).LineNumber;
            foreach (var edit in MovedLines.ShiftLines(newRoot, newText, braceLine - 1, closeLine, was[0] - depth!.Value, style))
            {
                yield return edit;
            }
        }
    }

    /// <summary>
    /// How much deeper than the lambda's first line its block's <c>{</c> is indented, where that brace begins a line
    /// below the lambda's start and the block runs over several lines; null otherwise.
    /// </summary>
    private static int? BraceDepth(SourceText text, AnonymousFunctionExpressionSyntax lambda, Style style)
    {
        if (lambda.Body is not BlockSyntax block
            || !Layout.BeginsLine(text, block.OpenBraceToken.SpanStart)
            || Layout.SameLine(text, lambda.SpanStart, block.OpenBraceToken.SpanStart)
            || Layout.SameLine(text, block.OpenBraceToken.SpanStart, block.CloseBraceToken.SpanStart))
        {
            return null;
        }

        var start = text.Lines.GetLineFromPosition(lambda.SpanStart).ToString();
        var brace = text.Lines.GetLineFromPosition(block.OpenBraceToken.SpanStart).ToString();
        return style.Indentation(brace) - style.Indentation(start);
    }

    /// <summary>What comes before the lambda on its first line, without the line's indentation.</summary>
    private static string Prefix(SourceText text, SyntaxNode lambda)
    {
        var line = text.Lines.GetLineFromPosition(lambda.SpanStart);
        return text.ToString(TextSpan.FromBounds(line.Start, lambda.SpanStart)).TrimStart();
    }
}
