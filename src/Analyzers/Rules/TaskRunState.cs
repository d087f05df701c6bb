using System.Linq;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.Operations;
using TplPractices.Analyzers.Internals;

namespace TplPractices.Analyzers.Rules;

/// <summary>TPL0007: which calls are Task.Run given a capturing lambda, shared by the analyzer and the fixer.</summary>
internal static class TaskRunState
{
    public static StateCapture? Analyze(IInvocationOperation invocation, Context context, int maxStateValues)
    {
        var method = invocation.TargetMethod;
        if (!SymbolEqualityComparer.Default.Equals(method.ContainingType, context.Task)
            || !method.IsStatic
            || StateCapture.LambdaOf(invocation.Arguments.FirstOrDefault(a => a.Parameter?.Ordinal == 0)) is not { } lambda)
        {
            return null;
        }

        // The loop check walks the body again, so only for a lambda that captures.
        var capture = StateCapture.Of(
            invocation,
            lambda,
            StateShape.NewObjectState,
            maxStateValues,
            context.HasValueTuple,
            // Task.Run's own unwrap reports an OperationCanceledException the delegate throws before it returns its
            // task as cancellation; StartNew(…).Unwrap() reports it as a fault. An async lambda never throws there, nor
            // one that only returns a call TPL0016 proves cannot throw (an async method of this type on `this`).
            () => ReturnsTask(invocation, context) && !lambda.Symbol.IsAsync && !ReturnsWithoutThrowing(lambda, context)
                ? "the lambda returns a task without being async: Task.Run would end canceled where the rewrite ends faulted"
                : null);
        return capture is not null && RunsALoop(lambda) ? null : capture;
    }

    /// <summary>
    /// A lambda whose body runs a loop pays for its closure once for the whole loop, not once per pass: the state overload
    /// saves too little to be worth StartNew's longer call. This also keeps the rule off what TPL0005's fix writes,
    /// <c>await Task.Run(() =&gt; { loop })</c>, on a second dotnet format run. Loops in nested functions do not count.
    /// </summary>
    private static bool RunsALoop(IAnonymousFunctionOperation lambda) =>
        lambda.Body.Descendants().Any(o => o is ILoopOperation && o.EnclosingFunction() == lambda);

    /// <summary>
    /// A lambda whose body only returns a task that cannot throw cancellation while it is made (<c>() =&gt; RunAsync(token)</c>
    /// of an <c>async</c> method on <c>this</c>, TPL0016's <see cref="PassThroughCallees"/>; the token may be read from a
    /// source): what else it can throw, both unwraps report alike.
    /// </summary>
    private static bool ReturnsWithoutThrowing(IAnonymousFunctionOperation lambda, Context context) =>
        context.PassThrough is { } passThrough
        && lambda.Body.Operations.Length == 1
        && lambda.Body.Operations[0] is IReturnOperation { ReturnedValue: { } returned }
        && PassThroughCallees.CannotThrowCancellation(returned.WithoutImplicitConversions(), passThrough);

    /// <summary>The property that tells the fixer the delegate returns a task (<see cref="ReturnsTask"/>).</summary>
    public const string UnwrapKey = "Unwrap";

    /// <summary>The properties of a site whose StartNew needs Unwrap.</summary>
    public static readonly System.Collections.Immutable.ImmutableDictionary<string, string?> Unwraps =
        System.Collections.Immutable.ImmutableDictionary<string, string?>.Empty.Add(UnwrapKey, "1");

    /// <summary>True when the delegate returns a task, so StartNew's result needs Unwrap to be Task.Run's.</summary>
    public static bool ReturnsTask(IInvocationOperation invocation, Context context) =>
        invocation.TargetMethod.Parameters[0].Type is INamedTypeSymbol { DelegateInvokeMethod.ReturnType: INamedTypeSymbol returned }
        && (SymbolEqualityComparer.Default.Equals(returned.OriginalDefinition, context.Task)
            || SymbolEqualityComparer.Default.Equals(returned.OriginalDefinition, context.TaskOfT));

    /// <summary>The types TPL0007 binds to, resolved once per compilation.</summary>
    internal sealed class Context
    {
        private Context(Compilation compilation, INamedTypeSymbol task)
        {
            Task = task;
            TaskOfT = compilation.GetTypeByMetadataName(WellKnownTypeNames.TaskOfT);
            HasValueTuple = compilation.GetTypeByMetadataName(WellKnownTypeNames.ValueTuple2) is not null;
            _loops = AwaitInLoop.Context.TryCreate(compilation);
            Values = AvailableValue.Context.TryCreate(compilation);
            PassThrough = PassThroughAsync.Context.TryCreate(compilation);
        }

        /// <summary>TPL0016's symbols: which returned tasks cannot throw while they are made.</summary>
        public PassThroughAsync.Context? PassThrough { get; }

        /// <summary>TPL0014's symbols.</summary>
        public AvailableValue.Context? Values { get; }

        // Resolved at once (a few lookups): a deferred resolve would keep the compilation alive with this context.
        private readonly AwaitInLoop.Context? _loops;

        /// <summary>TPL0005's symbols.</summary>
        public AwaitInLoop.Context? Loops => _loops;

        public INamedTypeSymbol Task { get; }

        public INamedTypeSymbol? TaskOfT { get; }

        public bool HasValueTuple { get; }

        /// <summary>Null where the target has no Task.Run (.NET Framework 4.0, netstandard1.0 …).</summary>
        public static Context? TryCreate(Compilation compilation) =>
            compilation.GetTypeByMetadataName(WellKnownTypeNames.Task) is { } task && !task.GetMembers("Run").IsEmpty
                ? new Context(compilation, task)
                : null;
    }
}
