using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp;
using Microsoft.CodeAnalysis.CSharp.Syntax;

namespace TplPractices.Analyzers.Tests.Gauntlet.Contexts;

/// <summary>
/// The statement that passes a site's lambda stores its own result in a variable the lambda reads
/// (<c>self = token.Register(() => { GC.KeepAlive(self); … })</c>): at the call the variable is still null, so
/// it cannot travel as the state. After the fix the lambda must still read the variable itself.
/// </summary>
internal sealed class OwnResult : GauntletContext
{
    private const string Variable = "gauntletSelf";

    public override string Name => "variable assigned by the call's own statement";

    public override Variant? Apply(GauntletCase gauntletCase, GauntletSetup setup)
    {
        var insertions = new List<(int, string)>();
        var statements = new HashSet<StatementSyntax>();
        foreach (var node in Sites.Nodes(gauntletCase))
        {
            if (node is not AnonymousFunctionExpressionSyntax lambda
                || Sites.Statement(node) is not ExpressionStatementSyntax { Parent: BlockSyntax } statement
                || statement.Expression is AssignmentExpressionSyntax
                || gauntletCase.Model.GetTypeInfo(statement.Expression).Type is not { SpecialType: not SpecialType.System_Void, TypeKind: not TypeKind.Pointer }
                || !statements.Add(statement)
                || gauntletCase.Model.GetSymbolInfo(lambda).Symbol is not IMethodSymbol symbol)
            {
                continue;
            }

            var variable = Variable + statements.Count;
            var keepAlive = $"GC.KeepAlive({variable});";
            if (lambda.Body is BlockSyntax block)
            {
                insertions.Add((block.OpenBraceToken.Span.End, " System." + keepAlive + " "));
            }
            else
            {
                var noValue = symbol.ReturnsVoid || (symbol.IsAsync && symbol.ReturnType is INamedTypeSymbol { IsGenericType: false });
                insertions.Add((lambda.Body.SpanStart, "{ System." + keepAlive + (noValue ? " " : " return ")));
                insertions.Add((lambda.Body.Span.End, "; }"));
            }

            var indent = statement.GetLeadingTrivia().LastOrDefault(t => t.IsKind(SyntaxKind.WhitespaceTrivia)).ToString();
            insertions.Add((statement.SpanStart, $"var {variable} = default(object);\n{indent}{variable} = "));
        }

        return insertions.Count == 0 ? null : Single(gauntletCase, setup, Sites.Insert(gauntletCase.Code, insertions), StillCapturedAsync);
    }

    /// <summary>Every read in the fixed code still binds to the variable outside the lambda, not to a copy from the state.</summary>
    private static async Task<string?> StillCapturedAsync(Solution original, Solution solution)
    {
        foreach (var document in solution.Projects.SelectMany(p => p.Documents))
        {
            var model = (await document.GetSemanticModelAsync())!;
            var root = await document.GetSyntaxRootAsync();
            foreach (var read in root!.DescendantNodes().OfType<IdentifierNameSyntax>().Where(n => n.Identifier.ValueText.StartsWith(Variable, StringComparison.Ordinal)))
            {
                if (model.GetSymbolInfo(read).Symbol is ILocalSymbol local
                    && local.DeclaringSyntaxReferences.FirstOrDefault()?.GetSyntax() is VariableDeclaratorSyntax { Initializer.Value: DefaultExpressionSyntax })
                {
                    continue;
                }

                return $"'{read.Identifier.ValueText}' at {read.GetLocation().GetLineSpan().StartLinePosition} in {document.Project.Name} no longer reads the variable the call's statement assigns";
            }
        }

        return null;
    }
}
