using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CodeFixes;
using TplPractices.Analyzers.CodeFixes.Internals;
using TplPractices.Analyzers.Internals;
using TplPractices.Analyzers.Rules;

namespace TplPractices.Analyzers.CodeFixes.Rules;

/// <summary>
/// TPL0001: rewrites <c>StartNew(() => Use(x))</c> to <c>StartNew(static state => { var x = (T)state!; Use(x); }, x)</c>,
/// and a continuation's captured antecedent to its antecedent parameter. The body keeps its names.
/// </summary>
[ExportCodeFixProvider(LanguageNames.CSharp, Name = nameof(UseTaskStateFixer))]
public sealed class UseTaskStateFixer : StateRuleFixer
{
    public const string EquivalenceKey = DiagnosticIds.UseTaskState + "_UseStateOverload";

    public UseTaskStateFixer()
        : base(new UseTaskStateAnalyzer(), UseTaskStateAnalyzer.FixUseStateOverload, EquivalenceKey, "Pass captured values as task state")
    {
    }

    protected override string Title(string kind) => "Pass the captured values as the task's state";
}
