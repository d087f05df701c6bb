using System.Collections.Immutable;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.Diagnostics;
using Microsoft.CodeAnalysis.Operations;
using TplPractices.Analyzers.Internals;

namespace TplPractices.Analyzers.Rules;

/// <summary>
/// TPL0020: a CancellationTokenSource with a timer or a parent registration that nothing disposes (a local, or one only
/// its token is read from) keeps the
/// timer queued, or the registration on the parent, until the timer fires or the parent goes (docs/rules/TPL0020.md).
/// The fix declares it with <c>using</c> where nothing uses it after its block.
/// </summary>
public sealed class DisposeTokenSourceAnalyzer : DiagnosticAnalyzer
{
    internal static readonly DiagnosticDescriptor Rule = DescriptorFactory.Create(
        DiagnosticIds.DisposeTokenSource,
        title: "Dispose a CancellationTokenSource that holds a timer or a parent registration",
        messageFormat: "'{0}' holds {1} until it is disposed, and nothing disposes it; {2}",
        DiagnosticCategories.Performance,
        DiagnosticSeverity.Info,
        description: "A CancellationTokenSource given a delay (or CancelAfter) queues a timer, and one made by "
            + "CreateLinkedTokenSource registers a callback on each parent token. Undisposed, the timer stays queued until it "
            + "fires and the registration stays on the parent until the parent is canceled or collected: a time-out source "
            + "per request keeps thousands of timers and their state alive. Dispose the source when the work it guards ends.");

    internal static readonly OperationRule Operations = OperationRule.Create(
        Rule, DisposeTokenSource.Context.TryCreate, Analyze, ImmutableArray.Create(OperationKind.ObjectCreation, OperationKind.Invocation))
        .OnlyForCallsOf("CreateLinkedTokenSource");

    public override ImmutableArray<DiagnosticDescriptor> SupportedDiagnostics { get; } = ImmutableArray.Create(Rule);

    public override void Initialize(AnalysisContext context)
    {
        context.EnableConcurrentExecution();
        context.ConfigureGeneratedCodeAnalysis(GeneratedCode.Skipped);
        context.RegisterRule(Operations);
    }

    private static void Analyze(OperationAnalysisContext context, DisposeTokenSource.Context symbols, RuleOptions options)
    {
        // The type first: most object creations are of other types.
        var created = context.Operation;
        if (!SymbolEqualityComparer.Default.Equals(created.Type, symbols.Source)
            || (created is IInvocationOperation call && !SymbolEqualityComparer.Default.Equals(call.TargetMethod.ContainingType, symbols.Source))
            || created.Syntax.IsInBrokenMember()
            || DisposeTokenSource.Analyze(created, symbols) is not { } site)
        {
            return;
        }

        options.Report(context, Diagnostic.Create(Rule, created.Syntax.GetLocation(), DiagnosticPropertyKeys.ForFix(site.Fix), site.Name, site.Holds,
            site.Fix switch
            {
                null => "dispose it when the work that uses its token ends",
                DisposeTokenSource.FixHoldInUsing => "hold it in a using variable",
                _ => "declare it with using",
            }));
    }
}
