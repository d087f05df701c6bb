using System.Collections.Immutable;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp.Syntax;

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

    /// <summary>
    /// A source's completion, or a method of a type derived from a source, declared in this compilation and not
    /// overridable, whose whole body is one completion of the instance itself (DotNetty's <c>TryComplete() =>
    /// this.TrySetResult(0)</c>). Read from its syntax: asked only where a completion decides a report.
    /// </summary>
    public bool IsCompletionOrWrapper(IMethodSymbol method)
    {
        if (IsCompletion(method))
        {
            return true;
        }

        if (method.IsStatic || method.IsVirtual || method.IsAbstract || method.IsOverride
            || method.ContainingType is not { } type || !IsSource(type.BaseType)
            || method.DeclaringSyntaxReferences is not { Length: 1 } references
            || references[0].GetSyntax() is not MethodDeclarationSyntax declaration)
        {
            return false;
        }

        var only = declaration.ExpressionBody?.Expression ?? OnlyStatement(declaration.Body);
        return only is InvocationExpressionSyntax call
            && call.Expression switch
            {
                IdentifierNameSyntax name => IsCompletionName(name.Identifier.ValueText),
                MemberAccessExpressionSyntax { Expression: ThisExpressionSyntax or BaseExpressionSyntax, Name: var name } => IsCompletionName(name.Identifier.ValueText),
                _ => false,
            };
    }

    private static ExpressionSyntax? OnlyStatement(BlockSyntax? body) => body?.Statements is { Count: 1 } statements
        ? statements[0] switch
        {
            ExpressionStatementSyntax statement => statement.Expression,
            ReturnStatementSyntax { Expression: { } returned } => returned,
            _ => null,
        }
        : null;

    /// <summary>The name of a method that completes a source, for code read as syntax.</summary>
    public static bool IsCompletionName(string name) => CompletionMethods.Contains(name);
}
