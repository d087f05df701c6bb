using System;
using System.Threading;
using System.Threading.Tasks;
using BenchmarkDotNet.Attributes;
using TplPractices.Benchmarks.Reporting;

namespace TplPractices.Benchmarks.Rules;

/// <summary>
/// TPL0019 where a delegate with a parameter made StartNew take <c>TaskCreationOptions.LongRunning</c> as its state:
/// the loops meant for threads of their own run on pool threads instead. Each iteration starts as many such loops as
/// the pool has threads (a service with two background loops on a two-core host, at start), each blocked as a
/// sender waiting for messages is; one operation queues one work item to the pool and ends when it has run. With the
/// options in place (the site's fix) the loops have their own threads and the item runs at once; taken as the state,
/// the item waits until the pool notices it is starved and adds a thread.
/// </summary>
[InvocationCount(1, 1)]
[SeedSource(
    "Running millions of tasks (the post's dedicated threads): work that lives long gets threads of its own, apart from the tasks the scheduler shares out",
    "LongRunning still asks the default scheduler for a thread of its own on every .NET version; taken as the state, it asks for nothing.")]
[ReportSection(137, "TPL0019: LongRunning taken as the state, the loops on pool threads against their own", "one work item queued while as many blocked loops as the pool has threads run, until it starts")]
public class TPL0019_MisplacedStateBenchmarks
{
    private ManualResetEventSlim _release = new();
    private CountdownEvent _started = new(1);

    [IterationSetup(Target = nameof(Before_OptionsAsState))]
    public void StartLoopsOnThePool() => StartLoops(release => Task.Factory.StartNew(_ => Loop(release), TaskCreationOptions.LongRunning));

    [IterationSetup(Target = nameof(After_OptionsInPlace))]
    public void StartLoopsOnOwnThreads() =>
        StartLoops(release => Task.Factory.StartNew(_ => Loop(release), null, CancellationToken.None, TaskCreationOptions.LongRunning, TaskScheduler.Current));

    [IterationCleanup]
    public void StopLoops() => _release.Set();

    [Benchmark(Baseline = true, Description = "loops started StartNew(_ => Loop(), TaskCreationOptions.LongRunning)")]
    public void Before_OptionsAsState() => RunOneItem();

    [Benchmark(Description = "loops started StartNew(_ => Loop(), null, None, LongRunning, Current) (the site's fix)")]
    public void After_OptionsInPlace() => RunOneItem();

    private static void RunOneItem()
    {
        using var ran = new ManualResetEventSlim();
        ThreadPool.UnsafeQueueUserWorkItem(static state => ((ManualResetEventSlim)state!).Set(), ran);
        ran.Wait();
    }

    /// <summary>Starts one loop per pool thread (at least as many as the pool keeps ready) and waits until every loop runs.</summary>
    private void StartLoops(Func<ManualResetEventSlim, Task> start)
    {
        ThreadPool.GetMinThreads(out var ready, out _);
        var loops = Math.Max(ready, ThreadPool.ThreadCount);
        _release = new ManualResetEventSlim();
        _started = new CountdownEvent(loops);
        for (var i = 0; i < loops; i++)
        {
            start(_release);
        }

        _started.Wait();
    }

    /// <summary>Stands for a sender's loop blocked until there is something to send: here, until the iteration ends.</summary>
    private void Loop(ManualResetEventSlim release)
    {
        _started.Signal();
        release.Wait();
    }
}
