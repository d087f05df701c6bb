using System.Threading.Tasks;
using BenchmarkDotNet.Attributes;
using BenchmarkDotNet.Configs;
using TplPractices.Benchmarks.Reporting;

namespace TplPractices.Benchmarks.Rules;

/// <summary>
/// TPL0018: two ContinueWith calls on one task against one continuation that does both. One operation makes a source,
/// registers the continuations on its task and completes it; ExecuteSynchronously keeps the pool out of the time.
/// </summary>
[MemoryDiagnoser]
[GroupBenchmarksBy(BenchmarkLogicalGroupRule.ByCategory)]
[CategoriesColumn]
[SeedSource(
    "TPL whitepaper (.NET 4.5), Tables 4–5: a task's second continuation allocates a continuation list",
    "The first continuation is still stored in a field of the task and the second still turns it into a list, so two continuations cost a list on top of a second continuation object and task.")]
[ReportSection(133, "TPL0018: two continuations on one task against one that does both", "one task completed, its continuations run inline")]
public class TPL0018_SecondContinuationBenchmarks
{
    private const TaskContinuationOptions Inline = TaskContinuationOptions.ExecuteSynchronously;
    private int _first;
    private int _second;

    [Benchmark(Baseline = true, Description = "task.ContinueWith(a); task.ContinueWith(b)")]
    [BenchmarkCategory("Two continuations")]
    public void Before_Two()
    {
        var source = new TaskCompletionSource<int>();
        var task = source.Task;
        task.ContinueWith(t => _first += t.Result, Inline);
        task.ContinueWith(t => _second -= t.Result, Inline);
        source.SetResult(1);
    }

    [Benchmark(Description = "task.ContinueWith(t => { a; b; })")]
    [BenchmarkCategory("Two continuations")]
    public void After_One()
    {
        var source = new TaskCompletionSource<int>();
        source.Task.ContinueWith(
            t =>
            {
                _first += t.Result;
                _second -= t.Result;
            },
            Inline);
        source.SetResult(1);
    }
}
