using System.Linq;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp;
using Microsoft.CodeAnalysis.CSharp.Syntax;
using Microsoft.CodeAnalysis.Operations;
using TplPractices.Analyzers.Internals;

namespace TplPractices.Analyzers.Rules;

/// <summary>
/// TPL0019's questions: does a StartNew, ContinueWith, ContinueWhenAll, ContinueWhenAny or Task.Start call take its
/// scheduler from <c>TaskScheduler.Current</c>
/// because it passes none, and does the fix know the defaults the shorter overload used.
/// </summary>
internal static class ExplicitScheduler
{
    /// <summary>Passes <c>TaskScheduler.Current</c>, the scheduler the call already used: exact, in bulk.</summary>
    public const string FixPassCurrent = "PassCurrent";

    /// <summary>Passes <c>TaskScheduler.Default</c>: changes where the work runs, so offered one site at a time.</summary>
    public const string FixPassDefault = "PassDefault";

    internal sealed class Context
    {
        private Context(Compilation compilation, INamedTypeSymbol task, INamedTypeSymbol scheduler)
        {
            Task = task;
            Scheduler = scheduler;
            TaskOfT = compilation.GetTypeByMetadataName(WellKnownTypeNames.TaskOfT);
            Factory = compilation.GetTypeByMetadataName(WellKnownTypeNames.TaskFactory);
            FactoryOfT = compilation.GetTypeByMetadataName(WellKnownTypeNames.TaskFactoryOfT);
            Chains = ContinueWithChain.Context.TryCreate(compilation);
            Values = AvailableValue.Context.TryCreate(compilation);
        }

        public INamedTypeSymbol Task { get; }

        public INamedTypeSymbol? TaskOfT { get; }

        public INamedTypeSymbol Scheduler { get; }

        public INamedTypeSymbol? Factory { get; }

        public INamedTypeSymbol? FactoryOfT { get; }

        public ContinueWithChain.Context? Chains { get; }

        public AvailableValue.Context? Values { get; }

        public static Context? TryCreate(Compilation compilation) =>
            compilation.GetTypeByMetadataName(WellKnownTypeNames.Task) is { } task
            && compilation.GetTypeByMetadataName(WellKnownTypeNames.TaskScheduler) is { } scheduler
                ? new Context(compilation, task, scheduler)
                : null;

        public bool IsTask(ITypeSymbol? type) => Is(type, Task) || Is(type, TaskOfT);

        public bool IsFactory(ITypeSymbol? type) => Is(type, Factory) || Is(type, FactoryOfT);

        private static bool Is(ITypeSymbol? type, INamedTypeSymbol? expected) =>
            expected is not null && SymbolEqualityComparer.Default.Equals(type?.OriginalDefinition, expected);
    }

    /// <summary>A reported call, and the rewrite that keeps its meaning (null where none can).</summary>
    public sealed class Site
    {
        public static readonly Site Fixable = new(FixPassCurrent);

        public static readonly Site Unfixable = new(null);

        private Site(string? fix) => Fix = fix;

        public string? Fix { get; }
    }

    /// <summary>
    /// The site of a call that runs on <c>TaskScheduler.Current</c> for want of a scheduler argument; null for any
    /// other call. A StartNew (or a factory's ContinueWhenAll and ContinueWhenAny, which run their continuation on the
    /// factory's scheduler) counts only on <c>Task.Factory</c> (whose defaults are known: no token, no options, no
    /// scheduler) or on a factory created without a scheduler, in place or in the initializer of a readonly field of the
    /// same file that no constructor assigns (reported without a fix: its token and options are the shorter overload's
    /// defaults, which the fix cannot spell). A factory from anywhere else may carry its own scheduler, which the
    /// shorter overload uses: not reported.
    /// </summary>
    public static Site? Analyze(IInvocationOperation call, Context symbols)
    {
        var method = call.TargetMethod;
        if (method.IsStatic || TakesScheduler(method, symbols))
        {
            return null;
        }

        // Start() (its other overload takes a scheduler) queues the task to TaskScheduler.Current.
        if (method.Name is "ContinueWith" or "Start")
        {
            return symbols.IsTask(method.ContainingType) ? Site.Fixable : null;
        }

        if (!symbols.IsFactory(method.ContainingType))
        {
            return null;
        }

        return call.Instance?.WithoutImplicitConversions() switch
        {
            IPropertyReferenceOperation { Property: { Name: "Factory", IsStatic: true } factory } when symbols.IsTask(factory.ContainingType) => Site.Fixable,
            IObjectCreationOperation creation when CreatedWithoutScheduler(creation, symbols) => Site.Unfixable,
            IFieldReferenceOperation { Field: { IsReadOnly: true } field } when CreatedWithoutScheduler(field.OnlyValueOf(call), symbols) => Site.Unfixable,
            _ => null,
        };
    }

    private static bool CreatedWithoutScheduler(IOperation? value, Context symbols) =>
        value?.WithoutImplicitConversions() is IObjectCreationOperation { Constructor: { } constructor } && !TakesScheduler(constructor, symbols);

    private static bool TakesScheduler(IMethodSymbol method, Context symbols)
    {
        foreach (var parameter in method.Parameters)
        {
            if (SymbolEqualityComparer.Default.Equals(parameter.Type, symbols.Scheduler))
            {
                return true;
            }
        }

        return false;
    }
}
