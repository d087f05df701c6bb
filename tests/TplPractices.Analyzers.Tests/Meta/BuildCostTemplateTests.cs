using System.Text.RegularExpressions;
using Microsoft.CodeAnalysis.CSharp;

namespace TplPractices.Analyzers.Tests.Meta;

/// <summary>
/// benchmarks/build-cost/FileTemplate.txt feeds the analyzer cost benchmark and the whole-build checks, which count on
/// it: every line marked <c>// HIT</c> is reported, nothing else is, and without those lines (HITS=0) nothing is.
/// </summary>
public sealed class BuildCostTemplateTests
{
    // The rules that are off or a suggestion by default, on as the cost measurements turn them on.
    private static readonly string EveryRuleOn = Verifiers.CatalogRules.EveryRuleOn();

    private static string Render(int n, bool hits)
    {
        var lines = File.ReadAllLines(Path.Combine(Repository.Root, "benchmarks", "build-cost", "FileTemplate.txt"))
            .Where(line => hits || !line.EndsWith("// HIT", StringComparison.Ordinal));
        return string.Join("\n", lines)
            .Replace("{N7}", ((n % 7) + 1).ToString(), StringComparison.Ordinal)
            .Replace("{N5}", (n % 5).ToString(), StringComparison.Ordinal)
            .Replace("{N}", n.ToString(), StringComparison.Ordinal);
    }

    private static async Task<List<string>> IdsAsync(bool hits)
    {
        var run = Repository.AllRulesTest("File0.cs", Render(0, hits));
        run.Sources.Add(("File1.cs", Render(1, hits)));
        run.EditorConfig = EveryRuleOn;
        run.NullableContext = Microsoft.CodeAnalysis.NullableContextOptions.Disable;
        run.Target = Verifiers.TestTarget.Net80;
        return (await Repository.IdsAsync(run)).ToList();
    }

    [Fact]
    public async Task EveryRule_ReportsItsHitsAndNothingElse()
    {
        // Two files, one hit per rule each: the Task.Run awaited in ScoreAsync's loop is TPL0005's alone (its fix
        // removes that Task.Run), so TPL0007 reports only the one in Run.
        // TPL0012 speaks only on members marked with an attribute the user names; the template names none.
        var expected = Verifiers.CatalogRules.Ids
            .Where(id => id != DiagnosticIds.HotPathInlining)
            .SelectMany(id => Enumerable.Repeat(id, 2))
            .OrderBy(id => id);
        Assert.Equal(expected, await IdsAsync(hits: true));
    }

    /// <summary>
    /// TPL0008 for internal methods: the template's two candidates made internal in each of 100 files, so the same two
    /// names are declared and called in every file. The awaited one is reported in every file, the kept one in none
    /// (each answer is kept per name, docs/rules/TPL0008.md, so this runs in seconds rather than once per method).
    /// </summary>
    [Fact]
    public async Task InternalCandidatesSharingNames_AreEachDecidedByTheCompilation()
    {
        const int Files = 100;
        var run = new Verifiers.AnalyzerRun(new TplPractices.Analyzers.Rules.ValueTaskFastPathAnalyzer())
        {
            EditorConfig = EveryRuleOn,
            NullableContext = Microsoft.CodeAnalysis.NullableContextOptions.Disable,
            Target = Verifiers.TestTarget.Net80,
        };
        for (var n = 0; n < Files; n++)
        {
            run.Sources.Add(($"File{n}.cs", Render(n, hits: true)
                .Replace("private async Task<string> LookupAsync", "internal async Task<string> LookupAsync", StringComparison.Ordinal)
                .Replace("private async Task<string> FetchAsync", "internal async Task<string> FetchAsync", StringComparison.Ordinal)));
        }

        var reported = await run.DiagnosticsAsync();
        Assert.Equal(Files, reported.Count(d => d.Id == "TPL0008" && d.GetMessage().Contains("'LookupAsync'", StringComparison.Ordinal)));
        Assert.Equal(Files, reported.Length);
    }

    [Fact]
    public async Task WithoutTheHitLines_NothingIsReported()
    {
        Assert.Empty(await IdsAsync(hits: false));
    }
}
