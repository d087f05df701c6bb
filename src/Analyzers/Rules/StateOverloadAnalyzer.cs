using System.Collections.Immutable;
using System.Linq;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp.Syntax;
using Microsoft.CodeAnalysis.Diagnostics;
using Microsoft.CodeAnalysis.Operations;
using TplPractices.Analyzers.Internals;

namespace TplPractices.Analyzers.Rules;

/// <summary>
/// TPL0015: a capturing lambda given to a method that has an overload carrying a state for it
/// (<c>ConcurrentDictionary.GetOrAdd/AddOrUpdate</c>, <c>ImmutableInterlocked.Update</c>, any API written the same way)
/// allocates a closure and a delegate per call, even when the callback never runs; the state overload with a static
/// lambda allocates neither. The APIs TPL0001, TPL0006 and TPL0007 know keep their own rules.
/// </summary>
public sealed class StateOverloadAnalyzer : DiagnosticAnalyzer
{
    internal static readonly DiagnosticDescriptor Rule = DescriptorFactory.Create(
        DiagnosticIds.StateOverload,
        title: "Use the overload that passes the callback a state",
        messageFormat: "The callback captures {0}, so each call allocates {1}; {2}",
        DiagnosticCategories.Performance,
        DiagnosticSeverity.Info,
        description: "Methods such as ConcurrentDictionary.GetOrAdd and AddOrUpdate have an overload that hands the callback an "
            + "extra argument (TArg, TState or an object state). A lambda that captures locals, parameters or 'this' instead "
            + "makes every call allocate a closure and a delegate, even when the callback is never invoked. The overload is "
            + "found by its shape, so any API written the same way is covered. Variables written after the lambda is created "
            + "are not reported. A factory that captures only the key it is handed (ConcurrentDictionary, ImmutableInterlocked, "
            + "ConditionalWeakTable) reads its own parameter instead, on every target.");

    internal static readonly OperationRule Operations =
        OperationRule.Create(Rule, StateOverload.Context.TryCreate, Analyze, ImmutableArray.Create(OperationKind.Invocation, OperationKind.ObjectCreation), StateCapture.MaxStateValues)
            .ForEveryCall();

    public override ImmutableArray<DiagnosticDescriptor> SupportedDiagnostics { get; } = ImmutableArray.Create(Rule);

    public override void Initialize(AnalysisContext context)
    {
        context.EnableConcurrentExecution();
        context.ConfigureGeneratedCodeAnalysis(GeneratedCode.Skipped);
        context.RegisterRule(Operations);
    }

    private static void Analyze(OperationAnalysisContext context, StateOverload.Context symbols, RuleOptions options)
    {
        var call = context.Operation;
        if (!StateOverload.HasDelegateArgument(call))
        {
            return;
        }

        // The key of a dictionary's factory, looked up once for both rewrites.
        var keyArgument = StateOverload.KeyArgument(call, symbols);
        if (keyArgument is not null && StateOverload.KeyCapture(call, keyArgument) is { } keyed)
        {
            if (!call.Syntax.IsInBrokenMember())
            {
                StateDiagnostics.Report(context, options, Rule, keyed.Reported, StateOverload.FixKeyParameter, keyed.Facts, keyed.Others, advice: StateOverload.KeyAdvice);
            }

            return;
        }

        if (StateOverload.Analyze(call, symbols, options.For(call.Syntax.SyntaxTree).Number(StateCapture.MaxStateValues), keyArgument) is { } site
            && !call.Syntax.IsInBrokenMember())
        {
            StateDiagnostics.Report(context, options, Rule, site.Reported, StateOverload.FixStateOverload, StateOverload.FactsOf(site), StateOverload.OtherCallbacks(site), site.Described, StateOverload.OverloadAdvice);
        }
        else if (call is IInvocationOperation invocation && StateOverload.BoundGroupOf(invocation, symbols) is { } bound && !invocation.Syntax.IsInBrokenMember())
        {
            var index = invocation.Arguments.Count(a => a.Written() is not null && a.Parameter?.Ordinal < bound.Match.StateOrdinal);
            bound.Group.Report(context, options, Rule, hasStateOverload: true, (bound.Match.Callbacks[0].Position, index), StateOverload.OneSiteReason(bound.Match), StateOverload.OverloadAdvice("it"));
        }
    }
}
