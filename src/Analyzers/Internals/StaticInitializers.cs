using System.Linq;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp;
using Microsoft.CodeAnalysis.CSharp.Syntax;

namespace TplPractices.Analyzers.Internals;

/// <summary>
/// Static initializers run in text order, so one that calls into the type sees a field declared below it still null.
/// A fix that adds a static field (TPL0003's cached task) must place it above every initializer that may run the
/// type's code, and cannot where another part of a partial type holds one (the parts' order is the compiler's).
/// </summary>
internal static class StaticInitializers
{
    /// <summary>The initializer of a static field or static auto-property member, or null.</summary>
    public static ExpressionSyntax? Of(MemberDeclarationSyntax member) => member switch
    {
        FieldDeclarationSyntax field when field.Modifiers.Any(SyntaxKind.StaticKeyword) || field.Modifiers.Any(SyntaxKind.ConstKeyword)
            => field.Declaration.Variables.Select(v => v.Initializer?.Value).LastOrDefault(v => v is not null),
        PropertyDeclarationSyntax property when property.Modifiers.Any(SyntaxKind.StaticKeyword) => property.Initializer?.Value,
        _ => null,
    };

    /// <summary>
    /// Whether the initializer may run code other than the library's, read from syntax alone: any call, creation or
    /// lambda, except a cached task (<c>Task.FromResult(42)</c>, what TPL0003's fix writes).
    /// </summary>
    public static bool MayRunCode(ExpressionSyntax initializer) =>
        !IsCachedTask(initializer)
        && initializer.DescendantNodesAndSelf().Any(n => n is InvocationExpressionSyntax or BaseObjectCreationExpressionSyntax or AnonymousFunctionExpressionSyntax);

    /// <summary>
    /// Whether the initializer runs no code of the compilation's and touches no other type's statics, so the order
    /// it runs in against a new field cannot matter: a constant, a literal, <c>default</c>, <c>typeof</c>, a cached task,
    /// or a new library object (<c>new object()</c>, an empty collection) or array made of such values.
    /// </summary>
    public static bool IsInert(ExpressionSyntax initializer, SemanticModel model) => initializer switch
    {
        _ when IsCachedTask(initializer) || model.GetConstantValue(initializer).HasValue => true,
        LiteralExpressionSyntax or DefaultExpressionSyntax or TypeOfExpressionSyntax => true,
        ParenthesizedExpressionSyntax parenthesized => IsInert(parenthesized.Expression, model),
        CastExpressionSyntax cast => IsInert(cast.Expression, model),
        BaseObjectCreationExpressionSyntax creation => model.GetSymbolInfo(creation).Symbol is IMethodSymbol { Locations: var locations } && !locations.Any(l => l.IsInSource)
            && (creation.ArgumentList?.Arguments.All(a => IsInert(a.Expression, model)) ?? true)
            && (creation.Initializer?.Expressions.All(e => IsInert(e, model)) ?? true),
        ArrayCreationExpressionSyntax array => array.Initializer?.Expressions.All(e => IsInert(e, model)) ?? true,
        ImplicitArrayCreationExpressionSyntax array => array.Initializer.Expressions.All(e => IsInert(e, model)),
        _ => false,
    };

    /// <summary>What TPL0003's fix writes as a field's initializer: <c>Task.FromResult(value)</c> of a value that calls nothing.</summary>
    public static bool IsCachedTask(ExpressionSyntax initializer) =>
        initializer is InvocationExpressionSyntax
        {
            Expression: MemberAccessExpressionSyntax { Name.Identifier.ValueText: "FromResult", Expression: var type },
            ArgumentList.Arguments: { Count: 1 } arguments,
        }
        && type.ToString().EndsWith("Task", System.StringComparison.Ordinal)
        && !arguments[0].DescendantNodes().Any(n => n is InvocationExpressionSyntax or BaseObjectCreationExpressionSyntax or AnonymousFunctionExpressionSyntax);

    /// <summary>Whether a part of <paramref name="type"/> other than <paramref name="declaration"/> has a static initializer that may run code.</summary>
    public static bool OtherPartMayRunCode(INamedTypeSymbol type, TypeDeclarationSyntax declaration) =>
        type.DeclaringSyntaxReferences.Length > 1
        && type.DeclaringSyntaxReferences.Any(reference => reference.GetSyntax() is TypeDeclarationSyntax part
            && part != declaration
            && part.Members.Any(m => Of(m) is { } initializer && MayRunCode(initializer)));
}
