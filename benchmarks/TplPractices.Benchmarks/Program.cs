using System;
using System.Collections.Generic;
using System.IO;
using System.Linq;
using BenchmarkDotNet.Reports;
using BenchmarkDotNet.Running;
using TplPractices.Benchmarks.Reporting;

namespace TplPractices.Benchmarks;

public static class Program
{
    /// <summary>
    /// dotnet run -c Release -- [--smoke] [--report PATH] [BenchmarkDotNet arguments, e.g. --filter *TPL0003*]
    /// --smoke runs every benchmark once in-process and fails when a fix allocates more than the code it replaces.
    /// --report writes the run's results as markdown to PATH (docs/benchmarks.md is made this way).
    /// --fixall-scaling [hit files] [files] times each rule's Fix All in a project and one four times larger (Cost/FixAllScaling).
    /// </summary>
    public static int Main(string[] args)
    {
        if (args.FirstOrDefault() == "--fixall-scaling")
        {
            // dotnet run -c Release -- --fixall-scaling [hit files, default 50] [files, default 50] [rule IDs, comma-separated]
            Console.WriteLine(RunInfo.Describe(BenchmarkConfig.Create(smoke: true, report: false)));
            var numbers = args.Skip(1).Where(a => a.All(char.IsDigit)).Select(int.Parse).ToArray();
            var only = args.Skip(1).FirstOrDefault(a => a.StartsWith("TPL", StringComparison.Ordinal))?.Split(',').ToHashSet();
            return Cost.FixAllScaling.RunAsync(
                numbers.ElementAtOrDefault(0) is > 0 and var hits ? hits : 50,
                numbers.ElementAtOrDefault(1) is > 0 and var files ? files : 50,
                only).GetAwaiter().GetResult();
        }

        var smoke = args.Contains("--smoke");
        var reportAt = Array.IndexOf(args, "--report");
        var reportPath = reportAt >= 0 && reportAt + 1 < args.Length ? args[reportAt + 1] : null;
        var rest = args.Where((a, i) => a != "--smoke" && (reportAt < 0 || (i != reportAt && i != reportAt + 1))).ToArray();

        var config = BenchmarkConfig.Create(smoke, report: reportPath is not null);
        var runInfo = RunInfo.Describe(config);
        Console.WriteLine(runInfo);
        var switcher = BenchmarkSwitcher.FromAssembly(typeof(Program).Assembly);
        var summaries = switcher.Run(rest.Length == 0 ? new[] { "--filter", "*" } : rest, config).ToList();
        var failures = 0;
        if (reportPath is not null)
        {
            MarkdownReport.Write(reportPath, summaries, runInfo, BenchmarkConfig.Describe(smoke, report: true));
            Console.WriteLine($"report: wrote {Path.GetFullPath(reportPath)}");
            failures += smoke ? CheckReportCoversEveryClass(reportPath, summaries) : 0;
        }

        if (!smoke)
        {
            return failures + Cost.CostBudget.Check(summaries, enforce: true);
        }

        // In process, so the smaller compilation applies: 20 files check each rule's count in seconds. BenchmarkDotNet
        // runs the first rule's case, which proves the class still runs there; the others only need their setup's count
        // check, and run it directly (BenchmarkDotNet's own overhead per case was most of a minute in all).
        Cost.AnalyzerCostBenchmarks.Files = 20;
        var costRules = Cost.AnalyzerCostBenchmarks.Rules().ToArray();
        Cost.AnalyzerCostBenchmarks.Only = costRules.Take(1).ToArray();
        summaries.AddRange(switcher.Run(new[] { "--filter", "*AnalyzerCost*" }, BenchmarkConfig.CostSmoke()));
        Cost.CostBudget.Check(summaries, enforce: false);
        failures += Cost.AnalyzerCostBenchmarks.CheckCounts(costRules.Skip(1));
        return failures + AllocationOrderCheck.Verify(summaries);
    }

    /// <summary>The smoke run proves the generator works: a section per class that ran, and a seed line per seed.</summary>
    private static int CheckReportCoversEveryClass(string path, IEnumerable<Summary> summaries)
    {
        var report = File.ReadAllText(path);
        var missing = summaries.SelectMany(s => s.BenchmarksCases).Select(b => b.Descriptor.Type).Distinct()
            .Where(t => !report.Contains($"`{t.Name}`", StringComparison.Ordinal)
                || t.GetCustomAttributes(typeof(ReportSectionAttribute), false).Length == 0)
            .Select(t => t.Name)
            .ToList();
        Console.WriteLine(missing.Count == 0 ? "report check: passed" : "FAIL report check: no section for " + string.Join(", ", missing));
        return missing.Count == 0 ? 0 : 1;
    }
}
