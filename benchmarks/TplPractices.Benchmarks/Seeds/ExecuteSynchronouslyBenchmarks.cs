using System;
using System.Threading.Tasks;
using BenchmarkDotNet.Attributes;
using TplPractices.Benchmarks.Reporting;

namespace TplPractices.Benchmarks.Seeds;

/// <summary>
/// "Why is TaskContinuationOptions.ExecuteSynchronously opt-in?": a chain of 100,000 empty continuations,
/// run from its first task, with and without ExecuteSynchronously. One operation is one whole chain.
/// </summary>
[MemoryDiagnoser]
[InvocationCount(4)] // 100,000 continuations per invocation
[SeedSource(
    "Why is ExecuteSynchronously opt-in? (pfxteam blog, .NET 4): chain of 100,000 empty continuations",
    "Queued continuations still go through the thread pool's local queue, so running them inline still saves the queueing, about half the time, as the post found. The option still risks running a continuation on the completing thread, which is why it stays opt-in.")]
[ReportSection(50, "ExecuteSynchronously: queued against inline continuations", "one whole chain of 100,000 empty continuations")]
public class ExecuteSynchronouslyBenchmarks
{
    public const int Continuations = 100_000;

    private static readonly Action<Task> Nothing = static _ => { };

    [Benchmark(Baseline = true, Description = "queued continuations (default)")]
    [Seed("at most 2× slower (post); a reader, x64: about 620 ms")]
    public void Queued() => RunChain(TaskContinuationOptions.None);

    [Benchmark(Description = "ExecuteSynchronously")]
    [Seed("a reader, x64: about 200 ms")]
    public void Inline() => RunChain(TaskContinuationOptions.ExecuteSynchronously);

    private static void RunChain(TaskContinuationOptions options)
    {
        var first = new Task(static () => { });
        var last = first;
        for (var i = 0; i < Continuations; i++)
        {
            last = last.ContinueWith(Nothing, options);
        }

        first.Start();
        last.Wait();
    }
}
