using System.Linq;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp;
using Microsoft.CodeAnalysis.CSharp.Syntax;

namespace TplPractices.Analyzers.Internals;

internal static class AutoProperties
{
    /// <summary>
    /// A property of this compilation whose getter the compiler wrote, reading its field (<c>{ get; }</c>, <c>{ get;
    /// set; }</c>, a record's positional property), and that no override can replace: reading it runs no code, as
    /// reading the field does not. Not a getter with a body (<c>field</c> keyword included), a partial, extern or
    /// abstract one, nor an indexer. A static one's first read may run its type's initializer: callers that care ask.
    /// </summary>
    public static bool IsAutoProperty(this IPropertySymbol property)
    {
        if (property.IsIndexer
            || property.IsExtern
            || property.IsAbstract
            || (property.IsVirtual || property.IsOverride) && !property.IsSealed && !property.ContainingType.IsSealed && !property.ContainingType.IsValueType
            || property.DeclaringSyntaxReferences.Length != 1)
        {
            return false;
        }

        return property.DeclaringSyntaxReferences[0].GetSyntax() switch
        {
            PropertyDeclarationSyntax { ExpressionBody: null, AccessorList.Accessors: var accessors } declaration =>
                !declaration.Modifiers.Any(SyntaxKind.PartialKeyword)
                && accessors.Any(a => a.IsKind(SyntaxKind.GetAccessorDeclaration))
                && accessors.All(a => a.Body is null && a.ExpressionBody is null),
            ParameterSyntax => property.ContainingType.IsRecord,
            _ => false,
        };
    }
}
