using System.Collections.Immutable;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.Diagnostics;
using Microsoft.CodeAnalysis.Operations;
using TplPractices.Analyzers.Internals;

namespace TplPractices.Analyzers.Rules;

/// <summary>
/// TPL0017: Task.Delay as a timer, in a loop that waits the same time every pass (one PeriodicTimer instead, on .NET 6+),
/// or racing a task in Task.WhenAny or Task.WaitAny without a token or on the caller's (its timer outlives the race).
/// </summary>
public sealed class DelayTimerAnalyzer : DiagnosticAnalyzer
{
    internal static readonly DiagnosticDescriptor Rule = DescriptorFactory.Create(
        DiagnosticIds.DelayTimer,
        title: "Do not use Task.Delay as a timer",
        messageFormat: "Task.Delay as a timer: {0}",
        DiagnosticCategories.Performance,
        DiagnosticSeverity.Info,
        description: "A loop that awaits Task.Delay at the end of every pass allocates a timer, a task and a continuation per "
            + "pass; on .NET 6 and later one PeriodicTimer ticks for the whole loop. A Task.Delay racing a task in Task.WhenAny or Task.WaitAny, "
            + "without a token or on the caller's, stays in the timer queue until it fires, even when the task won long before; "
            + "a delay canceled once the race is decided frees it.");

    internal static readonly OperationRule Operations = OperationRule.Create(Rule, DelayTimer.Context.TryCreate, Analyze, OperationKind.Invocation)
        .OnlyForCallsOf("Delay");

    public override ImmutableArray<DiagnosticDescriptor> SupportedDiagnostics { get; } = ImmutableArray.Create(Rule);

    public override void Initialize(AnalysisContext context)
    {
        context.EnableConcurrentExecution();
        context.ConfigureGeneratedCodeAnalysis(GeneratedCode.Skipped);
        context.RegisterRule(Operations);
    }

    private static void Analyze(OperationAnalysisContext context, DelayTimer.Context symbols, RuleOptions options)
    {
        var delay = (IInvocationOperation)context.Operation;
        if (DelayTimer.Analyze(delay, symbols) is { } site && !delay.Syntax.IsInBrokenMember())
        {
            options.Report(context, Diagnostic.Create(
                Rule,
                delay.Syntax.GetLocation(),
                site.Parts(),
                DiagnosticPropertyKeys.WithOneSiteReason(DiagnosticPropertyKeys.ForFix(site.FixKind), site.OneSiteReason),
                site.Message));
        }
    }
}
