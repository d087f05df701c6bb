using System.Linq;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp;
using Microsoft.CodeAnalysis.CSharp.Syntax;
using Microsoft.CodeAnalysis.Operations;

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
        field.ContainingType.DeclaringSyntaxReferences.Any(reference => reference.GetSyntax().DescendantNodes().OfType<IdentifierNameSyntax>().Any(name =>
            name.Identifier.ValueText == field.Name
            && !(name.SyntaxTree == measure.Syntax.SyntaxTree && measure.Syntax.Span.Contains(name.Span))
            && !IsAssignmentTarget(name)));

    private static bool IsAssignmentTarget(IdentifierNameSyntax name)
    {
        SyntaxNode use = name.Parent is MemberAccessExpressionSyntax { Expression: ThisExpressionSyntax } access && access.Name == name ? access : name;
        return use.Parent is AssignmentExpressionSyntax assignment && assignment.Left == use && assignment.IsKind(SyntaxKind.SimpleAssignmentExpression);
    }

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
    private static bool NoOtherMemberTouches(IFieldSymbol field, IMethodSymbol constructor)
    {
        var body = constructor.DeclaringSyntaxReferences.FirstOrDefault();
        if (body is null)
        {
            return false;
        }

        foreach (var reference in field.ContainingType.DeclaringSyntaxReferences)
        {
            foreach (var name in reference.GetSyntax().DescendantNodes().OfType<IdentifierNameSyntax>())
            {
                if (name.Identifier.ValueText == field.Name
                    && !(name.SyntaxTree == body.SyntaxTree && body.Span.Contains(name.Span))
                    && Touches(name))
                {
                    return false;
                }
            }
        }

        return true;
    }

    private static bool Touches(IdentifierNameSyntax name)
    {
        // this._f counts as _f.
        SyntaxNode use = name.Parent is MemberAccessExpressionSyntax { Expression: ThisExpressionSyntax } access && access.Name == name ? access : name;
        return use.Parent switch
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
}
