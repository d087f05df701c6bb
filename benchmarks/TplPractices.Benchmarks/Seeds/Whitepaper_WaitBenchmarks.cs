using System;
using System.Threading.Tasks;
using BenchmarkDotNet.Attributes;
using TplPractices.Benchmarks.Reporting;

namespace TplPractices.Benchmarks.Seeds;

/// <summary>
/// The TPL whitepaper's Tables 6 and 7: Task.WaitAll and Task.WaitAny with a 1 ms timeout over 100,000
/// tasks that never complete. One operation is one wait, on 100,000 fresh tasks.
/// </summary>
[MemoryDiagnoser]
[InvocationCount(1, 1)] // fresh tasks for every wait, made in the iteration setup
[SeedSource(
    "TPL whitepaper (.NET 4.5), Tables 6–7: ntasks = 100,000, 1 ms timeout, 25 iterations",
    "As in .NET 4.5, one wait registers one shared completion object on every task instead of a kernel event per task. Our bytes are everything allocated during the wait (a list per task once its continuation is removed), not the memory left afterwards that the seed reported.")]
[ReportSection(30, "Whitepaper Tables 6–7: WaitAll and WaitAny over pending tasks", "one wait with a 1 ms timeout on 100,000 pending tasks")]
public class Whitepaper_WaitBenchmarks
{
    public const int Tasks = 100_000;

    private static readonly Action Nothing = static () => { };

    private Task[] _tasks = Array.Empty<Task>();

    [IterationSetup]
    public void CreateTasks()
    {
        _tasks = new Task[Tasks];
        for (var i = 0; i < _tasks.Length; i++)
        {
            _tasks[i] = new Task(Nothing);
        }
    }

    [Benchmark(Description = "Task.WaitAll(100,000 pending, 1 ms)")]
    [Seed("x64: 5 ms, 64 B left; x86: 5 ms, 36 B left")]
    public bool WaitAll() => Task.WaitAll(_tasks, 1);

    [Benchmark(Description = "Task.WaitAny(100,000 pending, 1 ms)")]
    [Seed("x64: 3 ms, 152 B left; x86: 2.2 ms, 80 B left")]
    public int WaitAny() => Task.WaitAny(_tasks, 1);
}
