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

    /// <summary>
    /// Moves a token, options or scheduler that the delegate's state took by mistake to its own parameter, and passes a
    /// null state: the call then does what it was written to do, which changes how the task runs, so one site at a time.
    /// </summary>
    public const string FixPassInPlace = "PassInPlace";

    /// <summary>Why the moved argument's fix is not in Fix All: the title's "(…)".</summary>
    public const string PassInPlaceReason = "changes how the task runs: the call gets what it was written to pass";

    internal sealed class Context
    {
        private Context(Compilation compilation, INamedTypeSymbol task, INamedTypeSymbol scheduler)
        {
            Task = task;
            Scheduler = scheduler;
            TaskOfT = compilation.GetTypeByMetadataName(WellKnownTypeNames.TaskOfT);
            Factory = compilation.GetTypeByMetadataName(WellKnownTypeNames.TaskFactory);
            FactoryOfT = compilation.GetTypeByMetadataName(WellKnownTypeNames.TaskFactoryOfT);
            Token = compilation.GetTypeByMetadataName(WellKnownTypeNames.CancellationToken);
            CreationOptions = compilation.GetTypeByMetadataName(WellKnownTypeNames.TaskCreationOptions);
            ContinuationOptions = compilation.GetTypeByMetadataName(WellKnownTypeNames.TaskContinuationOptions);
            Chains = ContinueWithChain.Context.TryCreate(compilation);
            Values = AvailableValue.Context.TryCreate(compilation);
        }

        public INamedTypeSymbol Task { get; }

        public INamedTypeSymbol? TaskOfT { get; }

        public INamedTypeSymbol Scheduler { get; }

        public INamedTypeSymbol? Factory { get; }

        public INamedTypeSymbol? FactoryOfT { get; }

        public INamedTypeSymbol? Token { get; }

        public INamedTypeSymbol? CreationOptions { get; }

        public INamedTypeSymbol? ContinuationOptions { get; }

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

    /// <summary>
    /// A reported call, and the rewrite that keeps its meaning (null where none can); for a call whose delegate's state
    /// took a token, options or a scheduler, that argument and the place it was meant for.
    /// </summary>
    public sealed class Site
    {
        public static readonly Site Fixable = new(FixPassCurrent, null, null);

        public static readonly Site Unfixable = new(null, null, null);

        private Site(string? fix, IOperation? misplaced, string? place)
        {
            Fix = fix;
            Misplaced = misplaced;
            Place = place;
        }

        public string? Fix { get; }

        /// <summary>The argument the state took, as written (before its boxing).</summary>
        public IOperation? Misplaced { get; }

        /// <summary>What the argument was meant to be: "cancellation token", "options" or "scheduler".</summary>
        public string? Place { get; }

        /// <summary>How the task runs without it, for the message: "without those options", …</summary>
        public string? Outcome { get; private set; }

        public static Site MisplacedState(bool fixable, IOperation argument, string place, string outcome) =>
            new(fixable ? FixPassInPlace : null, argument, place) { Outcome = outcome };
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
        Site? site;
        if (method.Name is "ContinueWith" or "Start")
        {
            site = symbols.IsTask(method.ContainingType) ? Site.Fixable : null;
        }
        else if (!symbols.IsFactory(method.ContainingType))
        {
            return null;
        }
        else
        {
            site = call.Instance?.WithoutImplicitConversions() switch
            {
                IPropertyReferenceOperation { Property: { Name: "Factory", IsStatic: true } factory } when symbols.IsTask(factory.ContainingType) => Site.Fixable,
                IObjectCreationOperation creation when CreatedWithoutScheduler(creation, symbols) => Site.Unfixable,
                IFieldReferenceOperation { Field: { IsReadOnly: true } field } when CreatedWithoutScheduler(field.OnlyValueOf(call), symbols) => Site.Unfixable,
                _ => null,
            };
        }

        return site is null ? null : MisplacedState(call, site, symbols) ?? site;
    }

    /// <summary>
    /// A delegate with a parameter picks the overload with a state, which then takes the next argument, boxed: a token
    /// (<c>StartNew(_ =&gt; Work(), token)</c>), options (<c>StartNew(_ =&gt; Loop(), TaskCreationOptions.LongRunning)</c>)
    /// or a scheduler meant for the call is handed to the delegate instead, and the task runs without it. The exact fix
    /// would write that mistake out, so the site's fix moves the argument to its own place (one site at a time: the
    /// task then runs as written) where the call has that place free; otherwise no fix. Only where the delegate is a
    /// lambda that never reads its state: one that reads it (TPL0001's fix passes a captured token so) or a method
    /// group, which may, was given the value on purpose.
    /// </summary>
    private static Site? MisplacedState(IInvocationOperation call, Site site, Context symbols)
    {
        foreach (var argument in call.Arguments)
        {
            if (argument.Parameter is not { Name: "state", Type.SpecialType: SpecialType.System_Object }
                || argument.Value is not IConversionOperation { IsImplicit: true, Operand: { Type: { } type } operand }
                || PlaceOf(type, call.TargetMethod, symbols) is not { } place
                || !IgnoresState(call.Arguments.FirstOrDefault(a => a.Parameter?.Ordinal == 0)?.Value))
            {
                continue;
            }

            var fixable = site.Fix is not null
                && place.Fits
                && argument.Written() is { NameColon: null }
                && !call.Arguments.Any(other => SymbolEqualityComparer.Default.Equals(other.Parameter?.Type, place.Type));
            return Site.MisplacedState(fixable, operand, place.Name, place.Outcome);
        }

        return null;
    }

    /// <summary>What a boxed state of <paramref name="type"/> was meant to be, and whether the call's family takes it.</summary>
    private static (string Name, string Outcome, ITypeSymbol Type, bool Fits)? PlaceOf(ITypeSymbol type, IMethodSymbol method, Context symbols)
    {
        if (symbols.Token is { } token && SymbolEqualityComparer.Default.Equals(type, token))
        {
            return ("cancellation token", "without that token", token, true);
        }

        if (type.IsOrDerivesFrom(symbols.Scheduler))
        {
            return ("scheduler", "on TaskScheduler.Current", symbols.Scheduler, true);
        }

        var options = method.Name == "StartNew" ? symbols.CreationOptions : symbols.ContinuationOptions;
        return SymbolEqualityComparer.Default.Equals(type, symbols.CreationOptions) || SymbolEqualityComparer.Default.Equals(type, symbols.ContinuationOptions)
            ? ("options", "without those options", type, SymbolEqualityComparer.Default.Equals(type, options))
            : null;
    }

    /// <summary>Whether the delegate is a lambda or anonymous method that never reads its last parameter, the state.</summary>
    private static bool IgnoresState(IOperation? value) =>
        value?.WithoutImplicitConversions() is IDelegateCreationOperation { Target: IAnonymousFunctionOperation function }
        && function.Symbol.Parameters.Length > 0
        && !StateCapture.ReadsParameter(function, function.Symbol.Parameters.Length - 1);

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
