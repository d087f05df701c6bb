using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp.Syntax;
using Microsoft.CodeAnalysis.Editing;
using Microsoft.CodeAnalysis.Formatting;
using Microsoft.CodeAnalysis.Simplification;
using TplPractices.Analyzers.Internals;
using TplPractices.Analyzers.Rules;
using static Microsoft.CodeAnalysis.CSharp.SyntaxFactory;

namespace TplPractices.Analyzers.CodeFixes.Internals;

/// <summary>
/// The value of a task that is complete (or will be, once TPL0014's fix has run) in place of its await: TPL0005 in a
/// loop, TPL0014 elsewhere.
/// </summary>
internal static class CompletedValue
{
    /// <summary><c>await Task.FromResult(x)</c> → <c>x</c>; <c>await Task.CompletedTask;</c> → nothing.</summary>
    public static void UseValue(DocumentEditor editor, AwaitInLoop site)
    {
        var awaitSyntax = site.Await.Syntax;
        if (awaitSyntax.Parent is ExpressionStatementSyntax statement)
        {
            var kept = site.Value?.WithoutImplicitConversions() is { } value && AwaitInLoop.IsKeptAsStatement(value)
                    ? ExpressionStatement((ExpressionSyntax)value.Syntax.WithoutTrivia()).WithTriviaFrom(statement)
                    : null;
            if (kept is not null)
            {
                editor.ReplaceNode(statement, kept);
            }
            else if (statement.Parent is BlockSyntax)
            {
                editor.RemoveNode(statement, SyntaxRemoveOptions.KeepUnbalancedDirectives | SyntaxRemoveOptions.AddElasticMarker);
            }
            else
            {
                editor.ReplaceNode(statement, Block().WithTriviaFrom(statement).WithAdditionalAnnotations(Formatter.Annotation));
            }

            return;
        }

        if (site.Value is not { } valueOperation)
        {
            return;
        }

        var inner = valueOperation.WithoutImplicitConversions();
        var expression = ((ExpressionSyntax)inner.Syntax).WithoutTrivia();
        // A primary expression needs no parentheses, and the simplifier leaves those a cast holds.
        ExpressionSyntax replacement = expression is LiteralExpressionSyntax or IdentifierNameSyntax or MemberAccessExpressionSyntax or InvocationExpressionSyntax
            or ThisExpressionSyntax or ParenthesizedExpressionSyntax
            ? expression
            : ParenthesizedExpression(expression);
        if (site.Await.Type is { } resultType && !SymbolEqualityComparer.Default.Equals(inner.Type, resultType))
        {
            // Task.FromResult<object>(text): the await gave an object, so the value stays one.
            replacement = CastExpression((TypeSyntax)editor.Generator.TypeExpression(resultType), replacement);
        }

        editor.ReplaceNode(awaitSyntax, replacement.WithTriviaFrom(awaitSyntax).WithAdditionalAnnotations(Simplifier.Annotation));
    }
}
