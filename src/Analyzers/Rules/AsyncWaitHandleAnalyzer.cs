using System.Collections.Immutable;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.Diagnostics;
using Microsoft.CodeAnalysis.Operations;
using TplPractices.Analyzers.Internals;

namespace TplPractices.Analyzers.Rules;

/// <summary>
/// TPL0004: <c>((IAsyncResult)task).AsyncWaitHandle</c> inflates the task with its contingent properties and a
/// kernel event, where a task wait, a continuation or an await uses neither unless it must block.
/// </summary>
public sealed class AsyncWaitHandleAnalyzer : DiagnosticAnalyzer
{
    internal static readonly DiagnosticDescriptor Rule = DescriptorFactory.Create(
        DiagnosticIds.AsyncWaitHandle,
        title: "Do not wait on a task's AsyncWaitHandle",
        messageFormat: "'{0}' makes the task allocate a kernel event; wait on the task itself",
        DiagnosticCategories.Performance,
        DiagnosticSeverity.Warning,
        description: "A task creates its IAsyncResult.AsyncWaitHandle on demand: an extra object for its contingent "
            + "properties, an event and a kernel handle that lives until finalization. Await the task, or wait on "
            + "it with Task.WaitAny / Task.WaitAll, which block without a kernel object. IAsyncResult values that "
            + "are not known to be tasks (Stream.BeginRead and other APM results) are not reported.");

    internal static readonly OperationRule Operations = OperationRule.Create(Rule, AsyncWaitHandleUse.Context.TryCreate, Analyze, OperationKind.PropertyReference);

    public override ImmutableArray<DiagnosticDescriptor> SupportedDiagnostics { get; } = ImmutableArray.Create(Rule);

    public override void Initialize(AnalysisContext context)
    {
        context.EnableConcurrentExecution();
        context.ConfigureGeneratedCodeAnalysis(GeneratedCode.Skipped);
        context.RegisterRule(Operations);
    }

    private static void Analyze(OperationAnalysisContext context, AsyncWaitHandleUse.Context symbols, RuleOptions options)
    {
        var reference = (IPropertyReferenceOperation)context.Operation;
        if (reference.Property.Name != "AsyncWaitHandle"
            || !symbols.IsAsyncWaitHandle(reference.Property)
            || reference.Syntax.IsInBrokenMember()
            || reference.Instance is not { } instance)
        {
            return;
        }

        // A property pattern (task is IAsyncResult { AsyncWaitHandle: var handle }) reads the handle of the pattern's
        // input: reported when that is a task, without a fix (the pattern would have to be taken apart).
        if (instance is IInstanceReferenceOperation { ReferenceKind: InstanceReferenceKind.PatternInput })
        {
            if (AsyncWaitHandleUse.PatternInputOf(reference) is { } input && input.Type.IsOrDerivesFrom(symbols.Task))
            {
                options.Report(context, Diagnostic.Create(Rule, reference.Syntax.GetLocation(), DiagnosticPropertyKeys.ForFix(null), reference.Syntax.ToString()));
            }

            return;
        }

        if (AsyncWaitHandleUse.TaskBehind(instance, symbols.Task) is not { } task
            || AsyncWaitHandleUse.IsRequiredByContract(reference, context.ContainingSymbol))
        {
            return;
        }

        var use = AsyncWaitHandleUse.Classify(reference, task, symbols, context.ContainingSymbol);
        var properties = DiagnosticPropertyKeys.WithOneSiteReason(
            DiagnosticPropertyKeys.ForFix(use.Fix), AsyncWaitHandleUse.IsAwaitFix(use.Fix) ? AsyncWaitHandleUse.AwaitReason : null);
        options.Report(context, Diagnostic.Create(Rule, reference.Syntax.GetLocation(), use.Parts(), properties, reference.Syntax.ToString()));
    }
}
