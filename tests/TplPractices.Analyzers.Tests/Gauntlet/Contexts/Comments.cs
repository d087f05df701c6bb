using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp;

namespace TplPractices.Analyzers.Tests.Gauntlet.Contexts;

/// <summary>
/// A comment at every trivia position of the code a fix may rewrite: a block comment before each token, and a line
/// comment at the end of each line. Every variant's checks require each comment to survive.
/// </summary>
internal sealed class Comments : GauntletContext
{
    public override string Name => "comments everywhere";

    public override Variant? Apply(GauntletCase gauntletCase, GauntletSetup setup)
    {
        var text = gauntletCase.Root.SyntaxTree.GetText();
        var insertions = new List<(int, string)>();
        var regions = Sites.Nodes(gauntletCase).Select(Sites.Region).Distinct().ToList();
        foreach (var region in regions.Where(r => !regions.Any(o => o != r && o.Span.Contains(r.Span))))
        {
            foreach (var token in region.DescendantTokens().Where(t => !Sites.InInterpolatedString(t)))
            {
                insertions.Add((token.SpanStart, $"/*g{insertions.Count}*/ "));
                var line = text.Lines.GetLineFromPosition(token.Span.End);
                var next = token.GetNextToken(includeZeroWidth: true);
                if (token != region.GetLastToken() && !token.IsKind(SyntaxKind.None)
                    && (next.IsKind(SyntaxKind.None) || next.SpanStart > line.End)
                    && !token.TrailingTrivia.Any(t => t.IsKind(SyntaxKind.SingleLineCommentTrivia) || t.IsKind(SyntaxKind.MultiLineCommentTrivia)))
                {
                    insertions.Add((token.Span.End, $" //g{insertions.Count}"));
                }
            }
        }

        return insertions.Count == 0 ? null : Single(gauntletCase, setup, Sites.Insert(gauntletCase.Code, insertions));
    }
}
