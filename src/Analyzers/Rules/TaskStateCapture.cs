using System.Linq;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.Operations;
using TplPractices.Analyzers.Internals;

namespace TplPractices.Analyzers.Rules;

/// <summary>
/// TPL0001: which calls are StartNew or ContinueWith without a state, given a capturing lambda; the capture
/// analysis itself is <see cref="StateCapture"/>, shared with the other state rules.
/// </summary>
internal static class TaskStateCapture
{
    /// <summary>The capture, or null when the call is not a no-state StartNew/ContinueWith given a capturing lambda.</summary>
    public static StateCapture? Analyze(IInvocationOperation invocation, Context context, int maxStateValues)
    {
        var method = invocation.TargetMethod;
        if (!context.IsTaskMethod(method)
            || StateCapture.LambdaOf(invocation.Arguments.FirstOrDefault(a => a.Parameter?.Ordinal == 0)) is not { } lambda)
        {
            return null;
        }

        if (method.Parameters.Any(p => p.Name == "state"))
        {
            return NullStateCapture(invocation, lambda, maxStateValues, context.HasValueTuple);
        }

        var shape = method.Name == "ContinueWith" ? StateShape.ContinuationState : StateShape.NewObjectState;
        return StateCapture.Of(
            invocation,
            lambda,
            shape,
            maxStateValues,
            context.HasValueTuple,
            () => context.StateOverloadOf(method) is null ? "no state overload takes the same other arguments" : null);
    }

    /// <summary>
    /// A state overload given a null state while its lambda ignores the parameter and captures the values it needs
    /// (<c>StartNew(_ =&gt; Receive(id, socket), null, token)</c>): the values can go in the state argument instead.
    /// </summary>
    private static StateCapture? NullStateCapture(IInvocationOperation invocation, IAnonymousFunctionOperation lambda, int maxStateValues, bool hasValueTuple)
    {
        var state = invocation.Arguments.FirstOrDefault(a => a.Parameter is { Name: "state", Type.SpecialType: SpecialType.System_Object });
        if (state?.Value.ConstantValue is not { HasValue: true, Value: null }
            || lambda.Symbol.Parameters.Length == 0
            || lambda.Symbol.Parameters[lambda.Symbol.Parameters.Length - 1].Type.SpecialType != SpecialType.System_Object)
        {
            return null;
        }

        return StateCapture.Of(invocation, lambda, StateShape.NullObjectState(lambda.Symbol.Parameters.Length - 1), maxStateValues, hasValueTuple);
    }

    /// <summary>A bound instance method group given to a no-state StartNew (<c>StartNew(_worker.Run)</c>), or null.</summary>
    public static MethodGroupCapture? MethodGroupOf(IInvocationOperation invocation, Context context) =>
        invocation.TargetMethod is { Name: "StartNew" } method
        && context.IsTaskMethod(method)
        && !method.Parameters.Any(p => p.Name == "state")
            ? MethodGroupCapture.Of(invocation.Arguments.FirstOrDefault(a => a.Parameter?.Ordinal == 0))
            : null;

    /// <summary>The types TPL0001 binds to, resolved once per compilation.</summary>
    internal sealed class Context
    {
        private readonly INamedTypeSymbol _task;
        private readonly INamedTypeSymbol? _taskOfT;
        private readonly INamedTypeSymbol? _factory;
        private readonly INamedTypeSymbol? _factoryOfT;

        private Context(Compilation compilation, INamedTypeSymbol task)
        {
            _task = task;
            _taskOfT = compilation.GetTypeByMetadataName(WellKnownTypeNames.TaskOfT);
            _factory = compilation.GetTypeByMetadataName(WellKnownTypeNames.TaskFactory);
            _factoryOfT = compilation.GetTypeByMetadataName(WellKnownTypeNames.TaskFactoryOfT);
            HasValueTuple = compilation.GetTypeByMetadataName(WellKnownTypeNames.ValueTuple2) is not null;
            _chains = ContinueWithChain.Context.TryCreate(compilation);
            Values = AvailableValue.Context.TryCreate(compilation);
        }

        /// <summary>TPL0014's symbols.</summary>
        public AvailableValue.Context? Values { get; }

        // Resolved at once (a few lookups): a deferred resolve would keep the compilation alive with this context.
        private readonly ContinueWithChain.Context? _chains;

        public bool HasValueTuple { get; }

        /// <summary>TPL0002's symbols.</summary>
        public ContinueWithChain.Context? Chains => _chains;

        public static Context? TryCreate(Compilation compilation) =>
            compilation.GetTypeByMetadataName(WellKnownTypeNames.Task) is { } task ? new Context(compilation, task) : null;

        public bool IsTaskMethod(IMethodSymbol method)
        {
            var type = method.ContainingType.OriginalDefinition;
            return method.Name switch
            {
                "StartNew" => Is(type, _factory) || Is(type, _factoryOfT),
                "ContinueWith" => Is(type, _task) || Is(type, _taskOfT),
                _ => false,
            };
        }

        /// <summary>The overload with <c>object state</c> after the delegate and otherwise the same parameters, by type and name (a named argument keeps its name).</summary>
        public IMethodSymbol? StateOverloadOf(IMethodSymbol method)
        {
            var original = method.OriginalDefinition;
            foreach (var candidate in original.ContainingType.GetMembers(original.Name).OfType<IMethodSymbol>())
            {
                if (candidate.Parameters.Length == original.Parameters.Length + 1
                    && candidate.Parameters[1] is { Name: "state", Type.SpecialType: SpecialType.System_Object }
                    && candidate.TypeParameters.Length == original.TypeParameters.Length
                    && Enumerable.Range(1, original.Parameters.Length - 1).All(i =>
                        candidate.Parameters[i + 1].Name == original.Parameters[i].Name
                        && candidate.Parameters[i + 1].Type.ToDisplayString() == original.Parameters[i].Type.ToDisplayString())
                    && DelegateShapeMatches(original.Parameters[0].Type, candidate.Parameters[0].Type))
                {
                    return candidate;
                }
            }

            return null;
        }

        /// <summary>Action → Action&lt;object&gt;, Func&lt;R&gt; → Func&lt;object, R&gt;, Action&lt;Task&gt; → Action&lt;Task, object&gt;.</summary>
        private static bool DelegateShapeMatches(ITypeSymbol withoutState, ITypeSymbol withState) =>
            withoutState is INamedTypeSymbol a && withState is INamedTypeSymbol b
            && a.Name == b.Name
            && b.TypeArguments.Length == a.TypeArguments.Length + 1;

        private static bool Is(INamedTypeSymbol type, INamedTypeSymbol? expected) =>
            expected is not null && SymbolEqualityComparer.Default.Equals(type, expected);
    }
}
