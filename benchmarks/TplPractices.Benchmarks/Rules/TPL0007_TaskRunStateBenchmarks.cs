using System.Threading;
using System.Threading.Tasks;
using BenchmarkDotNet.Attributes;
using BenchmarkDotNet.Configs;
using TplPractices.Benchmarks.Reporting;

namespace TplPractices.Benchmarks.Rules;

/// <summary>
/// TPL0007: Task.Run with a capturing lambda against the StartNew call the fix writes (Task.Run's own options,
/// plus the state), for a synchronous and an async delegate. Each operation runs the task to completion.
/// </summary>
[MemoryDiagnoser]
[GroupBenchmarksBy(BenchmarkLogicalGroupRule.ByCategory)]
[CategoriesColumn]
[SeedSource(
    "TPL whitepaper (.NET 4.5), \"Encode closure information into a Task's state object\" (no figures published)",
    "Task.Run (added in .NET 4.5) has no state overload; StartNew with DenyChildAttach and TaskScheduler.Default is what it does inside.")]
[ReportSection(116, "TPL0007: Task.Run against StartNew with a state", "one task, run to completion")]
public class TPL0007_TaskRunStateBenchmarks
{
    private int _value = 42;

    [Benchmark(Baseline = true, Description = "Task.Run(() => value * 2)")]
    [BenchmarkCategory("Synchronous delegate")]
    public int Before_Sync()
    {
        var value = _value;
        return Task.Run(() => value * 2).Result;
    }

    [Benchmark(Description = "StartNew(static state => …, value, None, DenyChildAttach, Default)")]
    [BenchmarkCategory("Synchronous delegate")]
    public int After_Sync() =>
        Task.Factory.StartNew(static state => (int)state! * 2, _value, CancellationToken.None, TaskCreationOptions.DenyChildAttach, TaskScheduler.Default).Result;

    [Benchmark(Baseline = true, Description = "Task.Run(async () => …)")]
    [BenchmarkCategory("Async delegate")]
    public int Before_Async()
    {
        var value = _value;
        return Task.Run(async () =>
        {
            await Task.Yield();
            return value * 2;
        }).Result;
    }

    [Benchmark(Description = "StartNew(static async state => …, value, …).Unwrap()")]
    [BenchmarkCategory("Async delegate")]
    public int After_Async() =>
        Task.Factory.StartNew(static async state =>
        {
            await Task.Yield();
            return (int)state! * 2;
        }, _value, CancellationToken.None, TaskCreationOptions.DenyChildAttach, TaskScheduler.Default).Unwrap().Result;

    [GlobalCleanup]
    public void Cleanup() => _value++;
}
