using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CodeFixes;
using TplPractices.Analyzers.CodeFixes.Internals;
using TplPractices.Analyzers.Rules;

namespace TplPractices.Analyzers.CodeFixes.Rules;

/// <summary>
/// TPL0011: adds <c>TaskContinuationOptions.ExecuteSynchronously</c> to a trivial continuation: OR-ed into the options
/// the call passes (replacing <c>None</c>), or as a new options argument after the delegate and state (every
/// ContinueWith without options has a sibling with the same parameters and the options after them).
/// </summary>
[ExportCodeFixProvider(LanguageNames.CSharp, Name = nameof(TrivialContinuationFixer))]
public sealed class TrivialContinuationFixer : FlagRuleFixer
{
    public const string EquivalenceKey = DiagnosticIds.TrivialContinuation + "_AddExecuteSynchronously";

    public TrivialContinuationFixer()
        : base(new TrivialContinuationAnalyzer(), TrivialContinuation.FixAddFlag, EquivalenceKey, "Run trivial continuations synchronously",
            WellKnownTypeNames.TaskContinuationOptions, "ExecuteSynchronously", "continuationOptions")
    {
    }

    protected override string Title(string kind) => "Add TaskContinuationOptions.ExecuteSynchronously";
}
