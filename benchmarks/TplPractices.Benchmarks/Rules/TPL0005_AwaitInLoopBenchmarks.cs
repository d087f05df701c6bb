using System.Threading;
using System.Threading.Tasks;
using BenchmarkDotNet.Attributes;
using BenchmarkDotNet.Configs;
using TplPractices.Benchmarks.Reporting;

namespace TplPractices.Benchmarks.Rules;

/// <summary>
/// TPL0005, and the async/await overhead article's loop: 1,000 iterations of about a microsecond of work,
/// each awaited through its own Task.Run, against one Task.Run around the whole loop and against the plain
/// synchronous loop. Plus case (b): awaiting an already-completed Task.FromResult on every iteration.
/// One operation is one whole loop.
/// </summary>
[MemoryDiagnoser]
[GroupBenchmarksBy(BenchmarkLogicalGroupRule.ByCategory)]
[CategoriesColumn]
[InvocationCount(256)] // one operation is 1,000 iterations; 256 of them give exact allocation counts and a short smoke run
[SeedSource(
    "The overhead of async/await in .NET 4.5 (Simple Talk): 1,000 awaited calls of 1 ms work",
    "A task, a pool hop and a resumption now cost a fraction of a microsecond per iteration; the article's 15 % on 1 ms of work came mostly from resuming on a UI thread. Next to short work the overhead is still as large as the work, and each iteration still allocates about 136 B.")]
[ReportSection(80, "async/await overhead and TPL0005: awaits in a loop", "one whole loop of 1,000 iterations")]
public class TPL0005_AwaitInLoopBenchmarks
{
    public const int Iterations = 1_000;

    // About a microsecond of CPU work on this machine.
    private static int Work(int i)
    {
        Thread.SpinWait(20);
        return i & 7;
    }

    [Benchmark(Baseline = true, Description = "await Task.Run(work) per iteration")]
    [BenchmarkCategory("Task.Run of short work")]
    [Seed("1,000 × 1 ms: about 1,150 ms, +15 % over synchronous")]
    public int Before_TaskRunPerIteration() => TaskRunPerIteration().Result;

    [Benchmark(Description = "await Task.Run(whole loop) (the fix)")]
    [BenchmarkCategory("Task.Run of short work")]
    public int After_OneTaskRun() => OneTaskRun().Result;

    [Benchmark(Description = "synchronous loop (no thread hop)")]
    [BenchmarkCategory("Task.Run of short work")]
    [Seed("1,000 × 1 ms: about 1,000 ms")]
    public int Synchronous()
    {
        var total = 0;
        for (var i = 0; i < Iterations; i++)
        {
            total += Work(i);
        }

        return total;
    }

    [Benchmark(Baseline = true, Description = "await Task.FromResult(i) per iteration")]
    [BenchmarkCategory("Already-completed task")]
    public int Before_AwaitCompleted() => AwaitCompleted().Result;

    [Benchmark(Description = "the value itself (the fix)")]
    [BenchmarkCategory("Already-completed task")]
    public int After_UseValue() => UseValue().Result;

    private static async Task<int> TaskRunPerIteration()
    {
        var total = 0;
        for (var i = 0; i < Iterations; i++)
        {
            total += await Task.Run(() => Work(i));
        }

        return total;
    }

    private static async Task<int> OneTaskRun()
    {
        var total = 0;
        await Task.Run(() =>
        {
            for (var i = 0; i < Iterations; i++)
            {
                total += Work(i);
            }
        });
        return total;
    }

    private static async Task<int> AwaitCompleted()
    {
        var total = 0;
        for (var i = 0; i < Iterations; i++)
        {
            total += await Task.FromResult(i);
        }

        return total;
    }

#pragma warning disable CS1998 // The fixed method keeps its signature; here nothing else awaits.
    private static async Task<int> UseValue()
#pragma warning restore CS1998
    {
        var total = 0;
        for (var i = 0; i < Iterations; i++)
        {
            total += i;
        }

        return total;
    }
}
