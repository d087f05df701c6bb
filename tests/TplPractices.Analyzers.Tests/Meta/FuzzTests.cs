using System.Collections.Immutable;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CodeActions;
using Microsoft.CodeAnalysis.CodeFixes;
using Microsoft.CodeAnalysis.CSharp;
using Microsoft.CodeAnalysis.CSharp.Syntax;
using TplPractices.Analyzers.CodeFixes.Rules;
using TplPractices.Analyzers.Tests.Verifiers;

namespace TplPractices.Analyzers.Tests.Meta;

/// <summary>
/// Robustness: every analyzer over every sample and every C# source in the tests, under every language
/// version, and over seeded random mutations of them (tokens deleted, duplicated, or the file cut short).
/// No analyzer may throw, and no offered fix may add a compiler error. The default run takes a seeded sample of the
/// inputs whole, under C# 7.3, and one mutation each of another sample; TPL_FUZZ=long takes every input under every
/// version and many more mutations; TPL_FUZZ_SEED changes the seed.
/// </summary>
[RunsLong(9)]
public sealed class FuzzTests
{
    private static readonly bool Long = Environment.GetEnvironmentVariable("TPL_FUZZ") == "long";
    private static readonly int Seed = int.TryParse(Environment.GetEnvironmentVariable("TPL_FUZZ_SEED"), out var seed) ? seed : 20261122;

    private static readonly LanguageVersion[] Versions =
    [
        LanguageVersion.CSharp7_3, LanguageVersion.CSharp8, LanguageVersion.CSharp9, LanguageVersion.CSharp10,
        LanguageVersion.CSharp11, LanguageVersion.CSharp12, LanguageVersion.CSharp13, LanguageVersion.Latest,
    ];

    private static readonly Lazy<IReadOnlyList<string>> Inputs = new(() => TestSources.Codes);

    /// <summary>
    /// The inputs the whole-input tests take: all of them with TPL_FUZZ=long, a seeded sample of a fixed size by default
    /// (each input's own fixes are checked by its rule's tests; a fixed size keeps this run's cost from growing with
    /// every test, which a fraction of the inputs did: half of them took 9.8 s of the README command's run).
    /// </summary>
    private static readonly Lazy<IReadOnlyList<string>> Sampled = new(() => Sample(WholeInputs, salt: 1));

    /// <summary>The inputs the default run mutates once each.</summary>
    private static readonly Lazy<IReadOnlyList<string>> ToMutate = new(() => Sample(MutatedInputs, salt: 2));

    private const int WholeInputs = 160;
    private const int MutatedInputs = 200;

    private static IReadOnlyList<string> Sample(int count, int salt)
    {
        var random = new Random(Seed ^ salt);
        return Long ? Inputs.Value : Inputs.Value.OrderBy(_ => random.Next()).Take(count).ToList();
    }

    [Fact]
    public void Inputs_CoverSamplesAndTestSources()
    {
        Assert.True(Inputs.Value.Count > 80, $"only {Inputs.Value.Count} inputs found");
    }

    [Fact]
    public async Task EveryInput_UnderEveryLanguageVersion_AnalyzesWithoutException()
    {
        foreach (var input in Sampled.Value)
        {
            // The newest version is analyzed (exceptions failing the test) by EveryInput_OfferedFixesAddNoCompilerErrors.
            foreach (var version in Long ? Versions : [LanguageVersion.CSharp7_3])
            {
                await Analyze(input, version, TestTarget.Net100).AnalyzeAsync();
            }
        }
    }

    [Fact]
    public async Task MutatedInputs_AnalyzeWithoutException_AndTheirFixesAddNoErrors()
    {
        var random = new Random(Seed);
        // One mutation an input by default, of a sample of them; the long run mutates every input many times.
        var perInput = Long ? 60 : 1;
        var tried = 0;
        foreach (var input in ToMutate.Value)
        {
            var tokens = CSharpSyntaxTree.ParseText(input).GetRoot().DescendantTokens().Where(t => t.Span.Length > 0).ToList();
            for (var i = 0; i < perInput && tokens.Count > 0; i++, tried++)
            {
                var token = tokens[random.Next(tokens.Count)];
                var mutated = (random.Next(3)) switch
                {
                    0 => input.Remove(token.SpanStart, token.Span.Length),
                    1 => input.Insert(token.SpanStart, token.Text + " "),
                    _ => input.Substring(0, token.Span.End),
                };
                var target = random.Next(2) == 0 ? TestTarget.Net100 : TestTarget.NetStandard20;
                await AssertFixesAddNoErrorsAsync(Analyze(mutated, LanguageVersion.Latest, target), mutated, Long ? 20 : 4);
            }
        }

        Assert.True(tried > 0);
    }

    [Fact]
    public async Task EveryInput_OfferedFixesAddNoCompilerErrors()
    {
        foreach (var input in Sampled.Value)
        {
            await AssertFixesAddNoErrorsAsync(Analyze(input, LanguageVersion.Latest, TestTarget.Net100), input, int.MaxValue);
        }
    }

    /// <summary>Concurrent analysis must still give the same diagnostics, in the same order, every time.</summary>
    [Fact]
    public async Task RepeatedRuns_GiveTheSameDiagnosticsInTheSameOrder()
    {
        var all = string.Join(Environment.NewLine, Inputs.Value.Take(40).Select((code, i) => $"namespace N{i} {{ {code.Replace("namespace TplPractices.Samples;", string.Empty, StringComparison.Ordinal)} }}"));
        string Describe(ImmutableArray<Diagnostic> diagnostics) =>
            string.Join("\n", diagnostics.Select(d => $"{d.Id} {d.Location.SourceSpan} {d.GetMessage(System.Globalization.CultureInfo.InvariantCulture)}"));
        var first = Describe((await Analyze(all, LanguageVersion.Latest, TestTarget.Net100).AnalyzeAsync()).Diagnostics);
        for (var run = 0; run < 2; run++)
        {
            Assert.Equal(first, Describe((await Analyze(all, LanguageVersion.Latest, TestTarget.Net100).AnalyzeAsync()).Diagnostics));
        }
    }

    private static AnalyzerRun Analyze(string source, LanguageVersion version, TestTarget target) =>
        new(Repository.Analyzers())
        {
            Sources = { ("Test0.cs", source) },
            LanguageVersion = version,
            Target = target,
            EditorConfig = Rules.HotPathInliningTests.HotPathConfig, // TPL0012 on the members the inputs mark [HotPath]
            NullableContext = version >= LanguageVersion.CSharp8 ? NullableContextOptions.Enable : NullableContextOptions.Disable,
            OutputKind = source.Contains("await ", StringComparison.Ordinal) && !source.Contains("class ", StringComparison.Ordinal)
                ? OutputKind.ConsoleApplication
                : OutputKind.DynamicallyLinkedLibrary,
        };

    /// <summary>Applies the first offered fix of each diagnostic (up to a limit); errors after may not outnumber those before, by ID.</summary>
    private static async Task AssertFixesAddNoErrorsAsync(AnalyzerRun test, string source, int maxFixes)
    {
        var (project, diagnostics) = await test.AnalyzeAsync();
        var before = await ErrorCountsAsync(project);
        foreach (var diagnostic in diagnostics.Take(maxFixes))
        {
            var document = project.GetDocument(diagnostic.Location.SourceTree)!;
            var actions = new List<CodeAction>();
            await Fixers[diagnostic.Id].RegisterCodeFixesAsync(new CodeFixContext(document, diagnostic, (a, _) => actions.Add(a), CancellationToken.None));
            foreach (var action in actions.Take(1))
            {
                var operations = await action.GetOperationsAsync(CancellationToken.None);
                var changed = operations.OfType<ApplyChangesOperation>().Single().ChangedSolution.GetProject(project.Id)!;
                var after = await ErrorCountsAsync(changed);
                var added = after.Where(e => e.Value > before.GetValueOrDefault(e.Key)).Select(e => e.Key).ToList();
                Assert.True(
                    added.Count == 0,
                    $"Fixing {diagnostic.Id} at {diagnostic.Location.SourceSpan} added {string.Join(", ", added)} to:{Environment.NewLine}{source}"
                    + $"{Environment.NewLine}Result:{Environment.NewLine}{(await changed.Documents.First().GetTextAsync())}");
            }
        }
    }

    private static readonly IReadOnlyDictionary<string, CodeFixProvider> Fixers = Repository.Fixers();

    private static async Task<Dictionary<string, int>> ErrorCountsAsync(Project project) =>
        (await project.GetCompilationAsync())!.GetDiagnostics()
            .Where(d => d.Severity == DiagnosticSeverity.Error)
            .GroupBy(d => d.Id)
            .ToDictionary(g => g.Key, g => g.Count());
}
