using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp;
using Microsoft.CodeAnalysis.CSharp.Syntax;
using Microsoft.CodeAnalysis.Editing;
using Microsoft.CodeAnalysis.Formatting;
using Microsoft.CodeAnalysis.Operations;

namespace TplPractices.Analyzers.CodeFixes.Internals;

/// <summary>
/// An expression body that a fix turns into a block, to put statements before what the body did: a method's or a
/// local function's arrow body, or a lambda's. The block ends as the body did (a comment after the semicolon moves
/// after the closing brace), and the formatter lays it out.
/// </summary>
internal static class ExpressionBodies
{
    /// <summary>
    /// Whether the body returns its value (<c>Task&lt;int&gt; M() =&gt; …</c>), or is run as a statement (a function
    /// of <c>void</c> or of <c>Task</c> marked <c>async</c>): what the block's last statement does with it.
    /// </summary>
    public static bool Returns(SemanticModel model, ExpressionSyntax body) => model.GetOperation(body)?.Parent is IReturnOperation;

    /// <summary>The body itself as the block's last statement: <c>return body;</c> or <c>body;</c>.</summary>
    public static StatementSyntax AsStatement(ExpressionSyntax body, bool returns) =>
        returns ? SyntaxFactory.ReturnStatement(body.WithoutTrivia()) : SyntaxFactory.ExpressionStatement(body.WithoutTrivia());

    /// <summary>The function whose expression body <paramref name="body"/> is takes <paramref name="block"/> in its place.</summary>
    public static void ReplaceWithBlock(DocumentEditor editor, ExpressionSyntax body, BlockSyntax block)
    {
        switch (body.Parent)
        {
            case ArrowExpressionClauseSyntax { Parent: MethodDeclarationSyntax method }:
                editor.ReplaceNode(method, method.WithExpressionBody(null).WithSemicolonToken(default)
                    .WithParameterList(method.ParameterList.WithoutTrailingTrivia())
                    .WithBody(block.WithTrailingTrivia(method.SemicolonToken.TrailingTrivia))
                    .WithAdditionalAnnotations(Formatter.Annotation));
                break;
            case ArrowExpressionClauseSyntax { Parent: LocalFunctionStatementSyntax function }:
                editor.ReplaceNode(function, function.WithExpressionBody(null).WithSemicolonToken(default)
                    .WithParameterList(function.ParameterList.WithoutTrailingTrivia())
                    .WithBody(block.WithTrailingTrivia(function.SemicolonToken.TrailingTrivia))
                    .WithAdditionalAnnotations(Formatter.Annotation));
                break;
            case AnonymousFunctionExpressionSyntax lambda:
                editor.ReplaceNode(lambda, lambda.WithExpressionBody(null).WithBlock(block.WithTriviaFrom(body)).WithAdditionalAnnotations(Formatter.Annotation));
                break;
        }
    }
}
