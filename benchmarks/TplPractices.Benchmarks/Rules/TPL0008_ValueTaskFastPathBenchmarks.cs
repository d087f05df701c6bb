using System.Collections.Generic;
using System.Threading.Tasks;
using BenchmarkDotNet.Attributes;
using BenchmarkDotNet.Configs;
using TplPractices.Benchmarks.Reporting;

namespace TplPractices.Benchmarks.Rules;

/// <summary>
/// TPL0008: a short async method called in a loop, the seed's case, as Task&lt;T&gt; and as the ValueTask&lt;T&gt; the fix
/// returns. The fast path is a dictionary hit (completes synchronously with a value no runtime caches); the slow path
/// awaits Task.Yield, to show what ValueTask&lt;T&gt; costs where the method does suspend. A plain synchronous lookup is the
/// floor. Each operation is one call, averaged over a loop of 1,000.
/// </summary>
[MemoryDiagnoser]
[SmokeInvocations(1024)]
[GroupBenchmarksBy(BenchmarkLogicalGroupRule.ByCategory)]
[CategoriesColumn]
[SeedSource(
    "The async/await overhead article (.NET 4.5): about 15 % over 1,000 ms of work for 1,000 awaited calls; avoid async for very short, frequently called methods",
    "On .NET 10 the overhead of a call that completes synchronously is mostly the Task<T> it returns; ValueTask<T> removes that allocation, while a method that really suspends costs about the same either way.")]
[ReportSection(117, "TPL0008: ValueTask<T> for a private async method with a synchronous fast path", "one call (1,000 per invocation)")]
public class TPL0008_ValueTaskFastPathBenchmarks
{
    private const int Calls = 1000;
    private readonly Dictionary<int, string> _cache = new() { [1] = "one" };

    [Benchmark(Baseline = true, OperationsPerInvoke = Calls, Description = "async Task<string>, cache hit")]
    [BenchmarkCategory("Fast path (returns before its first await)")]
    [Seed("about 150 µs per call over 1 ms of work (WPF, with Task.Run)")]
    public int Before_FastPath() => SumTask(1).GetAwaiter().GetResult();

    [Benchmark(OperationsPerInvoke = Calls, Description = "async ValueTask<string>, cache hit")]
    [BenchmarkCategory("Fast path (returns before its first await)")]
    public int After_FastPath() => SumValueTask(1).GetAwaiter().GetResult();

    [Benchmark(OperationsPerInvoke = Calls, Description = "plain synchronous lookup (the floor)")]
    [BenchmarkCategory("Fast path (returns before its first await)")]
    public int Floor_Synchronous()
    {
        var total = 0;
        for (var i = 0; i < Calls; i++)
        {
            total += _cache[1].Length;
        }

        return total;
    }

    // No baseline here on purpose: the smoke run's allocation check compares a fix with what it replaces, and on this
    // path ValueTask<T> allocates a few bytes more (its state machine box is larger). The docs give both figures.
    [Benchmark(OperationsPerInvoke = Calls, Description = "async Task<string>, cache miss (awaits)")]
    [BenchmarkCategory("Slow path (awaits Task.Yield)")]
    public int Before_SlowPath() => SumTask(2).GetAwaiter().GetResult();

    [Benchmark(OperationsPerInvoke = Calls, Description = "async ValueTask<string>, cache miss (awaits)")]
    [BenchmarkCategory("Slow path (awaits Task.Yield)")]
    public int After_SlowPath() => SumValueTask(2).GetAwaiter().GetResult();

    private async Task<int> SumTask(int key)
    {
        var total = 0;
        for (var i = 0; i < Calls; i++)
        {
            total += (await GetTask(key)).Length;
        }

        return total;
    }

    private async Task<int> SumValueTask(int key)
    {
        var total = 0;
        for (var i = 0; i < Calls; i++)
        {
            total += (await GetValueTask(key)).Length;
        }

        return total;
    }

    // The two methods differ only in the return type, as the fix leaves them.
    private async Task<string> GetTask(int key)
    {
        if (_cache.TryGetValue(key, out var hit))
        {
            return hit;
        }

        await Task.Yield();
        return "loaded";
    }

    private async ValueTask<string> GetValueTask(int key)
    {
        if (_cache.TryGetValue(key, out var hit))
        {
            return hit;
        }

        await Task.Yield();
        return "loaded";
    }
}
