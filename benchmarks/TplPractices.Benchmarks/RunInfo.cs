using System;
using System.Runtime.InteropServices;
using System.Text;
using BenchmarkDotNet.Configs;

namespace TplPractices.Benchmarks;

/// <summary>The machine, runtime and date a run was made on, printed before the results.</summary>
public static class RunInfo
{
    public static string Describe(IConfig config)
    {
        var text = new StringBuilder()
            .AppendLine("== TplPractices.Benchmarks run ==")
            .AppendLine($"Date (UTC):  {DateTime.UtcNow:yyyy-MM-dd HH:mm}")
            .AppendLine($"Machine:     {Environment.MachineName}, {Environment.ProcessorCount} logical cores, {RuntimeInformation.OSArchitecture}")
            .AppendLine($"OS:          {RuntimeInformation.OSDescription}")
            .AppendLine($"Runtime:     {RuntimeInformation.FrameworkDescription} ({RuntimeInformation.ProcessArchitecture})")
            .AppendLine("Jobs:        x64 and x86 are declared.");
        text.AppendLine(BenchmarkConfig.CanRunX86
            ? "x86:         runs on this machine."
            : "x86:         not measurable on this OS (there is no x86 .NET runtime for it); only x64 runs here. "
                + "To measure x86: " + BenchmarkConfig.X86Command);
        return text.ToString();
    }
}
