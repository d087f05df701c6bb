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
