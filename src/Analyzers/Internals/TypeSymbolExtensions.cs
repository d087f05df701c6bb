using System.Linq;
using Microsoft.CodeAnalysis;

namespace TplPractices.Analyzers.Internals;

internal static class TypeSymbolExtensions
{
    /// <summary>True when the type mentions a type parameter of a method, which a field cannot name.</summary>
    public static bool MentionsMethodTypeParameter(this ITypeSymbol type) => type switch
    {
        ITypeParameterSymbol parameter => parameter.TypeParameterKind == TypeParameterKind.Method,
        IArrayTypeSymbol array => array.ElementType.MentionsMethodTypeParameter(),
        IPointerTypeSymbol pointer => pointer.PointedAtType.MentionsMethodTypeParameter(),
        INamedTypeSymbol named => AnyMentions(named),
        _ => false,
    };

    /// <summary>True when the type or any type it is built from did not bind (half-typed code).</summary>
    public static bool ContainsErrorType(this ITypeSymbol type) => type switch
    {
        { TypeKind: TypeKind.Error } => true,
        IArrayTypeSymbol array => array.ElementType.ContainsErrorType(),
        INamedTypeSymbol named => named.TypeArguments.Any(a => a.ContainsErrorType()),
        _ => false,
    };

    /// <summary>True for <paramref name="baseType"/> itself and every type derived from it.</summary>
    public static bool IsOrDerivesFrom(this ITypeSymbol? type, INamedTypeSymbol baseType)
    {
        for (var current = type; current is not null; current = current.BaseType)
        {
            if (SymbolEqualityComparer.Default.Equals(current.OriginalDefinition, baseType))
            {
                return true;
            }
        }

        return false;
    }

    private static bool AnyMentions(INamedTypeSymbol named)
    {
        foreach (var argument in named.TypeArguments)
        {
            if (argument.MentionsMethodTypeParameter())
            {
                return true;
            }
        }

        return named.ContainingType is { } outer && AnyMentions(outer);
    }
}
