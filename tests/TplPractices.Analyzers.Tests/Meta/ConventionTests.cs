using System.Collections.Immutable;
using System.Composition;
using System.Reflection;
using System.Text.RegularExpressions;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CodeFixes;
using Microsoft.CodeAnalysis.Diagnostics;
using TplPractices.Analyzers.CodeFixes.Rules;
using TplPractices.Analyzers.Rules;
using TplPractices.Analyzers.Tests.Verifiers;

namespace TplPractices.Analyzers.Tests.Meta;

/// <summary>
/// The conventions every rule follows, checked by reflection over the shipped assemblies: its docs page and the
/// page's sections, release tracking, the README table, a sample and a benchmark. Help links: PackageTests.
/// </summary>
public sealed class ConventionTests
{
    private static readonly string Root = Repository.Root;

    private static readonly ImmutableArray<DiagnosticAnalyzer> Analyzers = Repository.Analyzers();

    private static readonly ImmutableArray<Type> Fixers = typeof(CacheConstantTaskResultFixer).Assembly
        .GetTypes()
        .Where(t => !t.IsAbstract && typeof(CodeFixProvider).IsAssignableFrom(t))
        .ToImmutableArray();

    /// <summary>Every rule of the catalog (CatalogTests checks that every analyzer's rule is in it).</summary>
    public static TheoryData<string> RuleIds()
    {
        var data = new TheoryData<string>();
        foreach (var id in Verifiers.CatalogRules.Ids)
        {
            data.Add(id);
        }

        return data;
    }

    [Fact]
    public void EveryDeclaredId_IsUsedByExactlyOneDescriptor()
    {
        var declared = typeof(DiagnosticIds).GetFields().Select(f => (string)f.GetRawConstantValue()!).ToList();
        var used = Repository.RuleAnalyzers().SelectMany(a => a.SupportedDiagnostics).Select(d => d.Id).ToList();
        Assert.Equal(declared.OrderBy(x => x), used.OrderBy(x => x));
        Assert.All(declared, id => Assert.Matches("^TPL[0-9]{4}$", id));
    }

    [Fact]
    public void Analyzers_AreSealedAndReturnTheSameDescriptorsEveryTime()
    {
        Assert.NotEmpty(Analyzers);
        Assert.All(Analyzers, analyzer =>
        {
            Assert.True(analyzer.GetType().IsSealed, analyzer.GetType().Name);
            Assert.Equal(analyzer.SupportedDiagnostics, analyzer.SupportedDiagnostics);
        });
    }

    /// <summary>
    /// Each rule has an analyzer class of its own with its one ID; hosts load the two shared analyzers: one carries
    /// every rule (run where it is a warning or an error), the other the rules that do not ship as warnings (run where
    /// they are suggestions).
    /// </summary>
    [Fact]
    public void EachRule_HasItsOwnAnalyzer_AndTheHostsLoadTheTwoSharedOnes()
    {
        var own = Repository.RuleAnalyzers();
        Assert.All(own, analyzer => Assert.Single(analyzer.SupportedDiagnostics));
        var ids = own.Select(a => a.SupportedDiagnostics[0].Id).OrderBy(id => id).ToList();
        Assert.Equal(["SuggestionRulesAnalyzer", "WarningRulesAnalyzer"], Analyzers.Select(a => a.GetType().Name).OrderBy(n => n));
        Assert.Equal(ids, new WarningRulesAnalyzer().SupportedDiagnostics.Select(d => d.Id).OrderBy(id => id));
        Assert.Equal(
            own.SelectMany(a => a.SupportedDiagnostics).Where(d => !(d.IsEnabledByDefault && d.DefaultSeverity == DiagnosticSeverity.Warning)).Select(d => d.Id).OrderBy(id => id),
            new SuggestionRulesAnalyzer().SupportedDiagnostics.Select(d => d.Id).OrderBy(id => id));
    }

    /// <summary>
    /// No <c>[Shared]</c>: hosts make analyzer-package fixers by reflection, and the attribute would tie the assembly
    /// to a System.Composition newer than Roslyn 4.8's (see FloorHost.Tests).
    /// </summary>
    [Fact]
    public void Fixers_AreExportedSealedUnsharedAndNamedAfterTheirType()
    {
        Assert.NotEmpty(Fixers);
        Assert.All(Fixers, fixer =>
        {
            Assert.True(fixer.IsSealed, fixer.Name);
            Assert.Null(fixer.GetCustomAttribute<SharedAttribute>());
            var export = fixer.GetCustomAttribute<ExportCodeFixProviderAttribute>();
            Assert.NotNull(export);
            Assert.Equal(fixer.Name, export!.Name);
            var key = fixer.GetField("EquivalenceKey")?.GetRawConstantValue() as string;
            var provider = (CodeFixProvider)Activator.CreateInstance(fixer)!;
            Assert.NotNull(key);
            // The first ID is the rule's own; the others are peers' whose diagnostics the fix also serves (CA2027).
            Assert.StartsWith(provider.FixableDiagnosticIds[0] + "_", key);
            Assert.All(provider.FixableDiagnosticIds.Skip(1), id => Assert.DoesNotMatch("^TPL", id));
            // A fix kept out of Fix All (and dotnet format) says what it changes, and its page says why.
            if (provider.GetFixAllProvider() is null)
            {
                var id = provider.FixableDiagnosticIds[0];
                Assert.Contains("Not in Fix All", File.ReadAllText(Path.Combine(Root, "docs", "rules", id + ".md")), StringComparison.Ordinal);
            }
        });
    }

    /// <summary>
    /// The generated benchmark report has a measured section for every rule, and the rule's benchmark class is in the
    /// project: a rule added without running the report again fails here.
    /// </summary>
    [Theory]
    [MemberData(nameof(RuleIds))]
    public void BenchmarkReport_MeasuresTheRule(string id)
    {
        var report = File.ReadAllLines(Path.Combine(Root, "docs", "benchmarks.md"));
        Assert.Contains(report, line => line.StartsWith("## ", StringComparison.Ordinal) && line.Contains(id, StringComparison.Ordinal));
        Assert.NotEmpty(Directory.GetFiles(Path.Combine(Root, "benchmarks", "TplPractices.Benchmarks", "Rules"), id + "_*Benchmarks.cs"));
    }

    [Theory]
    [MemberData(nameof(RuleIds))]
    public void RulePage_HasEverySection(string id)
    {
        var path = Path.Combine(Root, "docs", "rules", id + ".md");
        Assert.True(File.Exists(path), path + " is missing");
        var page = File.ReadAllText(path);
        Assert.StartsWith($"# {id}", page, StringComparison.Ordinal);
        foreach (var section in new[] { "## Cause", "## Why it matters", "## Non-compliant", "## Compliant", "## Code fix", "## Benchmark", "## Configuration" })
        {
            Assert.Contains(section, page, StringComparison.Ordinal);
        }

        // The options every rule reads, and the presets, are on its page.
        Assert.Contains($"tpl_practices.{id}.excluded_namespaces", page, StringComparison.Ordinal);
        Assert.Contains("(../configuration.md)", page, StringComparison.Ordinal);
        Assert.Contains("<TplPracticesAnalysisMode>", page, StringComparison.Ordinal);
    }

    [Theory]
    [MemberData(nameof(RuleIds))]
    public void ReleaseTracking_ListsTheRuleWithItsCategoryAndSeverity(string id)
    {
        var descriptor = Descriptor(id);
        var rows = File.ReadAllLines(Path.Combine(Root, "src", "Analyzers", "AnalyzerReleases.Shipped.md"))
            .Concat(File.ReadAllLines(Path.Combine(Root, "src", "Analyzers", "AnalyzerReleases.Unshipped.md")))
            .Where(line => line.StartsWith(id + " ", StringComparison.Ordinal))
            .Select(line => line.Split('|').Select(cell => cell.Trim()).ToArray())
            .ToList();
        var row = Assert.Single(rows);
        Assert.Equal(descriptor.Category, row[1]);
        Assert.Equal(descriptor.IsEnabledByDefault ? descriptor.DefaultSeverity.ToString() : "Disabled", row[2]);
    }

    [Theory]
    [MemberData(nameof(RuleIds))]
    public void Readme_TableHasTheRule(string id)
    {
        var descriptor = Descriptor(id);
        var readme = File.ReadAllLines(Path.Combine(Root, "README.md"));
        var row = Assert.Single(readme, line => line.StartsWith($"| [{id}](docs/rules/{id}.md)", StringComparison.Ordinal));
        Assert.Contains(descriptor.Title.ToString(System.Globalization.CultureInfo.InvariantCulture), row, StringComparison.Ordinal);
        Assert.Contains(descriptor.DefaultSeverity.ToString(), row, StringComparison.Ordinal);
    }

    [Theory]
    [MemberData(nameof(RuleIds))]
    public void SampleAndBenchmark_Exist(string id)
    {
        Assert.NotEmpty(Directory.GetFiles(Path.Combine(Root, "samples"), id + "_*.cs", SearchOption.AllDirectories));
        Assert.NotEmpty(Directory.GetFiles(Path.Combine(Root, "benchmarks"), id + "_*Benchmarks.cs", SearchOption.AllDirectories));
    }

    /// <summary>
    /// Microsoft.CodeAnalysis.Testing's own reference sets resolve NuGet packages at test time. Every rule test uses
    /// the empty offline set, which resolves nothing, and takes each target's references from the packages restore
    /// brought (Basic.Reference.Assemblies, loaded from the test's own output).
    /// </summary>
    [Fact]
    public async Task NothingDownloadsReferencePacksAtTestTime()
    {
        var test = new CSharpCodeFixVerifier<UseTaskStateAnalyzer, UseTaskStateFixer>.Test();
        Assert.Same(OfflineReferences.None, test.ReferenceAssemblies);
        Assert.Null(test.ReferenceAssemblies.ReferenceAssemblyPackage);
        Assert.Empty(test.ReferenceAssemblies.Packages);
        Assert.Empty(await test.ReferenceAssemblies.ResolveAsync(LanguageNames.CSharp, CancellationToken.None));
        foreach (var target in TestTargets.All)
        {
            Assert.Contains(target.References(), r => r.Display?.StartsWith("System.Runtime", StringComparison.Ordinal) == true || r.Display == "netstandard");
        }

        var sources = Directory.GetFiles(Path.Combine(Root, "tests"), "*.cs", SearchOption.AllDirectories);
        Assert.DoesNotContain(sources, file => Regex.IsMatch(File.ReadAllText(file), @"ReferenceAssemblies\.(Net|NetStandard|NetFramework|Default)\b"));
    }

    private static DiagnosticDescriptor Descriptor(string id) =>
        Analyzers.SelectMany(a => a.SupportedDiagnostics).First(d => d.Id == id);
}
