using System.Collections.Immutable;
using System.Linq;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.Diagnostics;
using TplPractices.Analyzers.Internals;

namespace TplPractices.Analyzers.Rules;

/// <summary>
/// Every rule where it runs as a warning or an error, as one analyzer: the rules that ship as warnings unless set to
/// <c>none</c>, and the others where they are raised. Each rule keeps its own files, descriptor, analyzer class (which
/// the tests and fixers use, and hosts do not load) and ID; shipped together, the compiler calls one analyzer per
/// operation instead of one per rule, and its work per analyzer was most of what the package cost a build
/// (docs/performance.md). Where a rule that does not ship as a warning is a suggestion, <see cref="SuggestionRulesAnalyzer"/>
/// runs it instead.
/// </summary>
[DiagnosticAnalyzer(LanguageNames.CSharp)]
public sealed class WarningRulesAnalyzer : DiagnosticAnalyzer
{
    internal static readonly ImmutableArray<OperationRule> Rules = ImmutableArray.Create(
        UseTaskStateAnalyzer.Operations,
        ContinueWithUnwrapAnalyzer.Operations,
        CacheConstantTaskResultAnalyzer.Operations,
        AsyncWaitHandleAnalyzer.Operations,
        AwaitInLoopAnalyzer.Operations,
        CallbackStateAnalyzer.Operations,
        TaskRunStateAnalyzer.Operations,
        ValueTaskFastPathAnalyzer.Operations,
        AttachedToParentAnalyzer.Operations,
        ConstructorConcurrencyAnalyzer.Operations,
        TrivialContinuationAnalyzer.Operations,
        HotPathInliningAnalyzer.Operations,
        CompletionSourceContinuationsAnalyzer.Operations,
        AvailableValueAnalyzer.Operations,
        StateOverloadAnalyzer.Operations,
        PassThroughAsyncAnalyzer.Operations,
        DelayTimerAnalyzer.Operations,
        SecondContinuationAnalyzer.Operations);

    public override ImmutableArray<DiagnosticDescriptor> SupportedDiagnostics { get; } = Rules.Select(r => r.Descriptor).ToImmutableArray();

    public override void Initialize(AnalysisContext context)
    {
        context.EnableConcurrentExecution();
        context.ConfigureGeneratedCodeAnalysis(GeneratedCode.Skipped);
        context.RegisterRules(Rules, RuleSwitches.AsWarning);
    }
}
