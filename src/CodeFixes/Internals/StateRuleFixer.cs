using System.Collections.Generic;
using System.Collections.Immutable;
using System.Linq;
using System.Threading;
using System.Threading.Tasks;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp;
using Microsoft.CodeAnalysis.CSharp.Syntax;
using Microsoft.CodeAnalysis.Diagnostics;
using Microsoft.CodeAnalysis.Editing;
using Microsoft.CodeAnalysis.Operations;
using Microsoft.CodeAnalysis.Text;
using TplPractices.Analyzers.Internals;

namespace TplPractices.Analyzers.CodeFixes.Internals;

/// <summary>
/// The fixers of the state rules (TPL0001, TPL0006, TPL0007, TPL0015): each site's capture is read back from what the
/// analyzer found (<see cref="StateFacts"/>: the shape, the captured variables by name) and rewritten by
/// <see cref="StateRewrite"/>. The rules differ only in the call each writes around the new lambda.
/// </summary>
public abstract class StateRuleFixer : RuleFixer
{
    protected StateRuleFixer(DiagnosticAnalyzer analyzer, string portableKind, string equivalenceKey, string fixAllTitle)
        : base(analyzer, portableKind, equivalenceKey, fixAllTitle)
    {
    }

    /// <summary>
    /// The read-back deconstruction needs C# 7 in every copy (the analyzer checks only its own). Before C# 8 the state
    /// cannot be read back with <c>!</c>, and without it a copy compiled with nullable warnings warns (CS8600, CS8605):
    /// a multi-targeted project that mixes the two gets no fix.
    /// </summary>
    protected override bool CanFix(Document document)
    {
        var oldest = LinkedCopies.OldestLanguageVersion(document);
        return oldest >= LanguageVersion.CSharp7 && (oldest >= LanguageVersion.CSharp8 || !LinkedCopies.AnyWarnsOnNullable(document));
    }

    /// <summary>
    /// The lambda's statements stay as they were, after the one that reads the state back: a <c>#pragma</c> line
    /// between them keeps its code on each side.
    /// </summary>
    protected sealed override bool KeepsStatementsInPlace => true;

    /// <summary>
    /// A rule's rewrite that carries no state (TPL0015's key parameter), for the kinds <see cref="IsOtherKind"/> names:
    /// the node replaced and its replacement, or null where the site is left alone.
    /// </summary>
    private protected virtual (SyntaxNode Node, SyntaxNode Replacement)? RewriteOther(DocumentEditor editor, TextSpan span, Diagnostic reported, LanguageVersion version, CancellationToken cancellationToken) =>
        null;

    /// <summary>Whether <paramref name="kind"/> is rewritten by <see cref="RewriteOther"/> rather than as a state.</summary>
    private protected virtual bool IsOtherKind(string kind) => false;

    /// <summary>The call's replacement; by default the same call with the new lambda and the state in its arguments.</summary>
    private protected virtual SyntaxNode? Rewrite(SyntaxNode call, ArgumentListSyntax arguments, StateRewrite rewrite, Diagnostic reported) =>
        call.ReplaceNode(arguments, rewrite.ArgumentList(arguments));

    protected sealed override async Task<Document> FixDocumentAsync(
        Document document,
        ImmutableArray<Diagnostic> diagnostics,
        CancellationToken cancellationToken)
    {
        var editor = await DocumentEditor.CreateAsync(document, cancellationToken).ConfigureAwait(false);
        if (!CanFix(document))
        {
            return document;
        }

        // The file is shared by every target: write what the oldest language version among them accepts.
        var version = LinkedCopies.OldestLanguageVersion(document);
        var rewritten = new List<SyntaxNode>();
        foreach (var (span, kind, reported) in FixSites.Reported(diagnostics, PortableKind))
        {
            if (kind == MethodGroupCapture.FixMethodGroupState)
            {
                var state = StateFacts.GroupStateOf(reported.Properties) is var (position, index)
                    ? new GroupState(position, typed: true, index)
                    : GroupState.ObjectAfterTheGroup;
                if (MethodGroupStateRewrite.Rewrite(editor, span, version, LinkedCopies.WarnsOnNullableAt(document, editor.SemanticModel, span.Start), state, cancellationToken) is var (groupCall, groupReplacement)
                    && !rewritten.Any(r => r.Span.Contains(groupCall.Span)))
                {
                    editor.ReplaceNode(groupCall, groupReplacement);
                    rewritten.Add(groupCall);
                }

                continue;
            }

            if (IsOtherKind(kind))
            {
                if (RewriteOther(editor, span, reported, version, cancellationToken) is var (node, otherReplacement)
                    && !rewritten.Any(r => r.Span.Contains(node.Span) || node.Span.Contains(r.Span)))
                {
                    editor.ReplaceNode(node, otherReplacement);
                    rewritten.Add(node);
                }

                continue;
            }

            // A lambda inside one rewritten here is left for the next pass: its text is being replaced.
            if (editor.OriginalRoot.FindNode(span, getInnermostNodeForTie: true) is not AnonymousFunctionExpressionSyntax lambdaSyntax
                || OutsideParentheses(lambdaSyntax).Parent is not ArgumentSyntax { Parent: ArgumentListSyntax { Parent: ExpressionSyntax callSyntax } arguments }
                || rewritten.Any(r => r.Span.Contains(callSyntax.Span))
                || editor.SemanticModel.GetOperation(callSyntax, cancellationToken) is not { } call
                || LambdaIn(call, lambdaSyntax) is not { } lambda
                || StateFacts.Read(call, lambda, reported.Properties) is not { } capture
                || Rewrite(callSyntax, arguments, new StateRewrite(editor.Generator, capture, version, LinkedCopies.WarnsOnNullableAt(document, editor.SemanticModel, lambdaSyntax.SpanStart)), reported) is not { } replacement)
            {
                continue;
            }

            editor.ReplaceNode(callSyntax, replacement);
            rewritten.Add(callSyntax);
        }

        return editor.GetChangedDocument();
    }

    /// <summary>The operation of the lambda written at <paramref name="syntax"/> among the call's arguments.</summary>
    internal static IAnonymousFunctionOperation? LambdaIn(IOperation call, SyntaxNode syntax) =>
        call.Descendants().OfType<IAnonymousFunctionOperation>().FirstOrDefault(l => l.Syntax == syntax);

    /// <summary>The call whose lambda and arguments are rebuilt.</summary>
    protected sealed override SyntaxNode? RestructuredNode(SyntaxNode root, Diagnostic diagnostic)
    {
        var node = root.FindNode(diagnostic.Location.SourceSpan, getInnermostNodeForTie: true);
        return OutsideParentheses(node).Parent is ArgumentSyntax { Parent: ArgumentListSyntax { Parent: ExpressionSyntax call } } ? call : node;
    }

    /// <summary>The lambda with the parentheses written around it, whose parent is the argument.</summary>
    internal static SyntaxNode OutsideParentheses(SyntaxNode node)
    {
        while (node.Parent is ParenthesizedExpressionSyntax parentheses)
        {
            node = parentheses;
        }

        return node;
    }
}
