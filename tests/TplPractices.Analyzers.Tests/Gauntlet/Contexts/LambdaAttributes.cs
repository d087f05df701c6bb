using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp.Syntax;

namespace TplPractices.Analyzers.Tests.Gauntlet.Contexts;

/// <summary>
/// An attribute on every lambda around the sites (C# 10; a simple lambda gets parentheses for it). A rewrite that
/// rebuilds a lambda must keep its attributes; after the fixes the file holds as many as before.
/// </summary>
internal sealed class LambdaAttributes : GauntletContext
{
    private const string Attribute = "[System.Diagnostics.DebuggerStepThrough] ";

    public override string Name => "attributes on the lambdas";

    public override Variant? Apply(GauntletCase gauntletCase, GauntletSetup setup)
    {
        var insertions = new List<(int, string)>();
        foreach (var lambda in Sites.Nodes(gauntletCase).Select(Sites.Region).Distinct().SelectMany(r => r.DescendantNodesAndSelf().OfType<LambdaExpressionSyntax>()).Distinct())
        {
            if (lambda.AttributeLists.Count > 0 || lambda.Ancestors().Any(a => a is InterpolatedStringExpressionSyntax))
            {
                continue;
            }

            var start = lambda.Modifiers.Count > 0 ? lambda.Modifiers[0].SpanStart : lambda is SimpleLambdaExpressionSyntax simple ? simple.Parameter.SpanStart : ((ParenthesizedLambdaExpressionSyntax)lambda).ParameterList.SpanStart;
            insertions.Add((start, Attribute));
            if (lambda is SimpleLambdaExpressionSyntax single)
            {
                insertions.Add((single.Parameter.SpanStart, "("));
                insertions.Add((single.Parameter.Span.End, ")"));
            }
        }

        if (insertions.Count == 0)
        {
            return null;
        }

        var count = insertions.Count(i => i.Item2 == Attribute);
        return Single(gauntletCase, setup, Sites.Insert(gauntletCase.Code, insertions.OrderBy(i => i.Item1).ThenBy(i => i.Item2 == Attribute ? 0 : 1)), async (_, solution) =>
        {
            var text = (await solution.Projects.First().Documents.First().GetTextAsync()).ToString();
            var kept = text.Split(Attribute.Trim()).Length - 1;
            return kept == count ? null : $"{count - kept} of the {count} lambda attributes were dropped";
        });
    }
}
