using System.Text;
using Microsoft.CodeAnalysis.Text;

namespace TplPractices.Analyzers.Tests.Verifiers;

/// <summary>An expected diagnostic: its ID (null means the analyzer's only ID), file and span.</summary>
public sealed record ExpectedDiagnostic(string? Id, string FilePath, TextSpan Span);

/// <summary>
/// Reads the Microsoft.CodeAnalysis.Testing markup: <c>[|code|]</c> marks where the rule reports,
/// <c>{|TPL0003:code|}</c> names the ID as well. Returns the plain source and the marked spans.
/// </summary>
public static class Markup
{
    public static (string Source, List<ExpectedDiagnostic> Expected) Parse(string markup, string filePath)
    {
        var output = new StringBuilder(markup.Length);
        var open = new Stack<(int Start, string? Id)>();
        var expected = new List<ExpectedDiagnostic>();
        for (var i = 0; i < markup.Length; i++)
        {
            if (Starts(markup, i, "[|"))
            {
                open.Push((output.Length, null));
                i++;
            }
            else if (Starts(markup, i, "{|") && markup.IndexOf(':', i) is var colon and > 0 && IsId(markup, i + 2, colon))
            {
                open.Push((output.Length, markup.Substring(i + 2, colon - i - 2)));
                i = colon;
            }
            else if ((Starts(markup, i, "|]") || Starts(markup, i, "|}")) && open.Count > 0)
            {
                var (start, id) = open.Pop();
                expected.Add(new ExpectedDiagnostic(id, filePath, TextSpan.FromBounds(start, output.Length)));
                i++;
            }
            else
            {
                output.Append(markup[i]);
            }
        }

        if (open.Count > 0)
        {
            throw new ArgumentException("Unclosed markup span in test source.");
        }

        return (output.ToString(), expected);
    }

    private static bool Starts(string text, int index, string token) =>
        string.CompareOrdinal(text, index, token, 0, token.Length) == 0;

    private static bool IsId(string text, int start, int end) =>
        end > start && end - start <= 12 && Enumerable.Range(start, end - start).All(k => char.IsLetterOrDigit(text[k]));
}
