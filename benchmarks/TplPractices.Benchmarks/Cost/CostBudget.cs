using System;
using System.Collections.Generic;
using System.Linq;
using BenchmarkDotNet.Reports;

namespace TplPractices.Benchmarks.Cost;

/// <summary>
/// The per-rule budget of docs/performance.md: a rule's mean analysis time at most 25 % over the no-op analyzer
/// that registers the same callbacks. Enforced on measured runs; the smoke run's single samples are only printed.
/// </summary>
public static class CostBudget
{
    public const double MaxRatio = 1.25;

    public static int Check(IEnumerable<Summary> summaries, bool enforce)
    {
        var failures = 0;
        var cases = summaries.SelectMany(s => s.Reports)
            .Where(r => r.Success && r.BenchmarkCase.Descriptor.Type == typeof(AnalyzerCostBenchmarks))
            .GroupBy(r => r.BenchmarkCase.Parameters["Rule"]?.ToString() ?? "?");
        foreach (var rule in cases.OrderBy(g => g.Key))
        {
            double? Mean(string method) => rule.FirstOrDefault(r => r.BenchmarkCase.Descriptor.WorkloadMethod.Name == method)?.ResultStatistics?.Mean;
            if (Mean(nameof(AnalyzerCostBenchmarks.NoOp)) is not { } noOp || Mean(nameof(AnalyzerCostBenchmarks.RuleAnalyzer)) is not { } own)
            {
                continue;
            }

            var ratio = own / noOp;
            var within = ratio <= MaxRatio;
            failures += enforce && !within ? 1 : 0;
            Console.WriteLine($"cost budget: {rule.Key} {own / 1e6:0} ms vs no-op {noOp / 1e6:0} ms = {ratio:0.00} "
                + $"(budget {MaxRatio:0.00}) {(within ? "within" : enforce ? "OVER BUDGET" : "over, single sample, not enforced")}");
        }

        return failures;
    }
}
