using System.Linq;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp.Syntax;

namespace TplPractices.Analyzers.Internals;

internal static class SyntaxExtensions
{
    /// <summary>
    /// Whether a preprocessor directive lies inside the node (not in the trivia before it): code in a branch another
    /// target compiles, which a fix cannot see from this one.
    /// </summary>
    public static bool HasDirectiveInside(this SyntaxNode node) =>
        node.ContainsDirectives && node.DescendantTrivia().Any(t => t.IsDirective && node.Span.Contains(t.Span));

    /// <summary>
    /// True while the member around the node, or the header of a type around it, has syntax errors:
    /// half-typed code. Rules stay silent there, because a fix computed from a guess at the code's shape can
    /// add errors (found by FuzzTests). Errors in other members of the type do not count.
    /// </summary>
    public static bool IsInBrokenMember(this SyntaxNode node) =>
        (node.FirstAncestorOrSelf<MemberDeclarationSyntax>() ?? node).ContainsDiagnostics
        || node.Ancestors().OfType<TypeDeclarationSyntax>().Any(HasBrokenHeader);

    /// <summary>
    /// True when the code declares out vars or pattern variables: moved into another scope by a fix (a
    /// lambda's body inlined, say), their names could clash with the new scope's.
    /// </summary>
    public static bool DeclaresVariables(this SyntaxNode node) =>
        node.DescendantNodesAndSelf().Any(n => n is SingleVariableDesignationSyntax);

    private static bool HasBrokenHeader(TypeDeclarationSyntax type) =>
        type.Identifier.IsMissing
        || type.OpenBraceToken.IsMissing
        || type.TypeParameterList?.ContainsDiagnostics == true
        || type.BaseList?.ContainsDiagnostics == true
        || type.ConstraintClauses.Any(c => c.ContainsDiagnostics);
}
