using System.Threading.Tasks;
using BenchmarkDotNet.Attributes;
using BenchmarkDotNet.Configs;
using TplPractices.Benchmarks.Reporting;

namespace TplPractices.Benchmarks.Rules;

/// <summary>
/// TPL0009: a parent task that starts one child, with and without AttachedToParent. Each operation waits for both
/// tasks: the attached child through the parent, the detached one through the parent's result (what "await the child"
/// means without async). Inside Task.Run the flag does nothing, which the second pair shows.
/// </summary>
[MemoryDiagnoser]
[GroupBenchmarksBy(BenchmarkLogicalGroupRule.ByCategory)]
[CategoriesColumn]
[SeedSource(
    "TPL whitepaper (.NET 4.5), \"Know the causes of Task inflation\": a parent in structured parallelism allocates its ContingentProperties (no figures published)",
    "Unchanged since .NET 4.5: an attached child also records its parent, and the parent counts and waits for its children; Task.Run denies attachment (since .NET 4.5), so there the flag changes nothing in behaviour, though the child still allocates for it.")]
[ReportSection(118, "TPL0009: AttachedToParent", "a parent and one child, both completed")]
public class TPL0009_AttachedToParentBenchmarks
{
    private static readonly System.Action Work = static () => { };

    [Benchmark(Baseline = true, Description = "StartNew(parent { StartNew(child, AttachedToParent) }).Wait()")]
    [BenchmarkCategory("Parent started with StartNew")]
    public void Before_Attached() =>
        Task.Factory.StartNew(static () => { Task.Factory.StartNew(Work, TaskCreationOptions.AttachedToParent); }).Wait();

    [Benchmark(Description = "StartNew(parent => StartNew(child)), wait parent, then child")]
    [BenchmarkCategory("Parent started with StartNew")]
    public void After_Detached() =>
        Task.Factory.StartNew(static () => Task.Factory.StartNew(Work)).Result.Wait();

    [Benchmark(Baseline = true, Description = "Task.Run(() => StartNew(child, AttachedToParent)).Wait()")]
    [BenchmarkCategory("Parent is Task.Run (the flag does nothing)")]
    public void Before_InTaskRun() =>
        Task.Run(static () => Task.Factory.StartNew(Work, TaskCreationOptions.AttachedToParent)).Wait();

    [Benchmark(Description = "Task.Run(() => StartNew(child)).Wait()")]
    [BenchmarkCategory("Parent is Task.Run (the flag does nothing)")]
    public void After_InTaskRun() =>
        Task.Run(static () => Task.Factory.StartNew(Work)).Wait();
}
