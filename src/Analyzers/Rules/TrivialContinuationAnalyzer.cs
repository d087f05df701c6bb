using System.Collections.Immutable;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.Diagnostics;
using Microsoft.CodeAnalysis.Operations;
using TplPractices.Analyzers.Internals;

namespace TplPractices.Analyzers.Rules;

/// <summary>
/// TPL0011: a ContinueWith whose delegate is provably trivial (docs/rules/TPL0011.md) is queued to the scheduler by
/// default; ExecuteSynchronously runs it in the call that completes the antecedent. A suggestion: it ships as its own
/// analyzer, which command-line builds do not run.
/// </summary>
public sealed class TrivialContinuationAnalyzer : DiagnosticAnalyzer
{
    internal static readonly DiagnosticDescriptor Rule = DescriptorFactory.Create(
        DiagnosticIds.TrivialContinuation,
        title: "Run trivial continuations synchronously",
        messageFormat: "This continuation {0} and is queued to the scheduler; pass TaskContinuationOptions.ExecuteSynchronously to run it where the antecedent completes",
        DiagnosticCategories.Performance,
        DiagnosticSeverity.Info,
        description: "By default a continuation is queued to its scheduler when its antecedent completes, and a thread must take it "
            + "up before anyone waiting for it can go on. A continuation that only completes a TaskCompletionSource, sets a field "
            + "or returns the antecedent's result does less work than the queueing; ExecuteSynchronously runs it in the call "
            + "that completes the antecedent. Reported only for a lambda that cannot block, loop or run code of unknown length.");

    internal static readonly OperationRule Operations = OperationRule.Create(Rule, TrivialContinuation.Context.TryCreate, Analyze, OperationKind.Invocation)
        .OnlyForCallsOf("ContinueWith");

    public override ImmutableArray<DiagnosticDescriptor> SupportedDiagnostics { get; } = ImmutableArray.Create(Rule);

    public override void Initialize(AnalysisContext context)
    {
        context.EnableConcurrentExecution();
        context.ConfigureGeneratedCodeAnalysis(GeneratedCode.Skipped);
        context.RegisterRule(Operations);
    }

    private static void Analyze(OperationAnalysisContext context, TrivialContinuation.Context symbols, RuleOptions options)
    {
        var invocation = (IInvocationOperation)context.Operation;
        if (invocation.TargetMethod.Name != "ContinueWith"
            || invocation.Syntax.InvokedName() is not { } name
            || invocation.Syntax.IsInBrokenMember()
            || TrivialContinuation.Analyze(invocation, symbols) is not { } site
            || ContinueWithChain.IsTakenByChainRule(context, invocation, symbols.Chains))
        {
            return;
        }

        options.Report(context, Diagnostic.Create(
            Rule,
            name.GetLocation(),
            DiagnosticPropertyKeys.ForFix(site.CanFix ? TrivialContinuation.FixAddFlag : null),
            site.Shape));
    }
}
