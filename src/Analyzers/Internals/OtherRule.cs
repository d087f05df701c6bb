using System.Collections.Immutable;
using System.Threading;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.Diagnostics;

namespace TplPractices.Analyzers.Internals;

/// <summary>
/// Where two rules see one site, one fixable diagnostic: the rule whose fix removes more (TPL0002's awaits remove the
/// continuation TPL0001 would give a state; TPL0005's moved loop removes the Task.Run TPL0007 would rewrite) takes it,
/// and the other stays silent there, but only while that rule is on for the site. Otherwise dotnet format, which
/// takes the rules in no fixed order, would apply either fix from one run to the next.
/// </summary>
internal static class OtherRule
{
    /// <summary>Whether <paramref name="rule"/> is on for <paramref name="member"/> in <paramref name="tree"/>: not suppressed, and in its scope.</summary>
    public static bool IsOn(Compilation compilation, AnalyzerOptions options, SyntaxTree tree, ISymbol member, DiagnosticDescriptor rule, CancellationToken cancellationToken) =>
        RuleSwitches.Severity(compilation, tree, rule, cancellationToken) != ReportDiagnostic.Suppress
        && RuleSettings.Read(options.AnalyzerConfigOptionsProvider, tree, rule.Id, ImmutableArray<NumberOption>.Empty).Scope.Includes(member);
}
