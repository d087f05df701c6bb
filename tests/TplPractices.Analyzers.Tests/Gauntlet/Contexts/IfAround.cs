using Microsoft.CodeAnalysis;

namespace TplPractices.Analyzers.Tests.Gauntlet.Contexts;

/// <summary>
/// Each site's statement (or member, where it is not in a statement) in both branches of <c>#if NET … #else … #endif</c>:
/// in a two-target project each target compiles one copy.
/// </summary>
internal sealed class IfAround : GauntletContext
{
    public override string Name => "#if around the site";

    public override Variant? Apply(GauntletCase gauntletCase, GauntletSetup setup)
    {
        var text = gauntletCase.Code;
        var wrapped = new List<Microsoft.CodeAnalysis.Text.TextSpan>();
        foreach (var node in Sites.Nodes(gauntletCase))
        {
            if ((Sites.Statement(node) ?? (SyntaxNode?)Sites.Member(node)) is { } around
                && Sites.OwnLines(around) is { } lines
                && !wrapped.Any(w => w.OverlapsWith(lines) || w.End == lines.Start || lines.End == w.Start))
            {
                wrapped.Add(lines);
            }
        }

        return wrapped.Count == 0 ? null : Single(gauntletCase, setup, Sites.InBothBranches(text, wrapped));
    }
}
