using System.Collections.Immutable;
using System.Diagnostics.CodeAnalysis;
using System.Linq;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.Diagnostics;
using TplPractices.Analyzers.Internals;

[assembly: SuppressMessage("MicrosoftCodeAnalysisCorrectness", "RS1001", Justification = "Shipped through WarningRulesAnalyzer; the class serves tests and fixers.", Scope = "type", Target = "~T:TplPractices.Analyzers.Rules.UseTaskStateAnalyzer")]
[assembly: SuppressMessage("MicrosoftCodeAnalysisCorrectness", "RS1001", Justification = "Shipped through WarningRulesAnalyzer; the class serves tests and fixers.", Scope = "type", Target = "~T:TplPractices.Analyzers.Rules.ContinueWithUnwrapAnalyzer")]
[assembly: SuppressMessage("MicrosoftCodeAnalysisCorrectness", "RS1001", Justification = "Shipped through WarningRulesAnalyzer; the class serves tests and fixers.", Scope = "type", Target = "~T:TplPractices.Analyzers.Rules.CacheConstantTaskResultAnalyzer")]
[assembly: SuppressMessage("MicrosoftCodeAnalysisCorrectness", "RS1001", Justification = "Shipped through WarningRulesAnalyzer; the class serves tests and fixers.", Scope = "type", Target = "~T:TplPractices.Analyzers.Rules.AsyncWaitHandleAnalyzer")]
[assembly: SuppressMessage("MicrosoftCodeAnalysisCorrectness", "RS1001", Justification = "Shipped through WarningRulesAnalyzer; the class serves tests and fixers.", Scope = "type", Target = "~T:TplPractices.Analyzers.Rules.AwaitInLoopAnalyzer")]
[assembly: SuppressMessage("MicrosoftCodeAnalysisCorrectness", "RS1001", Justification = "Shipped through WarningRulesAnalyzer; the class serves tests and fixers.", Scope = "type", Target = "~T:TplPractices.Analyzers.Rules.CallbackStateAnalyzer")]
[assembly: SuppressMessage("MicrosoftCodeAnalysisCorrectness", "RS1001", Justification = "Shipped through WarningRulesAnalyzer; the class serves tests and fixers.", Scope = "type", Target = "~T:TplPractices.Analyzers.Rules.AttachedToParentAnalyzer")]

namespace TplPractices.Analyzers.Rules;

/// <summary>
/// The rules that ship as warnings, as one analyzer. Each keeps its own files, descriptor, analyzer class (which the
/// tests and fixers use) and ID; shipped together, the compiler calls one analyzer per operation instead of seven,
/// and its work per analyzer was most of what the package cost a build (docs/performance.md). A rule set to
/// <c>none</c> is not called. The rules that ship as suggestions or off (TPL0007, TPL0008, TPL0010) stay analyzers of
/// their own: a command-line build does not run them at all, which a shared analyzer could not tell apart.
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
        AttachedToParentAnalyzer.Operations);

    public override ImmutableArray<DiagnosticDescriptor> SupportedDiagnostics { get; } = Rules.Select(r => r.Descriptor).ToImmutableArray();

    public override void Initialize(AnalysisContext context)
    {
        context.EnableConcurrentExecution();
        context.ConfigureGeneratedCodeAnalysis(GeneratedCode.Skipped);
        context.RegisterRules(Rules);
    }
}
