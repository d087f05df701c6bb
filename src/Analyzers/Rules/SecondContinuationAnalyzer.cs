using System.Collections.Immutable;
using System.Globalization;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.Diagnostics;
using Microsoft.CodeAnalysis.Operations;
using TplPractices.Analyzers.Internals;

namespace TplPractices.Analyzers.Rules;

/// <summary>
/// TPL0018: a second ContinueWith on the same task makes it allocate a list for its continuations. Reported without a
/// fix: merging two continuations into one changes what a throwing one does to the other, runs them one after the
/// other instead of side by side, and drops a task someone may hold (docs/rules/TPL0018.md).
/// </summary>
public sealed class SecondContinuationAnalyzer : DiagnosticAnalyzer
{
    internal static readonly DiagnosticDescriptor Rule = DescriptorFactory.Create(
        DiagnosticIds.SecondContinuation,
        title: "Give a task one continuation, not several",
        messageFormat: "'{0}' already has a continuation (line {1}); a second one makes the task allocate a list for them, where one continuation could do both",
        DiagnosticCategories.Performance,
        DiagnosticSeverity.Info,
        description: "A task stores its first continuation in a field; a second makes it allocate a continuation list, and "
            + "every later completion walks it under a lock. Two ContinueWith calls on the same local, parameter or field "
            + "can usually be one continuation that does both. No fix is offered: merging changes what a throwing "
            + "continuation does to the other and runs them in sequence.");

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
        var call = (IInvocationOperation)context.Operation;
        if (SecondContinuation.EarlierContinuationOf(call, symbols) is { } earlier && !call.Syntax.IsInBrokenMember())
        {
            var line = earlier.Syntax.GetLocation().GetLineSpan().StartLinePosition.Line + 1;
            options.Report(context, Diagnostic.Create(
                Rule,
                call.Syntax.GetLocation(),
                call.Instance!.Syntax.ToString(),
                line.ToString(CultureInfo.InvariantCulture)));
        }
    }
}
