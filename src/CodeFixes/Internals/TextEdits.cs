using System.Collections.Generic;
using Microsoft.CodeAnalysis.Text;

namespace TplPractices.Analyzers.CodeFixes.Internals;

/// <summary>Where a span of a text lies after edits made elsewhere in it.</summary>
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
}
