using System.Collections.Generic;
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

    // From the calls rather than from every field and local reference: those are the operations a build meets most,
    // and the compiler's dispatch of each cost more than this rule's checks (docs/performance.md, 2026-12-06). The TPL's
    // methods that take either options type, and a constructor initializer (base(…)) of a type deriving from one whose
    // constructor does; object creations are not filtered by name.
    internal static readonly OperationRule Operations = OperationRule.Create(
            Rule, AttachedToParent.Context.TryCreate, Analyze, ImmutableArray.Create(OperationKind.Invocation, OperationKind.ObjectCreation))
        .OnlyForCallsOf("StartNew", "ContinueWith", "FromAsync", "ContinueWhenAll", "ContinueWhenAny", WellKnownMemberNames.InstanceConstructorName);

    public override ImmutableArray<DiagnosticDescriptor> SupportedDiagnostics { get; } = ImmutableArray.Create(Rule);

    public override void Initialize(AnalysisContext context)
    {
        context.EnableConcurrentExecution();
        context.ConfigureGeneratedCodeAnalysis(GeneratedCode.Skipped);
        context.RegisterRule(Operations);
    }

    private static void Analyze(OperationAnalysisContext context, AttachedToParent.Context symbols, RuleOptions options)
    {
        // The call's type first (a namespace test): most calls are not to a TPL API.
        var call = context.Operation;
        if (call.Call() is not { } target || !AttachedToParent.IsInTasksNamespace(target.Method.ContainingType))
        {
            return;
        }

        List<IOperation>? flags = null;
        foreach (var argument in target.Arguments)
        {
            if (symbols.IsOptionsEnum(argument.Value.Type))
            {
                AttachedToParent.AddFlagsIn(argument.Value, symbols, ref flags);
            }
        }

        if (flags is null || call.Syntax.IsInBrokenMember() || AttachedToParent.IsInAnApiForAttaching(context.ContainingSymbol))
        {
            return;
        }

        var noOp = AttachedToParent.RunsWhereAttachingIsANoOp(call, symbols);
        foreach (var flag in flags)
        {
            // The flag itself is fixable where it does nothing; a constant of the user's that holds it is not (the
            // constant may have other uses).
            options.Report(context, Diagnostic.Create(
                Rule,
                flag.Syntax.GetLocation(),
                DiagnosticPropertyKeys.ForFix(noOp && AttachedToParent.IsTheEnumMember(flag, symbols) ? FixRemoveNoOpFlag : null),
                flag.Type!.Name,
                noOp
                    ? "does nothing here: the task that runs this code denies child attachment; remove it"
                    : "makes the running task wait for this one and inflates both; await the task instead"));
        }
    }
}
