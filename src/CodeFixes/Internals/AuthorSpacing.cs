using System.Collections.Generic;
using System.Linq;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp;
using Microsoft.CodeAnalysis.Text;

namespace TplPractices.Analyzers.CodeFixes.Internals;

/// <summary>
/// The spaces inside a line between two tokens a fix kept, as the author wrote them. Formatting what a fix rebuilt
/// (a state fix's lambda, a call it spread) also spaces the author's code inside it: <c>if(x&gt;1)</c> came back as
/// <c>if (x &gt; 1)</c> (found in Akka.NET). Builds and means the same, but a fix has no business restyling code it
/// did not write.
/// </summary>
internal static class AuthorSpacing
{
    /// <summary>
    /// The edits of the rewritten text (<paramref name="newRoot"/>) that put back the spacing between two tokens that
    /// stand side by side in both texts, on one line, where only spaces or tabs lie between them and the rewrite changed
    /// nothing next to them. Line breaks and indentation are left to the other layout steps.
    /// </summary>
    public static IEnumerable<TextChange> Restored(SyntaxNode oldRoot, SyntaxNode newRoot, IReadOnlyList<TextChange> changes)
    {
        var oldText = oldRoot.SyntaxTree.GetText();
        var newSpans = TextEdits.NewSpans(changes);
        var edits = new List<TextChange>();
        for (var i = 0; i < changes.Count; i++)
        {
            var change = changes[i];
            var was = oldText.ToString(change.Span);
            var now = change.NewText ?? string.Empty;
            if ((InsertedBefore(oldRoot, newRoot, change.Span, newSpans[i], was, now) ?? TrailingSpacesPutBack(oldRoot, newRoot, change.Span, newSpans[i], was, now)) is { } edit)
            {
                edits.Add(edit);
            }
        }

        var taken = edits.Select(e => e.Span).ToList();
        edits.AddRange(BetweenKeptTokens(oldRoot, newRoot, changes, newSpans).Where(e => !taken.Any(t => t.IntersectsWith(e.Span) || t.Start == e.Span.End || e.Span.Start == t.End)));
        return edits;
    }

    /// <summary>
    /// The spacing on one line between two tokens that stand side by side in both texts, put back as the author had it
    /// (<c>x+y</c> stays so, not <c>x + y</c>). The tokens of the changed lines are matched by a shortest diff of their
    /// texts, in which white space plays no part: a diff of the text also matches spaces, and could pair the author's
    /// space before <c>)</c> with the one the formatter put after <c>+</c> (<c>( total+x )</c> came back
    /// <c>( total+ x)</c>). A pair counts inside a run of three matched tokens or more, so code the fix wrote that
    /// happens to share two tokens with the author's takes none of its spacing. Each run of changed lines is matched
    /// on its own, so a Fix All of many sites in a long file costs a diff per site, not one over the whole file.
    /// </summary>
    private static IEnumerable<TextChange> BetweenKeptTokens(SyntaxNode oldRoot, SyntaxNode newRoot, IReadOnlyList<TextChange> changes, IReadOnlyList<TextSpan> newSpans)
    {
        var oldText = oldRoot.SyntaxTree.GetText();
        var newText = newRoot.SyntaxTree.GetText();
        var first = 0;
        for (var i = 1; i <= changes.Count; i++)
        {
            if (i < changes.Count && oldText.Lines.GetLineFromPosition(changes[i].Span.Start).LineNumber <= oldText.Lines.GetLineFromPosition(changes[i - 1].Span.End).LineNumber + 1)
            {
                continue;
            }

            var oldSpan = TextSpan.FromBounds(changes[first].Span.Start, changes[i - 1].Span.End);
            var newSpan = TextSpan.FromBounds(newSpans[first].Start, newSpans[i - 1].End);
            foreach (var edit in BetweenKeptTokens(oldRoot, oldText, oldSpan, newRoot, newText, newSpan))
            {
                yield return edit;
            }

            first = i;
        }
    }

    private static IEnumerable<TextChange> BetweenKeptTokens(SyntaxNode oldRoot, SourceText oldText, TextSpan oldSpan, SyntaxNode newRoot, SourceText newText, TextSpan newSpan)
    {
        var oldTokens = TokensOfLines(oldRoot, oldText, oldSpan);
        var newTokens = TokensOfLines(newRoot, newText, newSpan);
        if (TextEdits.Matches(oldTokens.Select(t => t.Text), newTokens.Select(t => t.Text)) is not { } matches)
        {
            yield break;
        }

        bool Adjacent(int i) => i >= 0 && i + 1 < matches.Count && matches[i + 1].Old == matches[i].Old + 1 && matches[i + 1].New == matches[i].New + 1;
        for (var i = 0; i + 1 < matches.Count; i++)
        {
            if (!Adjacent(i) || !(Adjacent(i - 1) || Adjacent(i + 1)))
            {
                continue;
            }

            var oldGap = TextSpan.FromBounds(oldTokens[matches[i].Old].Span.End, oldTokens[matches[i + 1].Old].SpanStart);
            var newGap = TextSpan.FromBounds(newTokens[matches[i].New].Span.End, newTokens[matches[i + 1].New].SpanStart);
            var was = oldText.ToString(oldGap);
            var now = newText.ToString(newGap);
            if (was != now && IsSpacing(was) && IsSpacing(now))
            {
                yield return new TextChange(newGap, was);
            }
        }
    }

    /// <summary>The tokens of the whole lines <paramref name="span"/> touches, those of an inactive #if branch not among them.</summary>
    private static List<SyntaxToken> TokensOfLines(SyntaxNode root, SourceText text, TextSpan span)
    {
        var lines = TextSpan.FromBounds(text.Lines.GetLineFromPosition(span.Start).Start, text.Lines.GetLineFromPosition(span.End).End);
        return root.DescendantTokens(lines).Where(t => lines.Contains(t.Span) && !t.IsKind(SyntaxKind.EndOfFileToken)).ToList();
    }

    private static bool IsSpacing(string text) => text.All(c => c is ' ' or '\t');

    /// <summary>
    /// Code the fix put in front of a kept token (<c>_n</c> qualified as <c>self._n</c>) starts after the spacing the
    /// author had before that token, not the formatter's: <c>x+_n</c> becomes <c>x+self._n</c>, not <c>x+ self._n</c>.
    /// Only for a qualifier (<c>self.</c>, <c>global::System.</c>: one word ending in a dot) inserted right after a
    /// punctuation token, so no two tokens run together and no larger insertion the text diff lined up is touched.
    /// </summary>
    private static TextChange? InsertedBefore(SyntaxNode oldRoot, SyntaxNode newRoot, TextSpan oldSpan, TextSpan newSpan, string was, string now)
    {
        var code = now.TrimStart(' ', '\t');
        var spacing = new TextSpan(newSpan.Start, now.Length - code.Length);
        if (!IsSpacing(was) || spacing.Length == was.Length && now.StartsWith(was, System.StringComparison.Ordinal)
            || code.Length == 0 || !(char.IsLetter(code[0]) || code[0] is '_' or '@') || code[code.Length - 1] != '.' || code.Any(char.IsWhiteSpace)
            || !BetweenTokens(oldRoot, oldSpan, out var oldLeft, out var oldRight) || !SyntaxFacts.IsPunctuation(oldLeft.Kind())
            || !BetweenTokens(newRoot, spacing, out var newLeft, out _)
            || newRoot.FindToken(newSpan.End) is var newRight && newRight.SpanStart != newSpan.End
            || oldLeft.Text != newLeft.Text || oldRight.Text != newRight.Text
            || OnOtherLines(oldRoot.SyntaxTree.GetText(), oldLeft, oldRight) || OnOtherLines(newRoot.SyntaxTree.GetText(), newLeft, newRight))
        {
            return null;
        }

        return new TextChange(spacing, was);
    }

    /// <summary>
    /// Spaces the author left at the end of a line, which the formatter trimmed where it spaced a call the fix rebuilt
    /// (DotNetty's <c>if (this.pool.closed) </c> inside a lambda TPL0019 gave arguments): put back where the line is
    /// still the author's.
    /// </summary>
    private static TextChange? TrailingSpacesPutBack(SyntaxNode oldRoot, SyntaxNode newRoot, TextSpan oldSpan, TextSpan newSpan, string was, string now)
    {
        var oldText = oldRoot.SyntaxTree.GetText();
        var newText = newRoot.SyntaxTree.GetText();
        var spaces = was.Length - was.TrimStart(' ', '\t').Length;
        if (spaces == 0 || oldSpan.Start == 0 || newSpan.Start == 0 || now.Length > 0 && now[0] is ' ' or '\t'
            || !EndsLine(was, spaces, oldText, oldSpan.End) || !EndsLine(now, 0, newText, newSpan.End))
        {
            return null;
        }

        // The token ending where the spaces begin (they are its trailing trivia).
        var oldLeft = oldRoot.FindToken(oldSpan.Start - 1);
        var newLeft = newRoot.FindToken(newSpan.Start - 1);
        // The line is the author's, moved or not: a line the fix wrote (a state argument after the author's `},`) ends
        // where the author's did, and must not take its spaces.
        return oldLeft.Span.End == oldSpan.Start && newLeft.Span.End == newSpan.Start && !oldLeft.IsKind(SyntaxKind.None)
            && oldText.Lines.GetLineFromPosition(oldSpan.Start).ToString().Trim() == newText.Lines.GetLineFromPosition(newSpan.Start).ToString().Trim()
            ? new TextChange(new TextSpan(newSpan.Start, 0), was.Substring(0, spaces))
            : null;
    }

    /// <summary>The text from <paramref name="at"/> in <paramref name="piece"/> (or, where it ends there, the text after it) begins with a line break.</summary>
    private static bool EndsLine(string piece, int at, SourceText text, int end) =>
        at < piece.Length ? piece[at] is '\r' or '\n' : end < text.Length && text[end] is '\r' or '\n';

    /// <summary>
    /// Spaces at the end of a changed line that the original had on no line of the same text: the author's spaces after
    /// <c>},</c> went along when a fix wrote a state argument after it, and stayed at the end of the argument's own line.
    /// Lines inside a string literal are left alone.
    /// </summary>
    public static IEnumerable<TextChange> TrimmedOnWrittenLines(SourceText oldText, SyntaxNode newRoot, IReadOnlyList<TextChange> changes)
    {
        var newText = newRoot.SyntaxTree.GetText();
        HashSet<string>? trailing = null;
        var seen = new HashSet<int>();
        foreach (var span in TextEdits.NewSpans(changes))
        {
            var first = newText.Lines.GetLineFromPosition(span.Start).LineNumber;
            var last = newText.Lines.GetLineFromPosition(span.End).LineNumber;
            for (var number = first; number <= last; number++)
            {
                var line = newText.Lines[number];
                var content = line.ToString();
                var trimmed = content.TrimEnd(' ', '\t');
                if (trimmed.Length == content.Length || trimmed.Length == 0 || !seen.Add(number))
                {
                    continue;
                }

                trailing ??= new HashSet<string>(oldText.Lines.Select(l => l.ToString()).Where(l => l.Length > 0 && l[l.Length - 1] is ' ' or '\t').Select(l => l.Trim()));
                var end = line.Start + trimmed.Length;
                if (!trailing.Contains(trimmed.Trim()) && newRoot.FindToken(end - 1) is var token && token.Span.End == end
                    && !newRoot.FindTrivia(end).IsKind(SyntaxKind.MultiLineCommentTrivia))
                {
                    yield return new TextChange(TextSpan.FromBounds(end, line.End), string.Empty);
                }
            }
        }
    }

    /// <summary>Whether <paramref name="span"/> is all of what lies between two tokens: no comment, literal or directive.</summary>
    private static bool BetweenTokens(SyntaxNode root, TextSpan span, out SyntaxToken left, out SyntaxToken right)
    {
        right = root.FindToken(span.End);
        left = right.GetPreviousToken();
        return right.SpanStart == span.End && left.Span.End == span.Start && !left.IsKind(SyntaxKind.None);
    }

    private static bool OnOtherLines(SourceText text, SyntaxToken left, SyntaxToken right) =>
        text.Lines.GetLineFromPosition(left.Span.End).LineNumber != text.Lines.GetLineFromPosition(right.SpanStart).LineNumber;
}
