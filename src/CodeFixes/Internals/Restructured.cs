using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp.Syntax;

namespace TplPractices.Analyzers.CodeFixes.Internals;

/// <summary>The code around a site that a fix rebuilds (<see cref="RuleFixer"/>'s RestructuredNode), by its extent.</summary>
internal static class Restructured
{
    /// <summary>The function (method, accessor, local function or lambda) that holds the node.</summary>
    public static SyntaxNode? Function(SyntaxNode node) =>
        node.FirstAncestorOrSelf<SyntaxNode>(n => n is BaseMethodDeclarationSyntax or LocalFunctionStatementSyntax
            or AnonymousFunctionExpressionSyntax or AccessorDeclarationSyntax or PropertyDeclarationSyntax);

    /// <summary>The statement that holds the node, or the node where it is in none (an expression body).</summary>
    public static SyntaxNode Statement(SyntaxNode node) => (SyntaxNode?)node.FirstAncestorOrSelf<StatementSyntax>() ?? node;
}
