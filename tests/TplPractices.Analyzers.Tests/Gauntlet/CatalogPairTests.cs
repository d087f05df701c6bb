using TplPractices.Analyzers.Catalog;
using TplPractices.Analyzers.Tests.Verifiers;

namespace TplPractices.Analyzers.Tests.Gauntlet;

/// <summary>
/// Every pair of rules whose fixes the catalog says can rewrite one node (a shared <see cref="FixTargets"/> flag, and
/// neither gives way to the other) is fixed both ways on a case of its own, as <c>dotnet format</c> may order them,
/// and must give one text. RulePairTests finds pairs among the cases the tests hold; this list comes from the
/// catalog, so a new rule with a shared target fails here until its pair has a case.
/// </summary>
[RunsLong(9)]
public sealed class CatalogPairTests
{
    private const string Usings = """
        using System;
        using System.Threading;
        using System.Threading.Tasks;

        """;

    /// <summary>A case per pair, keyed "first × second" in ID order; both rules report on it.</summary>
    private static readonly Dictionary<string, string> Cases = new(StringComparer.Ordinal)
    {
        [$"{DiagnosticIds.UseTaskState} × {DiagnosticIds.AttachedToParent}"] = Usings + """
            public static class Pair
            {
                public static Task Child(int x) => Task.Run(() =>
                    Task.Factory.StartNew(() => Console.WriteLine(x), TaskCreationOptions.AttachedToParent));
            }
            """,
        [$"{DiagnosticIds.UseTaskState} × {DiagnosticIds.TrivialContinuation}"] = Usings + """
            public static class Pair
            {
                public static int Next(Task<int> first, int offset) => first.ContinueWith(t => t.Result + offset).Result;
            }
            """,
        [$"{DiagnosticIds.AttachedToParent} × {DiagnosticIds.TrivialContinuation}"] = Usings + """
            using static System.Threading.Tasks.TaskContinuationOptions;

            public static class Pair
            {
                public static Task<int> Next(Task<int> first)
                {
                    var done = new TaskCompletionSource<int>();
                    Task.Run(() =>
                    {
                        first.ContinueWith(t =>
                        {
                            done.TrySetResult(t.Result);
                        }, AttachedToParent);
                    });
                    return done.Task;
                }
            }
            """,
        [$"{DiagnosticIds.CacheConstantTaskResult} × {DiagnosticIds.HotPathInlining}"] = Usings + """
            public sealed class Pair
            {
                private int _hits;

                [HotPath]
                public Task<int> Read(string key)
                {
                    if (key.Length == 0) return Task.FromResult(-1);
                    try
                    {
                        _hits++;
                        return Task.FromResult(checked(key.Length * 1000));
                    }
                    catch (OverflowException)
                    {
                        return Task.FromResult(-2);
                    }
                }
            }

            public sealed class HotPathAttribute : Attribute { }
            """,
        [$"{DiagnosticIds.ContinueWithUnwrapChain} × {DiagnosticIds.ValueTaskFastPath}"] = Usings + """
            public sealed class Pair
            {
                private Task<int> Chained(Task<int> first) => first.ContinueWith(t => Task.FromResult(t.Result + 1)).Unwrap();

                private async Task<string> Fast(int key)
                {
                    if (key > 0) return "x" + key;
                    await Task.Yield();
                    return "";
                }

                public async Task<string> Use(Task<int> first) => await Chained(first) + await Fast(1);
            }
            """,
        [$"{DiagnosticIds.ContinueWithUnwrapChain} × {DiagnosticIds.PassThroughAsync}"] = Usings + """
            public sealed class Pair
            {
                private Task<int> Chained(Task<int> first) => first.ContinueWith(t => Task.FromResult(t.Result + 1)).Unwrap();

                private async Task<int> Core(int x)
                {
                    await Task.Yield();
                    return x;
                }

                public async Task<int> Forward(int x) => await Core(x);

                public Task<int> Use(Task<int> first) => Chained(first);
            }
            """,
        [$"{DiagnosticIds.AwaitInLoop} × {DiagnosticIds.PassThroughAsync}"] = Usings + """
            public sealed class Pair
            {
                private async Task<int> Core(int x)
                {
                    await Task.Yield();
                    return x;
                }

                public async Task<int> Forward(int x) => await Core(x);

                public async Task<int> Sum(int[] items)
                {
                    var total = 0;
                    foreach (var item in items) total += await Task.Run(() => item * 2);
                    return total;
                }
            }
            """,
        [$"{DiagnosticIds.AwaitInLoop} × {DiagnosticIds.DelayTimer}"] = Usings + """
            public sealed class Pair
            {
                private int _ticks;

                public async Task Poll(CancellationToken token)
                {
                    while (!token.IsCancellationRequested)
                    {
                        _ticks += await Task.FromResult(1);
                        await Task.Delay(1000, token);
                    }
                }
            }
            """,
        [$"{DiagnosticIds.UseTaskState} × {DiagnosticIds.ExplicitScheduler}"] = Usings + """
            public static class Pair
            {
                public static Task Log(int x) => Task.Factory.StartNew(() => Console.WriteLine(x));

                public static Task After(Task first, string name) => first.ContinueWith(_ => Console.WriteLine(name), TaskContinuationOptions.OnlyOnRanToCompletion);

                // The inner capture is fixed on the second pass, inside the outer call both rules rewrote.
                public static Task Nested(int outer) => Task.Factory.StartNew(() =>
                {
                    var inner = outer + 1;
                    Task.Factory.StartNew(() => Console.WriteLine(inner + outer)).Wait();
                });

                // Both captures fixed in one run.
                public static Task Both(string a, string b) => Task.Factory.StartNew(() =>
                {
                    Task.Factory.StartNew(() => Console.WriteLine(a.Length + b.Length)).Wait();
                });
            }
            """,
        [$"{DiagnosticIds.AttachedToParent} × {DiagnosticIds.ExplicitScheduler}"] = Usings + """
            public static class Pair
            {
                public static Task Child() => Task.Run(() =>
                    Task.Factory.StartNew(() => Console.WriteLine("child"), TaskCreationOptions.AttachedToParent | TaskCreationOptions.LongRunning));

                public static Task Only() => Task.Run(() => Task.Factory.StartNew(() => Console.WriteLine("only"), TaskCreationOptions.AttachedToParent));
            }
            """,
        [$"{DiagnosticIds.TrivialContinuation} × {DiagnosticIds.ExplicitScheduler}"] = Usings + """
            public sealed class Pair
            {
                private int _last;

                public void Remember(Task<int> first) => first.ContinueWith(t => { _last = t.Result; });

                public void WithToken(Task<int> first, CancellationToken token) => first.ContinueWith(t => { _last = t.Result; }, token);

                public int Last => _last;
            }
            """,
    };

    /// <summary>
    /// Pairs whose sites cannot be one, and why: each still has a case above with a site of each rule (the shape nearest
    /// to one node), and its two orders must agree too.
    /// </summary>
    private static readonly Dictionary<string, string> Exclusive = new(StringComparer.Ordinal)
    {
        [$"{DiagnosticIds.ContinueWithUnwrapChain} × {DiagnosticIds.ValueTaskFastPath}"] = "TPL0002 makes a method async that was not; TPL0008 changes one that is, and the chain's awaits leave no synchronous return",
        [$"{DiagnosticIds.ContinueWithUnwrapChain} × {DiagnosticIds.PassThroughAsync}"] = "TPL0002 rewrites methods that are not async, TPL0016 only async ones",
        [$"{DiagnosticIds.AwaitInLoop} × {DiagnosticIds.PassThroughAsync}"] = "a pass-through's awaits end its paths, never in a loop of their own function",
    };

    public static TheoryData<string> CatalogPairs()
    {
        var data = new TheoryData<string>();
        foreach (var pair in Pairs())
        {
            data.Add(pair);
        }

        return data;
    }

    private static IEnumerable<string> Pairs() =>
        from a in RuleCatalog.All
        from b in RuleCatalog.All
        where string.CompareOrdinal(a.Id, b.Id) < 0
            && (a.Rewrites & b.Rewrites) != FixTargets.None
            && !a.GivesWayTo.Contains(b.Id) && !b.GivesWayTo.Contains(a.Id)
        select $"{a.Id} × {b.Id}";

    /// <summary>
    /// The shape the multi-target check caught: the inner call's arguments went 16 columns too far when TPL0019 spread
    /// them before TPL0001 rewrote the outer block (the formatter moved them with it), and a call no rule touched was
    /// spread when TPL0001 went first (the syntax differ took it into a wide change).
    /// </summary>
    [Theory]
    [InlineData(DiagnosticIds.UseTaskState, DiagnosticIds.ExplicitScheduler)]
    [InlineData(DiagnosticIds.ExplicitScheduler, DiagnosticIds.UseTaskState)]
    public async Task NestedCallsBothRulesRewrote_AreLaidOutFromTheirOwnStart_AndCodeBesideThemIsLeftAlone(string first, string second)
    {
        const string code = Usings + """
            namespace Library
            {
                public sealed class Work
                {
                    public Task Nested(string a, string b) => Task.Factory.StartNew(() =>
                    {
                        Task.Factory.StartNew(() => Console.WriteLine(a.Length + b.Length)).Wait();
                    });

                    public void RunOnce(Action work)
                    {
                        Timer? once = null;
                        once = new Timer(_ =>
                        {
                            work();
                            once?.Dispose();
                        }, null, 25, Timeout.Infinite);
                    }
                }
            }
            """;
        var fixedCode = await FormatRun.FixAsync(GauntletSetup.Modern, code, first, second);
        var lines = fixedCode.Split('\n');
        var inner = Array.FindLastIndex(lines, l => l.TrimStart().StartsWith("Task.Factory.StartNew(", StringComparison.Ordinal));
        var indentation = lines[inner].Length - lines[inner].TrimStart().Length;
        Assert.StartsWith(new string(' ', indentation + 4) + "static state =>", lines[inner + 1], StringComparison.Ordinal);
        Assert.Contains("""
                        once = new Timer(_ =>
                        {
                            work();
                            once?.Dispose();
                        }, null, 25, Timeout.Infinite);
            """.Replace("\r\n", "\n", StringComparison.Ordinal), fixedCode, StringComparison.Ordinal);
    }

    /// <summary>
    /// TPL0020 holds a source nothing holds in a using before its statement only where nothing before the source in the
    /// statement is more than a read. Fixes that turn a call or an await there into a read (TPL0003's cached task,
    /// TPL0014's value) must not decide it, or a second dotnet format run would find more to fix.
    /// </summary>
    [Theory]
    [InlineData(DiagnosticIds.CacheConstantTaskResult)]
    [InlineData(DiagnosticIds.AvailableValue)]
    public async Task ASourceNothingHolds_GivesOneTextWhicheverFixTurnsWhatComesBeforeItIntoReads(string other)
    {
        const string code = Usings + """
            public sealed class Pair
            {
                private readonly int _size = 4;

                public async Task Send(Func<Task<int>, int, CancellationToken, Task> send)
                {
                    await send(Task.FromResult(1000), await Task.Run(() => 5), new CancellationTokenSource(100).Token);
                    for (var i = 0; i < 3; i++)
                    {
                        await send(Task.FromResult(i), await Task.Run(() => _size + i), CancellationTokenSource.CreateLinkedTokenSource(default(CancellationToken)).Token);
                    }
                }
            }
            """;
        foreach (var setup in new[] { GauntletSetup.Single, GauntletSetup.Modern })
        {
            var oneWay = await FormatRun.FixAsync(setup, code, other, DiagnosticIds.DisposeTokenSource);
            var otherWay = await FormatRun.FixAsync(setup, code, DiagnosticIds.DisposeTokenSource, other);
            Assert.Equal(oneWay, otherWay);
            Assert.NotEqual(await FormatRun.FixAsync(setup, code, DiagnosticIds.DisposeTokenSource), oneWay);
            Assert.Contains("using var timeoutSource = new CancellationTokenSource(100);", oneWay, StringComparison.Ordinal);
            Assert.Contains("using var linkedSource = CancellationTokenSource.CreateLinkedTokenSource(default(CancellationToken));", oneWay, StringComparison.Ordinal);
        }
    }

    [Fact]
    public void EveryPairTheCatalogFinds_HasACase()
    {
        var missing = Pairs().Where(p => !Cases.ContainsKey(p)).ToList();
        Assert.True(missing.Count == 0, "pairs of rules whose fixes can rewrite one node, with no case here: " + string.Join(", ", missing));
        Assert.Empty(Cases.Keys.Except(Pairs()));
    }

    [Theory]
    [MemberData(nameof(CatalogPairs))]
    public async Task EachPair_GivesOneTextWhicheverRuleGoesFirst(string pair)
    {
        Assert.True(Cases.TryGetValue(pair, out var code), pair + " has no case");
        var ids = pair.Split(" × ");
        var reported = (await FormatRun.AnalysisAsync(GauntletSetup.Single.Create([("Test0.cs", code)], Microsoft.CodeAnalysis.OutputKind.DynamicallyLinkedLibrary).Projects.Single())).Reported
            .Select(d => d.Id).ToHashSet();
        if (!Exclusive.ContainsKey(pair))
        {
            Assert.All(ids, id => Assert.True(reported.Contains(id), $"{id} does not report on the case of {pair} (it reports {string.Join(", ", reported)})"));
        }

        // One target, and a library's two (each fix then runs through both linked copies).
        foreach (var setup in new[] { GauntletSetup.Single, GauntletSetup.Modern })
        {
            var oneWay = await FormatRun.FixAsync(setup, code, ids[0], ids[1]);
            var otherWay = await FormatRun.FixAsync(setup, code, ids[1], ids[0]);
            Assert.Equal(oneWay, otherWay);
            Assert.NotEqual(code, oneWay);
        }
    }
}
