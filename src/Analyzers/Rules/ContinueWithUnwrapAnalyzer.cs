using System.Collections.Immutable;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.Diagnostics;
using Microsoft.CodeAnalysis.Operations;
using TplPractices.Analyzers.Internals;

namespace TplPractices.Analyzers.Rules;

/// <summary>
/// TPL0002: <c>t.ContinueWith(_ =&gt; Next()).Unwrap()</c> pays for a continuation task and an unwrap proxy
/// per link, where an await pays for one reused state machine.
/// </summary>
public sealed class ContinueWithUnwrapAnalyzer : DiagnosticAnalyzer
{
    internal static readonly DiagnosticDescriptor Rule = DescriptorFactory.Create(
        DiagnosticIds.ContinueWithUnwrapChain,
        title: "Use await instead of ContinueWith/Unwrap chains",
        messageFormat: "This ContinueWith/Unwrap chain of {0} allocates a continuation and a proxy task per link; await the tasks in sequence instead",
        DiagnosticCategories.Performance,
        DiagnosticSeverity.Warning,
        description: "Each ContinueWith(...).Unwrap() link allocates a continuation task, its delegate and closure, and "
            + "a proxy task that follows the inner task. An async method awaiting the same tasks one after another "
            + "allocates one state machine for the whole sequence and is easier to read. The fix rewrites a chain "
            + "that a method returns into sequential awaits; the docs list where await behaves differently.");

    internal static readonly OperationRule Operations = OperationRule.Create(Rule, ContinueWithChain.Context.TryCreate, Analyze, OperationKind.Invocation)
        .OnlyForCallsOf("Unwrap");

    public override ImmutableArray<DiagnosticDescriptor> SupportedDiagnostics { get; } = ImmutableArray.Create(Rule);

    public override void Initialize(AnalysisContext context)
    {
        context.EnableConcurrentExecution();
        context.ConfigureGeneratedCodeAnalysis(GeneratedCode.Skipped);
        context.RegisterRule(Operations);
    }

    private static void Analyze(OperationAnalysisContext context, ContinueWithChain.Context symbols, RuleOptions options)
    {
        var invocation = (IInvocationOperation)context.Operation;
        if (invocation.TargetMethod.Name != "Unwrap"
            || ContinueWithChain.TryCreate(invocation, symbols) is not { } chain
            || invocation.Syntax.IsInBrokenMember())
        {
            return;
        }

        // What the fix rewrites travels with the diagnostic (ContinueWithChain.FixParts); no parts, no fix.
        var fix = chain.CanBecomeAwaits(symbols, context.ContainingSymbol) ? chain.FixParts(context.ContainingSymbol) : null;
        options.Report(context, Diagnostic.Create(
            Rule,
            invocation.Syntax.GetLocation(),
            fix?.Parts,
            fix?.Properties ?? DiagnosticPropertyKeys.ForFix(null),
            MessageText.Count(chain.Links.Length, "link", "links")));
    }
}
