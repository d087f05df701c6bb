using System.Collections.Immutable;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.Diagnostics;
using Microsoft.CodeAnalysis.Operations;
using TplPractices.Analyzers.Internals;

namespace TplPractices.Analyzers.Rules;

/// <summary>
/// TPL0005: an await in a loop body that cannot be worth a suspension per iteration: Task.Run of synchronous
/// work, a task that is already complete, or an async method that never awaits. Real asynchronous work
/// (I/O, Task.Delay, WhenAll, Task.Yield, any other call) is never reported.
/// </summary>
public sealed class AwaitInLoopAnalyzer : DiagnosticAnalyzer
{
    internal static readonly DiagnosticDescriptor Rule = DescriptorFactory.Create(
        DiagnosticIds.AwaitInLoop,
        title: "Avoid awaiting synchronous or completed work in a loop",
        messageFormat: "'{0}' {1}",
        DiagnosticCategories.Performance,
        DiagnosticSeverity.Warning,
        description: "Each await in a loop costs a suspension when its task is not yet complete, and its task costs an "
            + "allocation. For Task.Run of synchronous work that is a thread-pool hop per iteration, where one Task.Run "
            + "around the whole loop does the same work with one; for an already-completed task, or an async method "
            + "with no await, it is a state machine and a task for nothing. Awaits of real asynchronous work are "
            + "never reported.");

    internal static readonly OperationRule Operations = OperationRule.Create(Rule, AwaitInLoop.Context.TryCreate, Analyze, OperationKind.Await);

    public override ImmutableArray<DiagnosticDescriptor> SupportedDiagnostics { get; } = ImmutableArray.Create(Rule);

    public override void Initialize(AnalysisContext context)
    {
        context.EnableConcurrentExecution();
        context.ConfigureGeneratedCodeAnalysis(GeneratedCode.Skipped);
        // One context per compilation: it caches which of the compilation's async methods never await.
        context.RegisterRule(Operations);
    }

    private static void Analyze(OperationAnalysisContext context, AwaitInLoop.Context symbols, RuleOptions options)
    {
        var await = (IAwaitOperation)context.Operation;
        if (AwaitInLoop.Classify(await, symbols) is not { } site || await.Syntax.IsInBrokenMember())
        {
            return;
        }

        var fix = site.Fix(symbols);
        options.Report(context, Diagnostic.Create(
            Rule,
            await.Syntax.GetLocation(),
            site.Parts(fix, symbols),
            DiagnosticPropertyKeys.ForFix(fix),
            site.Display,
            site.Reason));
    }
}
