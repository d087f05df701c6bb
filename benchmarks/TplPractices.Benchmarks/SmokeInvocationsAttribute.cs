using System;
using System.Linq;
using BenchmarkDotNet.Configs;
using BenchmarkDotNet.Jobs;

namespace TplPractices.Benchmarks;

/// <summary>
/// Fewer invocations for a class in the smoke run only, where an invocation is slow (tens of microseconds, or a
/// thousand operations): its bytes per operation stay exact over fewer of them, and CI waits seconds less. Measured
/// runs keep BenchmarkDotNet's own counts.
/// </summary>
[AttributeUsage(AttributeTargets.Class)]
public sealed class SmokeInvocationsAttribute : Attribute, IConfigSource
{
    public SmokeInvocationsAttribute(int count)
    {
        var config = ManualConfig.CreateEmpty();
        Config = Environment.GetCommandLineArgs().Contains("--smoke")
            ? config.AddJob(Job.Default.WithInvocationCount(count).AsMutator())
            : config;
    }

    public IConfig Config { get; }
}
