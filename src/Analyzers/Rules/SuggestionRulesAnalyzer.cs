using System.Collections.Immutable;
using System.Linq;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.Diagnostics;
using TplPractices.Analyzers.Internals;

namespace TplPractices.Analyzers.Rules;

/// <summary>
/// The rules that do not ship as warnings, where they are suggestions or silent: what the IDE shows. A command-line
/// build does not print a suggestion, so it skips this analyzer whole while its rules stay below a warning; a rule
/// raised to a warning is run by <see cref="WarningRulesAnalyzer"/> instead, and this one registers nothing for it.
/// </summary>
[DiagnosticAnalyzer(LanguageNames.CSharp)]
public sealed class SuggestionRulesAnalyzer : DiagnosticAnalyzer
{
    private static readonly ImmutableArray<OperationRule> Rules =
        WarningRulesAnalyzer.Rules.Where(r => !RuleSwitches.ShipsAsWarning(r.Descriptor)).ToImmutableArray();

    public override ImmutableArray<DiagnosticDescriptor> SupportedDiagnostics { get; } = Rules.Select(r => r.Descriptor).ToImmutableArray();

    public override void Initialize(AnalysisContext context)
    {
        context.EnableConcurrentExecution();
        context.ConfigureGeneratedCodeAnalysis(GeneratedCode.Skipped);
        context.RegisterRules(Rules, RuleSwitches.BelowWarning);
    }
}
