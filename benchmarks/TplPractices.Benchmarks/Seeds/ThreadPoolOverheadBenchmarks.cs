using System;
using System.Threading;
using BenchmarkDotNet.Attributes;
using TplPractices.Benchmarks.Reporting;

namespace TplPractices.Benchmarks.Seeds;

/// <summary>
/// "ThreadPool performance you can see": queue N empty work items and wait until all have run. One
/// operation is one work item; each invocation queues 1,000,000 (the post queued 10 million).
/// </summary>
[MemoryDiagnoser]
[InvocationCount(2)] // 1,000,000 work items per invocation
[SeedSource(
    "ThreadPool performance you can see (pfxteam blog): 10 million empty work items, dual-core laptop",
    "The .NET 4 gains the post showed (a lock-free global queue, work-stealing local queues) are still the design; since .NET 6 the pool is managed code, and an item that needs no ExecutionContext or delegate (UnsafeQueueUserWorkItem with an IThreadPoolWorkItem) allocates nothing.")]
[ReportSection(70, "ThreadPool overhead: empty work items", "one work item (1,000,000 per invocation)")]
public class ThreadPoolOverheadBenchmarks
{
    public const int WorkItems = 1_000_000;

    [Benchmark(Baseline = true, Description = "QueueUserWorkItem(callback)", OperationsPerInvoke = WorkItems)]
    [Seed(".NET 4: 245 ns per item (2.45 s per 10 million); .NET 3.5: 503 ns")]
    public void QueueUserWorkItem()
    {
        using var done = new Countdown(WorkItems);
        for (var i = 0; i < WorkItems; i++)
        {
            ThreadPool.QueueUserWorkItem(Countdown.Callback, done);
        }

        done.Wait();
    }

    [Benchmark(Description = "UnsafeQueueUserWorkItem(IThreadPoolWorkItem)", OperationsPerInvoke = WorkItems)]
    public void UnsafeQueueWorkItem()
    {
        using var done = new Countdown(WorkItems);
        for (var i = 0; i < WorkItems; i++)
        {
            ThreadPool.UnsafeQueueUserWorkItem(done, preferLocal: false);
        }

        done.Wait();
    }

    /// <summary>Counts the items down and signals when the last has run.</summary>
    private sealed class Countdown : IThreadPoolWorkItem, IDisposable
    {
        public static readonly WaitCallback Callback = static state => ((Countdown)state!).Execute();

        private readonly ManualResetEventSlim _event = new();
        private int _remaining;

        public Countdown(int count) => _remaining = count;

        public void Execute()
        {
            if (Interlocked.Decrement(ref _remaining) == 0)
            {
                _event.Set();
            }
        }

        public void Wait() => _event.Wait();

        public void Dispose() => _event.Dispose();
    }
}
