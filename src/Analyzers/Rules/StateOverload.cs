using System;
using System.Collections.Concurrent;
using System.Collections.Generic;
using System.Collections.Immutable;
using System.Linq;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp.Syntax;
using Microsoft.CodeAnalysis.Operations;
using TplPractices.Analyzers.Internals;

namespace TplPractices.Analyzers.Rules;

/// <summary>
/// TPL0015: the overload of a called method that hands its callbacks a state, found by its shape rather than by a
/// list. A sibling of the same name, kind and receiver with one more parameter, the state (a method type parameter
/// such as <c>TArg</c>, or an <c>object</c> named for a state), whose other parameters are the method's, except
/// callbacks whose delegate also receives that state. <c>ConcurrentDictionary.GetOrAdd(key, Func&lt;TKey, TValue&gt;)</c>
/// has <c>GetOrAdd&lt;TArg&gt;(key, Func&lt;TKey, TArg, TValue&gt;, TArg)</c>; a user's <c>Run(Action)</c> its
/// <c>Run&lt;TState&gt;(Action&lt;TState&gt;, TState)</c>. A target without the overload (netstandard2.0's
/// ConcurrentDictionary) finds none, so nothing is reported there.
/// </summary>
internal static partial class StateOverload
{
    /// <summary>The rewrite to the state overload, with static lambdas.</summary>
    public const string FixStateOverload = "StateOverload";

    /// <summary>A method's state overload: which parameter is the state, and which callbacks receive it where.</summary>
    internal sealed class Match
    {
        public Match(IMethodSymbol overload, int stateOrdinal, ImmutableArray<(int Ordinal, int Position)> callbacks, bool typed, bool proven, int receiver = 0, int valueFactory = -1)
        {
            ValueFactory = valueFactory;
            Overload = overload;
            StateOrdinal = stateOrdinal;
            Callbacks = callbacks;
            Typed = typed;
            Proven = proven;
            Receiver = receiver;
        }

        /// <summary>The overload's original definition.</summary>
        public IMethodSymbol Overload { get; }

        /// <summary>
        /// The state's position among the method's parameters once it is inserted: the overload's own ordinal, plus one
        /// for an extension method whose overload is an instance method of its receiver (<see cref="Receiver"/>).
        /// </summary>
        public int StateOrdinal { get; }

        /// <summary>1 where the method is an extension whose receiver the overload is an instance method of, else 0.</summary>
        public int Receiver { get; }

        /// <summary>The method's callback parameters whose delegate gains the state, and the state's place among its parameters.</summary>
        public ImmutableArray<(int Ordinal, int Position)> Callbacks { get; }

        /// <summary>
        /// The method's parameter whose value the overload takes as a factory of the state (<c>AddOrUpdate(key, value,
        /// update)</c> beside <c>AddOrUpdate&lt;TArg&gt;(key, addValueFactory, updateValueFactory, arg)</c>), or -1.
        /// </summary>
        public int ValueFactory { get; }

        /// <summary>The state has a type parameter's type: read back without a cast.</summary>
        public bool Typed { get; }

        /// <summary>
        /// The signature alone says which callback parameter receives the state: its type parameter, or the only
        /// <c>object</c> among both the overload's and the delegate's parameters. An API with two <c>object</c> values
        /// (<c>Execute(Action&lt;object, object&gt;, object context, object state)</c>) passes them in an order only its
        /// documentation gives, so the call is reported without a fix.
        /// </summary>
        public bool Proven { get; }
    }

    /// <summary>
    /// A reported call: its match, and the capture of each of its callbacks (null where one captures nothing and the call
    /// has no fix; where one state serves them all, each callback's capture carries every value).
    /// </summary>
    internal sealed class Site
    {
        public Site(Match match, StateCapture reported, ImmutableArray<StateCapture?> callbacks, bool fillsDummy, bool constantValue, ISymbol? addedValue, StateCapture described)
        {
            Match = match;
            Reported = reported;
            Described = described;
            Callbacks = callbacks;
            FillsDummy = fillsDummy;
            ConstantValue = constantValue;
            AddedValue = addedValue;
        }

        /// <summary>
        /// The variable passed as the value the overload takes as a factory, where the callbacks do not read it: the
        /// state carries it first, beside the captures, and the factory hands it back.
        /// </summary>
        public ISymbol? AddedValue { get; }

        public Match Match { get; }

        /// <summary>
        /// The value the overload takes as a factory (<see cref="Match.ValueFactory"/>) is a constant: the factory
        /// returns it (<c>static (_, _) =&gt; 1</c>) and the state holds only the captures.
        /// </summary>
        public bool ConstantValue { get; }

        /// <summary>
        /// The call is the state overload already and passes a dummy state (<c>null</c>, <c>default</c>) its callbacks
        /// ignore: the values replace that argument, and nothing is inserted.
        /// </summary>
        public bool FillsDummy { get; }

        /// <summary>
        /// The first callback that captures, with every value the state carries for all callbacks: the fix's verdict and
        /// what it rewrites.
        /// </summary>
        public StateCapture Reported { get; }

        /// <summary>That callback as it captures: where the diagnostic goes, and what its message names.</summary>
        public StateCapture Described { get; }

        /// <summary>Per entry of <see cref="Match.Callbacks"/>, in order.</summary>
        public ImmutableArray<StateCapture?> Callbacks { get; }
    }

    /// <summary>Per compilation: the types whose calls other rules own, and each method's match, worked out once.</summary>
    internal sealed class Context
    {
        private readonly ImmutableArray<INamedTypeSymbol> _tasks;
        private readonly CallbackStateApis? _callbackApis;
        private readonly INamedTypeSymbol? _concurrentDictionary;
        private readonly INamedTypeSymbol? _conditionalWeakTable;
        private readonly INamedTypeSymbol? _immutableInterlocked;
        private readonly ConcurrentDictionary<IMethodSymbol, Match?> _matches = new(SymbolEqualityComparer.Default);
        private readonly ConcurrentDictionary<IMethodSymbol, Match?> _ownStates = new(SymbolEqualityComparer.Default);
        private readonly Func<IMethodSymbol, Match?> _matchOf;
        private readonly Func<IMethodSymbol, Match?> _ownStateOf;

        private Context(Compilation compilation)
        {
            // TPL0001 (StartNew, ContinueWith), TPL0007 (Task.Run) and TPL0006 (the BCL callback APIs, asked of its own
            // model): one site, one rule.
            _tasks = new[] { WellKnownTypeNames.Task, WellKnownTypeNames.TaskOfT, WellKnownTypeNames.TaskFactory, WellKnownTypeNames.TaskFactoryOfT }
                .Select(compilation.GetTypeByMetadataName)
                .OfType<INamedTypeSymbol>()
                .ToImmutableArray();
            _callbackApis = CallbackStateApis.TryCreate(compilation);
            HasValueTuple = compilation.GetTypeByMetadataName(WellKnownTypeNames.ValueTuple2) is not null;
            _concurrentDictionary = compilation.GetTypeByMetadataName(WellKnownTypeNames.ConcurrentDictionary);
            _conditionalWeakTable = compilation.GetTypeByMetadataName(WellKnownTypeNames.ConditionalWeakTable);
            _immutableInterlocked = compilation.GetTypeByMetadataName(WellKnownTypeNames.ImmutableInterlocked);
            _matchOf = method => IsOwnedElsewhere(method) ? null : Passed(Find(method));
            // TPL0006 owns its APIs' object states, not their generic ones (UnsafeQueueUserWorkItem<TState>).
            _ownStateOf = method => Passed(OwnState(method)) is { } own && (own.Typed || !IsOwnedElsewhere(method)) ? own : null;
        }

        public bool HasValueTuple { get; }

        /// <summary>The match, unless its overload is a method of the project that never reads the state (<see cref="IgnoredState"/>).</summary>
        private static Match? Passed(Match? match) =>
            match is not null && IgnoredState.IsIgnoredBy(match.Overload, match.StateOrdinal - match.Receiver) ? null : match;

        /// <summary>
        /// Where <paramref name="method"/> hands its factories the key argument of the call, that argument's ordinal:
        /// <c>ConcurrentDictionary</c>'s <c>GetOrAdd</c> and <c>AddOrUpdate</c> and <c>ConditionalWeakTable</c>'s
        /// <c>GetValue</c> and <c>GetOrAdd</c> (0), <c>ImmutableInterlocked</c>'s <c>GetOrAdd</c> and <c>AddOrUpdate</c> (1,
        /// after the <c>ref</c> location); not their <c>TArg</c> overloads, which pass a state already.
        /// </summary>
        public int? KeyOrdinal(IMethodSymbol method)
        {
            var type = method.ContainingType.OriginalDefinition;
            if (SymbolEqualityComparer.Default.Equals(type, _immutableInterlocked))
            {
                return method.Name is "GetOrAdd" or "AddOrUpdate" && method.TypeParameters.Length == 2 ? 1 : null;
            }

            return method.TypeParameters.IsEmpty
                && ((method.Name is "GetOrAdd" or "AddOrUpdate" && SymbolEqualityComparer.Default.Equals(type, _concurrentDictionary))
                    || (method.Name is "GetOrAdd" or "GetValue" && SymbolEqualityComparer.Default.Equals(type, _conditionalWeakTable)))
                ? 0
                : null;
        }

        public static Context TryCreate(Compilation compilation) => new(compilation);

        /// <summary>
        /// StartNew and ContinueWith are TPL0001's, Task.Run TPL0007's, the callback APIs TPL0006's; the task types'
        /// other methods (<c>TaskFactory.FromAsync</c> and its <c>TArg</c> overloads) are this rule's.
        /// </summary>
        private bool IsOwnedElsewhere(IMethodSymbol method) =>
            (method.Name is "StartNew" or "ContinueWith" or "Run" && _tasks.Contains(method.ContainingType.OriginalDefinition, SymbolEqualityComparer.Default))
            || _callbackApis?.IsApiType(method.ContainingType) == true;

        /// <summary>
        /// The method's match, or null where it has none or another rule owns its calls; worked out once per method,
        /// since most calls with a lambda (LINQ's) are to a few methods called many times.
        /// </summary>
        public Match? OverloadOf(IMethodSymbol method) => _matches.GetOrAdd(method.OriginalDefinition, _matchOf);

        /// <summary>The method as its own state overload (it takes a state its callbacks receive), or null; once per method.</summary>
        public Match? OwnStateOf(IMethodSymbol method) => _ownStates.GetOrAdd(method.OriginalDefinition, _ownStateOf);
    }

    /// <summary>
    /// The site at a call, or null where no callback given a lambda captures, or the method has no state overload the
    /// call can reach. The syntax is tested first: most calls pass no lambda, and finding an overload loads members.
    /// </summary>
    public static Site? Analyze(IOperation call, Context context, int maxStateValues, IArgumentOperation? keyArgument = null)
    {
        if (WrittenArguments(call) is not { } written
            || !HasLambda(written)
            || CalledMethod(call) is not { MethodKind: MethodKind.Ordinary or MethodKind.Constructor } method)
        {
            return null;
        }

        var fillsDummy = false;
        if (context.OverloadOf(method) is not { } match)
        {
            if (context.OwnStateOf(method) is not { } own || !PassesADummy(call, own))
            {
                return null;
            }

            (match, fillsDummy) = (own, true);
        }
        else if (!call.SemanticModel!.IsAccessible(call.Syntax.SpanStart, match.Overload))
        {
            return null;
        }

        var noFix = !match.Proven ? "nothing in the overload's signature says which callback parameter receives the state"
            : fillsDummy ? DummyNoFixReason(call, method)
            : NoFixReason(call, match);
        var namedState = fillsDummy ? null : NamedState(call, method, match);
        // A factory handed the call's key reads a captured key from its first parameter; with two callbacks sharing
        // one state (AddOrUpdate) the key stays in the state.
        var key = !fillsDummy && match.Callbacks.Length == 1 && keyArgument is not null ? StateCapture.ReferencedSymbol(keyArgument.Value) : null;
        var shapes = new List<StateCapture?>();
        var callbacks = new List<(IAnonymousFunctionOperation? Lambda, StateShape Shape)>();
        foreach (var (ordinal, position) in match.Callbacks)
        {
            var lambda = StateCapture.LambdaOf(Arguments(call).FirstOrDefault(a => a.Parameter?.Ordinal == ordinal));
            var shape = fillsDummy ? StateShape.FilledDummy(position, match.Typed) : StateShape.Inserted(position, match.Typed, namedState, key is not null);
            callbacks.Add((lambda, shape));
            shapes.Add(lambda is null
                ? null
                : StateCapture.Of(call, lambda, shape, maxStateValues, context.HasValueTuple, () => noFix, key));
        }

        if (shapes.FirstOrDefault(s => s is not null) is not { } described)
        {
            return null;
        }

        var reported = described;
        if (reported.NoFixReason is null && shapes.Count > 1)
        {
            if (SharedState(callbacks, shapes, maxStateValues, context.HasValueTuple) is not { } values)
            {
                reported = reported.WithNoFix("a callback is no lambda, or the values every callback needs would not fit in one state");
            }
            else
            {
                // Every callback receives the one state: each reads back what it captured and discards the rest
                // (var (a, _) = state;), and one that captured nothing takes the state unread.
                var reportedAt = shapes.IndexOf(described);
                for (var i = 0; i < shapes.Count; i++)
                {
                    shapes[i] = StateCapture.Reported(call, callbacks[i].Lambda!, callbacks[i].Shape, values, antecedent: null);
                }

                reported = shapes[reportedAt]!;
            }
        }

        var value = match.ValueFactory >= 0 ? Arguments(call).FirstOrDefault(a => a.Parameter?.Ordinal == match.ValueFactory) : null;
        var constantValue = value is not null && IsConstantValue(value);
        ISymbol? addedValue = null;
        if (reported.NoFixReason is null && match.ValueFactory >= 0 && !constantValue && (value is null || !ValueInState(value, reported, out addedValue)))
        {
            reported = reported.WithNoFix("the overload takes the value as a factory of the state, written only where the value is a constant or a variable");
        }

        return new Site(match, reported, shapes.ToImmutableArray(), fillsDummy, constantValue, addedValue, described);
    }

    /// <summary>
    /// The values one state carries for every callback, in the order they are first captured; null where a callback is
    /// no lambda, one that captures has no fix of its own, one that captures nothing still uses the code around it (a
    /// local function), or the values are more than a state may hold.
    /// </summary>
    private static ImmutableArray<ISymbol>? SharedState(
        List<(IAnonymousFunctionOperation? Lambda, StateShape Shape)> callbacks, List<StateCapture?> shapes, int maxStateValues, bool hasValueTuple)
    {
        var values = new List<ISymbol>();
        for (var i = 0; i < callbacks.Count; i++)
        {
            if (callbacks[i].Lambda is not { } lambda
                || (shapes[i] is { } capture ? capture.NoFixReason is not null || capture.Antecedent is not null : !StateCapture.CapturesNothing(lambda, callbacks[i].Shape)))
            {
                return null;
            }

            values.AddRange(shapes[i]?.Captured.Where(v => !values.Contains(v, SymbolEqualityComparer.Default)) ?? Enumerable.Empty<ISymbol>());
        }

        return values.Count <= maxStateValues && (values.Count == 1 || hasValueTuple) ? values.ToImmutableArray() : null;
    }

    /// <summary>
    /// <c>AddOrUpdate(key, 1, (k, old) =&gt; old + step)</c>: a constant value (not <c>null</c>, which a lambda's return
    /// could type differently) of the parameter's own type, which the factory can return as written.
    /// </summary>
    private static bool IsConstantValue(IArgumentOperation argument) =>
        argument.Value is { ConstantValue: { HasValue: true, Value: not null } } value
        && SymbolEqualityComparer.Default.Equals(value.Type, argument.Parameter?.Type);

    /// <summary>
    /// <c>AddOrUpdate(key, value, (k, old) =&gt; old + step)</c>: the value argument reads a local or parameter of the
    /// parameter's own type, which the state carries with the captures (first, as <paramref name="added"/>, where the
    /// callbacks do not read it), and the factory that replaces it hands it back; where it is the one capture, the state
    /// is that value (<c>static (_, value) =&gt; value</c>). The variable is read at the call either way.
    /// </summary>
    private static bool ValueInState(IArgumentOperation argument, StateCapture capture, out ISymbol? added)
    {
        added = null;
        var value = argument.Value.WithoutImplicitConversions();
        var read = value switch
        {
            ILocalReferenceOperation { Local.IsRef: false } local => (ISymbol)local.Local,
            IParameterReferenceOperation { Parameter.RefKind: RefKind.None } parameter => parameter.Parameter,
            _ => null,
        };
        if (read is null
            || !capture.Shape.Typed
            || !SymbolEqualityComparer.Default.Equals(value.Type, argument.Parameter?.Type))
        {
            return false;
        }

        if (!capture.Captured.Contains(read, SymbolEqualityComparer.Default))
        {
            added = read;
        }

        return true;
    }

    /// <summary>The property that gives the fixer the state's ordinal among the overload's parameters.</summary>
    public const string StateOrdinalKey = "StateOrdinal";

    /// <summary>The property that gives the fixer the ordinal of the value the overload takes as a factory (<see cref="Match.ValueFactory"/>).</summary>
    public const string ValueFactoryKey = "ValueFactory";

    /// <summary>The property that gives the fixer where the other callbacks (<see cref="OtherCallbacks"/>) take the state.</summary>
    public const string CallbackPositionsKey = "CallbackPositions";

    /// <summary>What the fixer needs beyond the reported capture: the state's ordinal and the other callbacks' state positions.</summary>
    public static ImmutableDictionary<string, string?> FactsOf(Site site)
    {
        var positions = OtherIndices(site).Select(i => site.Match.Callbacks[i].Position);
        var facts = DiagnosticPropertyKeys.WithOneSiteReason(
            ImmutableDictionary<string, string?>.Empty
                .Add(StateOrdinalKey, site.Match.StateOrdinal.ToString(System.Globalization.CultureInfo.InvariantCulture))
                .Add(CallbackPositionsKey, string.Join(" ", positions.Select(p => p.ToString(System.Globalization.CultureInfo.InvariantCulture)))),
            OneSiteReason(site.Match));

        if (site.Match.ValueFactory < 0)
        {
            return facts;
        }

        facts = facts.Add(ValueFactoryKey, site.Match.ValueFactory.ToString(System.Globalization.CultureInfo.InvariantCulture));
        return site.ConstantValue ? facts.Add(ConstantValueKey, "")
            : site.AddedValue is { } added ? facts.Add(StateFacts.StateValueKey, added.Name)
            : facts;
    }

    /// <summary>
    /// Where the method given the state is one whose body an implementation the code cannot see may replace (an
    /// interface's, an abstract one, a virtual one of a type that is not sealed), whether its callback gets the state is
    /// that implementation's choice: a test double that calls the callback with null (as a mocked <c>IChangeToken</c> in
    /// Ocelot's tests does) would run the rewritten lambda without its values, and one set up for the method the code
    /// called would not answer its sibling. The fix's title says so; null for the others. An extension whose receiver
    /// has the overload called that overload already, through the library's own code, so it rests on nothing new.
    /// </summary>
    public static string? OneSiteReason(Match match)
    {
        var given = match.Overload;
        var replaceable = match.Receiver == 0
            && !given.IsStatic
            && (given.ContainingType.TypeKind == TypeKind.Interface
                || given.IsAbstract
                || (given.IsVirtual || given.IsOverride) && !given.IsSealed && !given.ContainingType.IsSealed);
        return replaceable ? "relies on every implementation of '" + given.ContainingType.Name + "." + given.Name + "' passing the state on" : null;
    }

    /// <summary>Present where the value the overload takes as a factory is a constant (<see cref="Site.ConstantValue"/>).</summary>
    public const string ConstantValueKey = "ConstantValue";

    /// <summary>The lambdas of the callbacks besides the reported one, which receive the same state: the diagnostic's parts.</summary>
    public static IEnumerable<Location> OtherCallbacks(Site site) =>
        OtherIndices(site).Select(i => site.Callbacks[i]!.Lambda.Syntax.GetLocation());

    /// <summary>The indices of the callbacks that capture, besides the reported one, in the order the fixer reads them.</summary>
    private static IEnumerable<int> OtherIndices(Site site) =>
        Enumerable.Range(0, site.Callbacks.Length).Where(i => site.Callbacks[i] is { } capture && capture != site.Reported);

    /// <summary>
    /// The overload's state name, where every argument the call names keeps its name in the overload (the parameters
    /// before the state keep their ordinals, those after it move one on); null where one would not.
    /// </summary>
    private static string? NamedState(IOperation call, IMethodSymbol method, Match match)
    {
        var overload = match.Overload.Parameters;
        foreach (var argument in Arguments(call))
        {
            if (argument.Written() is { NameColon: not null } && argument.Parameter is { } parameter)
            {
                var ordinal = (parameter.Ordinal < match.StateOrdinal ? parameter.Ordinal : parameter.Ordinal + 1) - match.Receiver;
                if (ordinal < 0 || ordinal >= overload.Length || overload[ordinal].Name != method.OriginalDefinition.Parameters[parameter.Ordinal].Name)
                {
                    return null;
                }
            }
        }

        return overload[match.StateOrdinal - match.Receiver].Name;
    }

    /// <summary>
    /// The call passes its state a constant (<c>null</c>, <c>0</c>, <c>false</c>) or <c>default</c>, and every callback
    /// is a lambda that never reads the state it is given: the state is a dummy, and the captured values can take its
    /// place. A callback that reads it, or one that is not a lambda, may give the constant a meaning. An enum value is
    /// no dummy: it names something, most often options meant for the call that a lambda with a parameter sent to the
    /// state instead (<c>new Task(_ =&gt; Loop(x), TaskCreationOptions.LongRunning)</c>), which the fix would erase.
    /// </summary>
    private static bool PassesADummy(IOperation call, Match own)
    {
        var arguments = Arguments(call);
        if (arguments.FirstOrDefault(a => a.Parameter?.Ordinal == own.StateOrdinal) is not { ArgumentKind: ArgumentKind.Explicit } state
            || !(state.Value.WithoutImplicitConversions() is { ConstantValue.HasValue: true } or IDefaultValueOperation)
            || state.Value.WithoutImplicitConversions().Type?.TypeKind == TypeKind.Enum)
        {
            return false;
        }

        foreach (var (ordinal, position) in own.Callbacks)
        {
            if (StateCapture.LambdaOf(arguments.FirstOrDefault(a => a.Parameter?.Ordinal == ordinal)) is not { } lambda
                || StateCapture.ReadsParameter(lambda, position))
            {
                return false;
            }
        }

        return true;
    }

    /// <summary>
    /// Where the values replace a dummy, the state's type comes from them: a type argument written for it
    /// (<c>UnsafeQueueUserWorkItem&lt;object?&gt;</c>) is dropped by the fix, which it can only do when it is the method's only one.
    /// </summary>
    private static string? DummyNoFixReason(IOperation call, IMethodSymbol method) =>
        method.TypeParameters.Length > 1 && call.Syntax is InvocationExpressionSyntax { Expression: GenericNameSyntax or MemberAccessExpressionSyntax { Name: GenericNameSyntax } }
            ? "the call names the type arguments the state's type would change"
            : null;

    /// <summary>
    /// The method group bound to a receiver that cannot be null (<c>this</c>, a local made with <c>new</c>, a readonly
    /// field only its initializer sets with <c>new</c>) that the call gives its state overload's only callback
    /// (<c>GetOrAdd(key, Open)</c>, <c>GetOrAdd(key, _loader.Load)</c>), where the overload's typed state can carry the
    /// receiver; null otherwise. The syntax first (a name or <c>x.Name</c> among the arguments), then the operation, then
    /// the overload.
    /// </summary>
    public static (MethodGroupCapture Group, Match Match)? BoundGroupOf(IInvocationOperation call, Context context)
    {
        if (call.Syntax is not InvocationExpressionSyntax { ArgumentList.Arguments: var written }
            || !HasName(written)
            || !HasBoundGroup(call)
            || call.TargetMethod is not { MethodKind: MethodKind.Ordinary } method
            || context.OverloadOf(method) is not { Typed: true, Proven: true, Callbacks.Length: 1, ValueFactory: < 0 } match
            || NoFixReason(call, match) is not null
            || !call.SemanticModel!.IsAccessible(call.Syntax.SpanStart, match.Overload))
        {
            return null;
        }

        var ordinal = match.Callbacks[0].Ordinal;
        return MethodGroupCapture.OfReceiverThatCannotBeNull(call.Arguments.FirstOrDefault(a => a.Parameter?.Ordinal == ordinal)) is { } group ? (group, match) : null;
    }

    /// <summary>Names are common arguments (locals, parameters): a group bound to a receiver among the operations is not.</summary>
    private static bool HasBoundGroup(IInvocationOperation call)
    {
        foreach (var argument in call.Arguments)
        {
            if (argument.Value.WithoutImplicitConversions() is IDelegateCreationOperation { Target: IMethodReferenceOperation { Instance: IInstanceReferenceOperation or ILocalReferenceOperation or IFieldReferenceOperation } })
            {
                return true;
            }
        }

        return false;
    }

    private static bool HasName(SeparatedSyntaxList<ArgumentSyntax> arguments)
    {
        for (var i = 0; i < arguments.Count; i++)
        {
            if (arguments[i].Expression is IdentifierNameSyntax or MemberAccessExpressionSyntax { Expression: ThisExpressionSyntax or IdentifierNameSyntax or MemberAccessExpressionSyntax { Expression: ThisExpressionSyntax } })
            {
                return true;
            }
        }

        return false;
    }

    /// <summary>The arguments as written: of a method call, or of a constructor (<c>new Work(() => …)</c>, <c>new(() => …)</c>).</summary>
    private static SeparatedSyntaxList<ArgumentSyntax>? WrittenArguments(IOperation call) => call.Syntax switch
    {
        InvocationExpressionSyntax { ArgumentList.Arguments: var arguments } => arguments,
        BaseObjectCreationExpressionSyntax { ArgumentList.Arguments: var arguments } when call is IObjectCreationOperation => arguments,
        _ => null,
    };

    /// <summary>The method or constructor a call or creation binds to.</summary>
    public static IMethodSymbol? CalledMethod(IOperation call) => call switch
    {
        IInvocationOperation invocation => invocation.TargetMethod,
        IObjectCreationOperation creation => creation.Constructor,
        _ => null,
    };

    /// <summary>The arguments of a call or creation, as bound.</summary>
    public static ImmutableArray<IArgumentOperation> Arguments(IOperation call) => call switch
    {
        IInvocationOperation invocation => invocation.Arguments,
        IObjectCreationOperation creation => creation.Arguments,
        _ => ImmutableArray<IArgumentOperation>.Empty,
    };

    /// <summary>
    /// Whether any argument makes a delegate (a lambda or a method group): asked first at every call, by the bound
    /// arguments' kinds, which costs a third of walking the written argument list (measured: red syntax nodes are
    /// reached one call each, where the operations are at hand already).
    /// </summary>
    public static bool HasDelegateArgument(IOperation call)
    {
        foreach (var argument in Arguments(call))
        {
            if (argument.Value.Kind == OperationKind.DelegateCreation)
            {
                return true;
            }
        }

        return false;
    }

    /// <summary>A loop, not LINQ: asked at every call of every file where the rule is on, it must not allocate.</summary>
    private static bool HasLambda(SeparatedSyntaxList<ArgumentSyntax> arguments)
    {
        for (var i = 0; i < arguments.Count; i++)
        {
            if (arguments[i].Expression.WithoutParentheses() is AnonymousFunctionExpressionSyntax)
            {
                return true;
            }
        }

        return false;
    }

    /// <summary>Why the call's arguments cannot take the state where the overload wants it.</summary>
    private static string? NoFixReason(IOperation call, Match match)
    {
        foreach (var argument in Arguments(call))
        {
            if (argument.ArgumentKind == ArgumentKind.ParamArray && argument.IsImplicit)
            {
                return "the call passes a params array in its expanded form";
            }

            if (argument.Parameter is { } parameter && parameter.Ordinal < match.StateOrdinal && argument.ArgumentKind == ArgumentKind.DefaultValue)
            {
                return "the state goes after an optional argument the call leaves out";
            }

            if (match.Receiver == 1 && argument.Parameter?.Ordinal == 0 && argument.Written() is not null)
            {
                return "the extension method is called in its static form, and its overload is an instance method";
            }
        }

        return null;
    }
}
