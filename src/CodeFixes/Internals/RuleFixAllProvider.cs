using System;
using System.Collections.Generic;
using System.Collections.Immutable;
using System.Linq;
using System.Threading;
using System.Threading.Tasks;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CodeActions;
using Microsoft.CodeAnalysis.CodeFixes;
using Microsoft.CodeAnalysis.Diagnostics;
using Microsoft.CodeAnalysis.Text;

namespace TplPractices.Analyzers.CodeFixes.Internals;

/// <summary>
/// Fix All in two steps. First every document is rewritten against the solution the pass starts from, and the
/// whole batch is compiled once: each new compilation costs time in proportion to the project (the compiler
/// merges every file's declarations again), so one per fixed document made Fix All grow with the square of
/// the project. The documents the batch compile rejects are then fixed one after another, each against the
/// solution the previous one left and compiled on its own, as a single fix is; so are the later parts of a
/// partial type whose fix adds members in several files (<see cref="PartialTypeGrowth"/>), which then see and
/// reuse what the first part added.
/// </summary>
/// <remarks>
/// A multi-targeted project shares each file between one project per target ("linked" documents), and a
/// target-aware rule may report different sites in each. Fixing each copy on its own leaves Roslyn to merge
/// two different edits of one file, which it does with conflict markers. So the copies are fixed one after
/// the other on one evolving text: each site once, by the first copy that compiles it, with the diagnostics
/// of every copy that reported it; and every copy gets the result.
/// </remarks>
internal sealed class RuleFixAllProvider : FixAllProvider
{
    private readonly string _title;
    private readonly string _equivalenceKey;
    private readonly FixDocument _fixDocumentAsync;

    private readonly Func<Document, int> _requiredCopies;
    private readonly DiagnosticAnalyzer _analyzer;
    private readonly Func<Diagnostic, bool> _isFixable;

    /// <summary>
    /// Passes over the documents a pass changed: what one leaves fixable (a lambda inside one it rewrote, a chain that
    /// continued another) is fixed by the next, so a single run reaches the fixed point.
    /// </summary>
    private const int MaxPasses = 4;

    /// <summary>Compiles of a batch: each drops the documents the previous one rejected, whose edits may have broken the others.</summary>
    private const int MaxBatchChecks = 3;

    /// <summary>
    /// The rule's rewrite of one document's sites, finished by <see cref="FixOutput"/>; with <c>checkCompiler</c> false
    /// the caller compiles the result.
    /// </summary>
    public delegate Task<Document> FixDocument(Document document, ImmutableArray<Diagnostic> diagnostics, bool checkCompiler, CancellationToken cancellationToken);

    /// <param name="title">The Fix All action's title.</param>
    /// <param name="equivalenceKey">The key of the rule's own rewrites, the only ones Fix All applies.</param>
    /// <param name="fixDocumentAsync">The rule's rewrite of one document's sites, finished by <see cref="FixOutput"/>.</param>
    /// <param name="requiredCopies">How many copies of a document must report a site for it to be fixed.</param>
    /// <param name="analyzer">The rule's analyzer, run again on the documents a pass changed.</param>
    /// <param name="isFixable">Whether the fix can take a site (it names a rewrite, in code without #if).</param>
    public RuleFixAllProvider(
        string title,
        string equivalenceKey,
        FixDocument fixDocumentAsync,
        Func<Document, int> requiredCopies,
        DiagnosticAnalyzer analyzer,
        Func<Diagnostic, bool> isFixable)
    {
        _title = title;
        _equivalenceKey = equivalenceKey;
        _fixDocumentAsync = fixDocumentAsync;
        _requiredCopies = requiredCopies;
        _analyzer = analyzer;
        _isFixable = d => isFixable(d) && FixSites.OneSiteReasonOf(d) is null;
    }

    public override IEnumerable<FixAllScope> GetSupportedFixAllScopes() =>
        new[] { FixAllScope.Document, FixAllScope.Project, FixAllScope.Solution };

    public override async Task<CodeAction?> GetFixAsync(FixAllContext fixAllContext)
    {
        // A rewrite offered beside the rule's own (FixSites.AlternativeKey) changes behaviour: one site at a time only.
        // A site offered alone (FixSites.OneSiteKey) is never in the batch, but its key still fixes the others.
        if (fixAllContext.CodeActionEquivalenceKey is { } key && key != _equivalenceKey && key != FixSites.OneSiteKey(_equivalenceKey))
        {
            return null;
        }

        var work = await CollectAsync(fixAllContext, _isFixable, _analyzer).ConfigureAwait(false);
        if (work.Count == 0)
        {
            // Nothing to change: an empty action, not none, which dotnet format prints as a failure ("Unable to fix
            // TPL0007", once per project and target). It asks without a key where the first site it holds has no fix,
            // and with the key again for projects whose sites all lack one.
            return CodeAction.Create(_title, _ => Task.FromResult(fixAllContext.Solution), fixAllContext.CodeActionEquivalenceKey);
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
        for (var pass = 0; pass < MaxPasses && work.Count > 0; pass++)
        {
            var before = solution;
            solution = await FixPassAsync(solution, work, cancellationToken).ConfigureAwait(false);
            work = await RemainingAsync(before, solution, cancellationToken).ConfigureAwait(false);
        }

        return solution;
    }

    /// <summary>What the rule reports with a fix in the documents (every linked copy) that changed from <paramref name="before"/>.</summary>
    private async Task<IReadOnlyList<KeyValuePair<DocumentId, ImmutableArray<Diagnostic>>>> RemainingAsync(
        Solution before, Solution solution, CancellationToken cancellationToken)
    {
        var diagnostics = new List<Diagnostic>();
        foreach (var project in solution.GetChanges(before).GetProjectChanges())
        {
            // One analysis per project, shared by its changed documents: what a rule works out once per compilation
            // (TPL0008's index of the callers) is then worked out once per pass, not once per document, which made
            // Fix All grow with the square of the project.
            if (solution.GetProject(project.ProjectId) is not { } current
                || await current.GetCompilationAsync(cancellationToken).ConfigureAwait(false) is not { } compilation)
            {
                continue;
            }

            var withAnalyzer = compilation.WithAnalyzers(ImmutableArray.Create(_analyzer), current.AnalyzerOptions);
            foreach (var id in project.GetChangedDocuments(onlyGetDocumentsWithTextChanges: true))
            {
                if (current.GetDocument(id) is { } document
                    && await document.GetSyntaxTreeAsync(cancellationToken).ConfigureAwait(false) is { } tree)
                {
                    var model = compilation.GetSemanticModel(tree);
                    diagnostics.AddRange(await withAnalyzer.GetAnalyzerSemanticDiagnosticsAsync(model, null, cancellationToken).ConfigureAwait(false));
                }
            }
        }

        return Group(solution, diagnostics, _isFixable);
    }

    private async Task<Solution> FixPassAsync(
        Solution solution,
        IReadOnlyList<KeyValuePair<DocumentId, ImmutableArray<Diagnostic>>> work,
        CancellationToken cancellationToken)
    {
        // The batch: every file against the pass's first solution, whose compilation all the rewrites share. A file
        // that adds members to a partial type another file of the batch also grows waits for the sequential step.
        var batch = new Dictionary<DocumentId, SourceText>();
        var deferred = new HashSet<DocumentId>();
        var grown = new HashSet<string>();
        foreach (var item in work)
        {
            var fixedFile = await FixFileAsync(solution, solution, item, checkCompiler: false, cancellationToken).ConfigureAwait(false);
            if (fixedFile == solution || fixedFile.GetDocument(item.Key) is not { } document)
            {
                continue;
            }

            var types = PartialTypeGrowth.Grown(
                (await solution.GetDocument(item.Key)!.GetSyntaxRootAsync(cancellationToken).ConfigureAwait(false))!,
                (await document.GetSyntaxRootAsync(cancellationToken).ConfigureAwait(false))!);
            if (types.Any(grown.Contains))
            {
                deferred.Add(item.Key);
                continue;
            }

            grown.UnionWith(types);
            batch[item.Key] = await document.GetTextAsync(cancellationToken).ConfigureAwait(false);
        }

        var accepted = await AcceptedAsync(solution, batch, cancellationToken).ConfigureAwait(false);
        var result = WithTexts(solution, accepted);

        // What waited, and what the batch compile rejected, one file at a time, each checked on its own.
        foreach (var item in work.Where(item => deferred.Contains(item.Key) || (batch.ContainsKey(item.Key) && !accepted.ContainsKey(item.Key))))
        {
            result = await FixFileAsync(solution, result, item, checkCompiler: true, cancellationToken).ConfigureAwait(false);
        }

        return result;
    }

    /// <summary>
    /// The files of the batch whose every copy compiles with no error or warning it did not have before, all the batch's
    /// edits applied together; a rejected file's edit is dropped and the rest compiled again, as they may have leaned on it.
    /// </summary>
    private static async Task<Dictionary<DocumentId, SourceText>> AcceptedAsync(
        Solution solution, Dictionary<DocumentId, SourceText> batch, CancellationToken cancellationToken)
    {
        var accepted = batch;
        for (var check = 0; check < MaxBatchChecks && accepted.Count > 0; check++)
        {
            var applied = WithTexts(solution, accepted);
            var rejected = new HashSet<DocumentId>();
            foreach (var key in accepted.Keys)
            {
                foreach (var copy in LinkedCopies.AllCopies(solution.GetDocument(key)!))
                {
                    if (!await FileStructure.NoNewCompilerDiagnosticsAsync(copy, applied.GetDocument(copy.Id)!, cancellationToken).ConfigureAwait(false))
                    {
                        rejected.Add(key);
                        break;
                    }
                }
            }

            if (rejected.Count == 0)
            {
                return accepted;
            }

            accepted = accepted.Where(file => !rejected.Contains(file.Key)).ToDictionary(file => file.Key, file => file.Value);
        }

        // Still rejecting after the last compile: none is trusted, and each is fixed on its own.
        return new Dictionary<DocumentId, SourceText>();
    }

    /// <summary>The solution with each file's text given to every linked copy.</summary>
    private static Solution WithTexts(Solution solution, Dictionary<DocumentId, SourceText> texts) =>
        texts.Aggregate(solution, (current, file) => LinkedCopies.WithTextInEveryCopy(current, file.Key, file.Value));

    /// <summary>
    /// One file's sites fixed in <paramref name="solution"/>, every copy given the result. The diagnostics were found in
    /// <paramref name="original"/>, the solution the pass started from.
    /// </summary>
    private async Task<Solution> FixFileAsync(
        Solution original,
        Solution solution,
        KeyValuePair<DocumentId, ImmutableArray<Diagnostic>> item,
        bool checkCompiler,
        CancellationToken cancellationToken)
    {
        if (solution.GetDocument(item.Key) is not { } key)
        {
            return solution;
        }

        // A site inside an #if branch is code only in the copies whose target defines the symbol, so each copy
        // in turn fixes the sites it reported, on the text the copies before it left. A site several copies
        // reported is fixed once, by the first, with all their diagnostics.
        var required = _requiredCopies(key);
        var pending = item.Value.GroupBy(d => d.Location.SourceSpan)
            .Where(site => site.Select(d => d.Location.SourceTree).Distinct().Count() >= required)
            .ToList();
        var edits = new List<IReadOnlyList<TextChange>>();
        var copies = key.GetLinkedDocumentIds()
            .OrderBy(id => solution.GetProject(id.ProjectId)!.Name, StringComparer.Ordinal)
            .Prepend(key.Id);
        foreach (var copy in copies)
        {
            var originalTree = await original.GetDocument(copy)!.GetSyntaxTreeAsync(cancellationToken).ConfigureAwait(false);
            var sites = pending.Where(site => site.Any(d => d.Location.SourceTree == originalTree)).ToList();
            if (sites.Count == 0)
            {
                continue;
            }

            pending.RemoveAll(sites.Contains);
            var document = solution.GetDocument(copy)!;
            var before = (await document.GetSyntaxTreeAsync(cancellationToken).ConfigureAwait(false))!;
            var relocated = sites
                .SelectMany(site => TextEdits.Map(site.Key, edits) is { } span
                    ? site.Select(d => FixSites.Relocated(d, before, span, edits))
                    : Enumerable.Empty<Diagnostic>())
                .ToImmutableArray();
            var fixedDocument = await _fixDocumentAsync(document, relocated, checkCompiler, cancellationToken).ConfigureAwait(false);
            if (fixedDocument == document)
            {
                continue;
            }

            edits.Add((await fixedDocument.GetSyntaxTreeAsync(cancellationToken).ConfigureAwait(false))!.GetChanges(before).ToList());

            var text = await fixedDocument.GetTextAsync(cancellationToken).ConfigureAwait(false);
            solution = LinkedCopies.WithTextInEveryCopy(fixedDocument.Project.Solution, copy, text);
        }

        return solution;
    }

    private static async Task<IReadOnlyList<KeyValuePair<DocumentId, ImmutableArray<Diagnostic>>>> CollectAsync(
        FixAllContext context, Func<Diagnostic, bool> isFixable, DiagnosticAnalyzer analyzer)
    {
        var all = await ScopeDiagnosticsAsync(context).ConfigureAwait(false);

        // A peer's diagnostics (CA2027 for TPL0017) stand for the rule's own at the same sites.
        var id = analyzer.SupportedDiagnostics[0].Id;
        var peers = all.Where(d => d.Id != id && d.Location.SourceTree is not null).ToList();
        if (peers.Count > 0)
        {
            all = all.Where(d => d.Id == id).ToList();
            foreach (var file in peers.GroupBy(d => d.Location.SourceTree))
            {
                if (context.Solution.GetDocument(file.Key) is { } document)
                {
                    all.AddRange((await PeerDiagnostics.OursAsync(document, analyzer, file.ToList(), null, context.CancellationToken).ConfigureAwait(false))
                        .Where(o => !all.Any(d => d.Location.SourceTree == o.Location.SourceTree && d.Location.SourceSpan == o.Location.SourceSpan)));
                }
            }
        }

        return Group(context.Solution, all, isFixable);
    }

    /// <summary>The diagnostics of the context's ID in its scope and the linked copies of its documents.</summary>
    private static async Task<List<Diagnostic>> ScopeDiagnosticsAsync(FixAllContext context)
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

        return diagnostics;
    }

    /// <summary>
    /// The fixable diagnostics by file: linked copies share a key, the first of their document IDs in a stable order. A
    /// site some copy reports without a fix (a constant only one target's runtime caches, say) is left alone in every
    /// copy, as the light bulb leaves it (<see cref="FixSites.Of"/>): dropping that copy's diagnostic first would let
    /// the other copy's fix through.
    /// </summary>
    private static IReadOnlyList<KeyValuePair<DocumentId, ImmutableArray<Diagnostic>>> Group(
        Solution solution, IEnumerable<Diagnostic> diagnostics, Func<Diagnostic, bool> isFixable)
    {
        DocumentId? KeyOf(Diagnostic diagnostic)
        {
            var id = solution.GetDocumentId(diagnostic.Location.SourceTree);
            return id is null
                ? null
                : solution.GetDocument(id)!.GetLinkedDocumentIds().Add(id)
                    .OrderBy(d => solution.GetProject(d.ProjectId)!.Name, StringComparer.Ordinal)
                    .First();
        }

        return diagnostics
            .Where(d => d.Location.IsInSource)
            .GroupBy(KeyOf)
            .Where(g => g.Key is not null)
            .OrderBy(g => g.First().Location.SourceTree!.FilePath, StringComparer.Ordinal)
            .Select(g => new KeyValuePair<DocumentId, ImmutableArray<Diagnostic>>(
                g.Key!,
                g.GroupBy(d => (d.Id, d.Location.SourceSpan)).Where(site => site.All(isFixable)).SelectMany(site => site).ToImmutableArray()))
            .Where(file => !file.Value.IsEmpty)
            .ToList();
    }
}
