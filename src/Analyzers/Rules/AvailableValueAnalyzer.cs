using System.Collections.Immutable;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp.Syntax;
using Microsoft.CodeAnalysis.Diagnostics;
using Microsoft.CodeAnalysis.Operations;
using TplPractices.Analyzers.Internals;

namespace TplPractices.Analyzers.Rules;

/// <summary>
/// TPL0014: a delegate task (Task.Run, Task.Factory.StartNew) whose delegate only returns a value that is already
/// available, or does nothing; and, outside loops (TPL0005 has those), an await of a task that is already complete.
/// The first costs a closure, a queue hop and a pool thread for a value the caller has; the second a state machine's
/// bookkeeping for nothing (docs/rules/TPL0014.md).
/// </summary>
public sealed class AvailableValueAnalyzer : DiagnosticAnalyzer
{
    internal static readonly DiagnosticDescriptor Rule = DescriptorFactory.Create(
        DiagnosticIds.AvailableValue,
        title: "Do not run or await a task for a value that is already available",
        messageFormat: "'{0}' {1}",
        DiagnosticCategories.Performance,
        DiagnosticSeverity.Warning,
        description: "Task.Run(() => value) and Task.Factory.StartNew(() => value) allocate a closure, a delegate and a task, and "
            + "queue a work item to the thread pool, only to hand back a value the caller already has; Task.FromResult(value) "
            + "(or Task.CompletedTask for a delegate that does nothing) gives the same result at once. Awaiting a task that is "
            + "already complete (Task.FromResult, Task.CompletedTask) does nothing that using the value does not.");

    internal static readonly OperationRule Operations = OperationRule.Create(
            Rule, AvailableValue.Context.TryCreate, Analyze, ImmutableArray.Create(OperationKind.Invocation, OperationKind.Await))
        .OnlyForCallsOf("Run", "StartNew", "Delay");

    public override ImmutableArray<DiagnosticDescriptor> SupportedDiagnostics { get; } = ImmutableArray.Create(Rule);

    public override void Initialize(AnalysisContext context)
    {
        context.EnableConcurrentExecution();
        context.ConfigureGeneratedCodeAnalysis(GeneratedCode.Skipped);
        context.RegisterRule(Operations);
    }

    private static void Analyze(OperationAnalysisContext context, AvailableValue.Context symbols, RuleOptions options)
    {
        // The shapes first, the walk up the syntax for half-typed code only at a site: every await comes here.
        var site = context.Operation switch
        {
            IInvocationOperation { TargetMethod.Name: "Run" or "StartNew" } call => AvailableValue.OfDelegateTask(context, call, symbols),
            IInvocationOperation { TargetMethod.Name: "Delay" } delay => AvailableValue.OfZeroDelay(delay, symbols),
            IAwaitOperation await when !symbols.RuntimeAsync => AvailableValue.OfAwait(await, symbols),
            _ => null,
        };
        if (site is null || site.Reported.Syntax.IsInBrokenMember())
        {
            return;
        }

        var shown = site.Reported is IAwaitOperation { Operation: var awaited } ? awaited.Syntax : site.Reported.Syntax;
        options.Report(context, Diagnostic.Create(
            Rule,
            site.Reported.Syntax.GetLocation(),
            site.Parts(),
            DiagnosticPropertyKeys.ForFix(site.Fix),
            MessageText.ShortCode(shown),
            site.Shape));
    }
}
