using System.Linq;
using System.Threading;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CodeFixes;
using Microsoft.CodeAnalysis.CSharp;
using Microsoft.CodeAnalysis.CSharp.Syntax;
using Microsoft.CodeAnalysis.Editing;
using Microsoft.CodeAnalysis.Formatting;
using Microsoft.CodeAnalysis.Operations;
using Microsoft.CodeAnalysis.Text;
using TplPractices.Analyzers.CodeFixes.Internals;
using TplPractices.Analyzers.Rules;

namespace TplPractices.Analyzers.CodeFixes.Rules;

/// <summary>
/// TPL0011: adds <c>TaskContinuationOptions.ExecuteSynchronously</c> to a trivial continuation: OR-ed into the options
/// the call passes (replacing <c>None</c>), or as a new options argument after the delegate and state.
/// </summary>
[ExportCodeFixProvider(LanguageNames.CSharp, Name = nameof(TrivialContinuationFixer))]
public sealed class TrivialContinuationFixer : SiteRuleFixer
{
    public const string EquivalenceKey = DiagnosticIds.TrivialContinuation + "_AddExecuteSynchronously";

    public TrivialContinuationFixer()
        : base(new TrivialContinuationAnalyzer(), TrivialContinuation.FixAddFlag, EquivalenceKey, "Run trivial continuations synchronously")
    {
    }

    protected override string Title(string kind) => "Add TaskContinuationOptions.ExecuteSynchronously";

    protected override void FixSite(DocumentEditor editor, TextSpan span, string kind, CancellationToken cancellationToken)
    {
        var call = editor.OriginalRoot.FindNode(span, getInnermostNodeForTie: true).FirstAncestorOrSelf<InvocationExpressionSyntax>();
        if (call is null
            || editor.SemanticModel.GetOperation(call, cancellationToken) is not IInvocationOperation invocation
            || editor.SemanticModel.Compilation.GetTypeByMetadataName(WellKnownTypeNames.TaskContinuationOptions) is not { } optionsType)
        {
            return;
        }

        // Every ContinueWith without options has a sibling with the same parameters and the options after them.
        OptionsFlag.Add(editor, call, invocation.Arguments, optionsType, "ExecuteSynchronously", "continuationOptions");
    }
}
