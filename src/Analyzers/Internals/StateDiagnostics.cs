using System.Linq;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.Diagnostics;

namespace TplPractices.Analyzers.Internals;

/// <summary>
/// How the state rules (TPL0001, TPL0006, TPL0007, TPL0015) report a capture: on the lambda, naming what it captures,
/// with the file's <c>max_state_values</c> for the fixer.
/// </summary>
internal static class StateDiagnostics
{
    /// <summary>Reports <paramref name="capture"/> with the rewrite <paramref name="fixKind"/>, or none where the capture has no fix.</summary>
    public static void Report(OperationAnalysisContext context, RuleOptions options, DiagnosticDescriptor rule, StateCapture capture, string fixKind)
    {
        var names = capture.CapturedNames.ToList();
        var properties = DiagnosticPropertyKeys.ForFix(capture.NoFixReason is null ? fixKind : null);
        if (capture.NoFixReason is null)
        {
            var max = options.For(capture.Lambda.Syntax.SyntaxTree).Number(StateCapture.MaxStateValues);
            properties = properties.Add(DiagnosticPropertyKeys.MaxStateValues, max.ToString(System.Globalization.CultureInfo.InvariantCulture));
        }

        options.Report(context, Diagnostic.Create(
            rule,
            capture.Lambda.Syntax.GetLocation(),
            properties,
            MessageText.QuotedList(names),
            capture.Allocations,
            names.Count == 1 ? "it" : "them"));
    }

}
