using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp.Syntax;

namespace TplPractices.Analyzers.Tests.Gauntlet.Contexts;

/// <summary>
/// The statements of each outermost block inside a site's region (a lambda's body, a lock's, a loop's, a method's) in
/// both branches of <c>#if NET … #else … #endif</c>: the directives sit inside the code a fix restructures.
/// </summary>
internal sealed class IfInside : GauntletContext
{
    public override string Name => "#if inside the rewritten code";

    public override Variant? Apply(GauntletCase gauntletCase, GauntletSetup setup)
    {
        var text = gauntletCase.Code;
        var wrapped = new List<Microsoft.CodeAnalysis.Text.TextSpan>();
        foreach (var region in Sites.Nodes(gauntletCase).Select(Sites.Region).Distinct())
        {
            var blocks = region.DescendantNodesAndSelf().OfType<BlockSyntax>().Where(b => b.Statements.Count > 0).ToList();
            foreach (var block in blocks.Where(b => !blocks.Any(o => o != b && o.Span.Contains(b.Span))))
            {
                if (Lines(block) is { } lines && !wrapped.Any(w => w.OverlapsWith(lines)))
                {
                    wrapped.Add(lines);
                }
            }
        }

        return wrapped.Count == 0 ? null : Single(gauntletCase, setup, Sites.InBothBranches(text, wrapped));
    }

    /// <summary>The lines of the block's statements, when the braces stand on other lines.</summary>
    private static Microsoft.CodeAnalysis.Text.TextSpan? Lines(BlockSyntax block)
    {
        var text = block.SyntaxTree.GetText();
        var open = text.Lines.GetLineFromPosition(block.OpenBraceToken.SpanStart).LineNumber;
        var close = text.Lines.GetLineFromPosition(block.CloseBraceToken.SpanStart).LineNumber;
        var first = text.Lines.GetLineFromPosition(block.Statements.First().GetFirstToken().SpanStart);
        var last = text.Lines.GetLineFromPosition(block.Statements.Last().Span.End);
        if (first.LineNumber <= open || last.LineNumber >= close
            || !string.IsNullOrWhiteSpace(text.ToString(Microsoft.CodeAnalysis.Text.TextSpan.FromBounds(first.Start, block.Statements.First().SpanStart))))
        {
            return null;
        }

        return Microsoft.CodeAnalysis.Text.TextSpan.FromBounds(first.Start, last.EndIncludingLineBreak);
    }
}
