using System.Diagnostics.CodeAnalysis;

// Each rule's own analyzer class (UseTaskStateAnalyzer, …) runs that rule alone, whatever its severity: the rule's
// tests and its fixer (over a file's linked copies) use it. Hosts load WarningRulesAnalyzer and SuggestionRulesAnalyzer,
// which carry every rule; ConventionTests checks that they do.
[assembly: SuppressMessage(
    "MicrosoftCodeAnalysisCorrectness",
    "RS1001:Missing diagnostic analyzer attribute",
    Justification = "Each rule's own class is for tests and fixers; the shared analyzers ship the rules.",
    Scope = "namespaceanddescendants",
    Target = "~N:TplPractices.Analyzers.Rules")]
