using System.Collections.Immutable;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.Diagnostics;
using Microsoft.CodeAnalysis.Operations;
using TplPractices.Analyzers.Internals;

namespace TplPractices.Analyzers.Rules;

/// <summary>
/// TPL0013: a TaskCompletionSource made without RunContinuationsAsynchronously, whose task escapes before it is
/// completed. Whoever completes it then runs the awaiting code inside SetResult: under the completer's lock, on its
/// timer or I/O thread (docs/rules/TPL0013.md). A suggestion: where the completer holds nothing, the flag only costs a
/// queue hop.
/// </summary>
public sealed class CompletionSourceContinuationsAnalyzer : DiagnosticAnalyzer
{
    internal static readonly DiagnosticDescriptor Rule = DescriptorFactory.Create(
        DiagnosticIds.CompletionSourceContinuations,
        title: "Create TaskCompletionSource with RunContinuationsAsynchronously",
        messageFormat: "The code that completes this TaskCompletionSource will run its task's continuations before SetResult returns; "
            + "pass TaskCreationOptions.RunContinuationsAsynchronously to queue them instead{0}",
        DiagnosticCategories.Performance,
        DiagnosticSeverity.Info,
        description: "Completing a TaskCompletionSource runs every continuation that awaits its task synchronously, inside the "
            + "call that completes it: under a lock the completer holds, on its timer or I/O thread, before SetResult returns. "
            + "A slow continuation then stalls the completer, and code after the await can deadlock on the completer's lock. "
            + "RunContinuationsAsynchronously queues the continuations to the thread pool. Reported where the task can be "
            + "awaited before the code that made the source completes it.");

    internal static readonly OperationRule Operations = OperationRule.Create(
        Rule, CompletionSourceContinuations.Context.TryCreate, Analyze, OperationKind.ObjectCreation);

    public override ImmutableArray<DiagnosticDescriptor> SupportedDiagnostics { get; } = ImmutableArray.Create(Rule);

    public override void Initialize(AnalysisContext context)
    {
        context.EnableConcurrentExecution();
        context.ConfigureGeneratedCodeAnalysis(GeneratedCode.Skipped);
        context.RegisterRule(Operations);
    }

    private static void Analyze(OperationAnalysisContext context, CompletionSourceContinuations.Context symbols, RuleOptions options)
    {
        // The names first: most object creations are of other types. A derived type's own name is anything.
        var creation = (IObjectCreationOperation)context.Operation;
        if ((creation.Type?.Name != "TaskCompletionSource" && creation.Type?.BaseType?.Name != "TaskCompletionSource")
            || creation.Syntax.IsInBrokenMember()
            || !CompletionSourceContinuations.IsReported(creation, symbols))
        {
            return;
        }

        // A derived type takes the flag in its own constructor's base call, which every instance shares: no fix here.
        var derived = !symbols.Sources.IsSource(creation.Type);
        options.Report(context, Diagnostic.Create(
            Rule,
            creation.Syntax.GetLocation(),
            DiagnosticPropertyKeys.ForFix(derived ? null : CompletionSourceContinuations.FixAddFlag),
            PassesTheFlagAsState(creation) ? "; the 64 passed here is the source's state, not its options: a number binds to the object overload" : ""));
    }

    /// <summary>
    /// The flag's value written as a number (<c>const int RunAsync = 0x40;</c>, code kept for targets without the enum
    /// member) binds to the <c>object state</c> constructor and sets nothing: the message says so, or the report would
    /// look wrong on a line that seems to pass the flag.
    /// </summary>
    private static bool PassesTheFlagAsState(IObjectCreationOperation creation)
    {
        foreach (var argument in creation.Arguments)
        {
            if (argument.Parameter is { Name: "state" }
                && argument.Value.WithoutImplicitConversions() is { Type.SpecialType: >= SpecialType.System_SByte and <= SpecialType.System_UInt64, ConstantValue: { HasValue: true } constant }
                && System.Convert.ToInt64(constant.Value, System.Globalization.CultureInfo.InvariantCulture) == (long)System.Threading.Tasks.TaskCreationOptions.RunContinuationsAsynchronously)
            {
                return true;
            }
        }

        return false;
    }
}
