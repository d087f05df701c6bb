using System;
using System.Threading.Tasks;
using BenchmarkDotNet.Attributes;
using TplPractices.Benchmarks.Reporting;

namespace TplPractices.Benchmarks.Seeds;

/// <summary>
/// The TPL whitepaper's Tables 4 and 5: attaching continuations to build a chain of tasks that never run.
/// One operation is one link; each invocation builds a whole chain of 100,000. The chain is returned as
/// object: BenchmarkDotNet would wait for a returned Task, and these never run.
/// </summary>
[MemoryDiagnoser]
[InvocationCount(16)] // 100,000 links per invocation
[SeedSource(
    "TPL whitepaper (.NET 4.5), Tables 4–5: ntasks = 100,000, 25 iterations; time per 100,000 converted to per link",
    "The first continuation is still a single interlocked store into the task and the second still allocates a list, so a dual link still costs several times the bytes of a single one; both kinds of link take a fraction of the 2012 time.")]
[ReportSection(20, "Whitepaper Tables 4–5: continuation chains", "one link of a 100,000-link chain that never runs")]
public class Whitepaper_ContinuationBenchmarks
{
    public const int Links = 100_000;

    private static readonly Action<Task> Nothing = static _ => { };

    [Benchmark(Description = "single continuation per task", OperationsPerInvoke = Links)]
    [Seed("x64: 187 ns, 120 B per link; x86: 170 ns, 64 B")]
    public object SingleContinuationChain()
    {
        var current = new Task(static () => { });
        for (var i = 1; i < Links; i++)
        {
            current = current.ContinueWith(Nothing);
        }

        return current;
    }

    [Benchmark(Description = "two continuations per task", OperationsPerInvoke = Links)]
    [Seed("x64: 882 ns, 344 B per link; x86: 840 ns, 184 B")]
    public object DualContinuationChain()
    {
        var current = new Task(static () => { });
        for (var i = 1; i < Links; i++)
        {
            var next = current.ContinueWith(Nothing);
            current.ContinueWith(Nothing); // a continuation to nowhere: the second one is the costly one
            current = next;
        }

        return current;
    }
}
