using System.Collections.Immutable;
using System.Linq;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp;
using Microsoft.CodeAnalysis.CSharp.Syntax;
using Microsoft.CodeAnalysis.Operations;
using TplPractices.Analyzers.Internals;

namespace TplPractices.Analyzers.Rules;

/// <summary>
/// TPL0013: code that relies on a source's continuations running inside its completion. A completer that reads a
/// task's state right after completing a source (<c>_read.TrySetResult(n); if (_reader.IsCompleted) …</c>) sees the
/// awaiting code finished only while it runs inline; with <c>RunContinuationsAsynchronously</c> it is merely queued, and
/// the check fails. Read from the syntax of the code that can complete the source: its function for a local, its type
/// for a field. Asked only for a site about to be reported.
/// </summary>
internal static class CompletionReliance
{
    private static readonly ImmutableHashSet<string> CompletionNames = ImmutableHashSet.Create(
        "SetResult", "TrySetResult", "SetException", "TrySetException", "SetCanceled", "TrySetCanceled", "SetFromTask", "TrySetFromTask");

    private static readonly ImmutableHashSet<string> StateNames = ImmutableHashSet.Create(
        "IsCompleted", "IsCompletedSuccessfully", "IsFaulted", "IsCanceled", "Status");

    /// <summary>True where some completion of the source named <paramref name="name"/> in <paramref name="scope"/> is followed, in its member, by a read of a task's state.</summary>
    public static bool IsReliedOn(string name, SyntaxNode scope)
    {
        foreach (var node in scope.DescendantNodes())
        {
            if (node is InvocationExpressionSyntax { Expression: var callee } completion
                && NameAndReceiver(callee) is ({ } method, { } receiver)
                && CompletionNames.Contains(method)
                && Names(receiver, name)
                && EnclosingBody(completion) is { } body
                && body.DescendantNodes(n => true).Any(n => n.SpanStart >= completion.Span.End && IsStateRead(n)))
            {
                return true;
            }
        }

        return false;
    }

    /// <summary>Where the completions of a field's source can be: every declaration of its type.</summary>
    public static bool IsReliedOn(IFieldSymbol field) =>
        field.ContainingType.DeclaringSyntaxReferences.Any(r => IsReliedOn(field.Name, r.GetSyntax()));

    /// <summary>The local or field a creation is stored into, where the rule can follow its completions.</summary>
    public static bool IsReliedOn(IObjectCreationOperation creation)
    {
        var value = creation.WithImplicitConversionsAround();
        return value.Parent switch
        {
            IVariableInitializerOperation { Parent: IVariableDeclaratorOperation declarator } => IsReliedOn(declarator.Symbol.Name, declarator.Root().Syntax),
            ISimpleAssignmentOperation { Target: ILocalReferenceOperation local } => IsReliedOn(local.Local.Name, local.Root().Syntax),
            ISimpleAssignmentOperation { Target: IFieldReferenceOperation field } => IsReliedOn(field.Field),
            IFieldInitializerOperation initializer => initializer.InitializedFields.Any(IsReliedOn),
            _ => false,
        };
    }

    private static (string?, ExpressionSyntax?) NameAndReceiver(ExpressionSyntax callee) => callee switch
    {
        MemberAccessExpressionSyntax access => (access.Name.Identifier.ValueText, access.Expression),
        MemberBindingExpressionSyntax binding when binding.Parent?.Parent is ConditionalAccessExpressionSyntax conditional =>
            (binding.Name.Identifier.ValueText, conditional.Expression),
        _ => (null, null),
    };

    /// <summary><c>name</c>, <c>this.name</c>, <c>(name)</c>, or <c>name!</c>.</summary>
    private static bool Names(ExpressionSyntax receiver, string name) => receiver switch
    {
        IdentifierNameSyntax identifier => identifier.Identifier.ValueText == name,
        MemberAccessExpressionSyntax { Expression: ThisExpressionSyntax, Name: var member } => member.Identifier.ValueText == name,
        ParenthesizedExpressionSyntax parenthesized => Names(parenthesized.Expression, name),
        PostfixUnaryExpressionSyntax { RawKind: (int)SyntaxKind.SuppressNullableWarningExpression } suppressed => Names(suppressed.Operand, name),
        _ => false,
    };

    private static SyntaxNode? EnclosingBody(SyntaxNode node) =>
        node.FirstAncestorOrSelf<SyntaxNode>(n => n is BaseMethodDeclarationSyntax or AccessorDeclarationSyntax or LocalFunctionStatementSyntax
            or AnonymousFunctionExpressionSyntax or GlobalStatementSyntax);

    private static bool IsStateRead(SyntaxNode node) =>
        node is MemberAccessExpressionSyntax { Name.Identifier.ValueText: var member } && StateNames.Contains(member)
        || node is MemberBindingExpressionSyntax { Name.Identifier.ValueText: var bound } && StateNames.Contains(bound);
}
