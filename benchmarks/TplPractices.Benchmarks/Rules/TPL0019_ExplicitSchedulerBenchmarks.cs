using System;
using System.Collections.Generic;
using System.Threading;
using System.Threading.Tasks;
using BenchmarkDotNet.Attributes;
using BenchmarkDotNet.Configs;
using TplPractices.Benchmarks.Reporting;

namespace TplPractices.Benchmarks.Rules;

/// <summary>
/// TPL0019: a library call that starts work with StartNew, made from code a one-thread scheduler runs (one task at a
/// time, as a UI thread or an actor-style component runs its code). Without a scheduler argument the work inherits that
/// scheduler and runs one item after another behind the caller; the exact fix (TaskScheduler.Current spelled out)
/// costs the same; TaskScheduler.Default runs the items on the pool, side by side. One operation: a task on the
/// one-thread scheduler starts eight 20 µs work items and returns; the operation ends when all eight are done.
/// </summary>
[MemoryDiagnoser]
[SmokeInvocations(4096)]
[GroupBenchmarksBy(BenchmarkLogicalGroupRule.ByCategory)]
[CategoriesColumn]
[SeedSource(
    "Why is ExecuteSynchronously opt-in? (pfxteam blog, .NET 4): queued work is what gives the scheduler room for parallelism",
    "Which scheduler that is was always the caller's: TaskScheduler.Current. Under a one-thread scheduler the room is gone, on every .NET version.")]
[ReportSection(135, "TPL0019: StartNew under a one-thread scheduler, implicit Current against an explicit scheduler", "eight 20 µs work items started from a task on a one-thread scheduler, all waited for")]
public class TPL0019_ExplicitSchedulerBenchmarks
{
    private const int Items = 8;
    private static readonly TimeSpan ItemTime = TimeSpan.FromMicroseconds(20);

    // Set when the last item of an operation is done: waited for without allocating, so that the rewrites' allocations
    // compare exactly (Task.WaitAll and Result allocate or not depending on timing).
    private static readonly ManualResetEventSlim AllDone = new();
    private static readonly Action ItemAction = Item;
    private static int s_pending;

    private readonly TaskScheduler _oneThread = new OneThreadScheduler();

    [Benchmark(Baseline = true, Description = "Task.Factory.StartNew(work)")]
    [BenchmarkCategory("Started from a one-thread scheduler")]
    public void Before_Implicit() => Run(static work => Task.Factory.StartNew(work));

    [Benchmark(Description = "StartNew(work, None, None, TaskScheduler.Current) (the fix)")]
    [BenchmarkCategory("Started from a one-thread scheduler")]
    public void After_ExplicitCurrent() => Run(static work => Task.Factory.StartNew(work, CancellationToken.None, TaskCreationOptions.None, TaskScheduler.Current));

    [Benchmark(Description = "StartNew(work, None, None, TaskScheduler.Default) (the second action)")]
    [BenchmarkCategory("Started from a one-thread scheduler")]
    public void After_Default() => Run(static work => Task.Factory.StartNew(work, CancellationToken.None, TaskCreationOptions.None, TaskScheduler.Default));

    /// <summary>
    /// Runs a task on the one-thread scheduler that starts the items with <paramref name="startNew"/> and returns; waits
    /// until every item is done.
    /// </summary>
    private void Run(Func<Action, Task> startNew)
    {
        s_pending = Items;
        AllDone.Reset();
        Task.Factory.StartNew(static s => Start((Func<Action, Task>)s!), startNew, CancellationToken.None, TaskCreationOptions.None, _oneThread);
        AllDone.Wait();
    }

    private static void Start(Func<Action, Task> startNew)
    {
        for (var i = 0; i < Items; i++)
        {
            startNew(ItemAction);
        }
    }

    private static void Item()
    {
        Work();
        if (Interlocked.Decrement(ref s_pending) == 0)
        {
            AllDone.Set();
        }
    }

    /// <summary>Stands for a piece of CPU work: spins for <see cref="ItemTime"/>.</summary>
    private static void Work()
    {
        var until = DateTime.UtcNow + ItemTime;
        while (DateTime.UtcNow < until)
        {
            Thread.SpinWait(20);
        }
    }

    /// <summary>
    /// Runs its tasks one at a time on one thread of its own, as a UI's scheduler does. It allocates nothing per task
    /// once its queue has grown, so the rewrites' allocations compare exactly (a ConcurrentExclusiveSchedulerPair
    /// allocates a processing task per batch, which varies from run to run).
    /// </summary>
    private sealed class OneThreadScheduler : TaskScheduler
    {
        private readonly Queue<Task> _queue = new();

        public OneThreadScheduler() => new Thread(RunAll) { IsBackground = true, Name = "one-thread scheduler" }.Start();

        public override int MaximumConcurrencyLevel => 1;

        protected override void QueueTask(Task task)
        {
            lock (_queue)
            {
                _queue.Enqueue(task);
                Monitor.Pulse(_queue);
            }
        }

        protected override bool TryExecuteTaskInline(Task task, bool taskWasPreviouslyQueued) => false;

        protected override IEnumerable<Task> GetScheduledTasks()
        {
            lock (_queue)
            {
                return _queue.ToArray();
            }
        }

        private void RunAll()
        {
            while (true)
            {
                Task next;
                lock (_queue)
                {
                    while (_queue.Count == 0)
                    {
                        Monitor.Wait(_queue);
                    }

                    next = _queue.Dequeue();
                }

                TryExecuteTask(next);
            }
        }
    }
}
