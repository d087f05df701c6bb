using System.Text.RegularExpressions;
using TplPractices.Analyzers.Catalog;
using TplPractices.Analyzers.Tests.Verifiers;

namespace TplPractices.Analyzers.Tests.Meta;

/// <summary>
/// The catalog (src/Analyzers/Catalog/RuleCatalog.cs) is the one list of rules: every rule's analyzer is in it, every
/// entry has the files a rule needs, and the lists outside it that users read (the readmes' rule tables) agree with it.
/// The other lists derive from it: the shared analyzers, the presets (PackageTests), the tests' rule sets
/// (<see cref="CatalogRules"/>) and the scripts' (which read the generated presets).
/// </summary>
public sealed class CatalogTests
{
    private static readonly string Root = Repository.Root;

    [Fact]
    public void EveryRuleAnalyzer_IsInTheCatalog_UnderItsName()
    {
        var analyzers = Repository.RuleAnalyzers().ToDictionary(a => a.SupportedDiagnostics.Single().Id, a => a.GetType().Name);
        var missing = analyzers.Keys.Except(CatalogRules.Ids).ToList();
        Assert.True(missing.Count == 0, "rules whose analyzer is not in the catalog: " + string.Join(", ", missing));
        Assert.All(RuleCatalog.All, entry => Assert.Equal(entry.Name + "Analyzer", analyzers[entry.Id]));
        Assert.Equal(CatalogRules.Ids.OrderBy(id => id, StringComparer.Ordinal), CatalogRules.Ids);
        Assert.Equal(CatalogRules.Ids.Distinct(), CatalogRules.Ids);
        Assert.Equal(typeof(DiagnosticIds).GetFields().Select(f => (string)f.GetRawConstantValue()!).OrderBy(id => id, StringComparer.Ordinal), CatalogRules.Ids);
    }

    /// <summary>A catalog entry without a page, sample, benchmark, tests or release line fails here, naming what is missing.</summary>
    [Fact]
    public void EveryEntry_HasTheFilesOfARule()
    {
        var fixers = Repository.Fixers();
        var released = File.ReadAllLines(Path.Combine(Root, "src", "Analyzers", "AnalyzerReleases.Shipped.md"))
            .Concat(File.ReadAllLines(Path.Combine(Root, "src", "Analyzers", "AnalyzerReleases.Unshipped.md")));
        var missing = new List<string>();
        foreach (var entry in RuleCatalog.All)
        {
            void Need(bool present, string what)
            {
                if (!present)
                {
                    missing.Add($"{entry.Id} ({entry.Name}): {what}");
                }
            }

            Need(File.Exists(Path.Combine(Root, "docs", "rules", entry.Id + ".md")), $"docs/rules/{entry.Id}.md");
            Need(File.Exists(Path.Combine(Root, "samples", "TplPractices.Samples", $"{entry.Id}_{entry.Name}.cs")), $"samples/TplPractices.Samples/{entry.Id}_{entry.Name}.cs");
            Need(File.Exists(Path.Combine(Root, "benchmarks", "TplPractices.Benchmarks", "Rules", $"{entry.Id}_{entry.Name}Benchmarks.cs")), $"benchmarks/TplPractices.Benchmarks/Rules/{entry.Id}_{entry.Name}Benchmarks.cs");
            Need(File.Exists(Path.Combine(Root, "tests", "TplPractices.Analyzers.Tests", "Rules", entry.Name + "Tests.cs")), $"tests/TplPractices.Analyzers.Tests/Rules/{entry.Name}Tests.cs");
            Need(released.Any(line => line.StartsWith(entry.Id + " ", StringComparison.Ordinal)), "a release-tracking line");
            Need(fixers.ContainsKey(entry.Id) == (entry.Rewrites != FixTargets.None), entry.Rewrites == FixTargets.None ? "no fixer (the catalog says it rewrites nothing)" : "a fixer for what the catalog says it rewrites");
        }

        Assert.True(missing.Count == 0, "missing: " + string.Join("; ", missing));
    }

    [Fact]
    public void GivingWay_NamesOtherRulesOfTheCatalog_AndNeverBothWays()
    {
        Assert.All(RuleCatalog.All, entry =>
        {
            Assert.DoesNotContain(entry.Id, entry.GivesWayTo);
            Assert.All(entry.GivesWayTo, other =>
            {
                Assert.Contains(other, CatalogRules.Ids);
                Assert.DoesNotContain(entry.Id, RuleCatalog.All.Single(e => e.Id == other).GivesWayTo);
            });
        });
    }

    /// <summary>The README's and the package readme's tables have one row per rule of the catalog and none other.</summary>
    [Theory]
    [InlineData("README.md")]
    [InlineData("src/Package/PackageReadme.md")]
    public void ReadmeRuleTable_HasExactlyTheCatalogsRules(string readme)
    {
        var rows = File.ReadAllLines(Path.Combine(Root, readme))
            .Select(line => Regex.Match(line, @"^\| \[(TPL\d{4})\]"))
            .Where(m => m.Success)
            .Select(m => m.Groups[1].Value)
            .ToList();
        Assert.Equal(CatalogRules.Ids, rows);
    }

    /// <summary>
    /// The README's fix column says where the fix is offered, as the fixer does: "Fix All" (light bulb, Fix All and
    /// dotnet format), "Light bulb only" (a fixer without Fix All), or "None" (a rule the catalog says rewrites nothing).
    /// </summary>
    [Fact]
    public void ReadmeFixColumn_SaysWhereTheFixIsOffered()
    {
        var fixers = Repository.Fixers();
        var readme = File.ReadAllLines(Path.Combine(Root, "README.md"));
        Assert.All(RuleCatalog.All, entry =>
        {
            var cells = readme.Single(line => line.StartsWith($"| [{entry.Id}]", StringComparison.Ordinal)).Split('|').Select(c => c.Trim()).ToArray();
            var expected = !fixers.TryGetValue(entry.Id, out var fixer) ? "None"
                : fixer.GetFixAllProvider() is null ? "Light bulb only"
                : "Fix All";
            Assert.Equal(expected, cells[4]);
        });
    }

    /// <summary>The samples raise every rule through the generated all-warnings preset, not a list of their own.</summary>
    [Fact]
    public void Samples_RaiseEveryRuleThroughThePreset()
    {
        var project = File.ReadAllText(Path.Combine(Root, "samples", "TplPractices.Samples", "TplPractices.Samples.csproj"));
        Assert.Contains("all-warnings.globalconfig", project, StringComparison.Ordinal);
        var editorConfig = File.ReadAllText(Path.Combine(Root, "samples", "TplPractices.Samples", ".editorconfig"));
        Assert.DoesNotContain(".severity", editorConfig, StringComparison.Ordinal);
    }
}
