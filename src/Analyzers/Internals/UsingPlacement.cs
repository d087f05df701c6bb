using System.Linq;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp;
using Microsoft.CodeAnalysis.CSharp.Syntax;

namespace TplPractices.Analyzers.Internals;

/// <summary>
/// Where a source a fix adds can go: a using declaration before the statement (C# 8, not directly in a switch section),
/// or else a using block around it, which must hide nothing the code after it reads. A local the statement declares is
/// then declared first, without its value, for the block to assign (<c>Task first; using (…) { first = await …; }</c>;
/// the fix layer writes it, <c>DeclaredApart</c> and <c>UsingBlocks</c>).
/// </summary>
internal static class UsingPlacement
{
    /// <summary>A using declaration can stand before the statement: C# 8, and not directly in a switch section (CS8647).</summary>
    public static bool DeclarationFits(SyntaxNode statement) =>
        statement.Parent is not SwitchSectionSyntax && ((CSharpParseOptions)statement.SyntaxTree.Options).LanguageVersion >= LanguageVersion.CSharp8;

    /// <summary>
    /// A using block can hold the statement: it declares no variable in an expression, and a local it declares is one the
    /// fix can declare first (<see cref="CanSplit"/>).
    /// </summary>
    public static bool BlockFits(SyntaxNode statement, SemanticModel? model) =>
        DeclaresNoExpressionVariable(statement)
        && (statement is not LocalDeclarationStatementSyntax declaration || CanSplit(declaration, model));

    /// <summary>
    /// One local, without <c>const</c>, <c>using</c>, <c>ref</c> or <c>scoped</c>, of a type the fix can write: the one
    /// declared, or for <c>var</c> the local's own type, whose type arguments carry no <c>?</c> where annotations are off
    /// (written there, it would warn; the fix leaves out the local's own one).
    /// </summary>
    private static bool CanSplit(LocalDeclarationStatementSyntax declaration, SemanticModel? model)
    {
        if (declaration.Modifiers.Count != 0
            || declaration.UsingKeyword.RawKind != 0
            || declaration.Declaration is not { Variables.Count: 1, Type: var type }
            || type is RefTypeSyntax or ScopedTypeSyntax)
        {
            return false;
        }

        return !type.IsVar
            || model?.GetDeclaredSymbol(declaration.Declaration.Variables[0]) is ILocalSymbol { Type: { } local }
                && Writable(local, model.GetNullableContext(declaration.SpanStart).AnnotationsEnabled());
    }

    /// <summary>A type a declaration can name: no anonymous or error type in it, and no <c>?</c> inside where annotations are off.</summary>
    private static bool Writable(ITypeSymbol type, bool annotations) => type switch
    {
        { IsAnonymousType: true } or IErrorTypeSymbol => false,
        INamedTypeSymbol named => named.TypeArguments.All(a => (annotations || a.NullableAnnotation != NullableAnnotation.Annotated) && Writable(a, annotations)),
        IArrayTypeSymbol array => (annotations || array.ElementType.NullableAnnotation != NullableAnnotation.Annotated) && Writable(array.ElementType, annotations),
        _ => true,
    };

    /// <summary>
    /// Whether the statement declares no variable in an expression (<c>out var x</c>, <c>is T t</c>) outside a lambda or
    /// local function: such a variable is in scope after the statement, and a using block around it would hide it.
    /// </summary>
    private static bool DeclaresNoExpressionVariable(SyntaxNode statement) =>
        !statement.DescendantNodes(n => n is not (AnonymousFunctionExpressionSyntax or LocalFunctionStatementSyntax))
            .Any(n => n is SingleVariableDesignationSyntax or DeclarationExpressionSyntax);
}
