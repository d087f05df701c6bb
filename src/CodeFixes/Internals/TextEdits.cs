using System;
using System.Collections.Generic;
using System.Linq;
using System.Threading;
using System.Threading.Tasks;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.Text;

namespace TplPractices.Analyzers.CodeFixes.Internals;

/// <summary>Where spans of a text lie after edits.</summary>
internal static class TextEdits
{
    /// <summary>
    /// <paramref name="span"/> moved through each set of changes in turn; null when a change touched it (the code
    /// there was rewritten already). With <paramref name="grows"/>, a change strictly inside the span keeps it, grown
    /// or shrunk: the span of a node that is still there with its text changed (a fix's part around another site).
    /// </summary>
    public static TextSpan? Map(TextSpan span, IEnumerable<IReadOnlyList<TextChange>> edits, bool grows = false)
    {
        foreach (var changes in edits)
        {
            var shift = 0;
            var growth = 0;
            foreach (var change in changes)
            {
                var delta = change.NewText!.Length - change.Span.Length;
                if (change.Span.End <= span.Start)
                {
                    shift += delta;
                }
                else if (change.Span.Start >= span.End)
                {
                    continue;
                }
                else if (grows && change.Span.Start > span.Start && change.Span.End < span.End)
                {
                    growth += delta;
                }
                else
                {
                    return null;
                }
            }

            span = new TextSpan(span.Start + shift, span.Length + growth);
        }

        return span;
    }

    /// <summary>
    /// What a rewrite changed, in the original text's coordinates, in order: the lines that differ (a shortest line
    /// diff), and within them the words and symbols that do. The syntax differ behind
    /// <see cref="Document.GetTextChangesAsync"/> reports wide changes where a fix rewrote much of a file (a deletion
    /// here and the same text inserted further on), taking in untouched code; the layout steps, which act only on
    /// changed code, would then lay out that code too, depending on which fix ran before.
    /// </summary>
    public static async Task<List<TextChange>> BetweenAsync(Document original, Document rewritten, CancellationToken cancellationToken)
    {
        var source = await original.GetTextAsync(cancellationToken).ConfigureAwait(false);
        var oldText = source.ToString();
        var newText = (await rewritten.GetTextAsync(cancellationToken).ConfigureAwait(false)).ToString();
        if (Diff(0, oldText, newText, byLines: true) is { } changes)
        {
            return changes;
        }

        // Too far apart for a cheap diff: the syntax differ's changes, trimmed.
        return (await rewritten.GetTextChangesAsync(original, cancellationToken).ConfigureAwait(false))
            .SelectMany(c => Trimmed(c.Span.Start, source.ToString(c.Span), c.NewText ?? string.Empty)).OrderBy(c => c.Span.Start).ToList();
    }

    /// <summary>Pieces added or removed before a diff gives up (round d keeps 2d + 1 numbers).</summary>
    private const int MaxDifferences = 2000;

    private static readonly System.Text.RegularExpressions.Regex Token = new(@"\s+|\w+|[^\s\w]", System.Text.RegularExpressions.RegexOptions.CultureInvariant);

    /// <summary>
    /// The changes that make <paramref name="after"/> of <paramref name="before"/> (which starts at
    /// <paramref name="start"/>), comparing lines, then the words and symbols of the lines that differ; null when the
    /// lines differ too much.
    /// </summary>
    private static List<TextChange>? Diff(int start, string before, string after, bool byLines)
    {
        var oldPieces = byLines ? Lines(before) : Token.Matches(before).Cast<System.Text.RegularExpressions.Match>().Select(m => m.Value).ToList();
        var newPieces = byLines ? Lines(after) : Token.Matches(after).Cast<System.Text.RegularExpressions.Match>().Select(m => m.Value).ToList();
        var ids = new Dictionary<string, int>(StringComparer.Ordinal);
        var matches = Matches(oldPieces.Select(l => Id(ids, Key(l, byLines))).ToArray(), newPieces.Select(l => Id(ids, Key(l, byLines))).ToArray());
        if (matches is null)
        {
            return null;
        }

        // Between two matched pieces (and before the first, after the last) lies at most one change.
        var changes = new List<TextChange>();
        int o = 0, n = 0, oldAt = 0, newAt = 0;
        foreach (var (x, y) in matches.Append((oldPieces.Count, newPieces.Count)))
        {
            var oldEnd = oldAt;
            for (; o < x; o++)
            {
                oldEnd += oldPieces[o].Length;
            }

            var newEnd = newAt;
            for (; n < y; n++)
            {
                newEnd += newPieces[n].Length;
            }

            if (oldEnd > oldAt || newEnd > newAt)
            {
                var oldGap = before.Substring(oldAt, oldEnd - oldAt);
                var newGap = after.Substring(newAt, newEnd - newAt);
                changes.AddRange((byLines ? Diff(start + oldAt, oldGap, newGap, byLines: false) : null) ?? Trimmed(start + oldAt, oldGap, newGap));
            }

            if (x < oldPieces.Count)
            {
                // Matched lines, and matched line breaks, may differ in indentation: that is a change of its own.
                changes.AddRange(Trimmed(start + oldEnd, oldPieces[o], newPieces[n]));
                oldEnd += oldPieces[o++].Length;
                newEnd += newPieces[n++].Length;
            }

            (oldAt, newAt) = (oldEnd, newEnd);
        }

        return changes;
    }

    /// <summary>
    /// What a piece is compared by: a line without its indentation; among words, white space holding line breaks matches
    /// any with as many, whatever the indentation after them. Code a rewrite moved is then compared line for line and
    /// word for word, its indentation a change of its own, instead of aligned by its indentation with other lines that
    /// happen to share it (which made moved lines look rewritten).
    /// </summary>
    private static string Key(string piece, bool byLines)
    {
        if (byLines)
        {
            return piece.TrimStart(' ', '\t');
        }

        if (piece.Length == 0 || !char.IsWhiteSpace(piece[0]))
        {
            return piece;
        }

        var breaks = piece.Count(c => c == '\n');
        return breaks == 0 ? piece : "\n" + breaks;
    }

    private static int Id(Dictionary<string, int> ids, string line)
    {
        if (!ids.TryGetValue(line, out var id))
        {
            id = ids.Count;
            ids.Add(line, id);
        }

        return id;
    }

    /// <summary>The pairs of equal pieces a shortest edit script of two sequences keeps, in order; null past <see cref="MaxDifferences"/>.</summary>
    public static List<(int Old, int New)>? Matches(IEnumerable<string> before, IEnumerable<string> after)
    {
        var ids = new Dictionary<string, int>(StringComparer.Ordinal);
        return Matches(before.Select(p => Id(ids, p)).ToArray(), after.Select(p => Id(ids, p)).ToArray());
    }

    /// <summary>
    /// The pairs of equal lines a shortest edit script keeps, in order (Myers' greedy diff); null past
    /// <see cref="MaxDifferences"/>.
    /// </summary>
    private static List<(int Old, int New)>? Matches(int[] a, int[] b)
    {
        int n = a.Length, m = b.Length, max = n + m, offset = max + 1;
        var v = new int[(2 * max) + 3];
        var trace = new List<int[]>();
        for (var d = 0; d <= Math.Min(max, MaxDifferences); d++)
        {
            // The frontier before this round, k from -d to d: all the backtrack reads of it.
            var frontier = new int[(2 * d) + 1];
            Array.Copy(v, offset - d, frontier, 0, frontier.Length);
            trace.Add(frontier);
            for (var k = -d; k <= d; k += 2)
            {
                var x = k == -d || (k != d && v[offset + k - 1] < v[offset + k + 1]) ? v[offset + k + 1] : v[offset + k - 1] + 1;
                var y = x - k;
                while (x < n && y < m && a[x] == b[y])
                {
                    x++;
                    y++;
                }

                v[offset + k] = x;
                if (x >= n && y >= m)
                {
                    return Backtrack(trace, n, m, a, b);
                }
            }
        }

        return null;
    }

    private static List<(int Old, int New)> Backtrack(List<int[]> trace, int x, int y, int[] a, int[] b)
    {
        var matches = new List<(int Old, int New)>();
        for (var d = trace.Count - 1; d >= 0 && (x > 0 || y > 0); d--)
        {
            var v = trace[d];
            var k = x - y;
            var previousK = d == 0 ? 0 : k == -d || (k != d && v[d + k - 1] < v[d + k + 1]) ? k + 1 : k - 1;
            var previousX = d == 0 ? 0 : v[d + previousK];
            var previousY = previousX - previousK;
            while (x > previousX && y > previousY && a[x - 1] == b[y - 1])
            {
                matches.Add((x - 1, y - 1));
                x--;
                y--;
            }

            (x, y) = (previousX, previousY);
        }

        matches.Reverse();
        return matches;
    }

    /// <summary>The text's lines, each with its line break.</summary>
    private static List<string> Lines(string text)
    {
        var lines = new List<string>();
        var start = 0;
        for (var i = 0; i < text.Length; i++)
        {
            if (text[i] == '\n')
            {
                lines.Add(text.Substring(start, i + 1 - start));
                start = i + 1;
            }
        }

        if (start < text.Length)
        {
            lines.Add(text.Substring(start));
        }

        return lines;
    }

    /// <summary>The replacement of <paramref name="before"/> (at <paramref name="start"/>) by <paramref name="after"/>, without what both begin or end with.</summary>
    private static IEnumerable<TextChange> Trimmed(int start, string before, string after)
    {
        var most = Math.Min(before.Length, after.Length);
        var prefix = 0;
        while (prefix < most && before[prefix] == after[prefix])
        {
            prefix++;
        }

        var suffix = 0;
        while (suffix < most - prefix && before[before.Length - 1 - suffix] == after[after.Length - 1 - suffix])
        {
            suffix++;
        }

        if (before.Length - prefix - suffix > 0 || after.Length - prefix - suffix > 0)
        {
            yield return new TextChange(
                new TextSpan(start + prefix, before.Length - prefix - suffix),
                after.Substring(prefix, after.Length - prefix - suffix));
        }
    }

    /// <summary>Where each of <paramref name="changes"/> (sorted, in the old text's coordinates) lies in the new text.</summary>
    public static List<TextSpan> NewSpans(IReadOnlyList<TextChange> changes)
    {
        var spans = new List<TextSpan>();
        var delta = 0;
        foreach (var change in changes)
        {
            var length = change.NewText?.Length ?? 0;
            spans.Add(new TextSpan(change.Span.Start + delta, length));
            delta += length - change.Span.Length;
        }

        return spans;
    }
}
