using System.Threading.Tasks;
using BenchmarkDotNet.Attributes;
using BenchmarkDotNet.Configs;
using TplPractices.Benchmarks.Reporting;

namespace TplPractices.Benchmarks.Rules;

/// <summary>
/// TPL0016: an async method that only awaits another async method's task, against returning that task, for Task&lt;T&gt;,
/// Task and ValueTask&lt;T&gt;, and a ValueTask&lt;T&gt; method over a Task&lt;T&gt; against the task wrapped. "Completes later": the inner method waits on a source the benchmark completes right after
/// the call (its continuations run inline, so no pool thread is involved); "completes at once": it returns before awaiting.
/// </summary>
[MemoryDiagnoser]
[GroupBenchmarksBy(BenchmarkLogicalGroupRule.ByCategory)]
[CategoriesColumn]
[SeedSource(
    "The overhead of async/await (.NET Core): a very short method should not pay for a state machine it does not need",
    "An async method that only hands on another's task adds a state machine box, a task and a continuation when the callee suspends, and a task when it completes at once.")]
[ReportSection(129, "TPL0016: pass-through async methods against returning the task", "one call, awaited to its result")]
public class TPL0016_PassThroughAsyncBenchmarks
{
    private TaskCompletionSource<int> _source = new();
    private int _value = 1000;

    [Benchmark(Baseline = true, Description = "async Task<int> M() => await Inner()")]
    [BenchmarkCategory("Task<int>, completes later")]
    public int Before_TaskOfT() => Complete(PassThrough()).GetAwaiter().GetResult();

    [Benchmark(Description = "Task<int> M() => Inner()")]
    [BenchmarkCategory("Task<int>, completes later")]
    public int After_TaskOfT() => Complete(Direct()).GetAwaiter().GetResult();

    [Benchmark(Baseline = true, Description = "async Task M() { await Inner(); }")]
    [BenchmarkCategory("Task, completes later")]
    public void Before_Task() => Complete(PassThroughVoid()).GetAwaiter().GetResult();

    [Benchmark(Description = "Task M() { return Inner(); }")]
    [BenchmarkCategory("Task, completes later")]
    public void After_Task() => Complete(DirectVoid()).GetAwaiter().GetResult();

    [Benchmark(Baseline = true, Description = "async ValueTask<int> M() => await Inner()")]
    [BenchmarkCategory("ValueTask<int>, completes later")]
    public int Before_ValueTask()
    {
        _source = new TaskCompletionSource<int>();
        var pending = PassThroughValue();
        _source.SetResult(_value);
        return pending.GetAwaiter().GetResult();
    }

    [Benchmark(Description = "ValueTask<int> M() => Inner()")]
    [BenchmarkCategory("ValueTask<int>, completes later")]
    public int After_ValueTask()
    {
        _source = new TaskCompletionSource<int>();
        var pending = DirectValue();
        _source.SetResult(_value);
        return pending.GetAwaiter().GetResult();
    }

    [Benchmark(Baseline = true, Description = "async ValueTask<int> M() => await Inner(), Inner a Task<int>")]
    [BenchmarkCategory("ValueTask<int> over a Task<int>, completes later")]
    public int Before_ValueTaskOverTask() => Completed(PassThroughWrapped()).GetAwaiter().GetResult();

    [Benchmark(Description = "ValueTask<int> M() => new ValueTask<int>(Inner()) (the fix)")]
    [BenchmarkCategory("ValueTask<int> over a Task<int>, completes later")]
    public int After_ValueTaskOverTask() => Completed(DirectWrapped()).GetAwaiter().GetResult();

    [Benchmark(Baseline = true, Description = "async Task<int> M() => await Inner(), Inner done at once")]
    [BenchmarkCategory("Task<int>, completes at once")]
    public int Before_Sync() => PassThroughSync().GetAwaiter().GetResult();

    [Benchmark(Description = "Task<int> M() => Inner(), Inner done at once")]
    [BenchmarkCategory("Task<int>, completes at once")]
    public int After_Sync() => DirectSync().GetAwaiter().GetResult();

    /// <summary>Completes the source the call waits on: the awaiting chain resumes inline inside SetResult.</summary>
    private T Complete<T>(T pending)
        where T : Task
    {
        _source.SetResult(_value);
        return pending;
    }

    /// <summary>As <see cref="Complete{T}"/>, for a ValueTask made before the source completes.</summary>
    private ValueTask<int> Completed(ValueTask<int> pending)
    {
        _source.SetResult(_value);
        return pending;
    }

    private ValueTask<int> PassThroughWrapped()
    {
        _source = new TaskCompletionSource<int>();
        return Outer();

        async ValueTask<int> Outer() => await Inner();
    }

    private ValueTask<int> DirectWrapped()
    {
        _source = new TaskCompletionSource<int>();
        return new ValueTask<int>(Inner());
    }

    private Task<int> PassThrough()
    {
        _source = new TaskCompletionSource<int>();
        return Outer();

        async Task<int> Outer() => await Inner();
    }

    private Task<int> Direct()
    {
        _source = new TaskCompletionSource<int>();
        return Inner();
    }

    private Task PassThroughVoid()
    {
        _source = new TaskCompletionSource<int>();
        return Outer();

        async Task Outer()
        {
            await InnerVoid();
        }
    }

    private Task DirectVoid()
    {
        _source = new TaskCompletionSource<int>();
        return InnerVoid();
    }

    private async ValueTask<int> PassThroughValue() => await InnerValue();

    private ValueTask<int> DirectValue() => InnerValue();

    private async Task<int> PassThroughSync() => await InnerSync();

    private Task<int> DirectSync() => InnerSync();

    private async Task<int> Inner() => await _source.Task + 1;

    private async Task InnerVoid() => _value = await _source.Task % 2000;

    private async ValueTask<int> InnerValue() => await _source.Task + 1;

    private async Task<int> InnerSync()
    {
        if (_value > 0)
        {
            return _value + 1;
        }

        await Task.Yield();
        return 0;
    }
}
