using System.Collections.Immutable;
using System.Text.RegularExpressions;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp;
using Microsoft.CodeAnalysis.CSharp.Syntax;

namespace TplPractices.Analyzers.Tests.Gauntlet.Contexts;

/// <summary>
/// Every argument around a site written with the null-forgiving operator (<c>token!</c>, <c>work!</c>), as nullable
/// code writes some. The compiler's operation tree marks such an argument implicit and points it at the expression
/// inside; a fix that rebuilt the list from the arguments it could find by their syntax dropped the token and the
/// options (the longer overload got <c>CancellationToken.None</c> in their place), and the code compiled. So: read
/// without the operator, the fixed code holds each such argument as often as both the case and its fixed code as
/// written do (a fix may consume an argument, a flag it removes; it may also leave a site written so alone, which is
/// reach, not a change of meaning). Only where C# 8 or later compiles every copy (the operator is new in C# 8).
/// </summary>
internal sealed class NullForgivingArguments : GauntletContext
{
    /// <summary>A null-forgiving operator: a '!' after a name, a call, an index, a literal; not '!=' and not a prefix '!'.</summary>
    private static readonly Regex Suppression = new(@"(?<=[\w\)\]\}""'])!(?!=)", RegexOptions.Compiled);

    public override string Name => "arguments written with !";

    public override ImmutableArray<GauntletSetup> Setups => [GauntletSetup.Single, GauntletSetup.Modern];

    public override Variant? Apply(GauntletCase gauntletCase, GauntletSetup setup)
    {
        var arguments = Sites.ArgumentLists(gauntletCase)
            .SelectMany(l => l.Arguments)
            .Where(a => Takes(a, gauntletCase.Model))
            .ToList();
        if (arguments.Count == 0)
        {
            return null;
        }

        var written = arguments.Select(a => Tokens(a.Expression.ToString())).ToList();
        var original = Tokens(gauntletCase.Code);
        var code = Sites.Insert(gauntletCase.Code, arguments.Select(a => (a.Expression.Span.End, "!")));
        return Single(gauntletCase, setup, code, async (_, after) =>
        {
            var plain = Tokens(await TextAsync(await FormatRun.RunAsync(setup.Create([("Test0.cs", gauntletCase.Code)], gauntletCase.OutputKind), FormatRun.RuleIds)));
            var fixedCode = Tokens(await TextAsync(after));
            int Kept(string[] a) => Math.Min(Count(original, a), Count(plain, a));
            var lost = written.FirstOrDefault(a => Count(fixedCode, a) < Kept(a));
            return lost is null ? null : $"the argument '{string.Concat(lost)}' is lost (the case as written keeps it {Kept(lost)} times, with '!' {Count(fixedCode, lost)})";
        });
    }

    private static async Task<string> TextAsync(Solution solution) =>
        (await solution.Projects.First().Documents.Single().GetTextAsync()).ToString();

    /// <summary>The code's tokens, null-forgiving operators left out.</summary>
    private static string[] Tokens(string code) =>
        SyntaxFactory.ParseTokens(Suppression.Replace(code, string.Empty)).Select(t => t.Text).Where(t => t.Length > 0).ToArray();

    private static int Count(string[] tokens, string[] part)
    {
        var count = 0;
        for (var i = 0; i + part.Length <= tokens.Length; i++)
        {
            if (part.Select((t, k) => tokens[i + k] == t).All(same => same))
            {
                count++;
            }
        }

        return count;
    }

    /// <summary>An argument the operator may follow: a value, not a lambda, a method group, a ref or an out.</summary>
    private static bool Takes(ArgumentSyntax argument, SemanticModel model) =>
        argument.RefKindKeyword.IsKind(SyntaxKind.None)
        && argument.Expression is not (AnonymousFunctionExpressionSyntax or PostfixUnaryExpressionSyntax or CollectionExpressionSyntax
            or TupleExpressionSyntax or StackAllocArrayCreationExpressionSyntax or DeclarationExpressionSyntax)
        && !IsMethodGroup(argument.Expression, model);

    private static bool IsMethodGroup(ExpressionSyntax expression, SemanticModel model) =>
        expression is not (InvocationExpressionSyntax or ObjectCreationExpressionSyntax or ImplicitObjectCreationExpressionSyntax)
        && model.GetSymbolInfo(expression) is var info
        && (info.Symbol ?? info.CandidateSymbols.FirstOrDefault()) is IMethodSymbol;
}
