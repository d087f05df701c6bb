using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp;
using Microsoft.CodeAnalysis.CSharp.Syntax;
using Microsoft.CodeAnalysis.Text;

namespace TplPractices.Analyzers.Tests.Gauntlet.Contexts;

/// <summary>
/// The argument lists around each site written one argument a line, the later ones aligned under the first, as
/// many authors wrap a long call. After the fixes no list mixes shared and own lines where the author did not, and
/// every line that continues a statement is indented deeper than the statement's first line.
/// </summary>
internal sealed class WrappedArguments : GauntletContext
{
    public override string Name => "arguments one a line";

    public override Variant? Apply(GauntletCase gauntletCase, GauntletSetup setup)
    {
        var text = gauntletCase.Root.SyntaxTree.GetText();
        var insertions = new List<(int, string)>();
        var lists = Sites.ArgumentLists(gauntletCase).Where(l => l.Arguments.Count > 1 && Single(text, l.Span));
        foreach (var list in lists)
        {
            var column = list.Arguments[0].SpanStart - text.Lines.GetLineFromPosition(list.SpanStart).Start;
            foreach (var argument in list.Arguments.Skip(1))
            {
                var comma = argument.GetFirstToken().GetPreviousToken();
                if (!comma.TrailingTrivia.Any(t => t.IsKind(SyntaxKind.SingleLineCommentTrivia)))
                {
                    insertions.Add((argument.SpanStart, "\n" + new string(' ', column)));
                }
            }
        }

        // Only the first of several insertions at one position (nested lists starting together) is kept.
        var unique = insertions.GroupBy(i => i.Item1).Select(g => g.First()).ToList();
        if (unique.Count == 0)
        {
            return null;
        }

        return Single(gauntletCase, setup, Sites.Insert(gauntletCase.Code, unique), async (original, solution) =>
        {
            var before = await MixedListsAsync(original);
            var after = await MixedListsAsync(solution);
            if (after.Count > before.Count)
            {
                return $"an argument list mixes shared and own lines: {after.Except(before).FirstOrDefault()}";
            }

            return await ShallowContinuationAsync(solution);
        });
    }

    private static bool Single(SourceText text, TextSpan span) =>
        text.Lines.GetLineFromPosition(span.Start).LineNumber == text.Lines.GetLineFromPosition(span.End).LineNumber;

    private static bool BeginsLine(SourceText text, SyntaxNode node) =>
        string.IsNullOrWhiteSpace(text.ToString(TextSpan.FromBounds(text.Lines.GetLineFromPosition(node.SpanStart).Start, node.SpanStart)));

    /// <summary>Lists whose arguments after the first are some on lines of their own, some not.</summary>
    private static async Task<List<string>> MixedListsAsync(Solution solution)
    {
        var mixed = new List<string>();
        foreach (var document in solution.Projects.First().Documents)
        {
            var root = (await document.GetSyntaxRootAsync())!;
            var text = root.SyntaxTree.GetText();
            foreach (var list in root.DescendantNodes().OfType<ArgumentListSyntax>())
            {
                var own = list.Arguments.Skip(1).Select(a => BeginsLine(text, a)).Distinct().Count();
                if (own > 1)
                {
                    mixed.Add(list.ToString());
                }
            }
        }

        return mixed;
    }

    /// <summary>A line inside a statement indented no deeper than the statement's first line (a block's braces aside).</summary>
    private static async Task<string?> ShallowContinuationAsync(Solution solution)
    {
        foreach (var document in solution.Projects.First().Documents)
        {
            var root = (await document.GetSyntaxRootAsync())!;
            var text = root.SyntaxTree.GetText();
            foreach (var statement in root.DescendantNodes().OfType<StatementSyntax>().Where(s => s is ExpressionStatementSyntax or ReturnStatementSyntax or LocalDeclarationStatementSyntax))
            {
                var first = text.Lines.GetLineFromPosition(statement.SpanStart);
                var indentation = Indentation(first.ToString());
                var last = text.Lines.GetLineFromPosition(statement.Span.End).LineNumber;
                for (var n = first.LineNumber + 1; n <= last; n++)
                {
                    var line = text.Lines[n];
                    var token = root.FindToken(line.Start + Indentation(line.ToString()));
                    if (line.ToString().Trim().Length > 0 && token.SpanStart >= line.Start && !token.IsKind(SyntaxKind.OpenBraceToken) && !token.IsKind(SyntaxKind.CloseBraceToken)
                        && !token.Parent!.AncestorsAndSelf().Any(a => a is BlockSyntax b && statement.Span.Contains(b.Span))
                        && Indentation(line.ToString()) <= indentation)
                    {
                        return $"a continuation line is not indented past its statement's first line: '{first.ToString().Trim()}' / '{line.ToString().Trim()}'";
                    }
                }
            }
        }

        return null;
    }

    private static int Indentation(string line) => line.Length - line.TrimStart().Length;
}
