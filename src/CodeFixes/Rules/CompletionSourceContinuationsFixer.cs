using System.Threading;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CodeFixes;
using Microsoft.CodeAnalysis.CSharp.Syntax;
using Microsoft.CodeAnalysis.Editing;
using Microsoft.CodeAnalysis.Operations;
using Microsoft.CodeAnalysis.Text;
using TplPractices.Analyzers.CodeFixes.Internals;
using TplPractices.Analyzers.Rules;

namespace TplPractices.Analyzers.CodeFixes.Rules;

/// <summary>
/// TPL0013: adds <c>TaskCreationOptions.RunContinuationsAsynchronously</c> to a TaskCompletionSource's creation: in
/// place of a constant <c>None</c>, or as the options after the state (both sources have <c>(state, options)</c> and
/// <c>(options)</c> constructors).
/// </summary>
[ExportCodeFixProvider(LanguageNames.CSharp, Name = nameof(CompletionSourceContinuationsFixer))]
public sealed class CompletionSourceContinuationsFixer : SiteRuleFixer
{
    public const string EquivalenceKey = DiagnosticIds.CompletionSourceContinuations + "_AddRunContinuationsAsynchronously";

    public CompletionSourceContinuationsFixer()
        : base(new CompletionSourceContinuationsAnalyzer(), CompletionSourceContinuations.FixAddFlag, EquivalenceKey, "Run TaskCompletionSource continuations asynchronously")
    {
    }

    protected override string Title(string kind) => "Add TaskCreationOptions.RunContinuationsAsynchronously";

    protected override void FixSite(DocumentEditor editor, TextSpan span, string kind, CancellationToken cancellationToken)
    {
        var creation = editor.OriginalRoot.FindNode(span, getInnermostNodeForTie: true).FirstAncestorOrSelf<BaseObjectCreationExpressionSyntax>();
        if (creation is null
            || editor.SemanticModel.GetOperation(creation, cancellationToken) is not IObjectCreationOperation operation
            || editor.SemanticModel.Compilation.GetTypeByMetadataName(WellKnownTypeNames.TaskCreationOptions) is not { } optionsType)
        {
            return;
        }

        OptionsFlag.Add(editor, creation, operation.Arguments, optionsType, "RunContinuationsAsynchronously", "creationOptions");
    }
}
