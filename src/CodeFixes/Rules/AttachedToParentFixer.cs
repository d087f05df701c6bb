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
/// TPL0009: removes an <c>AttachedToParent</c> flag that does nothing where it runs: <c>A | AttachedToParent</c>
/// becomes <c>A</c>, and the flag alone becomes the enum's <c>None</c>.
/// </summary>
[ExportCodeFixProvider(LanguageNames.CSharp, Name = nameof(AttachedToParentFixer))]
public sealed class AttachedToParentFixer : SiteRuleFixer
{
    public const string EquivalenceKey = DiagnosticIds.AttachedToParent + "_RemoveNoOpFlag";

    public AttachedToParentFixer()
        : base(new AttachedToParentAnalyzer(), AttachedToParentAnalyzer.FixRemoveNoOpFlag, EquivalenceKey, "Remove AttachedToParent where it does nothing")
    {
    }

    protected override string Title(string kind) => "Remove AttachedToParent (it does nothing here)";

    protected override void FixSite(DocumentEditor editor, TextSpan span, string kind, CancellationToken cancellationToken)
    {
        var node = editor.OriginalRoot.FindNode(span, getInnermostNodeForTie: true);
        if (editor.SemanticModel.GetOperation(node, cancellationToken) is not IFieldReferenceOperation { Field.ContainingType: { } options })
        {
            return;
        }

        // Up through parentheses to the operand of an OR, if there is one.
        var operand = node;
        while (operand.Parent is ParenthesizedExpressionSyntax)
        {
            operand = operand.Parent;
        }

        if (operand.Parent is BinaryExpressionSyntax binary && binary.IsKind(SyntaxKind.BitwiseOrExpression))
        {
            var other = binary.Left == operand ? binary.Right : binary.Left;
            editor.ReplaceNode(binary, other.WithTriviaFrom(binary));
        }
        else
        {
            var none = editor.Generator.MemberAccessExpression(ImportedType.Of(editor.Generator, options), "None");
            editor.ReplaceNode(node, none.WithTriviaFrom(node).WithAdditionalAnnotations(Formatter.Annotation));
        }
    }
}
