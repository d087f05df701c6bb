using TplPractices.Analyzers.Tests.Verifiers;

namespace TplPractices.Analyzers.Tests.Meta;

/// <summary>
/// Every rule can be silenced in source the ways the compiler offers, one rule at a time or all at once. The rule
/// tests leave this check to here (<see cref="CSharpCodeFixVerifier{TAnalyzer, TCodeFix}.Test"/> skips the testing
/// library's copy of it in every test): one file with a hit of each rule shows it for all of them.
/// </summary>
public sealed class SuppressionTests
{
    private static AnalyzerRun Run(string code) => GeneratedCodeTests.AllRulesTest("Hits.cs", code);

    private static string HitsIn(string typeHeader) => GeneratedCodeTests.Usings + typeHeader + "class Hits\n{\n" + GeneratedCodeTests.Members + "\n}\n";

    private static readonly IEnumerable<string> AllRules = CatalogRules.Ids.OrderBy(id => id, StringComparer.Ordinal).ToList();

    public static TheoryData<string> Rules => new(AllRules);

    [Fact]
    public async Task PragmaForEveryRule_SilencesEveryRule()
    {
        var code = "#pragma warning disable " + string.Join(", ", CatalogRules.Ids) + "\n" + HitsIn(string.Empty);
        Assert.Empty(await Repository.IdsAsync(Run(code)));
    }

    [Theory]
    [MemberData(nameof(Rules))]
    public async Task PragmaForOneRule_SilencesThatRuleOnly(string id)
    {
        var code = "#pragma warning disable " + id + "\n" + HitsIn(string.Empty);
        Assert.Equal(AllRules.Where(other => other != id), await Repository.IdsAsync(Run(code)));
    }

    [Fact]
    public async Task PragmaRestored_BeforeTheCode_SilencesNothing()
    {
        var pragma = string.Join(", ", CatalogRules.Ids);
        var code = "#pragma warning disable " + pragma + "\n#pragma warning restore " + pragma + "\n" + HitsIn(string.Empty);
        Assert.Equal(AllRules, await Repository.IdsAsync(Run(code)));
    }

    [Fact]
    public async Task SuppressMessageOnTheType_SilencesEveryRuleItNames()
    {
        var attributes = string.Concat(CatalogRules.Ids.Select(id => $"[System.Diagnostics.CodeAnalysis.SuppressMessage(\"TplPractices\", \"{id}\")]\n"));
        Assert.Empty(await Repository.IdsAsync(Run(HitsIn(attributes))));
    }
}
