namespace TplPractices.Analyzers;

/// <summary>Keys of <see cref="Microsoft.CodeAnalysis.Diagnostic.Properties"/> that carry fix hints to the code fixes.</summary>
public static class DiagnosticPropertyKeys
{
    /// <summary>Which rewrite the fixer may apply. Absent when no fix keeps the semantics.</summary>
    public const string FixKind = nameof(FixKind);
}
