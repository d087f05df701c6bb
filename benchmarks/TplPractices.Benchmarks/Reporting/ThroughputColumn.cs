using System;
using BenchmarkDotNet.Attributes;
using BenchmarkDotNet.Columns;
using BenchmarkDotNet.Reports;
using BenchmarkDotNet.Running;

namespace TplPractices.Benchmarks.Reporting;

/// <summary>Operations per second (1 s divided by the mean time per operation), for throughput benchmarks.</summary>
public sealed class ThroughputColumn : IColumn
{
    public static readonly ThroughputColumn Instance = new();

    public string Id => nameof(ThroughputColumn);
    public string ColumnName => "Throughput";
    public bool AlwaysShow => true;
    public ColumnCategory Category => ColumnCategory.Custom;
    public int PriorityInCategory => 1;
    public bool IsNumeric => true;
    public UnitType UnitType => UnitType.Dimensionless;
    public string Legend => "Operations per second: 1 s / mean time per operation";

    /// <summary>"2.35 million/s", or null when the case did not run.</summary>
    public static string? Format(Summary summary, BenchmarkCase benchmarkCase) =>
        summary[benchmarkCase]?.ResultStatistics?.Mean is { } nanoseconds and > 0
            ? $"{1e9 / nanoseconds / 1e6:0.00} million/s"
            : null;

    public string GetValue(Summary summary, BenchmarkCase benchmarkCase) => Format(summary, benchmarkCase) ?? "-";

    public string GetValue(Summary summary, BenchmarkCase benchmarkCase, SummaryStyle style) => GetValue(summary, benchmarkCase);

    public bool IsDefault(Summary summary, BenchmarkCase benchmarkCase) => false;

    public bool IsAvailable(Summary summary) => true;
}

/// <summary>Adds <see cref="ThroughputColumn"/> to a benchmark class's summary and report.</summary>
[AttributeUsage(AttributeTargets.Class)]
public sealed class ThroughputColumnAttribute : ColumnConfigBaseAttribute
{
    public ThroughputColumnAttribute()
        : base(ThroughputColumn.Instance)
    {
    }
}
