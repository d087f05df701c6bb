using System.Reflection;
using BenchmarkDotNet.Reports;
using BenchmarkDotNet.Running;

namespace TplPractices.Benchmarks.Reporting;

/// <summary>Prints each benchmark's <see cref="SeedAttribute"/> figure beside our measurement.</summary>
public sealed class SeedColumn()
    : TextColumn("Seed figure", "The figure the seed article published for this measurement (.NET 4.5 era)", alwaysShow: false, priority: 0)
{
    public static readonly SeedColumn Instance = new();

    public static string? FigureOf(BenchmarkCase benchmark) =>
        benchmark.Descriptor.WorkloadMethod.GetCustomAttribute<SeedAttribute>()?.Figure;

    protected override string? Text(Summary summary, BenchmarkCase benchmarkCase) => FigureOf(benchmarkCase);
}
