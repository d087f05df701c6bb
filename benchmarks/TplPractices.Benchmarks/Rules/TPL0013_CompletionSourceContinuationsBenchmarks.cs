using System.Threading;
using System.Threading.Tasks;
using BenchmarkDotNet.Attributes;
using BenchmarkDotNet.Configs;
using TplPractices.Benchmarks.Reporting;

namespace TplPractices.Benchmarks.Rules;

/// <summary>
/// TPL0013: what RunContinuationsAsynchronously costs and what it saves. Each operation makes sources, starts async
/// methods awaiting their tasks, completes the sources from the benchmark's thread and spins until every awaiting
/// method has finished (a spin, not Wait, so neither side pays for a wait handle). With one short continuation the
/// flag only adds a queue hop. With several continuations that work while the completer holds its lock, the default
/// runs them one after another under the lock; the flag lets the completer go and the pool run them side by side.
/// </summary>
[MemoryDiagnoser]
[GroupBenchmarksBy(BenchmarkLogicalGroupRule.ByCategory)]
[CategoriesColumn]
[SeedSource(
    "Why is ExecuteSynchronously opt-in? (pfxteam blog, .NET 4): continuations that run inline lose parallelism and can stack up",
    "Completing a TaskCompletionSource runs its continuations inline unless it was made with RunContinuationsAsynchronously; the same trade-off as ExecuteSynchronously, seen from the completer.")]
[ReportSection(126, "TPL0013: RunContinuationsAsynchronously for TaskCompletionSource", "sources made, awaited, completed and every awaiting method finished")]
public class TPL0013_CompletionSourceContinuationsBenchmarks
{
    private const int Waiters = 4;
    private const int WorkIterations = 50_000;

    private readonly object _gate = new();
    private int _finished;

    [Benchmark(Baseline = true, Description = "new TaskCompletionSource<int>(), one short continuation")]
    [BenchmarkCategory("One short continuation (the flag's cost)")]
    public int Before_Short() => Run(TaskCreationOptions.None, waiters: 1, work: 0);

    [Benchmark(Description = "the same, RunContinuationsAsynchronously")]
    [BenchmarkCategory("One short continuation (the flag's cost)")]
    public int After_Short() => Run(TaskCreationOptions.RunContinuationsAsynchronously, waiters: 1, work: 0);

    [Benchmark(Baseline = true, Description = "4 waiters completed under a lock, each working ~40 µs")]
    [BenchmarkCategory("Continuations that work, completed under a lock (what it saves)")]
    public int Before_UnderLock() => Run(TaskCreationOptions.None, Waiters, WorkIterations);

    [Benchmark(Description = "the same, RunContinuationsAsynchronously")]
    [BenchmarkCategory("Continuations that work, completed under a lock (what it saves)")]
    public int After_UnderLock() => Run(TaskCreationOptions.RunContinuationsAsynchronously, Waiters, WorkIterations);

    private int Run(TaskCreationOptions options, int waiters, int work)
    {
        _finished = 0;
        var sources = new TaskCompletionSource<int>[waiters];
        for (var i = 0; i < waiters; i++)
        {
            sources[i] = new TaskCompletionSource<int>(options);
            _ = AwaitAsync(sources[i].Task, work);
        }

        lock (_gate)
        {
            foreach (var source in sources)
            {
                source.SetResult(1);
            }
        }

        var spinner = new SpinWait();
        while (Volatile.Read(ref _finished) < waiters)
        {
            spinner.SpinOnce();
        }

        return _finished;
    }

    private async Task AwaitAsync(Task<int> task, int work)
    {
        var value = await task;
        for (var i = 0; i < work; i++)
        {
            value = (value * 31) + i;
        }

        Interlocked.Add(ref _finished, value == int.MinValue ? 2 : 1);
    }
}
