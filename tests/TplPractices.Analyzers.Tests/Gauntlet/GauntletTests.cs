using System.Diagnostics;
using TplPractices.Analyzers.Tests.Gauntlet.Contexts;
using Xunit.Abstractions;
using TplPractices.Analyzers.Tests.Verifiers;

namespace TplPractices.Analyzers.Tests.Gauntlet;

/// <summary>
/// The fix-safety gauntlet: every fixable case the tests hold (each rule's fix-test inputs and the samples), put in
/// each hostile context and fixed as <c>dotnet format</c> fixes a solution, with every rule on (see
/// <see cref="GauntletChecks"/> for what each variant must show). The default run takes a seeded sample of the cases
/// in each context; <c>TPL_GAUNTLET=long</c> takes all of them in every setup, and more orders of the rules;
/// <c>TPL_GAUNTLET_SEED</c> changes the sample.
/// </summary>
[RunsLong(28)]
public sealed class GauntletTests(ITestOutputHelper output)
{
    private static readonly bool Long = Environment.GetEnvironmentVariable("TPL_GAUNTLET") == "long";
    private static readonly int Seed = int.TryParse(Environment.GetEnvironmentVariable("TPL_GAUNTLET_SEED"), out var seed) ? seed : 20261123;

    /// <summary>TPL_GAUNTLET_CASE=AwaitInLoopCases.cs:6 takes only the cases whose origin contains the text, in every setup.</summary>
    private static readonly string? OnlyCase = Environment.GetEnvironmentVariable("TPL_GAUNTLET_CASE");

    /// <summary>
    /// How many cases each context takes in the default run: two since 2026-12-06, when three put the README's test
    /// command at 93 s of its 90 in CI; <c>TPL_GAUNTLET=long</c> takes them all.
    /// </summary>
    private const int SampledCases = 2;

    private static readonly GauntletContext[] Contexts =
    [
        new AsWritten(), new Comments(), new IfAround(), new IfInside(), new PartialSplit(), new StaticInitializer(),
        new OwnResult(), new AnonymousMethods(), new GuardedUsings(), new TupleReads(), new CallerInformation(), new WrappedArguments(),
        new ClosingParenthesisOwnLine(), new StaticInitializerGraph(), new SingleThreadedContext(pending: false), new SingleThreadedContext(pending: true),
        new LambdaAttributes(), new UsingsElsewhere(), new StyleCopLayout(), new ConfiguredLineEnds(), new FileIndent(tabs: false), new FileIndent(tabs: true),
        new NullForgivingArguments(),
    ];

    public static TheoryData<string> ContextNames => new(Contexts.Select(c => c.Name));

    [Fact]
    public async Task Cases_CoverEveryFixableRule()
    {
        var cases = await GauntletCase.AllAsync();
        var rules = cases.SelectMany(c => c.Fixable).Select(d => d.Id).Distinct().OrderBy(id => id);
        Assert.Equal(FormatRun.RuleIds, rules);
    }

    [Theory]
    [MemberData(nameof(ContextNames))]
    public async Task EveryFixableCase_InTheContext_PassesEveryCheck(string contextName)
    {
        var context = Contexts.Single(c => c.Name == contextName);
        var random = new Random(Seed ^ contextName.Length * 7919);
        var cases = await GauntletCase.AllAsync();
        var variants = cases.SelectMany(c => context.Setups.Select(s => context.Apply(c, s))).OfType<Variant>().ToList();
        var sampled = new HashSet<Variant>();
        if (OnlyCase is not null)
        {
            variants = variants.Where(v => v.Case.Origin.Contains(OnlyCase, StringComparison.Ordinal)).ToList();
        }
        else if (!Long)
        {
            // A sample of cases, each in one setup: every setup is still taken across the sample. Where antecedents
            // are pending, the behaviour run's own cases are always taken: they hold what only that shows (a source
            // whose awaiters run inside its completion), which a sample of a few hundred cases would rarely draw.
            // The others are drawn in a seeded order, SampledCases of them, and more only until one compiles: one that
            // does not proves nothing, and a context that applies to few cases could otherwise draw none that does.
            var groups = variants.GroupBy(v => v.Case).ToList();
            bool Pinned(IGrouping<GauntletCase, Variant> g) => IsPinned(g.Key) && g.Any(v => v.Behaviour.PendingTasks);
            var drawn = groups.Where(g => !Pinned(g)).OrderBy(_ => random.Next()).ToList();
            variants = drawn.Concat(groups.Where(Pinned)).Select((g, i) => g.ElementAt(i % g.Count())).ToList();
            sampled.UnionWith(variants.Take(drawn.Count));
        }

        var orders = Orders(random);
        var failures = new List<string>();
        int ran = 0, skipped = 0, sampledTried = 0, sampledRan = 0;
        var clock = Stopwatch.StartNew();
        foreach (var variant in variants)
        {
            if (sampled.Contains(variant) && (sampledRan == SampledCases || (sampledTried >= SampledCases && sampledRan > 0)))
            {
                continue;
            }

            sampledTried += sampled.Contains(variant) ? 1 : 0;

            var found = await GauntletChecks.RunAsync(variant, orders, behaviour: true);
            if (found is null)
            {
                skipped++;
                continue;
            }

            ran++;
            sampledRan += sampled.Contains(variant) ? 1 : 0;
            if (found.Count > 0)
            {
                var reasons = found.Where(f => !f.StartsWith(GauntletChecks.FixedMarker, StringComparison.Ordinal));
                output.WriteLine($"FAILED {variant}: {string.Join(" / ", reasons)}");
                failures.Add($"{variant}:{Environment.NewLine}  {string.Join(Environment.NewLine + "  ", found)}{Environment.NewLine}original:{Environment.NewLine}{variant.Describe(variant.Create())}");
            }
        }

        output.WriteLine($"{context.Name}: {ran} variants checked, {skipped} skipped (they do not compile before any fix), {failures.Count} failed, in {clock.Elapsed.TotalSeconds:F1} s");
        foreach (var told in GauntletChecks.CommentPlacementOnly.Where(t => t.StartsWith(context.Name, StringComparison.Ordinal)).Distinct())
        {
            output.WriteLine($"comments placed otherwise (code and comments the same): {told}");
        }

        Assert.True(ran > 0 || OnlyCase is not null, $"{context.Name}: no variant compiled before the fixes");
        Assert.True(failures.Count == 0, $"{failures.Count} of {ran} variants failed:{Environment.NewLine}{string.Join(Environment.NewLine, failures.Take(6))}");
    }

    private static bool IsPinned(GauntletCase gauntletCase) => gauntletCase.Origin.StartsWith(nameof(BehaviourRunTests) + ".cs", StringComparison.Ordinal);

    /// <summary>The orders the rules are fixed in: by ID, reversed, and in the long run eight seeded shuffles more.</summary>
    private static IReadOnlyList<IReadOnlyList<string>> Orders(Random random)
    {
        var orders = new List<IReadOnlyList<string>> { FormatRun.RuleIds, FormatRun.RuleIds.Reverse().ToList() };
        for (var i = 0; Long && i < 8; i++)
        {
            orders.Add(FormatRun.RuleIds.OrderBy(_ => random.Next()).ToList());
        }

        return orders;
    }
}
