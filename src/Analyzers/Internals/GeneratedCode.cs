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
}
