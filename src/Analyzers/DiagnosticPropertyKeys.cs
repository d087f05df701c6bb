namespace TplPractices.Analyzers;

/// <summary>Keys of <see cref="Microsoft.CodeAnalysis.Diagnostic.Properties"/> that carry fix hints to the code fixes.</summary>
public static class DiagnosticPropertyKeys
{
    /// <summary>Which rewrite the fixer may apply. Absent when no fix keeps the semantics.</summary>
    public const string FixKind = nameof(FixKind);

    /// <summary>
    /// For TPL0012: the ordinals of the parameters the moved slow path takes (comma-separated, possibly none), so that the
    /// fixer does not work them out again.
    /// </summary>
    public const string SlowPathInputs = nameof(SlowPathInputs);

    /// <summary>The properties of a diagnostic whose fix is <paramref name="fixKind"/>; empty when it is null (no fix).</summary>
    internal static System.Collections.Immutable.ImmutableDictionary<string, string?> ForFix(string? fixKind) =>
        fixKind is null
            ? System.Collections.Immutable.ImmutableDictionary<string, string?>.Empty
            : System.Collections.Immutable.ImmutableDictionary<string, string?>.Empty.Add(FixKind, fixKind);
}
