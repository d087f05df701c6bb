using System;
using System.Collections.Concurrent;
using System.Collections.Generic;
using System.Linq;
using System.Threading;
using System.Threading.Tasks;
using BenchmarkDotNet.Attributes;
using BenchmarkDotNet.Configs;
using TplPractices.Benchmarks.Reporting;

namespace TplPractices.Benchmarks.Seeds;

/// <summary>
/// "Running millions of tasks": counters that count when signalled, or when a delay has elapsed, built as
/// tasks scheduled by the runtime or as plain objects driven by a few dedicated threads. One operation is one
/// count; each invocation runs 1,000,000 counters for 2 counts each. Throughput = 1 s / time per count.
/// </summary>
/// <remarks>
/// Our own re-creation of the four tests the post describes, not its code. The post's counter limit (5 million
/// tasks before a 32-bit process ran out of memory) does not apply to a 64-bit process on this 24 GiB machine;
/// 1,000,000 counters is close to the post's "realistic" run of 1.2 million and keeps a run to seconds.
/// </remarks>
[MemoryDiagnoser]
[InvocationCount(1, 1)]
[GroupBenchmarksBy(BenchmarkLogicalGroupRule.ByCategory)]
[CategoriesColumn]
[ThroughputColumn]
[SeedSource(
    "Running millions of tasks (the post's four tests): throughput in counts per second",
    "Tasks still cost several times the CPU and memory of plain objects driven by dedicated threads. Task.Delay's timers moved from a linked list to per-core timer queues in .NET Core, so many firing delays cost much less than the post measured.")]
[ReportSection(60, "Running millions of tasks: counters as tasks or as objects on dedicated threads", "one count (1,000,000 counters × 2 counts per invocation)")]
public class TasksAtScaleBenchmarks
{
    public const int Counters = 1_000_000;
    public const int Rounds = 2;
    public const int Counts = Counters * Rounds;

    private static readonly int Workers = Math.Max(2, Environment.ProcessorCount);

    [Benchmark(Baseline = true, Description = "signalled: a task per counter", OperationsPerInvoke = Counts)]
    [BenchmarkCategory("Signalled counters")]
    [Seed("1.2 million counts/s")]
    public int SignalledTasks()
    {
        var pending = new BlockingCollection<TaskCompletionSource<bool>>(new ConcurrentQueue<TaskCompletionSource<bool>>());
        var counters = Enumerable.Range(0, Counters).Select(_ => CountWhenSignalled(pending)).ToArray();
        var signallers = StartThreads(() =>
        {
            foreach (var signal in pending.GetConsumingEnumerable())
            {
                signal.TrySetResult(true);
            }
        });
        Task.WaitAll(counters);
        pending.CompleteAdding();
        JoinAll(signallers);
        return counters.Sum(c => c.Result);
    }

    [Benchmark(Description = "signalled: objects on dedicated threads", OperationsPerInvoke = Counts)]
    [BenchmarkCategory("Signalled counters")]
    [Seed("6.4 million counts/s")]
    public int SignalledThreads()
    {
        var queue = new ConcurrentQueue<Counter>(Enumerable.Range(0, Counters).Select(_ => new Counter()));
        var remaining = Counters;
        JoinAll(StartThreads(() =>
        {
            while (Volatile.Read(ref remaining) > 0)
            {
                if (!queue.TryDequeue(out var counter))
                {
                    continue;
                }

                if (++counter.Count < Rounds)
                {
                    queue.Enqueue(counter);
                }
                else
                {
                    Interlocked.Decrement(ref remaining);
                }
            }
        }));
        return Counters * Rounds;
    }

    [Benchmark(Baseline = true, Description = "delayed: await Task.Delay(1) per count", OperationsPerInvoke = Counts)]
    [BenchmarkCategory("Time-delayed counters")]
    [Seed("0.5 million counts/s")]
    public int DelayedTasks()
    {
        var counters = Enumerable.Range(0, Counters).Select(_ => CountAfterDelays()).ToArray();
        Task.WaitAll(counters);
        return counters.Sum(c => c.Result);
    }

    [Benchmark(Description = "delayed: priority queues on dedicated threads", OperationsPerInvoke = Counts)]
    [BenchmarkCategory("Time-delayed counters")]
    [Seed("5.1 million counts/s")]
    public int DelayedThreads()
    {
        // One priority queue per thread, ordered by due time (ms on Environment.TickCount64).
        var perThread = Counters / Workers;
        var total = 0;
        JoinAll(StartThreads(() =>
        {
            var due = new PriorityQueue<Counter, long>();
            var start = Environment.TickCount64;
            for (var i = 0; i < perThread; i++)
            {
                due.Enqueue(new Counter(), start + 1);
            }

            var counted = 0;
            while (due.TryPeek(out var counter, out var at))
            {
                var now = Environment.TickCount64;
                if (at > now)
                {
                    Thread.Sleep((int)(at - now));
                    continue;
                }

                due.Dequeue();
                counted++;
                if (++counter.Count < Rounds)
                {
                    due.Enqueue(counter, now + 1);
                }
            }

            Interlocked.Add(ref total, counted);
        }));
        return total;
    }

    private static async Task<int> CountWhenSignalled(BlockingCollection<TaskCompletionSource<bool>> pending)
    {
        var count = 0;
        while (count < Rounds)
        {
            // Continuations run on the pool, as scheduled delegate work does, not inline on the signaller.
            var signal = new TaskCompletionSource<bool>(TaskCreationOptions.RunContinuationsAsynchronously);
            pending.Add(signal);
            await signal.Task.ConfigureAwait(false);
            count++;
        }

        return count;
    }

    private static async Task<int> CountAfterDelays()
    {
        var count = 0;
        while (count < Rounds)
        {
            await Task.Delay(1).ConfigureAwait(false);
            count++;
        }

        return count;
    }

    private static List<Thread> StartThreads(ThreadStart body)
    {
        var threads = Enumerable.Range(0, Workers).Select(_ => new Thread(body) { IsBackground = true }).ToList();
        threads.ForEach(t => t.Start());
        return threads;
    }

    private static void JoinAll(List<Thread> threads) => threads.ForEach(t => t.Join());

    private sealed class Counter
    {
        public int Count;
    }
}
