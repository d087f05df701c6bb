using System.Collections.Immutable;
using Microsoft.CodeAnalysis;

namespace TplPractices.Analyzers.Internals;

/// <summary>
/// TaskCompletionSource and TaskCompletionSource&lt;T&gt; in one compilation, and the calls that complete them: what
/// TPL0011 (a continuation that only completes a source) and TPL0013 (a source completed before its task escapes) read.
/// </summary>
internal sealed class CompletionSources
{
    /// <summary>TaskCreationOptions.RunContinuationsAsynchronously: the source queues its awaiters instead of running them inside the completion.</summary>
    public const long RunContinuationsAsynchronously = 64;

    /// <summary>The methods that complete a source; SetFromTask is .NET 10's.</summary>
    private static readonly ImmutableHashSet<string> CompletionMethods = ImmutableHashSet.Create(
        "SetResult", "TrySetResult", "SetException", "TrySetException", "SetCanceled", "TrySetCanceled", "SetFromTask", "TrySetFromTask");

    public CompletionSources(Compilation compilation)
    {
        Source = compilation.GetTypeByMetadataName(WellKnownTypeNames.TaskCompletionSource);
        SourceOfT = compilation.GetTypeByMetadataName(WellKnownTypeNames.TaskCompletionSourceOfT);
    }

    /// <summary>The non-generic source, .NET 5 and later.</summary>
    public INamedTypeSymbol? Source { get; }

    public INamedTypeSymbol? SourceOfT { get; }

    public bool IsSource(ITypeSymbol? type) =>
        type is not null
        && (SymbolEqualityComparer.Default.Equals(type, Source) || SymbolEqualityComparer.Default.Equals(type.OriginalDefinition, SourceOfT));

    /// <summary>A call of one of a source's SetX or TrySetX methods.</summary>
    public bool IsCompletion(IMethodSymbol method) =>
        IsCompletionName(method.Name) && IsSource(method.ContainingType);

    /// <summary>The name of a method that completes a source, for code read as syntax.</summary>
    public static bool IsCompletionName(string name) => CompletionMethods.Contains(name);
}
