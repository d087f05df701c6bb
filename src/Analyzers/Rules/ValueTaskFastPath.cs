using System.Collections.Concurrent;
using System.Collections.Generic;
using System.Linq;
using System.Threading;
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
    /// <summary>Where every call of a method must be, for the rule to see them all.</summary>
    internal enum CallerScope
    {
        None,
        ContainingMember,
        ContainingType,
        Assembly,
    }

    /// <summary>The compilation's symbols; null where ValueTask&lt;T&gt; is missing or cannot be an async return type.</summary>
    internal sealed class Context
    {
        private readonly ConcurrentDictionary<string, bool> _awaitedByName = new(System.StringComparer.Ordinal);

        // 0 not read yet, 1 no, 2 yes: whether an InternalsVisibleTo attribute lets another assembly call internals.
        private int _internalsVisible;

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

        /// <summary>
        /// For an internal method: true when every mention of <paramref name="name"/> in the compilation is an awaited
        /// call, and there is one; null when an InternalsVisibleTo attribute lets another assembly call it too. The
        /// answer depends on the name only, so methods that share one (a GetAsync in many types) share it; each file's
        /// text is searched for the name, and only the tokens found are read (<see cref="TextSearch"/>).
        /// </summary>
        public bool? EveryMentionInAssemblyIsAwaited(string name, Compilation compilation, CancellationToken cancellationToken)
        {
            if (Volatile.Read(ref _internalsVisible) == 0)
            {
                var visible = compilation.Assembly.GetAttributes().Any(a => a.AttributeClass is { Name: "InternalsVisibleToAttribute" });
                Volatile.Write(ref _internalsVisible, visible ? 2 : 1);
            }

            if (_internalsVisible == 2)
            {
                return null;
            }

            if (!_awaitedByName.TryGetValue(name, out var answer))
            {
                var roots = compilation.SyntaxTrees.Select(t => t.GetRoot(cancellationToken));
                answer = _awaitedByName.GetOrAdd(name, EveryMentionIsAnAwaitedCall(roots, name, PassThroughsReturn(compilation, cancellationToken)));
            }

            return answer;
        }

        /// <summary>Whether TPL0016 is on in a file: there, an await that is a whole pass-through body is its, not a kept await.</summary>
        public static System.Func<SyntaxTree, bool> PassThroughsReturn(Compilation compilation, CancellationToken cancellationToken) =>
            tree => RuleSwitches.Severity(compilation, tree, PassThroughAsyncAnalyzer.Rule, cancellationToken) != ReportDiagnostic.Suppress;

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
    /// Where the code that can call the method is: a local function's containing member; a private method's type;
    /// an internal or private protected method's assembly. None for anything another assembly can call or whose
    /// signature something else fixes: public and protected members, virtual, override, abstract and extern methods,
    /// explicit interface implementations, an entry point, a method with a custom builder.
    /// </summary>
    public static CallerScope WhoCanCall(IMethodSymbol method)
    {
        switch (method.MethodKind)
        {
            case MethodKind.LocalFunction:
                return HasMethodBuilder(method) ? CallerScope.None : CallerScope.ContainingMember;
            case MethodKind.Ordinary
                when method.ContainingType is { TypeKind: TypeKind.Class or TypeKind.Struct }
                    && !method.IsVirtual
                    && !method.IsOverride
                    && !method.IsAbstract
                    && !method.IsExtern
                    && method.ExplicitInterfaceImplementations.IsEmpty
                    && !(method.IsStatic && method.Name == "Main")
                    && !HasMethodBuilder(method):
                return method.DeclaredAccessibility switch
                {
                    Accessibility.Private => CallerScope.ContainingType,
                    Accessibility.Internal or Accessibility.ProtectedAndInternal => CallerScope.Assembly,
                    _ => CallerScope.None,
                };
            default:
                return CallerScope.None;
        }
    }

    /// <summary>
    /// The method or local function whose own code holds <paramref name="node"/> (not a lambda's: the rule does not
    /// report those); where TPL0008 reports, and what its fix rewrites.
    /// </summary>
    public static SyntaxNode? DeclarationOf(SyntaxNode node)
    {
        for (var current = node.Parent; current is not null; current = current.Parent)
        {
            if (current is MethodDeclarationSyntax or LocalFunctionStatementSyntax)
            {
                return current;
            }

            if (current is AnonymousFunctionExpressionSyntax or MemberDeclarationSyntax)
            {
                return null;
            }
        }

        return null;
    }

    /// <summary>
    /// The first return (in source order) on a path through the body that can complete without awaiting and return a
    /// value the runtime does not cache, or null where there is none; in a case that can plausibly be common: there a call completes synchronously and, as Task&lt;T&gt;,
    /// allocates. A path is a return no await comes before on some path (<c>await using</c>, <c>await foreach</c> and an await in
    /// a <c>finally</c> around it count, as they run on the way out), or the await-free branch of a returned
    /// <c>?:</c> or <c>??</c> (<c>_config ?? (_config = await LoadAsync())</c>). A path taken only when an argument is
    /// null or empty is a guard, not a fast path: the rule's own figures show ValueTask&lt;T&gt; costs more per
    /// suspended call, so only a common synchronous case pays for the change. Awaits inside lambdas and local
    /// functions do not count. Given <paramref name="upTo"/> (the caller asks whether that return is the one), the returns
    /// after it are not read: the answer is then not it.
    /// </summary>
    public static IReturnOperation? FirstUncachedFastPath(IOperation body, ITypeSymbol resultType, TaskCacheLevel level, IReturnOperation? upTo = null)
    {
        // Every bool result comes from the runtime's two cached tasks.
        if (resultType.SpecialType == SpecialType.System_Boolean)
        {
            return null;
        }

        // Loops rather than LINQ over positions and (value, guard) pairs: generic code over a struct is compiled by the
        // JIT in every compiler process.
        var firstAwait = int.MaxValue;
        var returns = new List<IReturnOperation>();
        foreach (var operation in OwnOperations.Of(body))
        {
            if (IsAwait(operation) || (operation.Kind == OperationKind.Try && ((ITryOperation)operation).Finally is { } cleanup && AwaitsIn(cleanup)))
            {
                firstAwait = System.Math.Min(firstAwait, operation.Syntax.SpanStart);
            }
            else if (operation.Kind == OperationKind.Return && ((IReturnOperation)operation).ReturnedValue is not null)
            {
                returns.Add((IReturnOperation)operation);
            }
        }

        // In source order, so that every callback names the same return.
        returns.Sort((a, b) => a.Syntax.SpanStart.CompareTo(b.Syntax.SpanStart));
        var paths = new List<SyncPath>();
        foreach (var returned in returns)
        {
            if (upTo is not null && returned.Syntax.SpanStart > upTo.Syntax.SpanStart)
            {
                break;
            }

            paths.Clear();
            AddSyncValues(returned.ReturnedValue!, GuardAround(returned), paths);
            foreach (var path in paths)
            {
                // An await before the return: the call may have suspended, unless some path skips every such await
                // (the load in an `if` a cache hit passes by). Asked last, for a value worth a fast path only. An
                // expression body's implicit return starts where an await it begins with does.
                if (!IsCached(path.Value, resultType, level)
                    && !IsArgumentGuard(path.Guard)
                    && (returned.Syntax.SpanStart <= firstAwait || ControlPaths.ReachableWithout(returned, AwaitsIn, IsArgumentGuard)))
                {
                    return returned;
                }
            }
        }

        return null;
    }

    /// <summary>
    /// Whether the return yields, on some path of its own, a value no cached task holds, outside an argument check: what
    /// <see cref="FirstUncachedFastPath"/> asks of the return it names, asked first and alone, without reading the
    /// function's other operations (most returns fail it: a bool, a constant the runtime caches, an awaited value).
    /// </summary>
    public static bool MayTakeAnUncachedFastPath(IReturnOperation returned, ITypeSymbol resultType, TaskCacheLevel level)
    {
        if (resultType.SpecialType == SpecialType.System_Boolean || returned.ReturnedValue is not { } value)
        {
            return false;
        }

        var paths = new List<SyncPath>();
        AddSyncValues(value, GuardAround(returned), paths);
        foreach (var path in paths)
        {
            if (!IsCached(path.Value, resultType, level) && !IsArgumentGuard(path.Guard))
            {
                return true;
            }
        }

        return false;
    }

    /// <summary>Whether an await is among the operation's own (<see cref="OwnOperations"/>); stops at the first.</summary>
    private static bool AwaitsIn(IOperation root) => OwnOperations.Any(root, IsAwait);

    /// <summary>A value a return yields without awaiting, and the test that chose it.</summary>
    private sealed class SyncPath
    {
        public SyncPath(IOperation value, IOperation? guard)
        {
            Value = value;
            Guard = guard;
        }

        public IOperation Value { get; }

        public IOperation? Guard { get; }
    }

    /// <summary>Adds the values a returned expression yields without awaiting, each with the test that chose it.</summary>
    private static void AddSyncValues(IOperation value, IOperation? guard, List<SyncPath> paths)
    {
        if (!AwaitsIn(value))
        {
            paths.Add(new SyncPath(value, guard));
            return;
        }

        switch (value)
        {
            case IConversionOperation conversion:
                AddSyncValues(conversion.Operand, guard, paths);
                break;
            case IConditionalOperation { WhenFalse: { } whenFalse } choice when !AwaitsIn(choice.Condition):
                AddSyncValues(choice.WhenTrue, choice.Condition, paths);
                AddSyncValues(whenFalse, choice.Condition, paths);
                break;
            case ICoalesceOperation coalesce when !AwaitsIn(coalesce.Value):
                paths.Add(new SyncPath(coalesce.Value, coalesce.Value));
                AddSyncValues(coalesce.WhenNull, guard, paths);
                break;
        }
    }

    /// <summary>The condition of the <c>if</c> whose branch is the return (directly, or the block's first statement).</summary>
    private static IOperation? GuardAround(IReturnOperation returned)
    {
        var branch = returned.Parent is IBlockOperation { Operations.Length: 1 } block ? block : (IOperation?)returned;
        return branch?.Parent is IConditionalOperation choice && choice.Condition != branch ? choice.Condition : null;
    }

    /// <summary>
    /// An argument check: an argument (or, for <c>??</c>, the value itself) that is null, or a string or collection
    /// argument that is empty; alone or combined with <c>||</c>, <c>&amp;&amp;</c>, <c>!</c>.
    /// </summary>
    private static bool IsArgumentGuard(IOperation? guard) => guard?.WithoutImplicitConversions() switch
    {
        IParameterReferenceOperation => guard.Type?.SpecialType != SpecialType.System_Boolean,
        IBinaryOperation { OperatorKind: BinaryOperatorKind.ConditionalOr or BinaryOperatorKind.ConditionalAnd } both =>
            IsArgumentGuard(both.LeftOperand) && IsArgumentGuard(both.RightOperand),
        IUnaryOperation { OperatorKind: UnaryOperatorKind.Not } not => IsArgumentGuard(not.Operand),
        IIsPatternOperation { Pattern: var pattern } test => IsParameter(test.Value) && IsNullPattern(pattern),
        IBinaryOperation { OperatorKind: BinaryOperatorKind.Equals or BinaryOperatorKind.NotEquals } compare =>
            (IsParameter(compare.LeftOperand) && IsNull(compare.RightOperand)) || (IsNull(compare.LeftOperand) && IsParameter(compare.RightOperand))
            || (IsArgumentSize(compare.LeftOperand) && IsZero(compare.RightOperand)) || (IsZero(compare.LeftOperand) && IsArgumentSize(compare.RightOperand)),
        IInvocationOperation { TargetMethod: { Name: "IsNullOrEmpty" or "IsNullOrWhiteSpace", ContainingType.SpecialType: SpecialType.System_String } } call =>
            call.Arguments.All(a => IsParameter(a.Value)),
        _ => false,
    };

    private static bool IsParameter(IOperation operation) => operation.WithoutImplicitConversions() is IParameterReferenceOperation;

    private static bool IsNull(IOperation operation) => operation.WithoutImplicitConversions().ConstantValue is { HasValue: true, Value: null };

    private static bool IsZero(IOperation operation) => operation.ConstantValue is { HasValue: true, Value: 0 };

    private static bool IsArgumentSize(IOperation operation) =>
        operation.WithoutImplicitConversions() is IPropertyReferenceOperation { Property.Name: "Length" or "Count", Instance: { } instance } && IsParameter(instance);

    private static bool IsNullPattern(IPatternOperation pattern) => pattern switch
    {
        IConstantPatternOperation constant => IsNull(constant.Value),
        INegatedPatternOperation negated => IsNullPattern(negated.Pattern),
        _ => false,
    };

    /// <summary>
    /// Every mention of <paramref name="name"/> in <paramref name="scope"/> (a type's declarations, or a local function's
    /// containing body): true when each is a call whose task is awaited once, at once (<c>await M(…)</c> or
    /// <c>await M(…).ConfigureAwait(true|false)</c>, the forms that compile the same with ValueTask&lt;T&gt;), and at least
    /// one exists; an await that is the whole body of a pass-through TPL0016 may fix does not count where it is on
    /// (<paramref name="passThroughsReturn"/>). Read from the syntax, by name: any other mention (a method group, <c>nameof</c>, a stored or passed
    /// task, even of another method with the same name) answers false, the safe answer.
    /// </summary>
    public static bool EveryMentionIsAnAwaitedCall(IEnumerable<SyntaxNode> scope, string name, System.Func<SyntaxTree, bool> passThroughsReturn)
    {
        var awaited = false;
        foreach (var root in scope)
        {
            // An #if branch this build does not compile is text, not calls: a caller there (an #if DEBUG one, say)
            // could keep the task in the builds that compile it, where the method would not be reported.
            if (root.HasConditionalBranches() && IsNamedInInactiveCode(root, name))
            {
                return false;
            }

            foreach (var token in root.TokensNamed(name, SyntaxKind.IdentifierToken))
            {
                // Declarations are not uses: the method's own parts (or, for a local function, itself) and any overload.
                if (token.Parent is MethodDeclarationSyntax or LocalFunctionStatementSyntax)
                {
                    continue;
                }

                if (token.Parent is not SimpleNameSyntax mention || !IsAwaitedCall(mention, passThroughsReturn))
                {
                    return false;
                }

                awaited = true;
            }
        }

        return awaited;
    }

    private static bool IsNamedInInactiveCode(SyntaxNode root, string name) =>
        root.DescendantTrivia().Any(t => t.IsKind(SyntaxKind.DisabledTextTrivia)
            && t.ToString() is var text
            && TextSearch.ContainsWord(text, name)
            // Only as code: the text is lexed, so a comment or string that names the method is no use.
            && SyntaxFactory.ParseTokens(text).Any(token => token.IsKind(SyntaxKind.IdentifierToken) && token.ValueText == name));


    private static bool IsAwaitedCall(SimpleNameSyntax name, System.Func<SyntaxTree, bool> passThroughsReturn)
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

        // The whole body of a pass-through async method is an await TPL0016 may remove where it is on: the task would be
        // returned, so it does not count, whichever rule's fix runs first.
        return Unparenthesized(awaitedExpression) is AwaitExpressionSyntax await
            && !(passThroughsReturn(name.SyntaxTree) && PassThroughAsync.MayBePassThrough(await));
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

    /// <summary>An await, or an <c>await using</c> or <c>await foreach</c>. By kind first: a type test per interface costs more, on every operation of the body.</summary>
    private static bool IsAwait(IOperation operation) => operation.Kind switch
    {
        OperationKind.Await => true,
        OperationKind.Using => ((IUsingOperation)operation).IsAsynchronous,
        OperationKind.UsingDeclaration => ((IUsingDeclarationOperation)operation).IsAsynchronous,
        OperationKind.Loop => operation is IForEachLoopOperation { IsAsynchronous: true },
        _ => false,
    };

    private static bool IsCached(IOperation value, ITypeSymbol resultType, TaskCacheLevel level) =>
        ConstantResult.TryGet(value, out var constant) && TaskResultCache.IsCachedByRuntime(resultType, constant, level);

    private static bool HasMethodBuilder(IMethodSymbol method) =>
        method.GetAttributes().Any(a => a.AttributeClass?.Name == "AsyncMethodBuilderAttribute");
}
