using System.Collections.Immutable;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp.Syntax;
using Microsoft.CodeAnalysis.Diagnostics;
using Microsoft.CodeAnalysis.Operations;
using TplPractices.Analyzers.Internals;

namespace TplPractices.Analyzers.Rules;

/// <summary>
/// TPL0019: a StartNew or ContinueWith (or ContinueWhenAll, ContinueWhenAny, Task.Start) without a TaskScheduler
/// argument runs on <c>TaskScheduler.Current</c>, which
/// inside a task is that task's scheduler: a library called from a UI or exclusive scheduler queues its work there.
/// The fix passes the scheduler explicitly (docs/rules/TPL0019.md). A suggestion, as the peers that report it chose.
/// </summary>
public sealed class ExplicitSchedulerAnalyzer : DiagnosticAnalyzer
{
    internal static readonly DiagnosticDescriptor Rule = DescriptorFactory.Create(
        DiagnosticIds.ExplicitScheduler,
        title: "Pass a TaskScheduler to StartNew and ContinueWith",
        messageFormat: "'{0}' {1}",
        DiagnosticCategories.Reliability,
        DiagnosticSeverity.Info,
        description: "StartNew, ContinueWith, ContinueWhenAll, ContinueWhenAny and Task.Start overloads without a TaskScheduler use TaskScheduler.Current. Outside a task "
            + "that is the thread pool, but inside a task it is the scheduler that task runs on: a library called from a UI, "
            + "exclusive or limited-concurrency scheduler queues its work there, where it can deadlock or block the UI. "
            + "Passing TaskScheduler.Current keeps the behaviour and makes it visible; TaskScheduler.Default runs the work "
            + "on the thread pool whoever calls.");

    internal static readonly OperationRule Operations = OperationRule.Create(Rule, ExplicitScheduler.Context.TryCreate, Analyze, OperationKind.Invocation)
        .OnlyForCallsOf("StartNew", "ContinueWith", "ContinueWhenAll", "ContinueWhenAny", "Start");

    public override ImmutableArray<DiagnosticDescriptor> SupportedDiagnostics { get; } = ImmutableArray.Create(Rule);

    public override void Initialize(AnalysisContext context)
    {
        context.EnableConcurrentExecution();
        context.ConfigureGeneratedCodeAnalysis(GeneratedCode.Skipped);
        context.RegisterRule(Operations);
    }

    private static void Analyze(OperationAnalysisContext context, ExplicitScheduler.Context symbols, RuleOptions options)
    {
        var invocation = (IInvocationOperation)context.Operation;
        if (ExplicitScheduler.Analyze(invocation, symbols) is not { } site
            || invocation.Syntax.InvokedName() is not { } name
            || invocation.Syntax.IsInBrokenMember()
            || invocation.TargetMethod.Name switch
            {
                "ContinueWith" => ContinueWithChain.IsTakenByChainRule(context, invocation, symbols.Chains),
                "StartNew" => AvailableValue.IsTakenByValueRule(context, invocation, symbols.Values),
                _ => false,
            })
        {
            return;
        }

        options.Report(context, Diagnostic.Create(
            Rule,
            name.GetLocation(),
            DiagnosticPropertyKeys.WithOneSiteReason(
                DiagnosticPropertyKeys.ForFix(site.Fix),
                site.Fix == ExplicitScheduler.FixPassInPlace ? ExplicitScheduler.PassInPlaceReason : null),
            invocation.TargetMethod.Name,
            Message(site)));
    }

    private static string Message(ExplicitScheduler.Site site) => site.Misplaced is { } misplaced
        ? "passes '" + (misplaced.Syntax is IdentifierNameSyntax or MemberAccessExpressionSyntax ? misplaced.Syntax.ToString() : MessageText.ShortCode(misplaced.Syntax)) + "' to its delegate as the state, not as its " + site.Place
            + ", because a delegate that takes a parameter picks the overload with a state: the task runs "
            + site.Outcome
            + "; pass it in its own place"
        : "without a TaskScheduler runs on TaskScheduler.Current, the scheduler of whatever task calls it; pass the scheduler explicitly";
}
