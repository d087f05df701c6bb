using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CodeFixes;
using TplPractices.Analyzers.CodeFixes.Internals;
using TplPractices.Analyzers.Rules;

namespace TplPractices.Analyzers.CodeFixes.Rules;

/// <summary>
/// TPL0013: adds <c>TaskCreationOptions.RunContinuationsAsynchronously</c> to a TaskCompletionSource's creation, as the
/// options after the state where there is one (both sources have <c>(state, options)</c> and <c>(options)</c>
/// constructors; a creation that writes its options out is not reported). Left out of Fix All and so of <c>dotnet format</c>: code can rely on continuations
/// running inside the completion (it reads a task's state right after completing a source), which no analysis proves absent.
/// </summary>
[ExportCodeFixProvider(LanguageNames.CSharp, Name = nameof(CompletionSourceContinuationsFixer))]
public sealed class CompletionSourceContinuationsFixer : FlagRuleFixer
{
    public const string EquivalenceKey = DiagnosticIds.CompletionSourceContinuations + "_AddRunContinuationsAsynchronously";

    public CompletionSourceContinuationsFixer()
        : base(new CompletionSourceContinuationsAnalyzer(), CompletionSourceContinuations.FixAddFlag, EquivalenceKey, "Run TaskCompletionSource continuations asynchronously",
            WellKnownTypeNames.TaskCreationOptions, "RunContinuationsAsynchronously", "creationOptions")
    {
    }

    protected override string Title(string kind) => "Add TaskCreationOptions.RunContinuationsAsynchronously (may change where continuations run)";

    protected override bool InBulk => false;
}
