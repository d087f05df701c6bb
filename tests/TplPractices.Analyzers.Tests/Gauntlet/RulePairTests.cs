using Microsoft.CodeAnalysis;
using Xunit.Abstractions;
using TplPractices.Analyzers.Tests.Verifiers;

namespace TplPractices.Analyzers.Tests.Gauntlet;

/// <summary>
/// Every pair of rules that offer fixes on one site, found by analysing every case the gauntlet holds rather than
/// listed by hand: two fixable diagnostics of different rules in one statement (or member, outside statements). Each such case, fixed as
/// <c>dotnet format</c> fixes it with either rule of the pair first, must give one text (dotnet format takes the
/// rules in the order of a hash set, which changes from one process to the next). The enumeration covers every
/// case; the default run fixes the first case of each pair both ways (every pair, in a test command kept near 90 s),
/// the long run all of them.
/// </summary>
[RunsLong(19)]
public sealed class RulePairTests(ITestOutputHelper output)
{
    private static readonly bool Long = Environment.GetEnvironmentVariable("TPL_GAUNTLET") == "long";

    /// <summary>How many cases of each pair the default run fixes both ways; <c>TPL_GAUNTLET=long</c> takes them all.</summary>
    private const int CasesPerPair = 1;

    [Fact]
    public async Task EveryPairOfRulesOnOneSite_GivesOneTextWhicheverRuleGoesFirst()
    {
        var failures = new List<string>();
        var pairs = new SortedDictionary<string, int>(StringComparer.Ordinal);
        foreach (var gauntletCase in await GauntletCase.AllAsync())
        {
            // Where each fix may write: the statement around its site (its member where it is in none).
            var regions = gauntletCase.Fixable
                .Select(d => (d.Id, Region: gauntletCase.Root.FindNode(d.Location.SourceSpan, getInnermostNodeForTie: true) is var node
                    && (Sites.Statement(node) ?? (SyntaxNode?)Sites.Member(node)) is { } around ? around.Span : d.Location.SourceSpan))
                .ToList();
            var found = (from a in regions
                         from b in regions
                         where string.CompareOrdinal(a.Id, b.Id) < 0 && a.Region.OverlapsWith(b.Region)
                         select (First: a.Id, Second: b.Id)).Distinct().ToList();
            foreach (var (first, second) in found)
            {
                var pair = first + " × " + second;
                pairs[pair] = pairs.GetValueOrDefault(pair) + 1;
                if (!Long && pairs[pair] > CasesPerPair)
                {
                    continue;
                }

                // dotnet format fixes only the rules its first analysis reports: the others need no place in the order.
                var rest = FormatRun.RuleIds.Where(id => id != first && id != second && gauntletCase.Reported.Contains(id)).ToList();
                var oneWay = await TextsAsync(gauntletCase, [first, second, .. rest]);
                var otherWay = await TextsAsync(gauntletCase, [second, first, .. rest]);
                if (oneWay != otherWay)
                {
                    failures.Add($"{gauntletCase.Origin}: {first} then {second} gives{Environment.NewLine}{oneWay}{Environment.NewLine}{second} then {first} gives{Environment.NewLine}{otherWay}");
                }
            }
        }

        output.WriteLine("pairs of rules with fixes on one site (cases): " + string.Join(", ", pairs.Select(p => $"{p.Key} ({p.Value})")));
        Assert.True(failures.Count == 0, string.Join(Environment.NewLine + Environment.NewLine, failures.Take(3)));
    }

    private static async Task<string> TextsAsync(GauntletCase gauntletCase, IReadOnlyList<string> order)
    {
        var solution = await FormatRun.RunAsync(GauntletSetup.Single.Create([("Test0.cs", gauntletCase.Code)], gauntletCase.OutputKind), order);
        var texts = new List<string>();
        foreach (var document in solution.Projects.SelectMany(p => p.Documents))
        {
            texts.Add((await document.GetTextAsync()).ToString());
        }

        return string.Join(Environment.NewLine, texts);
    }
}
