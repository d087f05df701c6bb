using System;
using System.Threading.Tasks;
using BenchmarkDotNet.Attributes;
using TplPractices.Benchmarks.Reporting;

namespace TplPractices.Benchmarks.Seeds;

/// <summary>
/// The TPL whitepaper's Tables 1–3: the time and size of one Task, one Task&lt;int&gt; and one
/// TaskCompletionSource&lt;int&gt;. The whitepaper created 100,000 per run; one operation here is one object.
/// The unstarted tasks are returned as object: BenchmarkDotNet would wait for a returned Task, forever.
/// </summary>
[MemoryDiagnoser]
[SeedSource(
    "TPL whitepaper (.NET 4.5), Tables 1–3: ntasks = 100,000, 25 iterations; time per 100,000 converted to per object",
    "Each object is 8 bytes smaller than on .NET 4.5 x64, which already moved rarely used state into a separate object created on demand; what remains is the same handful of fields, so the savings since are in time, not size.")]
[ReportSection(10, "Whitepaper Tables 1–3: creating tasks", "one object")]
public class Whitepaper_CreationBenchmarks
{
    private static readonly Action EmptyAction = static () => { };
    private static readonly Func<int> Answer = static () => 42;

    [Benchmark(Description = "new Task(action)")]
    [Seed("x64: 100 ns, 72 B; x86: 80 ns, 40 B")]
    public object CreateTask() => new Task(EmptyAction);

    [Benchmark(Description = "new Task<int>(function)")]
    [Seed("x64: 100 ns, 80 B; x86: 77 ns, 44 B")]
    public object CreateFuture() => new Task<int>(Answer);

    [Benchmark(Description = "new TaskCompletionSource<int>()")]
    [Seed("x64: 80 ns, 104 B; x86: 73 ns, 56 B")]
    public TaskCompletionSource<int> CreateTaskCompletionSource() => new();
}
