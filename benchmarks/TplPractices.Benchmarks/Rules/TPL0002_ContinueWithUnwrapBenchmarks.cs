using System.Threading.Tasks;
using BenchmarkDotNet.Attributes;
using TplPractices.Benchmarks.Reporting;

namespace TplPractices.Benchmarks.Rules;

/// <summary>
/// TPL0002, and the whitepaper's Table 8: a chain of 100,000 already-scheduled tasks, linked with
/// ContinueWith/Unwrap, against the same tasks awaited one after another. One operation is one whole chain.
/// </summary>
[MemoryDiagnoser]
[InvocationCount(4)] // one operation is 100,000 tasks: a few per iteration, even in the smoke run
[SeedSource(
    "TPL whitepaper (.NET 4.5), Table 8: ntasks = 100,000, 25 iterations",
    "The await chain still wins; the runtime's task and state-machine allocations shrank since .NET 4.5, while each ContinueWith/Unwrap link still pays for a continuation task and a proxy.")]
[ReportSection(40, "Whitepaper Table 8 and TPL0002: ContinueWith/Unwrap against await", "one whole chain of 100,000 already-scheduled tasks")]
public class TPL0002_ContinueWithUnwrapBenchmarks
{
    public const int Links = 100_000;

    // A "fake" asynchronous method: an empty task already queued to the thread pool.
    private static Task Scheduled() => Task.Factory.StartNew(static () => { });

    [Benchmark(Baseline = true, Description = "ContinueWith/Unwrap chain of 100,000")]
    [Seed("x64: 280.1 ms, 26.7 MB; x86: 256.3 ms, 14.5 MB")]
    public void DoContinuations()
    {
        Task current = Scheduled();
        for (var i = 1; i < Links; i++)
        {
            current = current.ContinueWith(static _ => Scheduled()).Unwrap();
        }

        current.Wait();
    }

    [Benchmark(Description = "await chain of 100,000")]
    [Seed("x64: 149.2 ms, 3.6 MB; x86: 143.9 ms, 3.3 MB")]
    public void DoAwaits() => Awaits().Wait();

    private static async Task Awaits()
    {
        for (var i = 0; i < Links; i++)
        {
            await Scheduled();
        }
    }
}
