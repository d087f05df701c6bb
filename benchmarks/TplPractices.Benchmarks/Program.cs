using System;
using System.Linq;
using BenchmarkDotNet.Running;

namespace TplPractices.Benchmarks;

public static class Program
{
    /// <summary>
    /// dotnet run -c Release -- [--smoke] [BenchmarkDotNet arguments, e.g. --filter *TPL0003*]
    /// --smoke runs every benchmark once in-process and fails when a fix allocates more than the code it replaces.
    /// </summary>
    public static int Main(string[] args)
    {
        var smoke = Array.IndexOf(args, "--smoke") >= 0;
        var rest = Array.FindAll(args, a => a != "--smoke");
        var config = BenchmarkConfig.Create(smoke);
        Console.WriteLine(RunInfo.Describe(config));
        var switcher = BenchmarkSwitcher.FromAssembly(typeof(Program).Assembly);
        var summaries = switcher.Run(rest.Length == 0 ? new[] { "--filter", "*" } : rest, config).ToList();
        if (!smoke)
        {
            return 0;
        }

        summaries.AddRange(switcher.Run(new[] { "--filter", "*AnalyzerCost*" }, BenchmarkConfig.CostSmoke()));
        return AllocationOrderCheck.Verify(summaries);
    }
}
