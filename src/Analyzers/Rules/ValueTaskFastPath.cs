using System.Collections.Generic;
using System.Linq;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp;
using Microsoft.CodeAnalysis.CSharp.Syntax;
using Microsoft.CodeAnalysis.Operations;
using TplPractices.Analyzers.Internals;

namespace TplPractices.Analyzers.Rules;

/// <summary>
/// TPL0008's questions about one method: may its return type change without anyone outside the type noticing,
/// does it return before its first await with a value the runtime would not have cached anyway, and does a call
/// await its result once, directly.
/// </summary>
internal static class ValueTaskFastPath
{
    /// <summary>The compilation's symbols; null where ValueTask&lt;T&gt; is missing or cannot be an async return type.</summary>
    internal sealed class Context
    {
        private Context(INamedTypeSymbol taskOfT, INamedTypeSymbol valueTaskOfT, TaskCacheLevel cacheLevel)
        {
            TaskOfT = taskOfT;
            ValueTaskOfT = valueTaskOfT;
            CacheLevel = cacheLevel;
        }

        public INamedTypeSymbol TaskOfT { get; }

        public INamedTypeSymbol ValueTaskOfT { get; }

        /// <summary>
        /// What an async method's builder caches. Unlike Task.FromResult, the builder has cached null, bool and ints
        /// -1..8 and the integral zeros since .NET Framework 4.5, so the oldest level here is Net6's set.
        /// </summary>
        public TaskCacheLevel CacheLevel { get; }

        public static Context? TryCreate(Compilation compilation)
        {
            // Task-like async return types came with C# 7. On netstandard2.0 and .NET Framework ValueTask<T> comes
            // from System.Threading.Tasks.Extensions, whose oldest versions had no builder.
            if (compilation is not CSharpCompilation { LanguageVersion: >= LanguageVersion.CSharp7 }
                || compilation.GetTypeByMetadataName(WellKnownTypeNames.TaskOfT) is not { } taskOfT
                || compilation.GetTypeByMetadataName(WellKnownTypeNames.ValueTaskOfT) is not { } valueTaskOfT
                || !valueTaskOfT.GetAttributes().Any(a => a.AttributeClass?.Name == "AsyncMethodBuilderAttribute"))
            {
                return null;
            }

            var level = TaskResultCache.LevelOf(taskOfT);
            return new Context(taskOfT, valueTaskOfT, level == TaskCacheLevel.None ? TaskCacheLevel.Net6 : level);
        }

        /// <summary>The result type when <paramref name="method"/> is async and returns Task&lt;T&gt;; else null.</summary>
        public ITypeSymbol? AsyncTaskResult(IMethodSymbol method) =>
            IsAsync(method)
            && method.ReturnType is INamedTypeSymbol { TypeArguments.Length: 1 } returned
            && SymbolEqualityComparer.Default.Equals(returned.OriginalDefinition, TaskOfT)
            && !returned.ContainsErrorType()
                ? returned.TypeArguments[0]
                : null;
    }

    /// <summary>True for an async method; a call binds to a partial method's definition, which has no async modifier.</summary>
    public static bool IsAsync(IMethodSymbol method)
    {
        var definition = method.OriginalDefinition;
        return (definition.PartialImplementationPart ?? definition).IsAsync;
    }

    /// <summary>The symbol every use and declaration of a method maps to: the unconstructed, defining part.</summary>
    public static IMethodSymbol Canonical(IMethodSymbol method)
    {
        var definition = method.OriginalDefinition;
        return definition.PartialDefinitionPart ?? definition;
    }

    /// <summary>
    /// True when no code outside the top-level type can call the method or see its signature: a private ordinary
    /// method of a class or struct that implements nothing, or a local function. An entry point and a method
    /// with a custom builder are left alone.
    /// </summary>
    public static bool IsPrivateToItsType(IMethodSymbol method)
    {
        switch (method.MethodKind)
        {
            case MethodKind.LocalFunction:
                return !HasMethodBuilder(method);
            case MethodKind.Ordinary:
                return method.DeclaredAccessibility == Accessibility.Private
                    && method.ContainingType is { TypeKind: TypeKind.Class or TypeKind.Struct }
                    && !method.IsVirtual
                    && !method.IsOverride
                    && !method.IsAbstract
                    && !method.IsExtern
                    && method.ExplicitInterfaceImplementations.IsEmpty
                    && !(method.IsStatic && method.Name == "Main")
                    && !HasMethodBuilder(method);
            default:
                return false;
        }
    }

    /// <summary>
    /// True when the body returns, before its first await, a value the runtime does not cache: there a call
    /// completes synchronously and, as Task&lt;T&gt;, allocates. Awaits inside lambdas and local functions do
    /// not count; <c>await using</c> and <c>await foreach</c> do.
    /// </summary>
    public static bool HasUncachedFastPath(IOperation body, ITypeSymbol resultType, TaskCacheLevel level)
    {
        // Every bool result comes from the runtime's two cached tasks.
        if (resultType.SpecialType == SpecialType.System_Boolean)
        {
            return false;
        }

        var firstAwait = int.MaxValue;
        var returns = new List<IReturnOperation>();
        var pending = new Stack<IOperation>();
        pending.Push(body);
        while (pending.Count > 0)
        {
            var operation = pending.Pop();
            if (IsAwait(operation))
            {
                firstAwait = System.Math.Min(firstAwait, operation.Syntax.SpanStart);
            }
            else if (operation is IReturnOperation { Kind: OperationKind.Return, ReturnedValue: not null } returned)
            {
                returns.Add(returned);
            }

            foreach (var child in operation.ChildOperations)
            {
                if (child.Kind is not (OperationKind.AnonymousFunction or OperationKind.LocalFunction))
                {
                    pending.Push(child);
                }
            }
        }

        // A return that ends before the first await runs without one; `return await X();` contains its await.
        return returns.Any(r => r.Syntax.Span.End <= firstAwait && !IsCached(r.ReturnedValue!, resultType, level));
    }

    /// <summary>
    /// Every mention of <paramref name="name"/> in <paramref name="scope"/> (a type's declarations, or a local function's
    /// containing body): true when each is a call whose task is awaited once, at once (<c>await M(…)</c> or
    /// <c>await M(…).ConfigureAwait(true|false)</c>, the forms that compile the same with ValueTask&lt;T&gt;), and at least
    /// one exists. Read from the syntax, by name: any other mention (a method group, <c>nameof</c>, a stored or passed
    /// task, even of another method with the same name) answers false, the safe answer.
    /// </summary>
    public static bool EveryMentionIsAnAwaitedCall(IEnumerable<SyntaxNode> scope, string name, SyntaxToken declaration)
    {
        var awaited = false;
        foreach (var root in scope)
        {
            foreach (var token in root.DescendantTokens())
            {
                // Declarations are not uses: the method's own parts and any overload.
                if (token.ValueText != name
                    || !token.IsKind(SyntaxKind.IdentifierToken)
                    || token == declaration
                    || token.Parent is MethodDeclarationSyntax or LocalFunctionStatementSyntax)
                {
                    continue;
                }

                if (token.Parent is not SimpleNameSyntax mention || !IsAwaitedCall(mention))
                {
                    return false;
                }

                awaited = true;
            }
        }

        return awaited;
    }

    private static bool IsAwaitedCall(SimpleNameSyntax name)
    {
        // M(…), this.M(…), other.M(…), M<T>(…)
        SyntaxNode callee = name.Parent is MemberAccessExpressionSyntax access && access.Name == name ? access : name;
        if (callee.Parent is not InvocationExpressionSyntax call || call.Expression != callee)
        {
            return false;
        }

        SyntaxNode awaitedExpression = call;
        if (Unparenthesized(call) is MemberAccessExpressionSyntax { Name.Identifier.ValueText: "ConfigureAwait" } configure
            && configure.Parent is InvocationExpressionSyntax { ArgumentList.Arguments: { Count: 1 } arguments } configured
            && arguments[0].Expression.Kind() is SyntaxKind.TrueLiteralExpression or SyntaxKind.FalseLiteralExpression)
        {
            awaitedExpression = configured;
        }

        return Unparenthesized(awaitedExpression) is AwaitExpressionSyntax;
    }

    /// <summary>The first ancestor of <paramref name="node"/> that is not a parenthesis around it.</summary>
    private static SyntaxNode? Unparenthesized(SyntaxNode node)
    {
        var parent = node.Parent;
        while (parent is ParenthesizedExpressionSyntax)
        {
            parent = parent.Parent;
        }

        return parent;
    }

    private static bool IsAwait(IOperation operation) => operation switch
    {
        IAwaitOperation => true,
        IUsingOperation { IsAsynchronous: true } => true,
        IUsingDeclarationOperation { IsAsynchronous: true } => true,
        IForEachLoopOperation { IsAsynchronous: true } => true,
        _ => false,
    };

    private static bool IsCached(IOperation value, ITypeSymbol resultType, TaskCacheLevel level) =>
        ConstantResult.TryGet(value, out var constant) && TaskResultCache.IsCachedByRuntime(resultType, constant, level);

    private static bool HasMethodBuilder(IMethodSymbol method) =>
        method.GetAttributes().Any(a => a.AttributeClass?.Name == "AsyncMethodBuilderAttribute");
}
