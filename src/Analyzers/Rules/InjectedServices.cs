using System.Linq;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp;
using Microsoft.CodeAnalysis.CSharp.Syntax;
using TplPractices.Analyzers.Internals;

namespace TplPractices.Analyzers.Rules;

/// <summary>
/// TPL0016's option <c>trust_injected_services</c> (off by default): a call on a service the type was given cannot
/// fail on its receiver. A service here is a <c>readonly</c> instance field that every constructor sets, from a
/// parameter that is checked for null (<c>?? throw</c>, <c>ThrowIfNull</c>, <c>if (p is null) throw</c>) or declared
/// non-nullable under nullable warnings, or from a <c>new</c> expression in its initializer. What the option accepts on
/// top is the callee: any method of such a service, interface methods included, is taken to put its exceptions in
/// its task, as AsyncFixer01 takes every callee; a plain implementation that validates its arguments first would
/// throw at the call instead.
/// </summary>
internal static class InjectedServices
{
    public static readonly NumberOption TrustOption = new("trust_injected_services", 0, 0, 1);

    /// <summary>Whether every constructor of the field's type leaves it holding a non-null value.</summary>
    public static bool IsNeverNull(IFieldSymbol field)
    {
        if (!field.IsReadOnly || field.IsStatic || field.DeclaringSyntaxReferences.Length != 1
            || field.DeclaringSyntaxReferences[0].GetSyntax() is not VariableDeclaratorSyntax declarator)
        {
            return false;
        }

        if (declarator.Initializer?.Value is BaseObjectCreationExpressionSyntax)
        {
            return true;
        }

        var constructors = field.ContainingType.InstanceConstructors;
        return !constructors.IsEmpty && constructors.All(c => SetsFromCheckedParameter(c, field.Name, declarator.Initializer?.Value));
    }

    /// <summary>
    /// The constructor chains to another of this type (which is checked in its turn), or assigns the field only from
    /// parameters that cannot be null; a primary constructor counts through the field's initializer.
    /// </summary>
    private static bool SetsFromCheckedParameter(IMethodSymbol constructor, string field, ExpressionSyntax? initializer)
    {
        if (constructor.IsImplicitlyDeclared || constructor.DeclaringSyntaxReferences.Length != 1)
        {
            return false;
        }

        switch (constructor.DeclaringSyntaxReferences[0].GetSyntax())
        {
            case ConstructorDeclarationSyntax { Initializer: { } chained } when chained.ThisOrBaseKeyword.IsKind(SyntaxKind.ThisKeyword):
                return true;
            case ConstructorDeclarationSyntax declaration:
                var assignments = declaration.DescendantNodes().OfType<AssignmentExpressionSyntax>().Where(a => Names(a.Left, field)).ToList();
                return assignments.Count > 0 && assignments.All(a => IsNonNullParameter(a.Right, constructor, declaration));
            case TypeDeclarationSyntax:
                return initializer is not null && IsNonNullParameter(initializer, constructor, null);
            default:
                return false;
        }
    }

    private static bool Names(ExpressionSyntax target, string field) => target switch
    {
        IdentifierNameSyntax name => name.Identifier.ValueText == field,
        MemberAccessExpressionSyntax { Expression: ThisExpressionSyntax, Name: var name } => name.Identifier.ValueText == field,
        _ => false,
    };

    /// <summary><c>p ?? throw …</c>; or <c>p</c> where <c>p</c> is non-nullable under nullable warnings or checked in the body.</summary>
    private static bool IsNonNullParameter(ExpressionSyntax value, IMethodSymbol constructor, ConstructorDeclarationSyntax? body)
    {
        if (value is BinaryExpressionSyntax { RawKind: (int)SyntaxKind.CoalesceExpression, Left: IdentifierNameSyntax checkedName, Right: ThrowExpressionSyntax })
        {
            return Parameter(constructor, checkedName) is not null;
        }

        return value is IdentifierNameSyntax name
            && Parameter(constructor, name) is { } parameter
            && (parameter.Type.IsReferenceType && parameter.NullableAnnotation == NullableAnnotation.NotAnnotated
                || body is not null && IsCheckedIn(body, parameter.Name));
    }

    private static IParameterSymbol? Parameter(IMethodSymbol constructor, IdentifierNameSyntax name) =>
        constructor.Parameters.FirstOrDefault(p => p.Name == name.Identifier.ValueText);

    /// <summary><c>ThrowIfNull(p)</c>, or <c>if (p is null)</c> / <c>if (p == null)</c> with a throw, anywhere in the body.</summary>
    private static bool IsCheckedIn(ConstructorDeclarationSyntax body, string parameter) =>
        body.DescendantNodes().Any(n => n switch
        {
            InvocationExpressionSyntax { Expression: MemberAccessExpressionSyntax { Name.Identifier.ValueText: "ThrowIfNull" }, ArgumentList.Arguments: { Count: > 0 } arguments } =>
                arguments[0].Expression is IdentifierNameSyntax argument && argument.Identifier.ValueText == parameter,
            IfStatementSyntax { Condition: var condition, Statement: var then } =>
                IsNullTest(condition, parameter) && then.DescendantNodesAndSelf().Any(t => t is ThrowStatementSyntax),
            _ => false,
        });

    private static bool IsNullTest(ExpressionSyntax condition, string parameter) => condition switch
    {
        IsPatternExpressionSyntax { Expression: IdentifierNameSyntax name, Pattern: ConstantPatternSyntax { Expression: LiteralExpressionSyntax literal } } =>
            name.Identifier.ValueText == parameter && literal.IsKind(SyntaxKind.NullLiteralExpression),
        BinaryExpressionSyntax { RawKind: (int)SyntaxKind.EqualsExpression, Left: IdentifierNameSyntax name, Right: LiteralExpressionSyntax literal } =>
            name.Identifier.ValueText == parameter && literal.IsKind(SyntaxKind.NullLiteralExpression),
        _ => false,
    };
}
