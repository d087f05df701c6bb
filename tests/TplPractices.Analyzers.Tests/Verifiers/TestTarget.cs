using Microsoft.CodeAnalysis;

namespace TplPractices.Analyzers.Tests.Verifiers;

/// <summary>
/// The frameworks a test compiles against. The reference assemblies ship inside the
/// Basic.Reference.Assemblies package, so nothing is resolved or downloaded at test time.
/// </summary>
public enum TestTarget
{
    /// <summary>.NET 8: Task.FromResult caches common values (since .NET 6).</summary>
    Net80,

    /// <summary>netstandard2.0: a library that may run on .NET Framework, where nothing is cached.</summary>
    NetStandard20,

    /// <summary>.NET Framework 4.7.2.</summary>
    Net472,
}

public static class TestTargets
{
    public static IEnumerable<MetadataReference> References(this TestTarget target) => target switch
    {
        TestTarget.Net80 => Basic.Reference.Assemblies.Net80.References.All,
        TestTarget.NetStandard20 => Basic.Reference.Assemblies.NetStandard20.References.All,
        TestTarget.Net472 => Basic.Reference.Assemblies.Net472.References.All,
        _ => throw new ArgumentOutOfRangeException(nameof(target)),
    };
}
