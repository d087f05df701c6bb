using System;
using System.Collections.Generic;
using System.Globalization;
using System.IO;
using System.Linq;
using System.Reflection;
using System.Text;
using BenchmarkDotNet.Reports;

namespace TplPractices.Benchmarks.Reporting;

/// <summary>
/// Writes docs/benchmarks.md from a run's summaries: the machine at the top, then one table per benchmark
/// class (mean, allocated, ratios to the group's baseline, the seed's figure), each with a line on what
/// changed since .NET 4.5.
/// </summary>
public static class MarkdownReport
{
    public const string Command = "dotnet run -c Release --project benchmarks/TplPractices.Benchmarks -- --report docs/benchmarks.md";

    public static void Write(string path, IReadOnlyList<Summary> summaries, string runInfo, string jobDescription)
    {
        var reports = summaries.SelectMany(s => s.Reports.Select(r => (Summary: s, Report: r))).ToList();
        var text = new StringBuilder()
            .AppendLine("# Benchmarks")
            .AppendLine()
            .AppendLine($"Generated from one run by `{Command}`. Do not edit by hand: run the command again.")
            .AppendLine()
            .AppendLine("```text")
            .Append(runInfo.TrimEnd())
            .AppendLine()
            .AppendLine($"Job:         {jobDescription}")
            .AppendLine("```")
            .AppendLine()
            .AppendLine("Mean is the time per operation (what one operation is, each section says). Allocated is the bytes")
            .AppendLine("allocated per operation on all threads. Ratios are to the baseline of the same group, the code a rule's")
            .AppendLine("fix replaces; a group without a baseline has none. Seed figures are what the source article published")
            .AppendLine("on its own machine, .NET 4 or 4.5 era hardware and runtime: compare ratios, not absolute times.")
            .AppendLine();

        foreach (var group in reports.GroupBy(r => r.Report.BenchmarkCase.Descriptor.Type).OrderBy(g => Order(g.Key)).ThenBy(g => g.Key.Name))
        {
            AppendSection(text, group.Key, group.ToList());
        }

        File.WriteAllText(path, text.ToString().Replace("\r\n", "\n"));
    }

    /// <summary>The classes a report covers must be marked: unmarked ones come last, under their type name.</summary>
    private static int Order(Type type) => type.GetCustomAttribute<ReportSectionAttribute>()?.Order ?? int.MaxValue;

    private static void AppendSection(StringBuilder text, Type type, List<(Summary Summary, BenchmarkReport Report)> rows)
    {
        var section = type.GetCustomAttribute<ReportSectionAttribute>();
        var seed = type.GetCustomAttribute<SeedSourceAttribute>();
        var throughput = type.GetCustomAttribute<ThroughputColumnAttribute>() is not null;
        text.AppendLine($"## {section?.Title ?? type.Name}")
            .AppendLine()
            .AppendLine($"`{type.Name}`; one operation is {section?.Operation ?? "one call"}." + (seed is null ? "" : $" Seed: {seed.Source}."))
            .AppendLine()
            .Append("| Benchmark | Group | Mean | Allocated | Time ratio | Alloc ratio |")
            .AppendLine(throughput ? " Throughput | Seed figure |" : " Seed figure |")
            .AppendLine(throughput ? "|---|---|---:|---:|---:|---:|---:|---|" : "|---|---|---:|---:|---:|---:|---|");

        foreach (var (summary, report) in rows)
        {
            var descriptor = report.BenchmarkCase.Descriptor;
            var category = string.Join(", ", descriptor.Categories);
            var baseline = rows.Select(r => r.Report).FirstOrDefault(r => r.BenchmarkCase.Descriptor.Baseline
                && string.Join(", ", r.BenchmarkCase.Descriptor.Categories) == category);
            var mean = report.ResultStatistics?.Mean;
            var bytes = Bytes(report);
            text.Append($"| {descriptor.WorkloadMethodDisplayInfo.Trim('\'')} | {(category.Length == 0 ? "-" : category)} ")
                .Append($"| {(mean is { } m ? Time(m) : "did not run")} | {(bytes is { } b ? Size(b) : "-")} ")
                .Append($"| {Ratio(mean, baseline?.ResultStatistics?.Mean)} | {Ratio(bytes, baseline is null ? null : Bytes(baseline))} |");
            if (throughput)
            {
                text.Append($" {ThroughputColumn.Format(summary, report.BenchmarkCase) ?? "-"} |");
            }

            text.AppendLine($" {SeedColumn.FigureOf(report.BenchmarkCase) ?? "-"} |");
        }

        text.AppendLine();
        if (seed is not null)
        {
            text.AppendLine($"*Since .NET 4.5:* {seed.SinceThen}").AppendLine();
        }
    }

    private static double? Bytes(BenchmarkReport report) => report.GcStats.GetBytesAllocatedPerOperation(report.BenchmarkCase);

    private static string Ratio(double? value, double? baseline) =>
        value is { } v && baseline is { } b && b > 0 ? (v / b).ToString("0.00", CultureInfo.InvariantCulture) : "-";

    private static string Time(double nanoseconds) => nanoseconds switch
    {
        < 1_000 => Format(nanoseconds, "ns"),
        < 1_000_000 => Format(nanoseconds / 1_000, "µs"),
        < 1_000_000_000 => Format(nanoseconds / 1_000_000, "ms"),
        _ => Format(nanoseconds / 1_000_000_000, "s"),
    };

    private static string Size(double bytes) => bytes switch
    {
        < 10_000 => bytes.ToString("#,0", CultureInfo.InvariantCulture) + " B",
        < 10_000_000 => Format(bytes / 1_024, "KB"),
        _ => Format(bytes / (1_024 * 1_024), "MB"),
    };

    private static string Format(double value, string unit) =>
        value.ToString(value < 10 ? "0.00" : value < 100 ? "0.0" : "#,0", CultureInfo.InvariantCulture) + " " + unit;
}
