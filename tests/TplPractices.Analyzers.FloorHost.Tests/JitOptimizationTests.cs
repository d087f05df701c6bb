using System.Diagnostics;

namespace TplPractices.Analyzers.FloorHost.Tests;

/// <summary>
/// The analyzer assembly asks the runtime not to optimize its methods (src/Analyzers/JitOptimization.cs): a compiler
/// that does not tier its JIT spent more on optimizing them than they ever ran.
/// </summary>
public sealed class JitOptimizationTests
{
    [Fact]
    public void AnalyzerAssembly_AsksForUnoptimizedJit()
    {
        var assembly = Shipped.Analyzers().Select(a => a.GetType().Assembly).Distinct().Single();
        var debuggable = Assert.Single(assembly.GetCustomAttributes(typeof(DebuggableAttribute), inherit: false).Cast<DebuggableAttribute>());

        Assert.True(debuggable.IsJITOptimizerDisabled);

        // The runtime reads the flag only where the tracking bit is set too; without it the methods are optimized.
        Assert.True(debuggable.IsJITTrackingEnabled);

        // No edit-and-continue: that would change how the methods are compiled beyond optimization.
        Assert.Equal(DebuggableAttribute.DebuggingModes.None, debuggable.DebuggingFlags & DebuggableAttribute.DebuggingModes.EnableEditAndContinue);
    }
}
