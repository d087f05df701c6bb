using System.Collections.Immutable;
using System.Reflection;
using System.Runtime.Loader;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CodeFixes;
using Microsoft.CodeAnalysis.Diagnostics;

namespace TplPractices.Analyzers.FloorHost.Tests;

/// <summary>
/// The two shipped assemblies, loaded as a compiler host loads an analyzer reference: in a load context of their
/// own, with Roslyn and the framework taken from the host.
/// </summary>
internal static class Shipped
{
    public static readonly string Folder = Metadata("ShippedAssemblies");

    public static readonly string[] Paths =
    {
        Path.Combine(Folder, "TplPractices.Analyzers.dll"),
        Path.Combine(Folder, "TplPractices.Analyzers.CodeFixes.dll"),
    };

    public static readonly string RepositoryRoot = Metadata("RepositoryRoot");

    private static readonly Lazy<AnalyzerFileReference[]> References = new(() =>
    {
        var loader = new HostLoader();
        return Paths.Select(p => new AnalyzerFileReference(p, loader)).ToArray();
    });

    public static ImmutableArray<DiagnosticAnalyzer> Analyzers() =>
        References.Value.SelectMany(r => r.GetAnalyzers(LanguageNames.CSharp)).ToImmutableArray();

    /// <summary>Every exported C# fixer, found and made the way dotnet format does (the attribute, then the constructor).</summary>
    public static ImmutableArray<CodeFixProvider> Fixers() => References.Value
        .Select(r => r.GetAssembly())
        .SelectMany(a => a.GetTypes())
        .Where(t => !t.IsAbstract && typeof(CodeFixProvider).IsAssignableFrom(t))
        .Where(t => t.GetCustomAttributes<ExportCodeFixProviderAttribute>().Any(e => e.Languages.Contains(LanguageNames.CSharp)))
        .Select(t => (CodeFixProvider)Activator.CreateInstance(t)!)
        .ToImmutableArray();

    public static string Metadata(string key) => typeof(Shipped).Assembly
        .GetCustomAttributes<AssemblyMetadataAttribute>().Single(a => a.Key == key).Value!;

    /// <summary>Loads the shipped files in their own context; anything the host has (Roslyn, the framework) comes from it.</summary>
    private sealed class HostLoader : AssemblyLoadContext, IAnalyzerAssemblyLoader
    {
        public HostLoader()
            : base("TplPractices floor host")
        {
        }

        public void AddDependencyLocation(string fullPath)
        {
        }

        public Assembly LoadFromPath(string fullPath) => LoadFromAssemblyPath(fullPath);

        protected override Assembly? Load(AssemblyName assemblyName)
        {
            var local = Path.Combine(Folder, assemblyName.Name + ".dll");
            return Paths.Contains(local) ? LoadFromAssemblyPath(local) : null;
        }
    }
}
