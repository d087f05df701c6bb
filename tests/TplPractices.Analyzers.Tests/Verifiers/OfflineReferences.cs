using Microsoft.CodeAnalysis.Testing;

namespace TplPractices.Analyzers.Tests.Verifiers;

/// <summary>
/// The library's reference-assembly sets resolve NuGet packages at test time (from the global packages folder,
/// a temp folder, then nuget.org). Tests use this empty set instead, and add the target's references from the
/// Basic.Reference.Assemblies packages (<see cref="TestTargets.References"/>), so nothing is resolved at run time.
/// </summary>
public static class OfflineReferences
{
    public static readonly ReferenceAssemblies None = new("offline");
}
