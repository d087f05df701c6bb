using System.Reflection;
using BenchmarkDotNet.Columns;
using BenchmarkDotNet.Reports;
using BenchmarkDotNet.Running;

namespace TplPractices.Benchmarks.Reporting;

/// <summary>Prints each benchmark's <see cref="SeedAttribute"/> figure beside our measurement.</summary>
public sealed class SeedColumn : IColumn
{
    public static readonly SeedColumn Instance = new();

    public string Id => nameof(SeedColumn);
    public string ColumnName => "Seed figure";
    public bool AlwaysShow => false;
    public ColumnCategory Category => ColumnCategory.Custom;
    public int PriorityInCategory => 0;
    public bool IsNumeric => false;
    public UnitType UnitType => UnitType.Dimensionless;
    public string Legend => "The figure the seed article published for this measurement (.NET 4.5 era)";

    public static string? FigureOf(BenchmarkCase benchmark) =>
        benchmark.Descriptor.WorkloadMethod.GetCustomAttribute<SeedAttribute>()?.Figure;

    public string GetValue(Summary summary, BenchmarkCase benchmarkCase) => FigureOf(benchmarkCase) ?? "-";

    public string GetValue(Summary summary, BenchmarkCase benchmarkCase, SummaryStyle style) => GetValue(summary, benchmarkCase);

    public bool IsDefault(Summary summary, BenchmarkCase benchmarkCase) => FigureOf(benchmarkCase) is null;

    public bool IsAvailable(Summary summary) => true;
}
