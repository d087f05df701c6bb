namespace TplPractices.Analyzers.Internals;

/// <summary>
/// Where the state goes when a capturing lambda is rewritten to receive its data as a state: which lambda
/// parameter becomes <c>state</c>, and which argument carries the values. One per API form.
/// </summary>
internal sealed class StateShape
{
    private StateShape(int stateParameter, bool replacesParameter, bool fillsArgument, bool typed, bool hasAntecedent, string? namedState = null, bool afterTheDelegate = false)
    {
        AfterTheDelegate = afterTheDelegate;
        StateParameter = stateParameter;
        ReplacesParameter = replacesParameter;
        FillsArgument = fillsArgument;
        Typed = typed;
        HasAntecedent = hasAntecedent;
        NamedState = namedState;
    }

    /// <summary><c>StartNew(() => …)</c> → <c>StartNew(state => …, values)</c>; also <c>Register(Action)</c>.</summary>
    public static readonly StateShape NewObjectState = new(0, replacesParameter: false, fillsArgument: false, typed: false, hasAntecedent: false, afterTheDelegate: true);

    /// <summary><c>ContinueWith(t => …)</c> → <c>ContinueWith((t, state) => …, values)</c>.</summary>
    public static readonly StateShape ContinuationState = new(1, replacesParameter: false, fillsArgument: false, typed: false, hasAntecedent: true, afterTheDelegate: true);

    /// <summary><c>QueueUserWorkItem(_ => …)</c> → <c>QueueUserWorkItem(state => …, values)</c>: the ignored parameter becomes the state.</summary>
    public static readonly StateShape UnusedObjectState = new(0, replacesParameter: true, fillsArgument: false, typed: false, hasAntecedent: false, afterTheDelegate: true);

    /// <summary><c>QueueUserWorkItem(_ => …)</c> → <c>QueueUserWorkItem&lt;TState&gt;(state => …, values, preferLocal: false)</c>: no cast, no box.</summary>
    public static readonly StateShape UnusedTypedState = new(0, replacesParameter: true, fillsArgument: false, typed: true, hasAntecedent: false, afterTheDelegate: true);

    /// <summary><c>new Timer(_ => …, null, …)</c> → <c>new Timer(state => …, values, …)</c>: the null state argument is filled.</summary>
    public static StateShape NullObjectState(int stateParameter) => new(stateParameter, replacesParameter: true, fillsArgument: true, typed: false, hasAntecedent: false);

    /// <summary><c>dictionary.GetOrAdd(key, k => …)</c> → <c>GetOrAdd(key, (k, state) => …, values)</c>: a state overload's delegate takes the state at <paramref name="position"/>.</summary>
    /// <param name="position">Where the delegate takes the state among its parameters.</param>
    /// <param name="typed">The state is a type parameter (<c>TArg</c>), read back without a cast.</param>
    /// <param name="namedState">
    /// The overload's state parameter name, where every argument the call names has the same name in the overload: a call
    /// with named arguments then gets the values as one more, named (<c>factoryArgument: values</c>); null otherwise.
    /// </param>
    /// <param name="keyParameter">
    /// The delegate's first parameter is the key the call is given (a dictionary's factory): a captured key is read from
    /// it, as a continuation reads its antecedent, instead of travelling in the state.
    /// </param>
    public static StateShape Inserted(int position, bool typed, string? namedState, bool keyParameter = false) =>
        new(position, replacesParameter: false, fillsArgument: false, typed, hasAntecedent: keyParameter, namedState);

    /// <summary>
    /// <c>string.Create(n, (object?)null, (span, _) => …)</c> → <c>string.Create(n, values, (span, state) => …)</c>: a state
    /// overload's dummy state, which the lambda at <paramref name="position"/> ignores, is filled.
    /// </summary>
    public static StateShape FilledDummy(int position, bool typed) => new(position, replacesParameter: true, fillsArgument: true, typed, hasAntecedent: false);

    /// <summary>A shape as the fixer reads it back from the diagnostic (<see cref="StateFacts"/>).</summary>
    public static StateShape Of(int stateParameter, bool replacesParameter, bool fillsArgument, bool typed, bool hasAntecedent, string? namedState) =>
        new(stateParameter, replacesParameter, fillsArgument, typed, hasAntecedent, namedState);

    /// <summary>The position of <c>state</c> in the new lambda's parameters.</summary>
    public int StateParameter { get; }

    /// <summary>The lambda already has that parameter (it ignores the null state it gets); otherwise one is inserted.</summary>
    public bool ReplacesParameter { get; }

    /// <summary>The call passes a null state today, which the values replace; otherwise they go after the delegate.</summary>
    public bool FillsArgument { get; }

    /// <summary>The state has the values' own type (a generic <c>TState</c>): read back without a cast.</summary>
    public bool Typed { get; }

    /// <summary>A continuation: its first parameter is the antecedent task, which may stand for a captured variable.</summary>
    public bool HasAntecedent { get; }

    /// <summary>The state parameter's name, where a call with named arguments can be given the values by it.</summary>
    public string? NamedState { get; }

    /// <summary>
    /// The values go right after the delegate, in an overload that keeps the names of the parameters after it (the BCL
    /// APIs of TPL0001, TPL0006 and TPL0007): named arguments after an unnamed delegate stay as written.
    /// </summary>
    public bool AfterTheDelegate { get; }
}
