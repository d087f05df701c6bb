using System.Threading.Tasks;
using BenchmarkDotNet.Attributes;
using BenchmarkDotNet.Configs;
using TplPractices.Benchmarks.Reporting;

namespace TplPractices.Benchmarks.Rules;

/// <summary>
/// TPL0011: one trivial continuation, queued (the default) or run synchronously, in the shapes the rule reports: it
/// completes a TaskCompletionSource, converts the antecedent's result, or does nothing. Each operation creates the
/// continuation on a pending task, completes that task from the benchmark's thread (not a pool thread), and waits for
/// the continuation's effect. The seed's chain of 100,000 empty continuations run from a pool thread is
/// ExecuteSynchronouslyBenchmarks.
/// </summary>
[MemoryDiagnoser]
[GroupBenchmarksBy(BenchmarkLogicalGroupRule.ByCategory)]
[CategoriesColumn]
[SeedSource(
    "Why is ExecuteSynchronously opt-in? (pfxteam blog, .NET 4): up to 2x on a chain of empty continuations",
    "A queued continuation goes to the thread pool; when the antecedent completes off the pool, a worker must take it up before anyone waiting sees the effect. Run synchronously, it runs in the completing call.")]
[ReportSection(120, "TPL0011: ExecuteSynchronously for trivial continuations", "one continuation created, its antecedent completed, its effect waited for")]
[BaselineBytesVary(32, "the baselines queue their continuation to the pool and wait for it; the fixes run it inline, always the same bytes")]
public class TPL0011_TrivialContinuationBenchmarks
{
    [Benchmark(Baseline = true, Description = "ContinueWith(t => done.TrySetResult(t.Result))")]
    [BenchmarkCategory("Completes a TaskCompletionSource")]
    public int Before_CompleteSource() => CompleteSource(TaskContinuationOptions.None);

    [Benchmark(Description = "the same, ExecuteSynchronously")]
    [BenchmarkCategory("Completes a TaskCompletionSource")]
    public int After_CompleteSource() => CompleteSource(TaskContinuationOptions.ExecuteSynchronously);

    [Benchmark(Baseline = true, Description = "ContinueWith(t => t.Result + 1).Result")]
    [BenchmarkCategory("Converts the result")]
    public int Before_Convert() => Convert(TaskContinuationOptions.None);

    [Benchmark(Description = "the same, ExecuteSynchronously")]
    [BenchmarkCategory("Converts the result")]
    public int After_Convert() => Convert(TaskContinuationOptions.ExecuteSynchronously);

    [Benchmark(Baseline = true, Description = "ContinueWith(_ => { }).Wait()")]
    [BenchmarkCategory("Does nothing")]
    public void Before_Empty() => Empty(TaskContinuationOptions.None);

    [Benchmark(Description = "the same, ExecuteSynchronously")]
    [BenchmarkCategory("Does nothing")]
    public void After_Empty() => Empty(TaskContinuationOptions.ExecuteSynchronously);

    private static int CompleteSource(TaskContinuationOptions options)
    {
        var antecedent = new TaskCompletionSource<int>();
        // Made as the fix requires it: the source queues its own awaiters (the blocking Result below is signalled inline).
        var done = new TaskCompletionSource<int>(TaskCreationOptions.RunContinuationsAsynchronously);
        antecedent.Task.ContinueWith(t => done.TrySetResult(t.Result), options);
        antecedent.SetResult(1);
        return done.Task.Result;
    }

    private static int Convert(TaskContinuationOptions options)
    {
        var antecedent = new TaskCompletionSource<int>();
        var converted = antecedent.Task.ContinueWith(static t => t.Result + 1, options);
        antecedent.SetResult(1);
        return converted.Result;
    }

    private static void Empty(TaskContinuationOptions options)
    {
        var antecedent = new TaskCompletionSource<int>();
        var continuation = antecedent.Task.ContinueWith(static _ => { }, options);
        antecedent.SetResult(1);
        continuation.Wait();
    }
}
