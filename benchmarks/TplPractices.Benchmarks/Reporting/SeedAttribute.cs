using System;

namespace TplPractices.Benchmarks.Reporting;

/// <summary>
/// The figure a seed article published for the same measurement, shown beside ours in the console table
/// and in docs/benchmarks.md. Free text, because the articles report in different units.
/// </summary>
[AttributeUsage(AttributeTargets.Method)]
public sealed class SeedAttribute : Attribute
{
    public SeedAttribute(string figure) => Figure = figure;

    public string Figure { get; }
}

/// <summary>Where a benchmark class's reference figures come from, and what changed since, for the report.</summary>
[AttributeUsage(AttributeTargets.Class)]
public sealed class SeedSourceAttribute : Attribute
{
    public SeedSourceAttribute(string source, string sinceThen)
    {
        Source = source;
        SinceThen = sinceThen;
    }

    /// <summary>The article and table, e.g. "TPL whitepaper (.NET 4.5), Table 8".</summary>
    public string Source { get; }

    /// <summary>One line on what changed since .NET 4.5 and why.</summary>
    public string SinceThen { get; }
}

/// <summary>How a benchmark class appears in docs/benchmarks.md: its place, its heading and what one operation is.</summary>
[AttributeUsage(AttributeTargets.Class)]
public sealed class ReportSectionAttribute : Attribute
{
    public ReportSectionAttribute(int order, string title, string operation)
    {
        Order = order;
        Title = title;
        Operation = operation;
    }

    public int Order { get; }

    public string Title { get; }

    /// <summary>What one measured operation is, e.g. "one link of a 100,000-link chain".</summary>
    public string Operation { get; }
}
