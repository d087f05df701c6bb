using System.Collections.Immutable;
using System.Linq;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.Operations;
using TplPractices.Analyzers.Internals;

namespace TplPractices.Analyzers.Rules;

/// <summary>
/// TPL0006: the BCL callback APIs that can carry a state for their callback, and the form each takes. Two kinds:
/// an overload without a state whose sibling takes one (<c>CancellationToken.Register(Action)</c>,
/// <c>ThreadPool.QueueUserWorkItem(WaitCallback)</c>), and a state parameter passed <c>null</c> while the callback
/// captures (<c>new Timer(_ => …, null, …)</c>, <c>QueueUserWorkItem(cb, null)</c>, <c>SynchronizationContext.Post</c>,
/// <c>RegisterWaitForSingleObject</c>, <c>ExecutionContext.Run</c>, <c>UnsafeRegister</c>). Only overloads the
/// compilation's target has are used.
/// </summary>
internal sealed class CallbackStateApis
{
    /// <summary>The state travels as <c>object</c>: every target has this form.</summary>
    public const string FixObjectState = "ObjectState";

    /// <summary><c>QueueUserWorkItem&lt;TState&gt;(…, preferLocal: false)</c>: .NET Core 3.0 and later.</summary>
    public const string FixTypedState = "TypedState";

    /// <summary>The null state argument is filled.</summary>
    public const string FixNullState = "NullState";

    private readonly ImmutableArray<INamedTypeSymbol> _types;
    private readonly INamedTypeSymbol? _synchronizationContext;
    private readonly INamedTypeSymbol? _threadPool;
    private int _typedQueue; // 0 until worked out, then 1 (has it) or 2
    private readonly Compilation _compilation;
    private ImmutableArray<IMethodSymbol> _droppingContexts; // default until worked out

    private CallbackStateApis(Compilation compilation, ImmutableArray<INamedTypeSymbol> types)
    {
        _compilation = compilation;
        _types = types;
        _synchronizationContext = compilation.GetTypeByMetadataName(WellKnownTypeNames.SynchronizationContext);
        _threadPool = compilation.GetTypeByMetadataName(WellKnownTypeNames.ThreadPool);
        HasValueTuple = compilation.GetTypeByMetadataName(WellKnownTypeNames.ValueTuple2) is not null;
    }

    public bool HasValueTuple { get; }

    /// <summary>
    /// Whether the target has QueueUserWorkItem&lt;TState&gt;, worked out at the first QueueUserWorkItem call: loading
    /// ThreadPool's members would cost every build that never calls it. Two threads may both work it out; same answer.
    /// </summary>
    private bool HasTypedQueue
    {
        get
        {
            if (_typedQueue == 0)
            {
                _typedQueue = _threadPool?.GetMembers("QueueUserWorkItem").OfType<IMethodSymbol>().Any(m => m.IsGenericMethod && m.Parameters.Length == 3) == true ? 1 : 2;
            }

            return _typedQueue == 1;
        }
    }

    /// <summary>
    /// The project's overrides of SynchronizationContext's Post and Send that never read their state (a test double's
    /// <c>d(null)</c>), worked out at the first Post or Send call from the declarations of those names alone: a receiver of
    /// a type one of them derives from may be that double at run time. Two threads may both work it out; same answer.
    /// </summary>
    private ImmutableArray<IMethodSymbol> DroppingContexts
    {
        get
        {
            if (_droppingContexts.IsDefault)
            {
                _droppingContexts = _synchronizationContext is not { } baseType
                    ? ImmutableArray<IMethodSymbol>.Empty
                    : _compilation.GetSymbolsWithName("Post", SymbolFilter.Member)
                        .Concat(_compilation.GetSymbolsWithName("Send", SymbolFilter.Member))
                        .OfType<IMethodSymbol>()
                        .Where(m => m.IsOverride && m.Parameters.Length == 2 && m.ContainingType.IsOrDerivesFrom(baseType) && IgnoredState.IsIgnoredBy(m, 1))
                        .ToImmutableArray();
            }

            return _droppingContexts;
        }
    }

    public static CallbackStateApis? TryCreate(Compilation compilation)
    {
        var types = new[]
            {
                WellKnownTypeNames.CancellationToken, WellKnownTypeNames.ThreadPool, WellKnownTypeNames.Timer,
                WellKnownTypeNames.SynchronizationContext, WellKnownTypeNames.ExecutionContext,
            }
            .Select(compilation.GetTypeByMetadataName)
            .OfType<INamedTypeSymbol>()
            .ToImmutableArray();
        return types.IsEmpty ? null : new CallbackStateApis(compilation, types);
    }

    /// <summary>
    /// The cheap test, before any other work: a non-generic method of one of the API types, by name first, then by
    /// containing type (every constructor passes the name test, so the type test matters for object creations).
    /// </summary>
    public bool IsCandidate(IMethodSymbol method) =>
        System.Array.IndexOf(MethodNames, method.Name) >= 0
        && !method.IsGenericMethod
        // Only Post and Send are a SynchronizationContext subclass's: the base types of every type constructed or
        // called with Run need no walk.
        && (method.Name is "Post" or "Send" ? IsApiType(method.ContainingType) : IsListed(method.ContainingType));

    /// <summary>The names of the APIs' methods that take a callback (a constructor for Timer); the rule looks at no other call.</summary>
    internal static readonly string[] MethodNames =
    [
        "Register", "UnsafeRegister", "QueueUserWorkItem", "UnsafeQueueUserWorkItem", "RegisterWaitForSingleObject",
        "UnsafeRegisterWaitForSingleObject", "Post", "Send", "Run", ".ctor",
    ];

    /// <summary>
    /// The capture at a call of one of the APIs, with its fix kind (the best form the target has), or null. Where the
    /// targets' copies of a file disagree, the fixer takes the portable form's diagnostic (<see cref="FixObjectState"/>).
    /// </summary>
    public (StateCapture Capture, string Kind)? Analyze(IOperation call, int maxStateValues)
    {
        if (call.Call() is not var (method, arguments) || !IsCandidate(method) || DropsState(call, method))
        {
            return null;
        }

        var stateParameter = method.Parameters.FirstOrDefault(p => p.Name == "state" && p.Type.SpecialType == SpecialType.System_Object);
        if (stateParameter is not null)
        {
            return NullStateSite(call, method, arguments, stateParameter, maxStateValues);
        }

        var first = arguments.FirstOrDefault(a => a.Parameter?.Ordinal == 0);
        if (StateCapture.LambdaOf(first) is not { } lambda)
        {
            return null;
        }

        if (method.Name == "Register" && method.Parameters[0].Type is INamedTypeSymbol { Name: "Action", IsGenericType: false })
        {
            // Register(Action[, bool]) → Register(Action<object>, object[, bool]): every target has the state overload.
            return Site(
                StateCapture.Of(call, lambda, StateShape.NewObjectState, maxStateValues, HasValueTuple, () => HasStateOverload(method) ? null : "no state overload takes the same other arguments"),
                FixObjectState);
        }

        if (method.Name == "QueueUserWorkItem" && method.Parameters.Length == 1)
        {
            var typed = HasTypedQueue;
            var shape = typed ? StateShape.UnusedTypedState : StateShape.UnusedObjectState;
            return Site(StateCapture.Of(call, lambda, shape, maxStateValues, HasValueTuple), typed ? FixTypedState : FixObjectState);
        }

        return null;
    }

    /// <summary>
    /// A bound instance method group given to <c>Register(Action[, bool])</c> (<c>token.Register(_cts.Cancel)</c>), and
    /// whether the state overload with the same other parameters exists; null for anything else.
    /// </summary>
    public (MethodGroupCapture Group, bool HasStateOverload)? MethodGroupSite(IOperation call) =>
        call.Call() is var (method, arguments)
        && method.Name == "Register"
        && IsCandidate(method)
        && method.Parameters.FirstOrDefault()?.Type is INamedTypeSymbol { Name: "Action", IsGenericType: false }
        && MethodGroupCapture.Of(arguments.FirstOrDefault(a => a.Parameter?.Ordinal == 0)) is { } group
            ? (group, HasStateOverload(method))
            : null;

    private (StateCapture Capture, string Kind)? NullStateSite(
        IOperation call, IMethodSymbol method, ImmutableArray<IArgumentOperation> arguments, IParameterSymbol stateParameter, int maxStateValues)
    {
        var stateArgument = arguments.FirstOrDefault(a => SymbolEqualityComparer.Default.Equals(a.Parameter, stateParameter));
        if (stateArgument?.Value.ConstantValue is not { HasValue: true, Value: null })
        {
            return null;
        }

        // The callback parameter: a delegate whose invoke method receives the state as an object.
        foreach (var argument in arguments)
        {
            if (argument.Parameter?.Type is INamedTypeSymbol { DelegateInvokeMethod: { } invoke }
                && invoke.Parameters.FirstOrDefault(p => p.Type.SpecialType == SpecialType.System_Object) is { } received
                && StateCapture.LambdaOf(argument) is { } lambda)
            {
                return Site(StateCapture.Of(call, lambda, StateShape.NullObjectState(received.Ordinal), maxStateValues, HasValueTuple), FixNullState);
            }
        }

        return null;
    }

    /// <summary>
    /// A SynchronizationContext whose Post or Send, as the receiver's type implements it in the project, never reads its
    /// state (<see cref="IgnoredState"/>), or whose type a context of the project that drops it in the same method derives
    /// from (the receiver may be that one: <c>SynchronizationContext.Current</c> under a test's double).
    /// </summary>
    private bool DropsState(IOperation call, IMethodSymbol method) =>
        method.Name is "Post" or "Send"
        && call is IInvocationOperation { Instance.Type: INamedTypeSymbol receiver }
        && (IgnoredState.ImplementationOn(receiver, method) is { Parameters.Length: 2 } implementation && IgnoredState.IsIgnoredBy(implementation, 1)
            || DroppingContexts.Any(dropping => dropping.Name == method.Name && dropping.ContainingType.IsOrDerivesFrom(receiver)));

    private static (StateCapture Capture, string Kind)? Site(StateCapture? capture, string kind) =>
        capture is null ? null : (capture, kind);

    /// <summary>
    /// One of the types whose callback APIs TPL0006 owns (TPL0015 leaves their calls to it): the API types, or a
    /// SynchronizationContext subclass, whose Post and Send take the state the same way.
    /// </summary>
    public bool IsApiType(INamedTypeSymbol type) =>
        IsListed(type) || (_synchronizationContext is not null && type.IsOrDerivesFrom(_synchronizationContext));

    /// <summary>One of the API types themselves: a loop, where LINQ's Contains boxed the array at every call of a constructor.</summary>
    private bool IsListed(INamedTypeSymbol type)
    {
        foreach (var listed in _types)
        {
            if (SymbolEqualityComparer.Default.Equals(listed, type))
            {
                return true;
            }
        }

        return false;
    }

    /// <summary>Register(Action&lt;object&gt;, object) with the same parameters after the state, by type and name (a named argument keeps its name).</summary>
    private static bool HasStateOverload(IMethodSymbol method) =>
        method.ContainingType.GetMembers(method.Name).OfType<IMethodSymbol>().Any(candidate =>
            candidate.Parameters.Length == method.Parameters.Length + 1
            && candidate.Parameters[0].Type is INamedTypeSymbol { Name: "Action", TypeArguments.Length: 1 } action
            && action.TypeArguments[0].SpecialType == SpecialType.System_Object
            && candidate.Parameters[1].Type.SpecialType == SpecialType.System_Object
            && method.Parameters.Skip(1).Select(p => p.Type).SequenceEqual(candidate.Parameters.Skip(2).Select(p => p.Type), SymbolEqualityComparer.Default)
            && method.Parameters.Skip(1).Select(p => p.Name).SequenceEqual(candidate.Parameters.Skip(2).Select(p => p.Name)));
}
