using System.Collections.Immutable;
using System.Text;
using TplPractices.Analyzers.Catalog;

namespace TplPractices.Analyzers.Tests.Verifiers;

/// <summary>The rule lists the tests need, read from the catalog so that a new rule joins every one of them.</summary>
internal static class CatalogRules
{
    /// <summary>Every rule ID, in order.</summary>
    public static readonly ImmutableArray<string> Ids = RuleCatalog.All.Select(e => e.Id).ToImmutableArray();

    /// <summary>The rules that run as warnings unless configured otherwise.</summary>
    public static readonly ImmutableArray<string> Warnings = RuleCatalog.All.Where(e => e.ShipsAsWarning).Select(e => e.Id).ToImmutableArray();

    /// <summary>The rules that are off or suggestions by default, which a command-line build does not print.</summary>
    public static readonly ImmutableArray<string> BelowWarning = RuleCatalog.All.Where(e => !e.ShipsAsWarning).Select(e => e.Id).ToImmutableArray();

    /// <summary>The rules reported without a fix.</summary>
    public static readonly ImmutableArray<string> ReportOnly = RuleCatalog.All.Where(e => e.Rewrites == FixTargets.None).Select(e => e.Id).ToImmutableArray();

    /// <summary>
    /// An .editorconfig that raises every rule below a warning to one; with <paramref name="hotAttribute"/>, TPL0012
    /// (which speaks only on members marked with an attribute the user names) looks at members marked with it.
    /// </summary>
    public static string EveryRuleOn(string? hotAttribute = null)
    {
        var text = new StringBuilder("root = true\n[*.cs]\n");
        foreach (var id in BelowWarning)
        {
            text.Append("dotnet_diagnostic.").Append(id).Append(".severity = warning\n");
        }

        if (hotAttribute is not null)
        {
            text.Append("tpl_practices.").Append(DiagnosticIds.HotPathInlining).Append(".required_attributes = ").Append(hotAttribute).Append('\n');
        }

        return text.ToString();
    }
}
