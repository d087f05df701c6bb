using System.Reflection;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.Diagnostics;

namespace TplPractices.Analyzers.Tests.Verifiers;

/// <summary>
/// Peers' analyzer assemblies the test project copies next to itself (StyleCop.Analyzers, NetAnalyzers), loaded the way
/// a compiler host loads an analyzer package.
/// </summary>
public static class PackagedAnalyzers
{
    /// <summary>The analyzers of <paramref name="file"/> in the output's <paramref name="folder"/>.</summary>
    public static AnalyzerFileReference Load(string folder, string file) => new(
        Path.Combine(Path.GetDirectoryName(typeof(PackagedAnalyzers).Assembly.Location)!, folder, file),
        new Loader());

    private sealed class Loader : IAnalyzerAssemblyLoader
    {
        public void AddDependencyLocation(string fullPath)
        {
        }

        public Assembly LoadFromPath(string fullPath) => Assembly.LoadFrom(fullPath);
    }
}
