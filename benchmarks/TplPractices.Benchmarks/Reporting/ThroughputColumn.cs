using System;
using BenchmarkDotNet.Attributes;
using BenchmarkDotNet.Reports;
using BenchmarkDotNet.Running;

namespace TplPractices.Benchmarks.Reporting;

/// <summary>Operations per second (1 s divided by the mean time per operation), for throughput benchmarks.</summary>
public sealed class ThroughputColumn()
    : TextColumn("Throughput", "Operations per second: 1 s / mean time per operation", alwaysShow: true, priority: 1)
{
    public static readonly ThroughputColumn Instance = new();

    /// <summary>"2.35 million/s", or null when the case did not run.</summary>
    public static string? Format(Summary summary, BenchmarkCase benchmarkCase) =>
        summary[benchmarkCase]?.ResultStatistics?.Mean is { } nanoseconds and > 0
            ? $"{1e9 / nanoseconds / 1e6:0.00} million/s"
            : null;

    protected override string? Text(Summary summary, BenchmarkCase benchmarkCase) => Format(summary, benchmarkCase);
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
