using Microsoft.CodeAnalysis.Diagnostics;

namespace TplPractices.Analyzers.Internals;

/// <summary>How every rule stays out of generated code.</summary>
internal static class GeneratedCode
{
    /// <summary>
    /// What every rule passes to <c>ConfigureGeneratedCodeAnalysis</c>. Without
    /// <see cref="GeneratedCodeAnalysisFlags.Analyze"/> the compiler skips generated files, members marked
    /// <c>[GeneratedCode]</c> and hidden lines before it calls a rule. With
    /// <see cref="GeneratedCodeAnalysisFlags.ReportDiagnostics"/> it does not then re-check each file a rule reports
    /// in: a walk over every token of that file, which cost more than the rules' own checks (docs/performance.md).
    /// A rule reports only where it was called, so the re-check would never remove anything.
    /// </summary>
    public const GeneratedCodeAnalysisFlags Skipped = GeneratedCodeAnalysisFlags.ReportDiagnostics;

    /// <summary>
    /// For a rule whose verdict depends on every use of a symbol (TPL0008): generated code is analyzed, because a
    /// generated partial may use the symbol in a way that forbids the fix, while the compiler still drops what the
    /// rule reports there (no <see cref="GeneratedCodeAnalysisFlags.ReportDiagnostics"/>). The re-check costs only where
    /// such a rule reports, which is rare.
    /// </summary>
    public const GeneratedCodeAnalysisFlags AnalyzedNotReported = GeneratedCodeAnalysisFlags.Analyze;
}
