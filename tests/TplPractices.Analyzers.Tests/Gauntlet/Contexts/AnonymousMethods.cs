using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp;
using Microsoft.CodeAnalysis.CSharp.Syntax;

namespace TplPractices.Analyzers.Tests.Gauntlet.Contexts;

/// <summary>
/// The lambdas in each site's region written as anonymous methods: <c>delegate { … }</c> without a parameter list
/// where the body uses no parameter (and so fits a delegate of any parameters), <c>delegate (T a) { … }</c> otherwise.
/// </summary>
internal sealed class AnonymousMethods : GauntletContext
{
    private static readonly SymbolDisplayFormat TypeFormat = SymbolDisplayFormat.MinimallyQualifiedFormat
        .RemoveMiscellaneousOptions(SymbolDisplayMiscellaneousOptions.IncludeNullableReferenceTypeModifier);

    public override string Name => "anonymous methods";

    public override Variant? Apply(GauntletCase gauntletCase, GauntletSetup setup)
    {
        var model = gauntletCase.Model;
        var lambdas = Sites.Nodes(gauntletCase).Select(Sites.Region).Distinct()
            .SelectMany(r => r.DescendantNodesAndSelf().OfType<LambdaExpressionSyntax>())
            .Where(l => l.Parent is ArgumentSyntax)
            .Distinct()
            .ToList();
        var outermost = lambdas.Where(l => !lambdas.Any(o => o != l && o.Span.Contains(l.Span))).ToList();
        var replacements = new List<(int Start, int End, string Text)>();
        foreach (var lambda in outermost)
        {
            if (model.GetSymbolInfo(lambda).Symbol is not IMethodSymbol symbol
                || symbol.Parameters.Any(p => p.Type.IsAnonymousType || p.Type.TypeKind == TypeKind.Error))
            {
                continue;
            }

            var used = lambda.DescendantNodes().OfType<IdentifierNameSyntax>()
                .Any(n => model.GetSymbolInfo(n).Symbol is IParameterSymbol p && symbol.Parameters.Contains(p, SymbolEqualityComparer.Default));
            var parameters = used
                ? "(" + string.Join(", ", symbol.Parameters.Select(p => $"{p.Type.ToMinimalDisplayString(model, lambda.SpanStart, TypeFormat)} {p.Name}")) + ") "
                : " ";
            var noValue = symbol.ReturnsVoid || (symbol.IsAsync && symbol.ReturnType is INamedTypeSymbol { IsGenericType: false });
            var body = lambda.Body is BlockSyntax block
                ? block.ToString()
                : noValue ? $"{{ {lambda.Body}; }}" : $"{{ return {lambda.Body}; }}";
            var prefix = lambda.AsyncKeyword.IsKind(SyntaxKind.AsyncKeyword) ? "async " : string.Empty;
            replacements.Add((lambda.SpanStart, lambda.Span.End, $"{prefix}delegate{parameters}{body}"));
        }

        if (replacements.Count == 0)
        {
            return null;
        }

        var code = gauntletCase.Code;
        foreach (var (start, end, text) in replacements.OrderByDescending(r => r.Start))
        {
            code = code.Substring(0, start) + text + code.Substring(end);
        }

        return Single(gauntletCase, setup, code);
    }
}
