using Microsoft.CodeAnalysis.CSharp;
using TplPractices.Analyzers.Tests.Verifiers;

namespace TplPractices.Analyzers.Tests.Meta;

/// <summary>
/// Analyzers see every keystroke. Each sample file, cut after every token (as if typed so far), must
/// analyze without an exception, each cut on one of two targets in turn (on both with <c>TPL_FUZZ=long</c>).
/// </summary>
public sealed class TypingRobustnessTests
{
    private static readonly string Root = Repository.Root;

    private static readonly bool Long = Environment.GetEnvironmentVariable("TPL_FUZZ") == "long";

    public static TheoryData<string> SampleFiles()
    {
        var data = new TheoryData<string>();
        foreach (var file in Directory.GetFiles(Path.Combine(Root, "samples"), "TPL*.cs", SearchOption.AllDirectories))
        {
            data.Add(Path.GetFileName(file));
        }

        return data;
    }

    [Theory]
    [MemberData(nameof(SampleFiles))]
    public async Task EveryPrefixOfASample_AnalyzesWithoutException(string fileName)
    {
        var path = Directory.GetFiles(Path.Combine(Root, "samples"), fileName, SearchOption.AllDirectories).Single();
        var source = File.ReadAllText(path);
        var cuts = CSharpSyntaxTree.ParseText(source).GetRoot().DescendantTokens().Select(t => t.Span.End).Distinct().ToList();
        Assert.True(cuts.Count > 50, "The sample is too small to be a useful typing test.");
        // All analyzers at once, as the compiler runs them: one compilation per cut and target; TPL0012 on the members
        // the samples mark [HotPath].
        // Every cut on one target, the targets taking turns; TPL_FUZZ=long runs every cut on both (the second target
        // repeats the same syntax with other symbols, evidence worth the time only in the long run).
        var analyzers = Repository.Analyzers();
        var targets = new[] { TestTarget.Net100, TestTarget.NetStandard20 };
        for (var i = 0; i < cuts.Count; i++)
        {
            foreach (var target in Long ? targets : [targets[i % 2]])
            {
                await new AnalyzerRun(analyzers) { Sources = { ("Test0.cs", source.Substring(0, cuts[i])) }, Target = target, EditorConfig = Rules.HotPathInliningTests.HotPathConfig }.DiagnosticsAsync();
            }
        }
    }
}
