using System;
using System.Collections.Generic;
using System.Collections.Immutable;
using System.Linq;
using System.Threading;
using System.Threading.Tasks;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CodeActions;
using Microsoft.CodeAnalysis.CodeFixes;
using Microsoft.CodeAnalysis.Editing;
using Microsoft.CodeAnalysis.Formatting;
using Microsoft.CodeAnalysis.Simplification;

namespace TplPractices.Analyzers.CodeFixes.Internals;

/// <summary>
/// Fix All that rewrites one document after another, each against the solution the previous one left.
/// A rule whose fix adds members (a cached field, say) needs this: with the batch fixer, two documents of
/// one partial type would each add the same member, and the merged result would not compile.
/// </summary>
/// <remarks>
/// A multi-targeted project shares each file between one project per target ("linked" documents), and a
/// target-aware rule may report different sites in each. Fixing each copy on its own leaves Roslyn to merge
/// two different edits of one file, which it does with conflict markers. So the copies are fixed once, with
/// the union of their diagnostics (the same site may then come more than once, from each target), and every
/// copy gets the result.
/// </remarks>
internal sealed class SequentialFixAllProvider : FixAllProvider
{
    private readonly string _title;
    private readonly Func<Document, ImmutableArray<Diagnostic>, CancellationToken, Task<Document>> _fixDocumentAsync;

    public SequentialFixAllProvider(
        string title,
        Func<Document, ImmutableArray<Diagnostic>, CancellationToken, Task<Document>> fixDocumentAsync)
    {
        _title = title;
        _fixDocumentAsync = fixDocumentAsync;
    }

    public override IEnumerable<FixAllScope> GetSupportedFixAllScopes() =>
        new[] { FixAllScope.Document, FixAllScope.Project, FixAllScope.Solution };

    public override async Task<CodeAction?> GetFixAsync(FixAllContext fixAllContext)
    {
        var work = await CollectAsync(fixAllContext).ConfigureAwait(false);
        if (work.Count == 0)
        {
            return null;
        }

        return CodeAction.Create(
            _title,
            cancellationToken => FixAllAsync(fixAllContext.Solution, work, cancellationToken),
            fixAllContext.CodeActionEquivalenceKey);
    }

    private async Task<Solution> FixAllAsync(
        Solution solution,
        IReadOnlyList<KeyValuePair<DocumentId, ImmutableArray<Diagnostic>>> work,
        CancellationToken cancellationToken)
    {
        foreach (var item in work)
        {
            if (solution.GetDocument(item.Key) is { } document)
            {
                var fixedDocument = await _fixDocumentAsync(document, item.Value, cancellationToken).ConfigureAwait(false);

                // Clean up now rather than after the action: the linked copies must get the final text, or
                // the copies differ again once only the fixed one is simplified and formatted.
                fixedDocument = await ImportAdder.AddImportsAsync(fixedDocument, Simplifier.AddImportsAnnotation, cancellationToken: cancellationToken).ConfigureAwait(false);
                fixedDocument = await Simplifier.ReduceAsync(fixedDocument, Simplifier.Annotation, cancellationToken: cancellationToken).ConfigureAwait(false);
                fixedDocument = await Formatter.FormatAsync(fixedDocument, Formatter.Annotation, cancellationToken: cancellationToken).ConfigureAwait(false);
                var text = await fixedDocument.GetTextAsync(cancellationToken).ConfigureAwait(false);
                solution = fixedDocument.Project.Solution;
                foreach (var linked in document.GetLinkedDocumentIds())
                {
                    solution = solution.WithDocumentText(linked, text);
                }
            }
        }

        return solution;
    }

    private static async Task<IReadOnlyList<KeyValuePair<DocumentId, ImmutableArray<Diagnostic>>>> CollectAsync(
        FixAllContext context)
    {
        // Each scope takes in the linked copies of its documents: the other targets' view of the same files.
        var diagnostics = new List<Diagnostic>();
        if (context.Scope is FixAllScope.Project or FixAllScope.Solution)
        {
            var projects = context.Scope == FixAllScope.Solution
                ? context.Solution.Projects
                : context.Project.Documents
                    .SelectMany(d => d.GetLinkedDocumentIds())
                    .Select(id => context.Solution.GetProject(id.ProjectId)!)
                    .Prepend(context.Project)
                    .Distinct();
            foreach (var project in projects)
            {
                diagnostics.AddRange(await context.GetAllDiagnosticsAsync(project).ConfigureAwait(false));
            }
        }
        else if (context.Document is { } document)
        {
            foreach (var id in document.GetLinkedDocumentIds().Add(document.Id))
            {
                diagnostics.AddRange(await context.GetDocumentDiagnosticsAsync(context.Solution.GetDocument(id)!).ConfigureAwait(false));
            }
        }

        // Linked copies of one file share a key: the first of their document IDs in a stable order.
        DocumentId? KeyOf(Diagnostic diagnostic)
        {
            var id = context.Solution.GetDocumentId(diagnostic.Location.SourceTree);
            return id is null
                ? null
                : context.Solution.GetDocument(id)!.GetLinkedDocumentIds().Add(id)
                    .OrderBy(d => context.Solution.GetProject(d.ProjectId)!.Name, StringComparer.Ordinal)
                    .First();
        }

        return diagnostics
            .Where(d => d.Location.IsInSource)
            .GroupBy(KeyOf)
            .Where(g => g.Key is not null)
            .OrderBy(g => g.First().Location.SourceTree!.FilePath, StringComparer.Ordinal)
            .Select(g => new KeyValuePair<DocumentId, ImmutableArray<Diagnostic>>(g.Key!, g.ToImmutableArray()))
            .ToList();
    }
}
