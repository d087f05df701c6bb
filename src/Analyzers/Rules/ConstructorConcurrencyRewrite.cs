using System.Collections.Generic;
using System.Linq;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp;
using Microsoft.CodeAnalysis.CSharp.Syntax;
using Microsoft.CodeAnalysis.Operations;
using TplPractices.Analyzers.Internals;

namespace TplPractices.Analyzers.Rules;

/// <summary>
/// Which of TPL0010's measures have an exact plain form: a lock (its body), Interlocked.Increment, Decrement, Add,
/// a discarded Exchange, Volatile.Read and Volatile.Write. Only on a field no other member of the type writes or
/// protects, so the constructor does not step out of a protocol the rest of the type follows.
/// </summary>
internal static class ConstructorConcurrencyRewrite
{
    public static bool CanRewrite(IOperation measure, IFieldSymbol field, IMethodSymbol constructor) =>
        HasPlainForm(measure) && NoOtherMemberTouches(field, constructor)
        && (!IsAssignment(measure) || field.DeclaredAccessibility != Accessibility.Private || IsReadElsewhere(field, measure));

    /// <summary>Exchange and Write become plain assignments.</summary>
    private static bool IsAssignment(IOperation measure) =>
        measure is IInvocationOperation { TargetMethod.Name: "Exchange" or "Write" };

    /// <summary>
    /// Whether the field is read somewhere other than the measure: a private field that is only ever assigned draws
    /// CS0414 (an error under TreatWarningsAsErrors), which passing it by ref did not.
    /// </summary>
    private static bool IsReadElsewhere(IFieldSymbol field, IOperation measure) =>
        Mentions(field, measure.Syntax).Any(use => !(use.Parent is AssignmentExpressionSyntax assignment
            && assignment.Left == use && assignment.IsKind(SyntaxKind.SimpleAssignmentExpression)));

    private static bool HasPlainForm(IOperation measure) => measure switch
    {
        ILockOperation => true,
        IInvocationOperation { TargetMethod: { ContainingType.Name: "Interlocked" } method } call => method.Name switch
        {
            "Increment" or "Decrement" => call.Arguments.Length == 1,
            "Add" => call.Arguments.Length == 2,
            "Exchange" => call.Arguments.Length == 2 && call.Parent is IExpressionStatementOperation,
            _ => false,
        },
        IInvocationOperation { TargetMethod: { ContainingType.Name: "Volatile" } method } call =>
            (method.Name == "Read" && call.Arguments.Length == 1) || (method.Name == "Write" && call.Arguments.Length == 2),
        _ => false,
    };

    /// <summary>
    /// True when no other member of the type writes the field or protects it: names it in a <c>lock</c>, passes it by
    /// <c>ref</c> or <c>out</c>, assigns, increments or decrements it. Plain reads elsewhere are fine. Read from the
    /// type's code in every file, by name.
    /// </summary>
    private static bool NoOtherMemberTouches(IFieldSymbol field, IMethodSymbol constructor) =>
        constructor.DeclaringSyntaxReferences.FirstOrDefault()?.GetSyntax() is { } body && !Mentions(field, body).Any(Touches);

    /// <summary>Every use of the field by name (<c>_f</c> or <c>this._f</c>) in the type's code in every file, outside <paramref name="except"/>.</summary>
    private static IEnumerable<SyntaxNode> Mentions(IFieldSymbol field, SyntaxNode except) =>
        field.ContainingType.DeclaringSyntaxReferences
            .SelectMany(reference => reference.GetSyntax().TokensNamed(field.Name, SyntaxKind.IdentifierToken))
            .Select(token => token.Parent)
            .OfType<IdentifierNameSyntax>()
            .Where(name => !(name.SyntaxTree == except.SyntaxTree && except.Span.Contains(name.Span)))
            .Select(name => name.Parent is MemberAccessExpressionSyntax { Expression: ThisExpressionSyntax } access && access.Name == name ? access : (SyntaxNode)name);

    private static bool Touches(SyntaxNode use) =>
        use.Parent switch
        {
            LockStatementSyntax => true,
            ArgumentSyntax argument => !argument.RefKindKeyword.IsKind(SyntaxKind.None),
            AssignmentExpressionSyntax assignment => assignment.Left == use,
            PrefixUnaryExpressionSyntax or PostfixUnaryExpressionSyntax => use.Parent.IsKind(SyntaxKind.PreIncrementExpression)
                || use.Parent.IsKind(SyntaxKind.PreDecrementExpression)
                || use.Parent.IsKind(SyntaxKind.PostIncrementExpression)
                || use.Parent.IsKind(SyntaxKind.PostDecrementExpression),
            _ => false,
        };
}
