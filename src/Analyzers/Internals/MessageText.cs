using System.Collections.Generic;
using System.Linq;

namespace TplPractices.Analyzers.Internals;

/// <summary>Diagnostic messages in plain English: counted nouns and lists that read as a person would write them.</summary>
internal static class MessageText
{
    /// <summary>"1 link", "3 links".</summary>
    public static string Count(int count, string singular, string plural) =>
        count.ToString(System.Globalization.CultureInfo.InvariantCulture) + " " + (count == 1 ? singular : plural);

    private const int MaxCodeLength = 40;

    /// <summary>Code as a message quotes it: short code in full, a long call as <c>Task.Run(...)</c>, else its first line.</summary>
    public static string ShortCode(Microsoft.CodeAnalysis.SyntaxNode node)
    {
        var text = node.ToString();
        return text.Length <= MaxCodeLength && text.IndexOf('\n') < 0
            ? text
            : node is Microsoft.CodeAnalysis.CSharp.Syntax.InvocationExpressionSyntax call ? call.Expression + "(...)" : text.Split('\n')[0].TrimEnd() + " ...";
    }

    /// <summary>"'a'", "'a' and 'b'", "'a', 'b' and 'c'".</summary>
    public static string QuotedList(IEnumerable<string> items)
    {
        var quoted = items.Select(i => "'" + i + "'").ToList();
        return quoted.Count <= 1
            ? string.Concat(quoted)
            : string.Join(", ", quoted.Take(quoted.Count - 1)) + " and " + quoted[quoted.Count - 1];
    }
}
