using System.Collections.Immutable;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.Diagnostics;
using Microsoft.CodeAnalysis.Operations;
using TplPractices.Analyzers.Internals;

namespace TplPractices.Analyzers.Rules;

/// <summary>
/// TPL0007 (off by default): a capturing lambda given to <c>Task.Run</c>. Task.Run has no state overload; its exact
/// equivalent, <c>Task.Factory.StartNew(…, state, token, DenyChildAttach, TaskScheduler.Default)</c>, does. An opt-in
/// for hot paths, because it trades Task.Run's readability for the closure and delegate per call.
/// </summary>
public sealed class TaskRunStateAnalyzer : DiagnosticAnalyzer
{
    public const string FixStartNew = "StartNew";

    internal static readonly DiagnosticDescriptor Rule = DescriptorFactory.Create(
        DiagnosticIds.TaskRunState,
        title: "Pass captured values as state instead of capturing them in Task.Run",
        messageFormat: "The delegate captures {0}, so each Task.Run allocates {1}; pass {2} as the state of the equivalent StartNew",
        DiagnosticCategories.Performance,
        DiagnosticSeverity.Info,
        description: "Task.Run(() => Use(x)) allocates a closure and a delegate on every call besides the task. "
            + "Task.Factory.StartNew with a state, CancellationToken, TaskCreationOptions.DenyChildAttach and TaskScheduler.Default "
            + "does exactly what Task.Run does (plus Unwrap for an async delegate) without them. Off by default: turn it on "
            + "where those bytes matter more than Task.Run's brevity.",
        isEnabledByDefault: false);

    internal static readonly OperationRule Operations = OperationRule.Create(Rule, TaskRunState.Context.TryCreate, Analyze, OperationKind.Invocation, StateCapture.MaxStateValues)
        .OnlyForCallsOf("Run");

    public override ImmutableArray<DiagnosticDescriptor> SupportedDiagnostics { get; } = ImmutableArray.Create(Rule);

    public override void Initialize(AnalysisContext context)
    {
        context.EnableConcurrentExecution();
        context.ConfigureGeneratedCodeAnalysis(GeneratedCode.Skipped);
        context.RegisterRule(Operations);
    }

    private static void Analyze(OperationAnalysisContext context, TaskRunState.Context symbols, RuleOptions options)
    {
        var invocation = (IInvocationOperation)context.Operation;
        if (invocation.TargetMethod.Name != "Run"
            || !SymbolEqualityComparer.Default.Equals(invocation.TargetMethod.ContainingType, symbols.Task)
            || invocation.Syntax.IsInBrokenMember()
            || TaskRunState.Analyze(invocation, symbols, options.For(invocation.Syntax.SyntaxTree).Number(StateCapture.MaxStateValues)) is not { } capture)
        {
            return;
        }

        if (IsTakenByLoopRule(context, invocation, symbols) || AvailableValue.IsTakenByValueRule(context, invocation, symbols.Values))
        {
            return;
        }

        StateDiagnostics.Report(
            context,
            options,
            Rule,
            capture,
            FixStartNew,
            TaskRunState.ReturnsTask(invocation, symbols) ? TaskRunState.Unwraps : null);
    }

    /// <summary>An await of the call in a loop that TPL0005 moves into one Task.Run, which removes this one (see <see cref="OtherRule"/>).</summary>
    private static bool IsTakenByLoopRule(OperationAnalysisContext context, IInvocationOperation run, TaskRunState.Context symbols)
    {
        var awaited = ConfiguredAwait.AroundTask(run.WithImplicitConversionsAround()).WithImplicitConversionsAround();
        return awaited.Parent is IAwaitOperation await
            && symbols.Loops is { } loops
            && AwaitInLoop.Classify(await, loops)?.Fix(loops) == AwaitInLoop.FixMoveLoop
            && OtherRule.IsOn(context.Compilation, context.Options, run.Syntax.SyntaxTree, context.ContainingSymbol, AwaitInLoopAnalyzer.Rule, context.CancellationToken);
    }
}
