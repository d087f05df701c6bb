using System.Collections.Immutable;
using System.Linq;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.Diagnostics;
using TplPractices.Analyzers.Catalog;
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
    /// <summary>Every rule of the catalog, in its order.</summary>
    internal static readonly ImmutableArray<OperationRule> Rules = RuleCatalog.All.Select(entry => entry.Operations).ToImmutableArray();

    public override ImmutableArray<DiagnosticDescriptor> SupportedDiagnostics { get; } = Rules.Select(r => r.Descriptor).ToImmutableArray();

    public override void Initialize(AnalysisContext context)
    {
        context.EnableConcurrentExecution();
        context.ConfigureGeneratedCodeAnalysis(GeneratedCode.Skipped);
        context.RegisterRules(Rules, RuleSwitches.AsWarning);
    }
}
