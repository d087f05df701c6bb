using Microsoft.CodeAnalysis;

namespace TplPractices.Analyzers.Tests.Verifiers;

/// <summary>
/// The frameworks a test compiles against. Their reference assemblies ship inside the Basic.Reference.Assemblies
/// packages, which restore brings; nothing is resolved or downloaded at test time.
/// </summary>
public enum TestTarget
{
    /// <summary>.NET 10, the newest runtime: the default target of the rule tests.</summary>
    Net100,

    /// <summary>.NET 8: Task.FromResult caches common values (since .NET 6), SuppressThrowing exists.</summary>
    Net80,

    /// <summary>netstandard2.0: a library that may run on .NET Framework, where nothing is cached.</summary>
    NetStandard20,

    /// <summary>.NET Framework 4.7.2.</summary>
    Net472,

    /// <summary>netstandard2.0 with the System.Threading.Tasks.Extensions package, which brings ValueTask&lt;T&gt;.</summary>
    NetStandard20WithValueTask,

    /// <summary>
    /// .NET Framework 4.6.2, the oldest framework many libraries still build for (grpc-dotnet, Polly): it has no
    /// ValueTuple, so a state of several values cannot be a tuple there.
    /// </summary>
    Net462,
}

public static class TestTargets
{
    /// <summary>Every target, for the tests that check each reference set.</summary>
    public static readonly TestTarget[] All = [TestTarget.Net100, TestTarget.Net80, TestTarget.NetStandard20, TestTarget.Net472];

    // Copied next to the tests from the restored package (the test project file); nothing is resolved at run time.
    private static readonly Lazy<MetadataReference> TasksExtensions = new(() => MetadataReference.CreateFromFile(
        Path.Combine(AppContext.BaseDirectory, "references", "netstandard2.0", "System.Threading.Tasks.Extensions.dll")));

    private static readonly Lazy<MetadataReference[]> Net462 = new(() => new[] { "mscorlib.dll", "System.dll", "System.Core.dll" }
        .Select(name => (MetadataReference)MetadataReference.CreateFromFile(Path.Combine(AppContext.BaseDirectory, "references", "net462", name)))
        .ToArray());

    public static IReadOnlyList<MetadataReference> References(this TestTarget target) => target switch
    {
        TestTarget.Net100 => Basic.Reference.Assemblies.Net100.References.All,
        TestTarget.Net80 => Basic.Reference.Assemblies.Net80.References.All,
        TestTarget.NetStandard20 => Basic.Reference.Assemblies.NetStandard20.References.All,
        TestTarget.Net472 => Basic.Reference.Assemblies.Net472.References.All,
        TestTarget.NetStandard20WithValueTask => [.. Basic.Reference.Assemblies.NetStandard20.References.All, TasksExtensions.Value],
        TestTarget.Net462 => Net462.Value,
        _ => throw new ArgumentOutOfRangeException(nameof(target)),
    };
}
