using System.Collections.Immutable;
using System.Text;
using System.Text.RegularExpressions;
using System.Xml.Linq;
using Microsoft.CodeAnalysis;

namespace TplPractices.Analyzers.Tests.Meta;

/// <summary>
/// What a package user meets: help links and readme links pinned to the release tag and naming pages that exist,
/// the presets listing every rule, and release notes for the version being built.
/// </summary>
public sealed class PackageTests
{
    private static readonly string Root = Repository.Root;

    /// <summary>Every rule's descriptor, in the catalog's order (ID order).</summary>
    private static readonly ImmutableArray<DiagnosticDescriptor> Descriptors = Catalog.RuleCatalog.All.Select(e => e.Descriptor).ToImmutableArray();

    /// <summary>The properties Directory.Build.props sets once for every project.</summary>
    private static readonly XElement BuildProps = XDocument.Load(Path.Combine(Root, "Directory.Build.props")).Root!;

    private static string Property(string name) => BuildProps.Descendants(name).Single().Value;

    private static string Version => Property("VersionPrefix");

    /// <summary>The repository's tree at this version's tag: https://github.com/…/blob/v0.2.0.</summary>
    private static string ReleaseUrl => Property("RepositoryUrl") + "/blob/v" + Version;

    public static TheoryData<string> Presets() => new() { "none", "default", "all-suggestions", "all-warnings", "all-errors" };

    /// <summary>
    /// The tests build what main builds, a prerelease, whose help links name main; a release build names its tag
    /// (Directory.Build.props; <c>.ci/links-check.sh</c> checks both on packed packages).
    /// </summary>
    [Fact]
    public void HelpLinks_PointAtTheRulePageOfMain_UntilAReleaseBuildNamesItsTag()
    {
        Assert.Equal("$(RepositoryUrl)/blob/$(DocsRef)", Property("ReleaseDocsUrl"));
        Assert.Equal("v$(VersionPrefix)", Property("ReleaseTag"));
        var docsRef = BuildProps.Descendants("DocsRef").ToList();
        Assert.Equal(new[] { "main", "$(ReleaseTag)" }, docsRef.Select(e => e.Value));
        Assert.Equal("'$(TplRelease)' == 'true'", docsRef[1].Attribute("Condition")?.Value);
        Assert.All(Descriptors, d =>
        {
            Assert.Equal($"{Property("RepositoryUrl")}/blob/main/docs/rules/{d.Id}.md", d.HelpLinkUri);
            Assert.True(File.Exists(RepositoryPath(d.HelpLinkUri)), d.HelpLinkUri + " names no file in the repository");
        });
    }

    [Fact]
    public void PackageReadme_HasOnlyAbsoluteLinksToPagesThatExist()
    {
        var readme = File.ReadAllText(Path.Combine(Root, "src", "Package", "PackageReadme.md"));
        var links = Regex.Matches(readme, @"\]\(([^)]+)\)").Select(m => m.Groups[1].Value).ToList();
        Assert.NotEmpty(links);
        Assert.All(links, link => Assert.StartsWith("https://", link, StringComparison.Ordinal));
        Assert.All(
            links.Where(l => l.StartsWith(Property("RepositoryUrl") + "/blob/", StringComparison.Ordinal)),
            link =>
            {
                Assert.StartsWith(ReleaseUrl + "/", link, StringComparison.Ordinal);
                Assert.True(File.Exists(RepositoryPath(link)), link + " names no file in the repository");
            });
        Assert.Contains($"Version=\"{Version}\"", readme, StringComparison.Ordinal);
        Assert.All(Descriptors, d => Assert.Contains($"| [{d.Id}]({ReleaseUrl}/docs/rules/{d.Id}.md) | {d.Title} |", readme, StringComparison.Ordinal));
    }

    [Fact]
    public void Changelog_HasASectionForThisVersionAndEachShippedRelease()
    {
        var changelog = File.ReadAllText(Path.Combine(Root, "CHANGELOG.md"));
        Assert.Matches(new Regex($@"(?m)^## {Regex.Escape(Version)}\s"), changelog);
        var shipped = File.ReadAllText(Path.Combine(Root, "src", "Analyzers", "AnalyzerReleases.Shipped.md"));
        foreach (Match release in Regex.Matches(shipped, @"(?m)^## Release (\S+)"))
        {
            Assert.Matches(new Regex($@"(?m)^## {Regex.Escape(release.Groups[1].Value)}\s"), changelog);
        }
    }

    /// <summary>
    /// The README's minimum (the .NET 8.0.100 SDK, Visual Studio 17.8) is the first release with Roslyn 4.8; the shipped
    /// assemblies must ask for no newer compiler, or older hosts would refuse to load them (CS8032).
    /// </summary>
    [Fact]
    public void ShippedAssemblies_NeedNoCompilerNewerThanTheReadmeSays()
    {
        var shipped = new[] { typeof(DescriptorFactory).Assembly, typeof(CodeFixes.Rules.UseTaskStateFixer).Assembly };
        var roslyn = shipped.SelectMany(a => a.GetReferencedAssemblies()).Where(r => r.Name!.StartsWith("Microsoft.CodeAnalysis", StringComparison.Ordinal)).ToList();
        Assert.Contains(roslyn, r => r.Name == "Microsoft.CodeAnalysis.Workspaces");
        Assert.All(roslyn, r => Assert.Equal(new Version(4, 8, 0, 0), r.Version));
        foreach (var readme in new[] { "README.md", Path.Combine("src", "Package", "PackageReadme.md") })
        {
            Assert.Contains("It needs the .NET 8.0.100 SDK or Visual Studio 17.8 (Roslyn 4.8) or later", File.ReadAllText(Path.Combine(Root, readme)).Replace("\n", " ", StringComparison.Ordinal), StringComparison.Ordinal);
        }
    }

    /// <summary>
    /// The presets list every rule with the severity the preset promises. To write them after adding a rule:
    /// <c>TPL_UPDATE_PRESETS=1 dotnet test TplPractices.Analyzers.sln --filter FullyQualifiedName~Preset</c>.
    /// </summary>
    [Theory]
    [MemberData(nameof(Presets))]
    public void Preset_ListsEveryRuleWithItsSeverity(string preset)
    {
        var path = Path.Combine(Root, "src", "Package", "configuration", preset + ".globalconfig");
        var expected = PresetText(preset);
        if (Environment.GetEnvironmentVariable("TPL_UPDATE_PRESETS") == "1")
        {
            File.WriteAllText(path, expected);
        }

        Assert.Equal(expected, File.ReadAllText(path));
    }

    private static string PresetText(string preset)
    {
        var text = new StringBuilder()
            .Append("# TplPractices.Analyzers preset '").Append(preset).Append("', chosen by <TplPracticesAnalysisMode>.\n")
            .Append("# Generated from the rule catalog (src/Analyzers/Catalog/RuleCatalog.cs) by PackageTests; do not edit by hand.\n")
            .Append("is_global = true\n")
            .Append("# Below any global config of the project's own (level 0 or 100); .editorconfig sections win over every global config.\n")
            .Append("global_level = -1\n");
        foreach (var d in Descriptors)
        {
            text.Append('\n').Append("# ").Append(d.Id).Append(": ").Append(d.Title).Append('\n')
                .Append("dotnet_diagnostic.").Append(d.Id).Append(".severity = ").Append(Severity(preset, d)).Append('\n');
        }

        return text.ToString();
    }

    private static string Severity(string preset, DiagnosticDescriptor d) => preset switch
    {
        "none" => "none",
        "all-suggestions" => "suggestion",
        "all-warnings" => "warning",
        "all-errors" => "error",
        _ when !d.IsEnabledByDefault => "none",
        _ => d.DefaultSeverity switch
        {
            DiagnosticSeverity.Error => "error",
            DiagnosticSeverity.Warning => "warning",
            DiagnosticSeverity.Info => "suggestion",
            _ => "silent",
        },
    };

    /// <summary>The file in this checkout that a link into the repository's tree (at the tag or main) names.</summary>
    private static string RepositoryPath(string url)
    {
        var relative = Regex.Replace(url, "^" + Regex.Escape(Property("RepositoryUrl")) + "/blob/[^/]+/", string.Empty).Split('#')[0];
        return Path.Combine(Root, relative.Replace('/', Path.DirectorySeparatorChar));
    }
}
