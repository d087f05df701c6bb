using System;
using System.Threading;
using System.Threading.Tasks;
using BenchmarkDotNet.Attributes;
using BenchmarkDotNet.Configs;
using TplPractices.Benchmarks.Reporting;

namespace TplPractices.Benchmarks.Rules;

/// <summary>
/// TPL0004: waiting through a task's AsyncWaitHandle against the fix's wait on the task itself. Every
/// operation uses a fresh task, since a task keeps its handle once created; both sides pay for that task.
/// </summary>
[MemoryDiagnoser]
[GroupBenchmarksBy(BenchmarkLogicalGroupRule.ByCategory)]
[CategoriesColumn]
[SeedSource(
    "TPL whitepaper (.NET 4.5), \"Know the causes of Task inflation\" (no figures published)",
    "As in .NET 4.5, a task creates its wait handle and contingent properties only when asked; Task.WaitAny and await still need neither, and .NET 8's SuppressThrowing lets an await ignore faults as WaitOne did.")]
[ReportSection(140, "TPL0004: waiting on the task instead of its AsyncWaitHandle", "one wait, on a fresh task")]
public class TPL0004_AsyncWaitHandleBenchmarks
{
    private const int ShortWork = 20;

    // A field, so the JIT cannot treat the result as a constant (and the runtime does not cache 42).
    private int _value = 42;

    [Benchmark(Baseline = true, Description = "AsyncWaitHandle.WaitOne() (completed)")]
    [BenchmarkCategory("Already completed")]
    public bool Before_Completed() => ((IAsyncResult)Task.FromResult(_value)).AsyncWaitHandle.WaitOne();

    [Benchmark(Description = "Task.WaitAny(task) (completed)")]
    [BenchmarkCategory("Already completed")]
    public bool After_Completed() => Task.WaitAny(Task.FromResult(_value)) == 0;

    [Benchmark(Baseline = true, Description = "AsyncWaitHandle.WaitOne() (Task.Run)")]
    [BenchmarkCategory("Completes shortly")]
    public bool Before_CompletesShortly() =>
        ((IAsyncResult)Task.Run(static () => Thread.SpinWait(ShortWork))).AsyncWaitHandle.WaitOne();

    [Benchmark(Description = "Task.WaitAny(task) (Task.Run)")]
    [BenchmarkCategory("Completes shortly")]
    public bool After_CompletesShortly() => Task.WaitAny(Task.Run(static () => Thread.SpinWait(ShortWork))) == 0;

    [Benchmark(Baseline = true, Description = "WaitHandle.WaitAll(2 handles) (completed)")]
    [BenchmarkCategory("WaitAll of two completed")]
    public bool Before_WaitAll() => WaitHandle.WaitAll(new[]
    {
        ((IAsyncResult)Task.FromResult(_value)).AsyncWaitHandle,
        ((IAsyncResult)Task.FromResult(_value)).AsyncWaitHandle,
    });

    [Benchmark(Description = "Task.WaitAny(Task.WhenAll(2 tasks)) (completed)")]
    [BenchmarkCategory("WaitAll of two completed")]
    public bool After_WaitAll() => Task.WaitAny(Task.WhenAll(Task.FromResult(_value), Task.FromResult(_value))) == 0;

    [Benchmark(Baseline = true, Description = "WaitOne() in an async method (completed)")]
    [BenchmarkCategory("Async method, completed")]
    public async Task<bool> Before_Async()
    {
        var result = ((IAsyncResult)Task.FromResult(_value)).AsyncWaitHandle.WaitOne();
        await Task.CompletedTask;
        return result;
    }

    [Benchmark(Description = "await with SuppressThrowing (completed)")]
    [BenchmarkCategory("Async method, completed")]
    public async Task<bool> After_Async()
    {
        await ((Task)Task.FromResult(_value)).ConfigureAwait(ConfigureAwaitOptions.ContinueOnCapturedContext | ConfigureAwaitOptions.SuppressThrowing);
        return true;
    }
}
