using System.Collections.Concurrent;
using System.Threading.Tasks;
using BenchmarkDotNet.Attributes;
using BenchmarkDotNet.Configs;
using TplPractices.Benchmarks.Reporting;

namespace TplPractices.Benchmarks.Rules;

/// <summary>
/// TPL0001: a capturing lambda against the state overload the fix writes. The whitepaper's two examples
/// (filling a ConcurrentQueue from StartNew; ResultOrZero's continuation), then a reference-type and a
/// value-type state, whose boxing costs part of the saving back.
/// </summary>
[MemoryDiagnoser]
[GroupBenchmarksBy(BenchmarkLogicalGroupRule.ByCategory)]
[CategoriesColumn]
[SeedSource(
    "TPL whitepaper (.NET 4.5), \"Encode closure information into a Task's state object\" (no figures published)",
    "A closure and its delegate are still two allocations per call; what changed is that C# 9 static lambdas let the compiler prove the state overload captures nothing.")]
[ReportSection(110, "TPL0001: state overloads instead of capturing closures", "one call")]
public class TPL0001_UseTaskStateBenchmarks
{
    private readonly ConcurrentQueue<int> _queue = new();
    private readonly Task<int> _completed = Task.FromResult(42);
    private readonly string _text = "state";
    private int _number = 42;

    [Benchmark(Baseline = true, Description = "StartNew(() => fill queue)")]
    [BenchmarkCategory("Whitepaper: ConcurrentQueue")]
    public void Before_Queue()
    {
        var queue = _queue;
        Task.Factory.StartNew(() =>
        {
            for (var i = 0; i < 10; i++)
            {
                queue.Enqueue(i);
            }

            queue.Clear();
        }).Wait();
    }

    [Benchmark(Description = "StartNew(static state => fill queue, queue)")]
    [BenchmarkCategory("Whitepaper: ConcurrentQueue")]
    public void After_Queue()
    {
        var queue = _queue;
        Task.Factory.StartNew(static state =>
        {
            var queue = (ConcurrentQueue<int>)state!;
            for (var i = 0; i < 10; i++)
            {
                queue.Enqueue(i);
            }

            queue.Clear();
        }, queue).Wait();
    }

    [Benchmark(Baseline = true, Description = "ResultOrZero, capturing")]
    [BenchmarkCategory("Whitepaper: ResultOrZero")]
    public int Before_ResultOrZero()
    {
        var task = _completed;
        var source = new TaskCompletionSource<int>();
        task.ContinueWith(_ => source.SetResult(task.Status == TaskStatus.RanToCompletion ? task.Result : 0), TaskContinuationOptions.ExecuteSynchronously);
        return source.Task.Result;
    }

    [Benchmark(Description = "ResultOrZero, antecedent + state")]
    [BenchmarkCategory("Whitepaper: ResultOrZero")]
    public int After_ResultOrZero()
    {
        var task = _completed;
        var source = new TaskCompletionSource<int>();
        task.ContinueWith(static (task, state) =>
        {
            var source = (TaskCompletionSource<int>)state!;
            source.SetResult(task.Status == TaskStatus.RanToCompletion ? task.Result : 0);
        }, source, TaskContinuationOptions.ExecuteSynchronously);
        return source.Task.Result;
    }

    [Benchmark(Baseline = true, Description = "ContinueWith capturing a string")]
    [BenchmarkCategory("Reference-type state")]
    public int Before_ReferenceState()
    {
        var text = _text;
        return _completed.ContinueWith(t => t.Result + text.Length, TaskContinuationOptions.ExecuteSynchronously).Result;
    }

    [Benchmark(Description = "ContinueWith with the string as state")]
    [BenchmarkCategory("Reference-type state")]
    public int After_ReferenceState() =>
        _completed.ContinueWith(static (t, state) => t.Result + ((string)state!).Length, _text, TaskContinuationOptions.ExecuteSynchronously).Result;

    [Benchmark(Baseline = true, Description = "ContinueWith capturing an int")]
    [BenchmarkCategory("Value-type state (boxed)")]
    public int Before_ValueState()
    {
        var number = _number;
        return _completed.ContinueWith(t => t.Result + number, TaskContinuationOptions.ExecuteSynchronously).Result;
    }

    [Benchmark(Description = "ContinueWith with the int as state")]
    [BenchmarkCategory("Value-type state (boxed)")]
    public int After_ValueState() =>
        _completed.ContinueWith(static (t, state) => t.Result + (int)state!, _number, TaskContinuationOptions.ExecuteSynchronously).Result;
}
