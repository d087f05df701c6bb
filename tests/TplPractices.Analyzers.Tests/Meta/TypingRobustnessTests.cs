using Microsoft.CodeAnalysis.CSharp;
using TplPractices.Analyzers.Tests.Verifiers;

namespace TplPractices.Analyzers.Tests.Meta;

/// <summary>
/// Analyzers see every keystroke. Each sample file, cut after every token (as if typed so far), must
/// analyze without an exception: by default every sixth cut, on one of two targets in turn; with
/// <c>TPL_FUZZ=long</c> every cut on both.
/// </summary>
[RunsLong(10)]
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
        // By default every sixth cut (which of the six depends on the file), on one target, the targets taking
        // turns: neighbouring cuts differ by one token and mostly take the same paths, and the second target repeats
        // the same syntax with other symbols (every fourth cut took a fifth of the test command's time, which must
        // stay under 90 s). TPL_FUZZ=long runs every cut on both targets.
        var analyzers = Repository.Analyzers();
        var targets = new[] { TestTarget.Net100, TestTarget.NetStandard20 };
        const int Stride = 6;
        var phase = fileName.Length % Stride;
        for (var i = Long ? 0 : phase; i < cuts.Count; i += Long ? 1 : Stride)
        {
            foreach (var target in Long ? targets : [targets[(i / Stride) % 2]])
            {
                await new AnalyzerRun(analyzers) { Sources = { ("Test0.cs", source.Substring(0, cuts[i])) }, Target = target, EditorConfig = Rules.HotPathInliningTests.HotPathConfig }.DiagnosticsAsync();
            }
        }
    }
}
