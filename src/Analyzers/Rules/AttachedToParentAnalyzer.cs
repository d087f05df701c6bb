using System.Collections.Immutable;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.Diagnostics;
using Microsoft.CodeAnalysis.Operations;
using TplPractices.Analyzers.Internals;

namespace TplPractices.Analyzers.Rules;

/// <summary>
/// TPL0009: <c>TaskCreationOptions.AttachedToParent</c> or <c>TaskContinuationOptions.AttachedToParent</c> passed to a
/// TPL API. An attached child inflates itself and its parent, and the parent waits for it. The fix removes the flag
/// only where it does nothing (the running task denies child attachment); elsewhere removing it changes when the
/// parent completes, so there is no fix.
/// </summary>
public sealed class AttachedToParentAnalyzer : DiagnosticAnalyzer
{
    public const string FixRemoveNoOpFlag = "RemoveNoOpFlag";

    internal static readonly DiagnosticDescriptor Rule = DescriptorFactory.Create(
        DiagnosticIds.AttachedToParent,
        title: "Do not attach tasks to their parent",
        messageFormat: "'{0}.AttachedToParent' {1}",
        DiagnosticCategories.Performance,
        DiagnosticSeverity.Warning,
        description: "AttachedToParent makes the task that is running when a task is created wait for it: both tasks "
            + "allocate their contingent state, the parent completes only after every child, and deep parent chains can "
            + "overflow the stack. Await the child tasks instead. Inside Task.Run, or a task created with DenyChildAttach, "
            + "the flag does nothing and can simply be removed.");

    internal static readonly OperationRule Operations = OperationRule.Create(Rule, AttachedToParent.Context.TryCreate, Analyze, ImmutableArray.Create(OperationKind.FieldReference, OperationKind.LocalReference));

    public override ImmutableArray<DiagnosticDescriptor> SupportedDiagnostics { get; } = ImmutableArray.Create(Rule);

    public override void Initialize(AnalysisContext context)
    {
        context.EnableConcurrentExecution();
        context.ConfigureGeneratedCodeAnalysis(GeneratedCode.Skipped);
        context.RegisterRule(Operations);
    }

    private static void Analyze(OperationAnalysisContext context, AttachedToParent.Context symbols, RuleOptions options)
    {
        // The flag itself (fixable where it does nothing), or a constant of the user's that holds it (no fix:
        // the constant may have other uses).
        var operation = context.Operation;
        var isFlag = operation is IFieldReferenceOperation { Field.Name: "AttachedToParent" } member
            && symbols.IsOptionsEnum(member.Field.ContainingType)
            && AttachedToParent.IsTheFlag(member);
        if (!isFlag
            && !(operation is IFieldReferenceOperation { Field: { IsConst: true } field }
                    && AttachedToParent.IsConstantHoldingTheFlag(field, field.Type, symbols))
            && !(operation is ILocalReferenceOperation { Local: { IsConst: true } local }
                    && AttachedToParent.IsConstantHoldingTheFlag(local, local.Type, symbols)))
        {
            return;
        }

        if (operation.Syntax.IsInBrokenMember()
            || AttachedToParent.CallTakingFlag(operation, symbols) is not { } call
            || AttachedToParent.IsInAnApiForAttaching(context.ContainingSymbol))
        {
            return;
        }

        var noOp = AttachedToParent.RunsWhereAttachingIsANoOp(call, symbols);
        options.Report(context, Diagnostic.Create(
            Rule,
            operation.Syntax.GetLocation(),
            DiagnosticPropertyKeys.ForFix(noOp && isFlag ? FixRemoveNoOpFlag : null),
            operation.Type!.Name,
            noOp
                ? "does nothing here: the task that runs this code denies child attachment; remove it"
                : "makes the running task wait for this one and inflates both; await the task instead"));
    }
}
