using Microsoft.CodeAnalysis.Testing;
using TplPractices.Analyzers.CodeFixes.Rules;
using TplPractices.Analyzers.Rules;
using Verify = TplPractices.Analyzers.Tests.Verifiers.CSharpCodeFixVerifier<
    TplPractices.Analyzers.Rules.DelayTimerAnalyzer,
    TplPractices.Analyzers.CodeFixes.Rules.DelayTimerFixer>;

namespace TplPractices.Analyzers.Tests.Rules;

/// <summary>
/// TPL0017's fix of a timer loop whose passes do work: offered one loop at a time, never in Fix All, its title saying
/// that passes then start every period rather than a period after the work (<see cref="DelayTimer.RhythmReason"/>).
/// </summary>
internal static class DelayTimerLoopFix
{
    public const string OneSiteKey = DelayTimerFixer.EquivalenceKey + "_OneSite";

    /// <summary>Each reported loop of <paramref name="code"/> fixed through its light bulb gives <paramref name="fixedCode"/>.</summary>
    public static Verify.Test OneLoopAtATime(string code, string fixedCode) => new()
    {
        TestCode = code,
        FixedCode = fixedCode,
        CodeFixTestBehaviors = CodeFixTestBehaviors.SkipFixAllCheck,
        CodeActionEquivalenceKey = OneSiteKey,
        CodeActionVerifier = (action, verifier) => verifier.True(action.Title.Contains("(" + DelayTimer.RhythmReason, StringComparison.Ordinal), action.Title),
    };
}
