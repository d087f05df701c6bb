using System.Collections.Generic;
using System.Linq;
using System.Threading;
using System.Threading.Tasks;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp;
using Microsoft.CodeAnalysis.CSharp.Syntax;
using Microsoft.CodeAnalysis.Text;
using TplPractices.Analyzers.Internals;

namespace TplPractices.Analyzers.CodeFixes.Internals;

/// <summary>
/// The simplifier shortens a name to any alias in scope, a <c>global using</c> alias of another file included
/// (<c>T4TaskAlias.Factory.StartNew</c> in a file that never mentions it). Names the rewrite wrote as an alias this
/// file does not use go back to the type's own name where that binds the same, or to its full name.
/// </summary>
internal static class UnmentionedAliases
{
    public static async Task<Document> ReplaceAsync(Document original, Document document, CancellationToken cancellationToken)
    {
        var before = (await original.GetTextAsync(cancellationToken).ConfigureAwait(false)).ToString();
        var changes = (await document.GetTextChangesAsync(original, cancellationToken).ConfigureAwait(false)).OrderBy(c => c.Span.Start).ToList();
        if (changes.Count == 0 || await document.GetSyntaxRootAsync(cancellationToken).ConfigureAwait(false) is not { } root)
        {
            return document;
        }

        // Only identifiers the rewrite wrote and the file never spelled can be such an alias: the cheap test first.
        var written = TextEdits.NewSpans(changes);

        var candidates = root.DescendantNodes(n => written.Any(s => n.FullSpan.OverlapsWith(s)))
            .OfType<IdentifierNameSyntax>()
            // A text diff may keep part of the name ("Task" in "T4TaskAlias"): overlapping a change is enough.
            .Where(n => written.Any(s => s.OverlapsWith(n.Span)) && !TextSearch.ContainsWord(before, n.Identifier.ValueText))
            .ToList();
        if (candidates.Count == 0 || await document.GetSemanticModelAsync(cancellationToken).ConfigureAwait(false) is not { } model)
        {
            return document;
        }

        var replacements = new Dictionary<SyntaxNode, SyntaxNode>();
        foreach (var name in candidates)
        {
            if (model.GetAliasInfo(name, cancellationToken) is not { Target: INamespaceOrTypeSymbol target })
            {
                continue;
            }

            var plain = SyntaxFactory.ParseTypeName(target.ToDisplayString(SymbolDisplayFormat.MinimallyQualifiedFormat.WithMiscellaneousOptions(SymbolDisplayMiscellaneousOptions.None)));
            var bindsTheSame = SymbolEqualityComparer.Default.Equals(
                model.GetSpeculativeSymbolInfo(name.SpanStart, plain, SpeculativeBindingOption.BindAsTypeOrNamespace).Symbol, target);
            var replacement = bindsTheSame ? plain : SyntaxFactory.ParseTypeName(target.ToDisplayString(SymbolDisplayFormat.FullyQualifiedFormat));
            replacements[name] = replacement.WithTriviaFrom(name);
        }

        return replacements.Count == 0
            ? document
            : document.WithSyntaxRoot(root.ReplaceNodes(replacements.Keys, (node, _) => replacements[node]));
    }
}
