using System;
using System.Collections.Generic;
using System.Linq;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp;
using Microsoft.CodeAnalysis.Text;

namespace TplPractices.Analyzers.CodeFixes.Internals;

/// <summary>
/// Code a rewrite moved: its lines after the first move with its start, where the author aligned them to it, or
/// with its line's indentation, where they were indented from that. The formatter leaves such lines where they were.
/// </summary>
internal static class MovedLines
{
    /// <summary>
    /// The edits for code the rewrite moved unchanged: the same node, with the same text, now elsewhere. Its lines after
    /// the first may have been indented again on the way (the formatter shifts them with a block it formats), so the
    /// text is compared without the white space that begins lines, and each such line gets back the place the author
    /// gave it relative to the node's start.
    /// </summary>
    public static IEnumerable<TextChange> Of(SyntaxNode oldRoot, SyntaxNode newRoot, IReadOnlyList<TextSpan> changes, Style style)
    {
        var oldText = oldRoot.SyntaxTree.GetText();
        var newText = newRoot.SyntaxTree.GetText();
        // Keyed by what re-indenting leaves alone and costs nothing to read; the text is compared for candidates only.
        var oldNodes = oldRoot.DescendantNodes().Where(n => Layout.Spans(oldText, n) > 1).ToLookup(n => Key(oldText, n));
        var edits = new List<TextChange>();
        var pending = new Stack<SyntaxNode>(newRoot.ChildNodes());
        while (pending.Count > 0)
        {
            var node = pending.Pop();
            if (!changes.Any(c => c.IntersectsWith(node.FullSpan) || c.Start == node.FullSpan.End) || Layout.Spans(newText, node) < 2)
            {
                continue;
            }

            var column = style.Column(newText, node.SpanStart);
            var indentation = style.Indentation(newText.Lines.GetLineFromPosition(node.SpanStart).ToString());
            var unindented = Unindented(node.ToString());
            var layouts = oldNodes[Key(newText, node)]
                .Where(o => Unindented(o.ToString()) == unindented)
                .Select(o => Indentations(oldText, o, Shift(oldText, o, column, indentation, style), style))
                .Distinct(LayoutComparer.Instance).ToList();
            if (layouts.Count == 0 && changes.Any(c => c.IntersectsWith(node.Span)))
            {
                // Moved with names requalified on the way (a state fix's _count becomes self._count!): the same tokens on
                // the same lines, some added, so each line is the old one's.
                layouts = oldNodes.SelectMany(g => g)
                    .Where(o => o.RawKind == node.RawKind && Layout.Spans(oldText, o) == Layout.Spans(newText, node) && IsRequalified(oldText, o, newText, node))
                    .Select(o => Indentations(oldText, o, Shift(oldText, o, column, indentation, style), style))
                    .Distinct(LayoutComparer.Instance).ToList();
            }

            if (layouts.Count == 1)
            {
                // Moved whole (or left where it was): its own lines are as the author wrote them, relative to its start.
                edits.AddRange(Reindent(newRoot, newText, node, layouts[0], style));
                continue;
            }

            foreach (var child in node.ChildNodes())
            {
                pending.Push(child);
            }
        }

        return edits;
    }

    private static (int Kind, int Lines, string First, string Last) Key(SourceText text, SyntaxNode node) =>
        (node.RawKind, Layout.Spans(text, node), node.GetFirstToken().Text, node.GetLastToken().Text);

    /// <summary>The text without the white space that begins each line after the first.</summary>
    private static string Unindented(string text) => LineStart.Replace(text, "\n");

    private static readonly System.Text.RegularExpressions.Regex LineStart = new(@"\n[ \t]+", System.Text.RegularExpressions.RegexOptions.CultureInvariant);

    /// <summary>The indentation of each of the node's lines after its first, moved by <paramref name="shift"/> columns.</summary>
    private static int[] Indentations(SourceText text, SyntaxNode node, int shift, Style style)
    {
        var first = text.Lines.GetLineFromPosition(node.SpanStart).LineNumber;
        var last = text.Lines.GetLineFromPosition(node.Span.End).LineNumber;
        return Enumerable.Range(first + 1, last - first).Select(n => Math.Max(0, style.Indentation(text.Lines[n].ToString()) + shift)).ToArray();
    }

    /// <summary>
    /// Whether <paramref name="node"/> is <paramref name="old"/> with tokens added and nothing else changed: only names,
    /// dots and <c>!</c> added, and every old token on the same line of the node as before.
    /// </summary>
    private static bool IsRequalified(SourceText oldText, SyntaxNode old, SourceText newText, SyntaxNode node)
    {
        var oldTokens = old.DescendantTokens().ToList();
        var newTokens = node.DescendantTokens().ToList();
        if (newTokens.Count <= oldTokens.Count || newTokens.Count > oldTokens.Count * 2)
        {
            return false;
        }

        var oldFirst = oldText.Lines.GetLineFromPosition(old.SpanStart).LineNumber;
        var newFirst = newText.Lines.GetLineFromPosition(node.SpanStart).LineNumber;
        var next = 0;
        foreach (var token in newTokens)
        {
            if (next < oldTokens.Count && token.RawKind == oldTokens[next].RawKind && token.Text == oldTokens[next].Text)
            {
                if (newText.Lines.GetLineFromPosition(token.SpanStart).LineNumber - newFirst
                    != oldText.Lines.GetLineFromPosition(oldTokens[next].SpanStart).LineNumber - oldFirst)
                {
                    return false;
                }

                next++;
            }
            else if (!token.IsKind(SyntaxKind.IdentifierToken) && !token.IsKind(SyntaxKind.DotToken) && !token.IsKind(SyntaxKind.ExclamationToken))
            {
                return false;
            }
        }

        return next == oldTokens.Count;
    }

    /// <summary>The edits that give the node's lines after its first the indentations given, where they begin in code.</summary>
    private static IEnumerable<TextChange> Reindent(SyntaxNode root, SourceText text, SyntaxNode node, int[] indentations, Style style)
    {
        var first = text.Lines.GetLineFromPosition(node.SpanStart).LineNumber;
        var last = text.Lines.GetLineFromPosition(node.Span.End).LineNumber;
        for (var number = first + 1; number <= last && number - first - 1 < indentations.Length; number++)
        {
            var line = text.Lines[number];
            var content = line.ToString();
            var width = content.Length - content.TrimStart().Length;
            var wanted = indentations[number - first - 1];
            if (width == content.Length || style.Indentation(content) == wanted
                || !StartsInCode(root, line.Start + width))
            {
                continue;
            }

            yield return new TextChange(new TextSpan(line.Start, width), style.Whitespace(wanted));
        }
    }

    private sealed class LayoutComparer : IEqualityComparer<int[]>
    {
        public static readonly LayoutComparer Instance = new();

        public bool Equals(int[]? x, int[]? y) => x is not null && y is not null && x.SequenceEqual(y);

        public int GetHashCode(int[] obj) => obj.Aggregate(17, (h, i) => (h * 31) + i);
    }

    /// <summary>
    /// How far the lines of <paramref name="node"/> after its first must move, in columns, when its start moves to
    /// <paramref name="column"/> on a line indented <paramref name="indentation"/>.
    /// </summary>
    public static int Shift(SourceText text, SyntaxNode node, int column, int indentation, Style style)
    {
        var line = text.Lines.GetLineFromPosition(node.SpanStart);
        var next = line.LineNumber + 1;
        while (next < text.Lines.Count && string.IsNullOrWhiteSpace(text.Lines[next].ToString()))
        {
            next++;
        }

        // Nothing after it (the file's last line): no continuation to align, so it moves with its line's indentation.
        if (next >= text.Lines.Count)
        {
            return indentation - style.Indentation(line.ToString());
        }

        var start = style.Column(text, node.SpanStart);
        var lineIndentation = style.Indentation(line.ToString());
        var nextIndentation = style.Indentation(text.Lines[next].ToString());
        var aligned = start > lineIndentation
            ? nextIndentation >= start
            : nextIndentation != lineIndentation + style.IndentSize && AlignsWithItsFirstLine(text, node, line, nextIndentation, style);
        return aligned ? column - start : indentation - lineIndentation;
    }

    /// <summary>
    /// Where the node begins its line, whether its next line lines up with a token of the first (<c>var query = items</c>
    /// over <c>.Where(…)</c>, arguments under the first one): it moves with the node. One indent deeper is read as
    /// indented from the line (<c>var x = Make(</c> over its arguments), where a token may sit by chance.
    /// </summary>
    private static bool AlignsWithItsFirstLine(SourceText text, SyntaxNode node, TextLine line, int nextIndentation, Style style)
    {
        foreach (var token in node.DescendantTokens())
        {
            if (token.SpanStart >= line.End)
            {
                break;
            }

            if (token.SpanStart > node.SpanStart && style.Column(text, token.SpanStart) == nextIndentation)
            {
                return true;
            }
        }

        return false;
    }

    /// <summary>The node's text with its lines after the first moved by <paramref name="shift"/> columns.</summary>
    public static string Shifted(SyntaxNode node, int shift, Style style)
    {
        var text = node.SyntaxTree.GetText();
        var edits = ShiftLines(node.SyntaxTree.GetRoot(), text, node, shift, style).ToList();
        return text.WithChanges(edits).ToString(new TextSpan(node.SpanStart, node.Span.Length + edits.Sum(e => e.NewText!.Length - e.Span.Length)));
    }

    /// <summary>The edits that move the lines of <paramref name="node"/> after its first by <paramref name="shift"/> columns.</summary>
    public static IEnumerable<TextChange> ShiftLines(SyntaxNode root, SourceText text, SyntaxNode node, int shift, Style style) =>
        ShiftLines(root, text, text.Lines.GetLineFromPosition(node.SpanStart).LineNumber, text.Lines.GetLineFromPosition(node.Span.End).LineNumber, shift, style);

    /// <summary>The edits that move the lines after <paramref name="first"/>, to <paramref name="last"/>, by <paramref name="shift"/> columns.</summary>
    public static IEnumerable<TextChange> ShiftLines(SyntaxNode root, SourceText text, int first, int last, int shift, Style style)
    {
        if (shift == 0)
        {
            yield break;
        }

        for (var number = first + 1; number <= last; number++)
        {
            var line = text.Lines[number];
            var content = line.ToString();
            var width = content.Length - content.TrimStart().Length;
            if (width == content.Length || !StartsInCode(root, line.Start + width))
            {
                continue;
            }

            yield return new TextChange(new TextSpan(line.Start, width), style.Whitespace(Math.Max(0, style.Indentation(content) + shift)));
        }
    }

    /// <summary>
    /// The directives the author wrote at the start of their lines that the rewritten text indents: code a fix moves
    /// takes a <c>#pragma</c> inside it along (<see cref="Of"/> re-indents every line it moves), and formatting a member a
    /// fix adds before a type's closing brace indents the <c>#endregion</c> that the brace carries. Fixes write no
    /// directives, so the two texts hold the same ones in the same order; where they do not, nothing is changed.
    /// </summary>
    public static IEnumerable<TextChange> FlushDirectivesIndented(SyntaxNode oldRoot, SyntaxNode newRoot)
    {
        if (!oldRoot.ContainsDirectives)
        {
            yield break;
        }

        var before = oldRoot.DescendantTrivia().Where(t => t.IsDirective).ToList();
        var after = newRoot.DescendantTrivia().Where(t => t.IsDirective).ToList();
        if (before.Count != after.Count)
        {
            yield break;
        }

        var oldText = oldRoot.SyntaxTree.GetText();
        var newText = newRoot.SyntaxTree.GetText();
        for (var i = 0; i < before.Count; i++)
        {
            var was = oldText.Lines.GetLineFromPosition(before[i].SpanStart);
            var line = newText.Lines.GetLineFromPosition(after[i].SpanStart);
            var indentation = TextSpan.FromBounds(line.Start, after[i].SpanStart);
            if (was.Start == before[i].SpanStart
                && indentation.Length > 0
                && string.IsNullOrWhiteSpace(newText.ToString(indentation))
                && before[i].ToString() == after[i].ToString())
            {
                yield return new TextChange(indentation, string.Empty);
            }
        }
    }

    /// <summary>
    /// Whether the text at <paramref name="position"/> begins a token or a comment of its own: not the inside of a
    /// multi-line string (whose text would change) or of code an <c>#if</c> leaves out.
    /// </summary>
    private static bool StartsInCode(SyntaxNode root, int position)
    {
        var token = root.FindToken(position, findInsideTrivia: false);
        if (token.Span.Contains(position) && token.SpanStart != position)
        {
            return false;
        }

        // A line inside a /* … */ comment moves with the code it was written beside (its " * " lines stay under its "/*").
        var trivia = root.FindTrivia(position);
        return !trivia.IsKind(SyntaxKind.DisabledTextTrivia)
            && (trivia.Span.Start == position || trivia.IsKind(SyntaxKind.WhitespaceTrivia) || trivia.IsKind(SyntaxKind.None) || trivia.IsKind(SyntaxKind.MultiLineCommentTrivia));
    }
}
