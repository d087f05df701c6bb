using System;
using System.Collections.Generic;
using System.Diagnostics;
using System.Linq;
using System.Reflection;
using BenchmarkDotNet.Validators;

namespace TplPractices.Benchmarks;

/// <summary>
/// BenchmarkDotNet's check that the benchmarks and what they reference are built with JIT optimizations, but for the
/// analyzer assembly: it asks for unoptimized JIT on purpose (src/Analyzers/JitOptimization.cs), and the cost
/// benchmarks measure it as it ships. The configs turn the built-in check off and add this one.
/// </summary>
public sealed class OptimizedReferencesValidator : IValidator
{
    public static readonly OptimizedReferencesValidator Instance = new();

    /// <summary>The assembly that ships with unoptimized JIT.</summary>
    private const string Exempt = "TplPractices.Analyzers";

    public bool TreatsWarningsAsErrors => true;

    public IEnumerable<ValidationError> Validate(ValidationParameters validationParameters)
    {
        foreach (var assembly in validationParameters.Benchmarks.Select(b => b.Descriptor.Type.Assembly).Distinct())
        {
            if (IsJitOptimizerDisabled(assembly))
            {
                yield return new ValidationError(true, $"Assembly {assembly.GetName().Name}, which defines benchmarks, is not built optimized: build it in Release.");
            }

            foreach (var name in assembly.GetReferencedAssemblies().Where(n => n.Name != Exempt))
            {
                Assembly? referenced;
                try
                {
                    referenced = Assembly.Load(name);
                }
                catch (Exception e) when (e is System.IO.FileNotFoundException or System.IO.FileLoadException or BadImageFormatException)
                {
                    // As BenchmarkDotNet does: a reference that does not load here is no benchmark's dependency.
                    continue;
                }

                if (IsJitOptimizerDisabled(referenced))
                {
                    yield return new ValidationError(true, $"Assembly {assembly.GetName().Name} references non-optimized {name.Name}: build it in Release.");
                }
            }
        }
    }

    private static bool IsJitOptimizerDisabled(Assembly assembly) =>
        assembly.GetCustomAttributes<DebuggableAttribute>().Any(a => a.IsJITOptimizerDisabled);
}
