using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp.Syntax;

namespace TplPractices.Analyzers.Internals;

internal static class SyntaxExtensions
{
    /// <summary>
    /// True while the member around the node has syntax errors: half-typed code. Rules stay silent there,
    /// because a fix computed from a guess at the code's shape can add errors (found by FuzzTests).
    /// </summary>
    public static bool IsInBrokenMember(this SyntaxNode node) =>
        (node.FirstAncestorOrSelf<MemberDeclarationSyntax>() ?? node).ContainsDiagnostics;
}
