using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CodeFixes;
using TplPractices.Analyzers.CodeFixes.Internals;
using TplPractices.Analyzers.Internals;
using TplPractices.Analyzers.Rules;

namespace TplPractices.Analyzers.CodeFixes.Rules;

/// <summary>
/// TPL0006: <c>token.Register(() => Use(x))</c> → <c>token.Register(static state => { var x = (T)state!; Use(x); }, x)</c>;
/// <c>ThreadPool.QueueUserWorkItem(_ => Use(x))</c> → the generic overload with a typed state where the target has it;
/// <c>new Timer(_ => Use(x), null, …)</c> → the values in the state argument. Every form compiles on every target
/// that reports it; in a multi-targeted project the object form wins where the targets differ.
/// </summary>
[ExportCodeFixProvider(LanguageNames.CSharp, Name = nameof(CallbackStateFixer))]
public sealed class CallbackStateFixer : StateRuleFixer
{
    public const string EquivalenceKey = DiagnosticIds.CallbackState + "_PassState";

    public CallbackStateFixer()
        : base(new CallbackStateAnalyzer(), CallbackStateApis.FixObjectState, EquivalenceKey, "Pass captured values as callback state")
    {
    }

    protected override string Title(string kind) => kind switch
    {
        CallbackStateApis.FixTypedState => "Pass the captured values as a typed state (QueueUserWorkItem<TState>)",
        CallbackStateApis.FixNullState => "Pass the captured values in the state argument",
        _ => "Pass the captured values as the callback's state",
    };
}
