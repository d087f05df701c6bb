using System.Collections.Immutable;
using System.Threading;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp.Syntax;
using Microsoft.CodeAnalysis.Editing;
using Microsoft.CodeAnalysis.Formatting;
using Microsoft.CodeAnalysis.Operations;
using Microsoft.CodeAnalysis.Simplification;
using Microsoft.CodeAnalysis.Text;
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
    /// <summary>
    /// <c>await Task.FromResult(x)</c> → <c>x</c>; <c>await Task.CompletedTask;</c> → nothing. The await and the value
    /// are the nodes the analyzer found (<see cref="AwaitInLoop.ValueParts"/>): read back, not looked for again.
    /// </summary>
    public static void UseValue(DocumentEditor editor, ImmutableArray<TextSpan> parts, CancellationToken cancellationToken)
    {
        var root = editor.OriginalRoot;
        if (parts.Length == 0
            || FixSites.Part<AwaitExpressionSyntax>(root, parts[0]) is not { } awaitSyntax
            || editor.SemanticModel.GetOperation(awaitSyntax, cancellationToken) is not IAwaitOperation await)
        {
            return;
        }

        var valueOperation = parts.Length > 1 && FixSites.Part<ExpressionSyntax>(root, parts[1]) is { } valueSyntax
            ? editor.SemanticModel.GetOperation(valueSyntax, cancellationToken)
            : null;
        if (parts.Length > 1 && valueOperation is null)
        {
            return;
        }

        if (awaitSyntax.Parent is ExpressionStatementSyntax statement)
        {
            var kept = valueOperation?.WithoutImplicitConversions() is { } value && AwaitInLoop.IsKeptAsStatement(value)
                    ? ExpressionStatement((ExpressionSyntax)value.Syntax.WithoutTrivia()).WithTriviaFrom(statement)
                    : null;
            if (kept is not null)
            {
                editor.ReplaceNode(statement, kept);
            }
            else if (statement.Parent is BlockSyntax)
            {
                BlankLines.RemoveStatement(editor, statement, SyntaxRemoveOptions.KeepUnbalancedDirectives);
            }
            else
            {
                editor.ReplaceNode(statement, Block().WithTriviaFrom(statement).WithAdditionalAnnotations(Formatter.Annotation));
            }

            return;
        }

        if (valueOperation is null)
        {
            return;
        }

        var inner = valueOperation.WithoutImplicitConversions();
        var replacement = InPlaceOfAwait(editor.Generator, (ExpressionSyntax)inner.Syntax, inner.Type, await.Type);
        editor.ReplaceNode(awaitSyntax, replacement.WithTriviaFrom(awaitSyntax).WithAdditionalAnnotations(Simplifier.Annotation));
    }

    /// <summary>
    /// The value where an await gave <paramref name="resultType"/>: parenthesized unless a primary expression (the
    /// simplifier leaves the parentheses a cast holds), and cast where its own type differs (Task.FromResult&lt;object&gt;(text)
    /// gave an object, so the value stays one).
    /// </summary>
    public static ExpressionSyntax InPlaceOfAwait(SyntaxGenerator generator, ExpressionSyntax value, ITypeSymbol? valueType, ITypeSymbol? resultType)
    {
        var expression = value.WithoutTrivia();
        ExpressionSyntax replacement = expression is LiteralExpressionSyntax or IdentifierNameSyntax or MemberAccessExpressionSyntax or InvocationExpressionSyntax
            or ThisExpressionSyntax or ParenthesizedExpressionSyntax
            ? expression
            : ParenthesizedExpression(expression).WithAdditionalAnnotations(Simplifier.Annotation);
        return resultType is not null && !SymbolEqualityComparer.Default.Equals(valueType, resultType)
            ? CastExpression((TypeSyntax)generator.TypeExpression(resultType), replacement).WithAdditionalAnnotations(Simplifier.Annotation)
            : replacement;
    }
}
