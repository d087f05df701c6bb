using System.Collections.Immutable;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.Diagnostics;
using TplPractices.Analyzers.Internals;

namespace TplPractices.Analyzers.Rules;

/// <summary>
/// TPL0006: a capturing lambda given to a callback API that can carry the data as the callback's state
/// (ThreadPool, CancellationToken.Register, Timer, SynchronizationContext.Post …) allocates a closure and a delegate
/// per call; with the state form the lambda captures nothing and its delegate is cached.
/// </summary>
public sealed class CallbackStateAnalyzer : DiagnosticAnalyzer
{
    internal static readonly DiagnosticDescriptor Rule = DescriptorFactory.Create(
        DiagnosticIds.CallbackState,
        title: "Pass captured values as the callback's state",
        messageFormat: "The callback captures {0}, so each call allocates {1}; pass {2} as its state",
        DiagnosticCategories.Performance,
        DiagnosticSeverity.Warning,
        description: "ThreadPool.QueueUserWorkItem, CancellationToken.Register, the Timer constructor, SynchronizationContext.Post "
            + "and the other BCL callback APIs with a state parameter can hand the callback its data. A lambda that captures "
            + "locals, parameters or 'this' instead makes the compiler allocate a closure and a delegate per call. Variables "
            + "the closure must share (written after the lambda is created) are not reported.");

    internal static readonly OperationRule Operations = OperationRule.Create(Rule, CallbackStateApis.TryCreate, Analyze, ImmutableArray.Create(OperationKind.Invocation, OperationKind.ObjectCreation), StateCapture.MaxStateValues)
        .OnlyForCallsOf(CallbackStateApis.MethodNames);

    public override ImmutableArray<DiagnosticDescriptor> SupportedDiagnostics { get; } = ImmutableArray.Create(Rule);

    public override void Initialize(AnalysisContext context)
    {
        context.EnableConcurrentExecution();
        context.ConfigureGeneratedCodeAnalysis(GeneratedCode.Skipped);
        context.RegisterRule(Operations);
    }

    private static void Analyze(OperationAnalysisContext context, CallbackStateApis apis, RuleOptions options)
    {
        var call = context.Operation;
        if (call.Call() is not var (method, _)
            || !apis.IsCandidate(method)
            || call.Syntax.IsInBrokenMember())
        {
            return;
        }

        if (apis.Analyze(call, options.For(call.Syntax.SyntaxTree).Number(StateCapture.MaxStateValues)) is not var (capture, kind))
        {
            if (apis.MethodGroupSite(call) is var (group, hasStateOverload))
            {
                group.Report(context, options, Rule, hasStateOverload);
            }

            return;
        }

        StateDiagnostics.Report(context, options, Rule, capture, kind);
    }
}
