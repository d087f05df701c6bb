using System;
using System.Linq;
using Microsoft.CodeAnalysis;

namespace TplPractices.Analyzers.Internals;

internal static class TypeSymbolExtensions
{
    /// <summary>True when the type mentions a type parameter of a method, which a field cannot name.</summary>
    public static bool MentionsMethodTypeParameter(this ITypeSymbol type) =>
        type.AnyPart(t => t is ITypeParameterSymbol { TypeParameterKind: TypeParameterKind.Method });

    /// <summary>True when the type or any type it is built from did not bind (half-typed code).</summary>
    public static bool ContainsErrorType(this ITypeSymbol type) => type.AnyPart(t => t.TypeKind == TypeKind.Error);

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

    /// <summary>
    /// True when <paramref name="test"/> holds for the type or any type it is built from: array elements,
    /// pointed-at types, type arguments, and the type arguments of containing types.
    /// </summary>
    private static bool AnyPart(this ITypeSymbol type, Func<ITypeSymbol, bool> test) => test(type) || type switch
    {
        IArrayTypeSymbol array => array.ElementType.AnyPart(test),
        IPointerTypeSymbol pointer => pointer.PointedAtType.AnyPart(test),
        INamedTypeSymbol named => named.TypeArguments.Any(a => a.AnyPart(test)) || (named.ContainingType?.AnyPart(test) ?? false),
        _ => false,
    };
}
