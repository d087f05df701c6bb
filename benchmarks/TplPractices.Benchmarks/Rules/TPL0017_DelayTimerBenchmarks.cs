using System;
using System.Threading;
using System.Threading.Tasks;
using BenchmarkDotNet.Attributes;
using BenchmarkDotNet.Configs;
using TplPractices.Benchmarks.Reporting;

namespace TplPractices.Benchmarks.Rules;

/// <summary>
/// TPL0017: a Task.Delay racing a task that is already done in Task.WhenAny (and in WaitAny), against WaitAsync and
/// against the fix (the delay canceled once the race is decided); the timer loop is
/// <see cref="TPL0017_DelayTimerLoopBenchmarks"/>.
/// </summary>
[MemoryDiagnoser]
[GroupBenchmarksBy(BenchmarkLogicalGroupRule.ByCategory)]
[CategoriesColumn]
[SeedSource(
    "Running millions of tasks (.NET Core): the default timer queue is not built for many Task.Delay timers that always fire",
    "Each Task.Delay allocates a promise task and a timer queued until it fires; a PeriodicTimer reuses one timer, and WaitAsync on a finished task queues none.")]
[ReportSection(134, "TPL0017: a time-out race, Task.Delay in WhenAny against WaitAsync", "one call")]
public class TPL0017_DelayTimerBenchmarks
{
    private readonly Task _done = Task.CompletedTask;

    [Benchmark(Baseline = true, Description = "await Task.WhenAny(done, Task.Delay(50))")]
    [BenchmarkCategory("Time-out race, the task already done")]
    public Task Before_Race() => Task.WhenAny(_done, Task.Delay(50));

    [Benchmark(Description = "await done.WaitAsync(TimeSpan.FromMilliseconds(50))")]
    [BenchmarkCategory("Time-out race, the task already done")]
    public Task After_Race() => _done.WaitAsync(TimeSpan.FromMilliseconds(50));

    /// <summary>The fix: the delay takes a source's token and the source is canceled once the race is decided.</summary>
    [Benchmark(Description = "WhenAny(done, Task.Delay(50, cts.Token)); cts.Cancel()")]
    [BenchmarkCategory("Time-out race, the task already done")]
    [TradesAllocation("the source and its registration cost bytes; canceling takes the timer out of the queue at once, where the baseline's timers stay queued for 50 ms and are collected in Gen1 and Gen2")]
    public async Task Fixed_Race()
    {
        using var delayCancellation = new CancellationTokenSource();
        await Task.WhenAny(_done, Task.Delay(50, delayCancellation.Token));
        delayCancellation.Cancel();
    }

    /// <summary>A caller's token that lives on (a request's or a service's): the delay registers on it as well.</summary>
    private readonly CancellationTokenSource _caller = new();

    [Benchmark(Baseline = true, Description = "await Task.WhenAny(done, Task.Delay(50, callerToken))")]
    [BenchmarkCategory("Time-out race on the caller's token, the task already done")]
    public Task Before_CallersTokenRace() => Task.WhenAny(_done, Task.Delay(50, _caller.Token));

    /// <summary>The fix for a delay on the caller's token: a source linked to it, canceled once the race is decided.</summary>
    [Benchmark(Description = "linked = CreateLinkedTokenSource(callerToken); WhenAny(done, Task.Delay(50, linked.Token)); linked.Cancel()")]
    [BenchmarkCategory("Time-out race on the caller's token, the task already done")]
    [TradesAllocation("the linked source and its registration on the caller's token cost bytes; canceling takes the timer out of the queue and the delay's registration off the caller's token at once, where the baseline leaves both for 50 ms")]
    public async Task Fixed_CallersTokenRace()
    {
        using var delayCancellation = CancellationTokenSource.CreateLinkedTokenSource(_caller.Token);
        await Task.WhenAny(_done, Task.Delay(50, delayCancellation.Token));
        delayCancellation.Cancel();
    }

    [Benchmark(Baseline = true, Description = "Task.WaitAny(done, Task.Delay(50))")]
    [BenchmarkCategory("WaitAny race, the task already done")]
    public int Before_WaitAny() => Task.WaitAny(_done, Task.Delay(50));

    /// <summary>The fix for a blocking race: the same source, canceled once WaitAny has returned its index.</summary>
    [Benchmark(Description = "WaitAny(done, Task.Delay(50, cts.Token)); cts.Cancel()")]
    [BenchmarkCategory("WaitAny race, the task already done")]
    [TradesAllocation("the source and its registration cost bytes; canceling takes the timer out of the queue at once, where the baseline's timers stay queued for 50 ms")]
    public int Fixed_WaitAny()
    {
        using var delayCancellation = new CancellationTokenSource();
        var winner = Task.WaitAny(_done, Task.Delay(50, delayCancellation.Token));
        delayCancellation.Cancel();
        return winner;
    }
}

/// <summary>
/// TPL0017: a loop that waits with Task.Delay at the end of each pass, against one PeriodicTimer ticking for the whole
/// loop. One operation is a loop of ten 1 ms passes: the time is mostly the waiting, the same for both; the bytes are
/// what the passes allocate. Sixteen operations per iteration: each takes about ten milliseconds.
/// </summary>
[MemoryDiagnoser]
[InvocationCount(16, 1)]
[GroupBenchmarksBy(BenchmarkLogicalGroupRule.ByCategory)]
[CategoriesColumn]
[SeedSource(
    "Running millions of tasks (.NET Core): the default timer queue is not built for many Task.Delay timers that always fire",
    "Each Task.Delay allocates a promise task and a timer queued until it fires; a PeriodicTimer reuses one timer.")]
[ReportSection(132, "TPL0017: a timer loop, Task.Delay against one PeriodicTimer", "a loop of ten 1 ms passes")]
public class TPL0017_DelayTimerLoopBenchmarks
{
    private const int Passes = 10;
    private int _work;

    // Sixteen operations do not amortise first-use costs (type initialisers, the timer queue, pool threads), and a
    // dry run has no warm-up: run both loops once before measuring so the bytes are the loops' own.
    [GlobalSetup]
    public void WarmUp()
    {
        Before_Loop().GetAwaiter().GetResult();
        After_Loop().GetAwaiter().GetResult();
    }

    [Benchmark(Baseline = true, Description = "10 passes: Work(); await Task.Delay(1)")]
    [BenchmarkCategory("Timer loop, 10 passes of 1 ms")]
    public async Task Before_Loop()
    {
        for (var pass = 0; pass < Passes; pass++)
        {
            _work++;
            await Task.Delay(1);
        }
    }

    [Benchmark(Description = "10 passes: Work(); await timer.WaitForNextTickAsync()")]
    [BenchmarkCategory("Timer loop, 10 passes of 1 ms")]
    public async Task After_Loop()
    {
        using var timer = new PeriodicTimer(TimeSpan.FromMilliseconds(1));
        for (var pass = 0; pass < Passes; pass++)
        {
            _work++;
            await timer.WaitForNextTickAsync();
        }
    }
}
