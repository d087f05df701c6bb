using System;
using System.Collections.Generic;
using Microsoft.CodeAnalysis;

namespace TplPractices.Analyzers.Internals;

internal static class TypeSymbolExtensions
{
    /// <summary>True when the type mentions a type parameter of a method, which a field cannot name.</summary>
    public static bool MentionsMethodTypeParameter(this ITypeSymbol type) =>
        type.AnyPart(t => t is ITypeParameterSymbol { TypeParameterKind: TypeParameterKind.Method });

    /// <summary>True when <paramref name="part"/> is the type or any type it is built from (<c>Func&lt;T, int&gt;</c> mentions T).</summary>
    public static bool Mentions(this ITypeSymbol type, ITypeSymbol part) => type.AnyPart(t => SymbolEqualityComparer.Default.Equals(t, part));

    /// <summary>True when the type or any type it is built from did not bind (half-typed code).</summary>
    public static bool ContainsErrorType(this ITypeSymbol type) => type.AnyPart(t => t.TypeKind == TypeKind.Error);

    /// <summary>
    /// True for the type <c>System.Threading.</c><paramref name="name"/>, by name part by part: no display string is
    /// built, and a type of the same name elsewhere (or one derived from it) does not count.
    /// </summary>
    public static bool IsSystemThreadingType(this ITypeSymbol? type, string name) =>
        type is { ContainingNamespace: { Name: "Threading", ContainingNamespace: { Name: "System", ContainingNamespace.IsGlobalNamespace: true } } }
        && type.Name == name;

    /// <summary>True for <paramref name="baseType"/> itself and every type derived from it.</summary>
    public static bool IsOrDerivesFrom(this ITypeSymbol? type, INamedTypeSymbol baseType)
    {
        // The name first: a string test, where the symbol comparison is several interface calls per base type.
        for (var current = type; current is not null; current = current.BaseType)
        {
            if (current.Name == baseType.Name && SymbolEqualityComparer.Default.Equals(current.OriginalDefinition, baseType))
            {
                return true;
            }
        }

        return false;
    }

    /// <summary>The members named <paramref name="name"/> of the type and of every type it derives from, nearest first.</summary>
    public static IEnumerable<ISymbol> MembersNamedInHierarchy(this ITypeSymbol type, string name)
    {
        for (var current = type; current is not null; current = current.BaseType)
        {
            foreach (var member in current.GetMembers(name))
            {
                yield return member;
            }
        }
    }

    /// <summary>
    /// True when <paramref name="test"/> holds for the type or any type it is built from: array elements,
    /// pointed-at types, type arguments, and the type arguments of containing types.
    /// </summary>
    private static bool AnyPart(this ITypeSymbol type, Func<ITypeSymbol, bool> test)
    {
        if (test(type))
        {
            return true;
        }

        switch (type)
        {
            case IArrayTypeSymbol array:
                return array.ElementType.AnyPart(test);
            case IPointerTypeSymbol pointer:
                return pointer.PointedAtType.AnyPart(test);
            case INamedTypeSymbol named:
                // A loop rather than LINQ: asked of most types a rule meets, where an enumerator and a closure per
                // call cost more than the test.
                foreach (var argument in named.TypeArguments)
                {
                    if (argument.AnyPart(test))
                    {
                        return true;
                    }
                }

                return named.ContainingType?.AnyPart(test) ?? false;
            default:
                return false;
        }
    }
}
