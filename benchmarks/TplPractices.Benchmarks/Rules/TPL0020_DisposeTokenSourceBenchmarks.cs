using System;
using System.Threading;
using BenchmarkDotNet.Attributes;
using BenchmarkDotNet.Configs;
using TplPractices.Benchmarks.Reporting;

namespace TplPractices.Benchmarks.Rules;

/// <summary>
/// TPL0020: a time-out source or a linked source per call, left for the garbage collector or disposed. One operation
/// makes the source and reads its token, as a call that guards its work would. An undisposed time-out source keeps its
/// timer queued until it fires (100 ms here, so that a run keeps about a second's worth of sources, not minutes'), and an
/// undisposed linked source stays registered on its parent, which is replaced every 10,000 calls (a parent that lives
/// as long as the app, such as a host's stopping token, would keep every one of them).
/// </summary>
[MemoryDiagnoser]
[GroupBenchmarksBy(BenchmarkLogicalGroupRule.ByCategory)]
[CategoriesColumn]
[SeedSource(
    "Running millions of tasks (.NET Core): the timer queue is built for timers that are canceled before they fire",
    "A disposed time-out source takes its timer out of the queue at once; an undisposed one leaves it there, with the source it roots, until it fires.")]
[ReportSection(136, "TPL0020: a time-out or linked CancellationTokenSource per call, undisposed against disposed", "one source made, its token read")]
public class TPL0020_DisposeTokenSourceBenchmarks
{
    private static readonly TimeSpan TimeOut = TimeSpan.FromMilliseconds(100);
    private CancellationTokenSource _parent = new();
    private int _calls;
    private bool _seen;

    [Benchmark(Baseline = true, Description = "var timeout = new CancellationTokenSource(delay)")]
    [BenchmarkCategory("Time-out source")]
    public bool Before_TimeOut()
    {
        var timeout = new CancellationTokenSource(TimeOut);
        return Use(timeout.Token);
    }

    [Benchmark(Description = "using var timeout = new CancellationTokenSource(delay) (the fix)")]
    [BenchmarkCategory("Time-out source")]
    public bool After_TimeOut()
    {
        using var timeout = new CancellationTokenSource(TimeOut);
        return Use(timeout.Token);
    }

    [Benchmark(Baseline = true, Description = "var linked = CreateLinkedTokenSource(parent)")]
    [BenchmarkCategory("Linked source")]
    public bool Before_Linked()
    {
        var linked = CancellationTokenSource.CreateLinkedTokenSource(Parent());
        return Use(linked.Token);
    }

    [Benchmark(Description = "using var linked = CreateLinkedTokenSource(parent) (the fix)")]
    [BenchmarkCategory("Linked source")]
    public bool After_Linked()
    {
        using var linked = CancellationTokenSource.CreateLinkedTokenSource(Parent());
        return Use(linked.Token);
    }

    private CancellationToken Parent()
    {
        if (++_calls % 10_000 == 0)
        {
            _parent = new CancellationTokenSource();
        }

        return _parent.Token;
    }

    /// <summary>Stands for the guarded work: reads the token's state.</summary>
    private bool Use(CancellationToken token)
    {
        _seen ^= token.IsCancellationRequested;
        return _seen;
    }
}
