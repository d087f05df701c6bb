using System.Linq;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.Diagnostics;

namespace TplPractices.Analyzers.Internals;

/// <summary>How the state rules (TPL0001, TPL0006, TPL0007) report a capture: on the lambda, naming what it captures.</summary>
internal static class StateDiagnostics
{
    /// <summary>Reports <paramref name="capture"/> with the rewrite <paramref name="fixKind"/>, or none where the capture has no fix.</summary>
    public static void Report(OperationAnalysisContext context, RuleOptions options, DiagnosticDescriptor rule, StateCapture capture, string fixKind)
    {
        var names = capture.CapturedNames.ToList();
        options.Report(context, Diagnostic.Create(
            rule,
            capture.Lambda.Syntax.GetLocation(),
            DiagnosticPropertyKeys.ForFix(capture.NoFixReason is null ? fixKind : null),
            MessageText.QuotedList(names),
            capture.Allocations,
            names.Count == 1 ? "it" : "them"));
    }

}
