using System;
using System.Collections.Immutable;
using System.Linq;
using Microsoft.CodeAnalysis;

namespace TplPractices.Analyzers.Internals;

/// <summary>
/// Where a rule reports, from the scope options in .editorconfig: only in code carrying one of the required
/// attributes, never in code carrying an excluded one, never in an excluded namespace. Checked only for a site
/// the rule would report, so a scope costs nothing on code without hits.
/// </summary>
internal sealed class RuleScope
{
    private readonly ImmutableArray<string> _requiredAttributes;
    private readonly ImmutableArray<string> _excludedAttributes;
    private readonly ImmutableArray<string> _excludedNamespaces;

    public RuleScope(ImmutableArray<string> requiredAttributes, ImmutableArray<string> excludedAttributes, ImmutableArray<string> excludedNamespaces)
    {
        _requiredAttributes = requiredAttributes;
        _excludedAttributes = excludedAttributes;
        _excludedNamespaces = excludedNamespaces;
    }

    /// <summary>Whether the options name attributes a member must carry: the rules that report only on marked members need one.</summary>
    public bool NamesRequiredAttributes => !_requiredAttributes.IsEmpty;

    private bool IsEverywhere => _requiredAttributes.IsEmpty && _excludedAttributes.IsEmpty && _excludedNamespaces.IsEmpty;

    /// <summary>Whether code in <paramref name="member"/> (the member whose body holds the site) is in scope.</summary>
    public bool Includes(ISymbol? member)
    {
        if (IsEverywhere || member is null)
        {
            return true;
        }

        if (!_excludedNamespaces.IsEmpty && IsInExcludedNamespace(member.ContainingNamespace))
        {
            return false;
        }

        var required = _requiredAttributes.IsEmpty;
        // The member, the property or event of an accessor, and every containing type, innermost first.
        for (var symbol = member; symbol is not null and not INamespaceSymbol; symbol = symbol.ContainingSymbol)
        {
            foreach (var attribute in AttributesOf(symbol))
            {
                if (Matches(_excludedAttributes, attribute))
                {
                    return false;
                }

                required |= Matches(_requiredAttributes, attribute);
            }
        }

        return required;
    }

    private static ImmutableArray<AttributeData> AttributesOf(ISymbol symbol) =>
        symbol is IMethodSymbol { AssociatedSymbol: { } owner }
            ? symbol.GetAttributes().AddRange(owner.GetAttributes())
            : symbol.GetAttributes();

    /// <summary>A configured name matches the attribute's full name, its name, or its name without "Attribute".</summary>
    private static bool Matches(ImmutableArray<string> names, AttributeData attribute)
    {
        if (names.IsEmpty || attribute.AttributeClass is not { } type)
        {
            return false;
        }

        var name = type.Name;
        var shortName = name.EndsWith("Attribute", StringComparison.Ordinal) ? name.Substring(0, name.Length - "Attribute".Length) : name;
        string? fullName = null;
        foreach (var configured in names)
        {
            if (configured.IndexOf('.') >= 0)
            {
                fullName ??= type.ToDisplayString(SymbolDisplayFormat.CSharpErrorMessageFormat.WithGenericsOptions(SymbolDisplayGenericsOptions.None));
                if (string.Equals(configured, fullName, StringComparison.Ordinal))
                {
                    return true;
                }
            }
            else if (string.Equals(configured, name, StringComparison.Ordinal) || string.Equals(configured, shortName, StringComparison.Ordinal))
            {
                return true;
            }
        }

        return false;
    }

    private bool IsInExcludedNamespace(INamespaceSymbol? ns)
    {
        if (ns is null || ns.IsGlobalNamespace)
        {
            return false;
        }

        var name = ns.ToDisplayString();
        return _excludedNamespaces.Any(excluded =>
            name.StartsWith(excluded, StringComparison.Ordinal)
            && (name.Length == excluded.Length || name[excluded.Length] == '.'));
    }
}
