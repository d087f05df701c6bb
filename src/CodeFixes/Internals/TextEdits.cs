using System.Collections.Generic;
using Microsoft.CodeAnalysis.Text;

namespace TplPractices.Analyzers.CodeFixes.Internals;

/// <summary>Where spans of a text lie after edits.</summary>
internal static class TextEdits
{
    /// <summary>
    /// <paramref name="span"/> moved through each set of changes in turn; null when a change touched it (the code
    /// there was rewritten already).
    /// </summary>
    public static TextSpan? Map(TextSpan span, IEnumerable<IReadOnlyList<TextChange>> edits)
    {
        foreach (var changes in edits)
        {
            var shift = 0;
            foreach (var change in changes)
            {
                if (change.Span.End <= span.Start)
                {
                    shift += change.NewText!.Length - change.Span.Length;
                }
                else if (change.Span.Start < span.End)
                {
                    return null;
                }
            }

            span = new TextSpan(span.Start + shift, span.Length);
        }

        return span;
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
