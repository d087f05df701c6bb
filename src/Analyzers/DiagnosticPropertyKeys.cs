namespace TplPractices.Analyzers;

/// <summary>Keys of <see cref="Microsoft.CodeAnalysis.Diagnostic.Properties"/> that carry fix hints to the code fixes.</summary>
public static class DiagnosticPropertyKeys
{
    /// <summary>Which rewrite the fixer may apply. Absent when no fix keeps the semantics.</summary>
    public const string FixKind = nameof(FixKind);

    /// <summary>
    /// Present where the rewrite's meaning rests on code the analyzer cannot see (TPL0015's state handed to an interface
    /// method: every implementation, test doubles included, must pass it on): what it rests on, which the fix's title
    /// says. The fix is offered one site at a time, never in Fix All or dotnet format.
    /// </summary>
    public const string OneSiteReason = nameof(OneSiteReason);

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

    /// <summary>
    /// <paramref name="properties"/> with <see cref="OneSiteReason"/> set to <paramref name="reason"/>, which keeps the fix
    /// out of Fix All; unchanged when there is no reason.
    /// </summary>
    internal static System.Collections.Immutable.ImmutableDictionary<string, string?> WithOneSiteReason(
        System.Collections.Immutable.ImmutableDictionary<string, string?> properties, string? reason) =>
        reason is null ? properties : properties.Add(OneSiteReason, reason);
}
