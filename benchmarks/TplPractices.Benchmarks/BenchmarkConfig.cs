using System;
using System.Linq;
using System.Runtime.InteropServices;
using BenchmarkDotNet.Configs;
using BenchmarkDotNet.Diagnosers;
using BenchmarkDotNet.Environments;
using BenchmarkDotNet.Exporters.Json;
using BenchmarkDotNet.Filters;
using BenchmarkDotNet.Jobs;
using BenchmarkDotNet.Toolchains.InProcess.Emit;

namespace TplPractices.Benchmarks;

/// <summary>Declares the x64 and x86 jobs, and runs the ones this machine can run.</summary>
public static class BenchmarkConfig
{
    public static readonly Job X64 = Job.Default.WithPlatform(Platform.X64).WithId("x64");
    public static readonly Job X86 = Job.Default.WithPlatform(Platform.X86).WithId("x86");

    /// <summary>
    /// An x86 job needs an x86 .NET runtime. Microsoft ships none for Linux or macOS, so only Windows
    /// can measure it (with the x86 SDK installed). An in-process x86 job would silently run as x64.
    /// </summary>
    public static bool CanRunX86 => RuntimeInformation.IsOSPlatform(OSPlatform.Windows)
        && RuntimeInformation.OSArchitecture is Architecture.X64 or Architecture.X86;

    public const string X86Command =
        "dotnet run -c Release --project benchmarks/TplPractices.Benchmarks -- --filter *  (on Windows with the x86 .NET SDK installed)";

    /// <summary>The job a run uses, in words, for the report's header.</summary>
    public static string Describe(bool smoke, bool report) =>
        smoke ? "smoke: in-process dry run, one iteration (times mean nothing; bytes are exact)"
        : report ? $"x64{(CanRunX86 ? " and x86" : "")}, out of process, {ReportWarmups} warm-up and {ReportIterations} measured iterations"
        : $"x64{(CanRunX86 ? " and x86" : "")}, out of process, BenchmarkDotNet's default iteration counts";

    private const int ReportWarmups = 3;
    private const int ReportIterations = 8;

    public static IConfig Create(bool smoke, bool report = false)
    {
        var config = Validated(DefaultConfig.Instance).AddExporter(JsonExporter.Full).AddColumn(Reporting.SeedColumn.Instance);
        if (smoke)
        {
            // In-process and short: proves every benchmark runs, with enough operations per iteration for
            // the memory diagnoser to give exact bytes per operation. Its times mean nothing.
            return config
                .AddJob(Job.Dry
                    .WithToolchain(InProcessEmitToolchain.Instance)
                    .WithInvocationCount(1 << 14)
                    .WithUnrollFactor(16)
                    .WithId("smoke"))
                .AddFilter(new SimpleFilter(b => !b.Descriptor.Categories.Contains(Cost.AnalyzerCostBenchmarks.Category)));
        }

        if (report)
        {
            // The report covers what the code does at run time; the analyzers' own cost is in docs/performance.md.
            config = config.AddFilter(new SimpleFilter(b => !b.Descriptor.Categories.Contains(Cost.AnalyzerCostBenchmarks.Category)));
            return AddJobs(config, job => job.WithWarmupCount(ReportWarmups).WithIterationCount(ReportIterations));
        }

        return AddJobs(config, job => job);
    }

    /// <summary>
    /// The analyzer cost benchmark in one invocation each, in-process: its setup asserts the exact diagnostic
    /// counts, so the smoke run proves the rules still report exactly the generated hits.
    /// </summary>
    public static IConfig CostSmoke() =>
        Validated(DefaultConfig.Instance)
            .AddJob(Job.Dry.WithToolchain(InProcessEmitToolchain.Instance).WithId("cost-smoke"))
            .AddFilter(new SimpleFilter(b => b.Descriptor.Categories.Contains(Cost.AnalyzerCostBenchmarks.Category)
                // The count is checked in each rule's setup; the two baselines would only set it up twice more.
                && b.Descriptor.WorkloadMethod.Name == nameof(Cost.AnalyzerCostBenchmarks.RuleAnalyzer)));

    /// <summary>
    /// The disassembly diagnoser, for a class whose point is what the JIT inlines (its listing shows each call that was
    /// not). Out of process only: attaching to the smoke run's own process is not supported and brings it down.
    /// </summary>
    public sealed class ShowsInlining : ManualConfig
    {
        public ShowsInlining()
        {
            if (!Environment.GetCommandLineArgs().Contains("--smoke"))
            {
                AddDiagnoser(new DisassemblyDiagnoser(new DisassemblyDiagnoserConfig(maxDepth: 1)));
            }
        }
    }

    /// <summary>BenchmarkDotNet's check of optimized builds, with the analyzer assembly's unoptimized JIT allowed (<see cref="OptimizedReferencesValidator"/>).</summary>
    private static IConfig Validated(IConfig config) =>
        config.WithOptions(ConfigOptions.DisableOptimizationsValidator).AddValidator(OptimizedReferencesValidator.Instance);

    private static IConfig AddJobs(IConfig config, Func<Job, Job> adjust)
    {
        config = config.AddJob(adjust(X64));
        return CanRunX86 ? config.AddJob(adjust(X86)) : config;
    }
}
