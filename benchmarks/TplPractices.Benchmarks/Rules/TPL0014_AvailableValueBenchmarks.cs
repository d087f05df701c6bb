using System.Threading.Tasks;
using BenchmarkDotNet.Attributes;
using BenchmarkDotNet.Configs;
using TplPractices.Benchmarks.Reporting;

namespace TplPractices.Benchmarks.Rules;

/// <summary>
/// TPL0014: a delegate task that only hands back a value the caller has, against the completed task the fix writes;
/// a delegate task that does nothing, against Task.CompletedTask; and an await of a completed task inside an async
/// method, against the value. Each operation takes the task's result, as a caller would.
/// </summary>
[MemoryDiagnoser]
[GroupBenchmarksBy(BenchmarkLogicalGroupRule.ByCategory)]
[CategoriesColumn]
[SeedSource(
    "Running millions of tasks (.NET Core): a delegate task costs a closure, a queue hop and a pool thread; a promise task costs one allocation",
    "Task.FromResult makes the completed task at once; Task.Run must queue its delegate and have a pool thread run it before the result exists.")]
[ReportSection(127, "TPL0014: delegate tasks and awaits for values that are already available", "one task made and its result taken")]
public class TPL0014_AvailableValueBenchmarks
{
    private readonly Task _ready = Task.CompletedTask;
    private int _value = 1000;

    [Benchmark(Baseline = true, Description = "Task.Run(() => value).Result")]
    [BenchmarkCategory("A value the caller has")]
    public int Before_Run()
    {
        var value = _value;
        return Task.Run(() => value).Result;
    }

    [Benchmark(Description = "Task.FromResult(value).Result")]
    [BenchmarkCategory("A value the caller has")]
    public int After_Run()
    {
        var value = _value;
        return Task.FromResult(value).Result;
    }

    [Benchmark(Baseline = true, Description = "Task.Run(() => { }).Wait()")]
    [BenchmarkCategory("A delegate that does nothing")]
    public void Before_Nothing() => Task.Run(() => { }).Wait();

    [Benchmark(Description = "Task.CompletedTask.Wait()")]
    [BenchmarkCategory("A delegate that does nothing")]
    public void After_Nothing() => Task.CompletedTask.Wait();

    [Benchmark(Baseline = true, Description = "async method: var y = await Task.FromResult(x)")]
    [BenchmarkCategory("An await of a completed task")]
    public int Before_Await() => AwaitsCompleted(_value).Result;

    [Benchmark(Description = "async method: var y = x")]
    [BenchmarkCategory("An await of a completed task")]
    public int After_Await() => UsesValue(_value).Result;

    private async Task<int> AwaitsCompleted(int x)
    {
        await _ready;
        var y = await Task.FromResult(x);
        _value = y;
        return y + 1;
    }

    private async Task<int> UsesValue(int x)
    {
        await _ready;
        var y = x;
        _value = y;
        return y + 1;
    }
}
