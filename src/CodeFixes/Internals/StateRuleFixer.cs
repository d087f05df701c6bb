using System.Collections.Generic;
using System.Globalization;
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
using TplPractices.Analyzers.Internals;

namespace TplPractices.Analyzers.CodeFixes.Internals;

/// <summary>
/// The fixers of the state rules (TPL0001, TPL0006, TPL0007, TPL0015): each site's lambda is read again in the form the
/// diagnostic names, with the <c>max_state_values</c> the analyzer read (a diagnostic property), and rewritten by
/// <see cref="StateRewrite"/>. The rules differ only in which calls they know,
/// and in the symbols each resolves once per document (typed as object: the fixers are public, their symbol types
/// internal).
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

    /// <summary>The rule's symbols in the document's compilation, or null where it has none.</summary>
    private protected abstract object? Resolve(Compilation compilation);

    /// <summary>The capture at a call the rule reported, analyzed for the rewrite <paramref name="kind"/>; null when it no longer applies.</summary>
    private protected abstract StateCapture? Analyze(IOperation call, string kind, object symbols, int maxStateValues);

    /// <summary>Where a bound method group's receiver goes as the state; by default an object state right after the group.</summary>
    private protected virtual GroupState? GroupStateOf(IArgumentOperation group, object symbols) => GroupState.ObjectAfterTheGroup;

    /// <summary>The call's replacement; by default the same call with the new lambda and the state in its arguments.</summary>
    private protected virtual SyntaxNode Rewrite(SyntaxNode call, ArgumentListSyntax arguments, StateRewrite rewrite, object symbols) =>
        call.ReplaceNode(arguments, rewrite.ArgumentList(arguments));

    protected sealed override async Task<Document> FixDocumentAsync(
        Document document,
        ImmutableArray<Diagnostic> diagnostics,
        CancellationToken cancellationToken)
    {
        var editor = await DocumentEditor.CreateAsync(document, cancellationToken).ConfigureAwait(false);
        if (!CanFix(document) || Resolve(editor.SemanticModel.Compilation) is not { } symbols)
        {
            return document;
        }

        // The file is shared by every target: write what the oldest language version among them accepts.
        var version = LinkedCopies.OldestLanguageVersion(document);
        // The file's max_state_values, as the analyzer read it (one file, one value).
        var maxStateValues = diagnostics
            .Select(d => d.Properties.TryGetValue(DiagnosticPropertyKeys.MaxStateValues, out var value) && int.TryParse(value, NumberStyles.None, CultureInfo.InvariantCulture, out var max) ? max : 0)
            .FirstOrDefault(max => max > 0) is var read and > 0 ? read : StateCapture.MaxStateValues.Default;

        var rewritten = new List<SyntaxNode>();
        foreach (var (span, kind) in FixSites.Of(diagnostics, PortableKind))
        {
            if (kind == MethodGroupCapture.FixMethodGroupState)
            {
                if (MethodGroupStateRewrite.Rewrite(editor, span, version, group => GroupStateOf(group, symbols), cancellationToken) is var (groupCall, replacement)
                    && !rewritten.Any(r => r.Span.Contains(groupCall.Span)))
                {
                    editor.ReplaceNode(groupCall, replacement);
                    rewritten.Add(groupCall);
                }

                continue;
            }

            // A lambda inside one rewritten here is left for the next pass: its text is being replaced.
            if (editor.OriginalRoot.FindNode(span, getInnermostNodeForTie: true) is not AnonymousFunctionExpressionSyntax lambdaSyntax
                || OutsideParentheses(lambdaSyntax).Parent is not ArgumentSyntax { Parent: ArgumentListSyntax { Parent: ExpressionSyntax callSyntax } arguments }
                || rewritten.Any(r => r.Span.Contains(callSyntax.Span))
                || editor.SemanticModel.GetOperation(callSyntax, cancellationToken) is not { } call
                || Analyze(call, kind, symbols, maxStateValues) is not { NoFixReason: null } capture
                || capture.Lambda.Syntax != lambdaSyntax)
            {
                continue;
            }

            editor.ReplaceNode(callSyntax, Rewrite(callSyntax, arguments, new StateRewrite(editor.Generator, capture, version), symbols));
            rewritten.Add(callSyntax);
        }

        return editor.GetChangedDocument();
    }

    /// <summary>The call whose lambda and arguments are rebuilt.</summary>
    protected sealed override SyntaxNode? RestructuredNode(SyntaxNode root, Diagnostic diagnostic)
    {
        var node = root.FindNode(diagnostic.Location.SourceSpan, getInnermostNodeForTie: true);
        return OutsideParentheses(node).Parent is ArgumentSyntax { Parent: ArgumentListSyntax { Parent: ExpressionSyntax call } } ? call : node;
    }

    private static SyntaxNode OutsideParentheses(SyntaxNode node)
    {
        while (node.Parent is ParenthesizedExpressionSyntax parentheses)
        {
            node = parentheses;
        }

        return node;
    }
}
