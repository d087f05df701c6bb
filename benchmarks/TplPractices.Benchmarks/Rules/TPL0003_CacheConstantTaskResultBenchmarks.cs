using System.Threading.Tasks;
using BenchmarkDotNet.Attributes;
using BenchmarkDotNet.Configs;
using TplPractices.Benchmarks.Reporting;

namespace TplPractices.Benchmarks.Rules;

/// <summary>
/// TPL0003: Task.FromResult(constant) against the cached task the fix returns. Two pairs: a value no
/// runtime caches (42), and one .NET 6+ already caches (true), which is why the rule is silent on it there.
/// </summary>
[MemoryDiagnoser]
[GroupBenchmarksBy(BenchmarkLogicalGroupRule.ByCategory)]
[CategoriesColumn]
[SeedSource(
    "TPL whitepaper (.NET 4.5), \"Use cached Tasks when possible\": 80 B per Task<int> on x64",
    "Since .NET 6 the runtime caches Task.FromResult for true, false, null and ints -1 to 8 (and .NET 8 adds zero values of small structs), so those cost nothing and TPL0003 skips them; every other value still allocates a task.")]
[ReportSection(130, "TPL0003: cached tasks of constant results", "one call")]
public class TPL0003_CacheConstantTaskResultBenchmarks
{
    private static readonly Task<int> s_int42Task = Task.FromResult(42);
    private static readonly Task<bool> s_boolTrueTask = Task.FromResult(true);

    [Benchmark(Baseline = true, Description = "Task.FromResult(42)")]
    [BenchmarkCategory("Uncached value 42")]
    [Seed("x64: 80 B per Task<int>; x86: 44 B")]
    public Task<int> Before_Uncached() => Task.FromResult(42);

    [Benchmark(Description = "static readonly field (42)")]
    [BenchmarkCategory("Uncached value 42")]
    public Task<int> After_Uncached() => s_int42Task;

    [Benchmark(Baseline = true, Description = "Task.FromResult(true)")]
    [BenchmarkCategory("Runtime-cached value true")]
    public Task<bool> Before_RuntimeCached() => Task.FromResult(true);

    [Benchmark(Description = "static readonly field (true)")]
    [BenchmarkCategory("Runtime-cached value true")]
    public Task<bool> After_RuntimeCached() => s_boolTrueTask;
}
