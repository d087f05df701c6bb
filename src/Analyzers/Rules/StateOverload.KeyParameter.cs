using System.Collections.Generic;
using System.Collections.Immutable;
using System.Linq;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp.Syntax;
using Microsoft.CodeAnalysis.Operations;
using TplPractices.Analyzers.Internals;

namespace TplPractices.Analyzers.Rules;

/// <summary>
/// TPL0015's other rewrite: <c>cache.GetOrAdd(type, _ =&gt; Create(type))</c> captures the very key the dictionary hands
/// its factory, so <c>cache.GetOrAdd(type, static type =&gt; Create(type))</c> allocates nothing, needs no state overload,
/// and compiles on every target (netstandard2.0's ConcurrentDictionary has none). <c>ConcurrentDictionary</c>'s
/// <c>GetOrAdd</c> and <c>AddOrUpdate</c>, <c>ImmutableInterlocked</c>'s, and <c>ConditionalWeakTable.GetValue</c> and
/// <c>GetOrAdd</c> call their factories with the key argument itself, so the parameter holds the value the closure
/// would have read.
/// </summary>
internal static partial class StateOverload
{
    /// <summary>The rewrite that reads the key from the factory's own parameter.</summary>
    public const string FixKeyParameter = "KeyParameter";

    /// <summary>The property that gives the fixer the key's ordinal among the called method's parameters.</summary>
    public const string KeyOrdinalKey = "KeyOrdinal";

    /// <summary>The message's closing words for a capture the state overload carries.</summary>
    public static string OverloadAdvice(string pronoun) => "the overload with a state parameter can pass " + pronoun + " instead";

    /// <summary>The message's closing words for a captured key.</summary>
    public static string KeyAdvice(string pronoun) => "the dictionary hands the callback that key: read its parameter instead";

    /// <summary>A call whose factories capture nothing but its key: the first that does, and where the others are.</summary>
    internal sealed class KeySite
    {
        public KeySite(StateCapture reported, ImmutableArray<Location> others, int keyOrdinal)
        {
            Reported = reported;
            Others = others;
            Facts = ImmutableDictionary<string, string?>.Empty.Add(KeyOrdinalKey, keyOrdinal.ToString(System.Globalization.CultureInfo.InvariantCulture));
        }

        /// <summary>What the fixer reads besides the lambdas: the key's ordinal among the method's parameters.</summary>
        public ImmutableDictionary<string, string?> Facts { get; }

        /// <summary>The first factory that captures the key: the diagnostic's place and message.</summary>
        public StateCapture Reported { get; }

        /// <summary>The other factories of the call that capture it, rewritten with the first.</summary>
        public ImmutableArray<Location> Others { get; }
    }

    /// <summary>
    /// The site where the key argument of a method that hands its factories that key (<see cref="KeyArgument"/>) is
    /// captured by every factory written as a lambda, alone or nothing; null otherwise.
    /// </summary>
    public static KeySite? KeyCapture(IOperation call, IArgumentOperation keyArgument)
    {
        if (keyArgument is not { Value: var key, Parameter.Ordinal: var ordinal, Parent: IInvocationOperation invocation }
            || StateCapture.ReferencedSymbol(key) is not { } variable)
        {
            return null;
        }

        var root = call.Root();
        var capturing = new List<IAnonymousFunctionOperation>();
        foreach (var argument in invocation.Arguments)
        {
            if (argument.Parameter?.Type.TypeKind != TypeKind.Delegate)
            {
                continue;
            }

            // A method group (it may capture this) leaves the call to the state overload's rewrite, and a static
            // lambda captures nothing.
            if (argument.Value.WithoutImplicitConversions() is not IDelegateCreationOperation { Target: IAnonymousFunctionOperation lambda })
            {
                return null;
            }

            if (lambda.Symbol.IsStatic || StateCapture.CapturesNothing(lambda, StateShape.NewObjectState))
            {
                continue;
            }

            // An anonymous method without a parameter list names no parameter to read the key from. A parameter with a
            // name keeps it, so no function in the body may declare that name again (a key read there would bind to it).
            if (lambda.Syntax is not (SimpleLambdaExpressionSyntax or ParenthesizedLambdaExpressionSyntax { ParameterList.Parameters.Count: > 0 })
                || !StateCapture.CanStandFor(lambda, variable, keepsName: lambda.Symbol.Parameters[0] is { Name: not "_", IsDiscard: false })
                || !StateCapture.UsesOnly(lambda, variable, root))
            {
                return null;
            }

            capturing.Add(lambda);
        }

        return capturing.Count == 0
            ? null
            : new KeySite(
                StateCapture.Reported(call, capturing[0], StateShape.NewObjectState, ImmutableArray.Create(variable), antecedent: null),
                capturing.Skip(1).Select(l => l.Syntax.GetLocation()).ToImmutableArray(),
                ordinal);
    }

    /// <summary>
    /// The key argument of a call to a method that hands its factories the key (<see cref="Context.KeyOrdinal"/>), where
    /// it is a local or parameter passed unconverted; null otherwise. The name is tested before the type.
    /// </summary>
    public static IArgumentOperation? KeyArgument(IOperation call, Context context) =>
        call is IInvocationOperation { TargetMethod: { Name: "GetOrAdd" or "AddOrUpdate" or "GetValue" } method } invocation
        && context.KeyOrdinal(method) is { } ordinal
        && invocation.Arguments.FirstOrDefault(a => a.Parameter?.Ordinal == ordinal) is { } argument
        && argument.Value is ILocalReferenceOperation { Local.IsRef: false } or IParameterReferenceOperation { Parameter.RefKind: RefKind.None }
            ? argument
            : null;
}
