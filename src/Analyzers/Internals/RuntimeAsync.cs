using System.Linq;
using Microsoft.CodeAnalysis;

namespace TplPractices.Analyzers.Internals;

/// <summary>
/// Whether the compilation builds its async methods as runtime-async methods (.NET 11; the .NET 10 SDK takes it with
/// <c>&lt;Features&gt;runtime-async=on&lt;/Features&gt;</c> and <c>EnablePreviewFeatures</c>). The JIT then runs an
/// await of a runtime-async callee without creating its task, treats <c>Task.FromResult</c> and the ValueTask
/// factories as intrinsics, and leaves no state machine to save: the rules whose payoff that removes go quiet
/// (docs/configuration.md#runtime-async).
/// </summary>
internal static class RuntimeAsync
{
    /// <summary>The runtime's helper the compiler calls in a runtime-async method; without it the feature flag does nothing.</summary>
    private const string AsyncHelpers = "System.Runtime.CompilerServices.AsyncHelpers";

    public static bool IsOn(Compilation compilation) =>
        compilation.SyntaxTrees.FirstOrDefault() is { } tree
        && tree.Options.Features.TryGetValue("runtime-async", out var value)
        && value == "on"
        && compilation.GetTypeByMetadataName(AsyncHelpers) is not null;
}
