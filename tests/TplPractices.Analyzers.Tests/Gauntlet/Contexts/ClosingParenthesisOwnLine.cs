using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp;
using Microsoft.CodeAnalysis.CSharp.Syntax;
using Microsoft.CodeAnalysis.Text;

namespace TplPractices.Analyzers.Tests.Gauntlet.Contexts;

/// <summary>
/// Each argument list around a site closed by a ')' on a line of its own, under the statement's first line, as some
/// authors write a call whose last argument is a lambda. A fix that adds arguments after the last one must keep them on
/// the argument's side of that line break: no line of the fixed code may begin with a comma where none did. Nor may a
/// fix move such a ')' off the indentation of its list's first line.
/// </summary>
internal sealed class ClosingParenthesisOwnLine : GauntletContext
{
    public override string Name => "')' on a line of its own";

    public override Variant? Apply(GauntletCase gauntletCase, GauntletSetup setup)
    {
        var text = gauntletCase.Root.SyntaxTree.GetText();
        var insertions = Sites.ArgumentLists(gauntletCase)
            .Where(l => l.Arguments.Count > 0 && !l.CloseParenToken.LeadingTrivia.Any() && !l.Arguments.Last().GetTrailingTrivia().Any(t => t.IsKind(SyntaxKind.EndOfLineTrivia)))
            .Select(l => (l.CloseParenToken.SpanStart, "\n" + Indentation(text.Lines.GetLineFromPosition(l.SpanStart).ToString())))
            .GroupBy(i => i.SpanStart).Select(g => g.First())
            .ToList();
        if (insertions.Count == 0)
        {
            return null;
        }

        return Single(gauntletCase, setup, Sites.Insert(gauntletCase.Code, insertions), async (original, solution) =>
        {
            var before = await LinesBeginningWithACommaAsync(original);
            var after = await LinesBeginningWithACommaAsync(solution);
            if (after > before)
            {
                return $"a fix began {after - before} line(s) with a comma";
            }

            var offBefore = await ParenthesesOffTheirLinesAsync(original);
            var offAfter = await ParenthesesOffTheirLinesAsync(solution);
            return offAfter > offBefore ? $"a fix moved {offAfter - offBefore} ')' line(s) away from the indentation of their list's first line" : null;
        });
    }

    /// <summary>
    /// Lists whose ')' begins a line indented otherwise than the line the list opens on: the layout put there moved
    /// (Proto.Actor's <c>Task.Run(…</c> / <c>)</c> / <c>.Wait();</c> went one indent right when TPL0007 spread its
    /// arguments).
    /// </summary>
    private static async Task<int> ParenthesesOffTheirLinesAsync(Solution solution)
    {
        var count = 0;
        foreach (var document in solution.Projects.First().Documents)
        {
            var root = await document.GetSyntaxRootAsync();
            var text = await document.GetTextAsync();
            foreach (var list in root!.DescendantNodes().OfType<BaseArgumentListSyntax>())
            {
                var closing = list.GetLastToken();
                var closingLine = text.Lines.GetLineFromPosition(closing.SpanStart);
                if (string.IsNullOrWhiteSpace(text.ToString(TextSpan.FromBounds(closingLine.Start, closing.SpanStart)))
                    && Indentation(closingLine.ToString()) != Indentation(text.Lines.GetLineFromPosition(list.SpanStart).ToString()))
                {
                    count++;
                }
            }
        }

        return count;
    }

    private static async Task<int> LinesBeginningWithACommaAsync(Solution solution)
    {
        var count = 0;
        foreach (var document in solution.Projects.First().Documents)
        {
            var text = await document.GetTextAsync();
            count += text.Lines.Count(line => line.ToString().TrimStart().StartsWith(',') && !InComment(line));
        }

        return count;
    }

    private static bool InComment(TextLine line) => line.ToString().TrimStart().StartsWith("//", StringComparison.Ordinal);

    private static string Indentation(string line) => line.Substring(0, line.Length - line.TrimStart().Length);
}
