using System.Collections.Immutable;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.Diagnostics;
using Microsoft.CodeAnalysis.Operations;
using TplPractices.Analyzers.Internals;

namespace TplPractices.Analyzers.Rules;

/// <summary>
/// TPL0001: a lambda passed to StartNew or ContinueWith that captures variables makes every call allocate a
/// closure and a delegate; the state overloads carry the data instead, with a delegate cached once.
/// </summary>
public sealed class UseTaskStateAnalyzer : DiagnosticAnalyzer
{
    public const string FixUseStateOverload = "UseStateOverload";

    internal static readonly DiagnosticDescriptor Rule = DescriptorFactory.Create(
        DiagnosticIds.UseTaskState,
        title: "Pass captured values as the task's state",
        messageFormat: "The delegate captures {0}, so each call allocates {1}; pass {2} as the task's state",
        DiagnosticCategories.Performance,
        DiagnosticSeverity.Warning,
        description: "A lambda given to TaskFactory.StartNew or Task.ContinueWith that captures locals or parameters "
            + "makes the compiler allocate a closure object and a new delegate on every call ('this' alone, a new "
            + "delegate). The overloads with an object state parameter let the lambda capture nothing, so its delegate "
            + "is cached, and the data travels as the state. Variables written after the lambda is created are not reported.");

    internal static readonly OperationRule Operations = OperationRule.Create(Rule, TaskStateCapture.Context.TryCreate, Analyze, OperationKind.Invocation, StateCapture.MaxStateValues)
        .OnlyForCallsOf("StartNew", "ContinueWith");

    public override ImmutableArray<DiagnosticDescriptor> SupportedDiagnostics { get; } = ImmutableArray.Create(Rule);

    public override void Initialize(AnalysisContext context)
    {
        context.EnableConcurrentExecution();
        context.ConfigureGeneratedCodeAnalysis(GeneratedCode.Skipped);
        context.RegisterRule(Operations);
    }

    private static void Analyze(OperationAnalysisContext context, TaskStateCapture.Context symbols, RuleOptions options)
    {
        var invocation = (IInvocationOperation)context.Operation;
        if (invocation.TargetMethod.Name is not ("StartNew" or "ContinueWith")
            || invocation.Syntax.IsInBrokenMember())
        {
            return;
        }

        if (TaskStateCapture.Analyze(invocation, symbols, options.For(invocation.Syntax.SyntaxTree).Number(StateCapture.MaxStateValues)) is not { } capture)
        {
            TaskStateCapture.MethodGroupOf(invocation, symbols)?.Report(context, options, Rule, symbols.StateOverloadOf(invocation.TargetMethod) is not null);
            return;
        }

        if (invocation.TargetMethod.Name == "ContinueWith"
                ? ContinueWithChain.IsTakenByChainRule(context, invocation, symbols.Chains)
                : AvailableValue.IsTakenByValueRule(context, invocation, symbols.Values))
        {
            return;
        }

        StateDiagnostics.Report(context, options, Rule, capture, FixUseStateOverload);
    }
}
