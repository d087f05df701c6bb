using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp;
using TplPractices.Analyzers.Tests.Verifiers;

namespace TplPractices.Analyzers.Tests.Rules;

/// <summary>
/// The state rules skip a captured mutable struct, judged by the type's <c>readonly</c> mark. Older reference
/// assemblies leave off marks that modern .NET has, for types that behave the same everywhere; the list that makes
/// them readonly on every target must hold every such type, or a rule would report on one target and not another.
/// </summary>
public sealed class ReadOnlyBclStructsTests
{
    [Fact]
    public void EveryStructReadOnlyOnNet100ButNotOnNetStandard20_IsListed()
    {
        var older = Compilation(TestTarget.NetStandard20);
        var modern = Compilation(TestTarget.Net100);
        var missing = PublicStructs(older.GlobalNamespace)
            .Where(s => !s.IsReadOnly && !s.IsRefLikeType && s.SpecialType == SpecialType.None)
            .Where(s => modern.GetTypeByMetadataName(MetadataName(s)) is { IsReadOnly: true })
            .Select(s => s.OriginalDefinition.ToDisplayString(new SymbolDisplayFormat(
                typeQualificationStyle: SymbolDisplayTypeQualificationStyle.NameAndContainingTypesAndNamespaces,
                genericsOptions: SymbolDisplayGenericsOptions.None)))
            .Where(name => !WellKnownTypeNames.ReadOnlyBclStructs.Contains(name))
            .Distinct()
            .Order(StringComparer.Ordinal)
            .ToList();
        Assert.True(missing.Count == 0, "Readonly on net10.0 only by annotation, missing from WellKnownTypeNames.ReadOnlyBclStructs: " + string.Join(", ", missing));
    }

    private static CSharpCompilation Compilation(TestTarget target) =>
        CSharpCompilation.Create("Probe", references: target.References());

    private static IEnumerable<INamedTypeSymbol> PublicStructs(INamespaceSymbol ns)
    {
        foreach (var member in ns.GetMembers())
        {
            if (member is INamespaceSymbol inner)
            {
                foreach (var type in PublicStructs(inner))
                {
                    yield return type;
                }
            }
            else if (member is INamedTypeSymbol type)
            {
                foreach (var nested in WithNested(type))
                {
                    yield return nested;
                }
            }
        }
    }

    private static IEnumerable<INamedTypeSymbol> WithNested(INamedTypeSymbol type)
    {
        if (type.DeclaredAccessibility != Accessibility.Public)
        {
            yield break;
        }

        if (type.TypeKind == TypeKind.Struct)
        {
            yield return type;
        }

        foreach (var nested in type.GetTypeMembers().SelectMany(WithNested))
        {
            yield return nested;
        }
    }

    private static string MetadataName(INamedTypeSymbol type) =>
        type.ContainingType is { } outer ? MetadataName(outer) + "+" + type.MetadataName : type.ContainingNamespace.ToDisplayString() + "." + type.MetadataName;
}
