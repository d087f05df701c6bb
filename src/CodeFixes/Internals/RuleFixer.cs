using System.Collections.Generic;
using System.Collections.Immutable;
using System.Linq;
using System.Threading;
using System.Threading.Tasks;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CodeActions;
using Microsoft.CodeAnalysis.CodeFixes;
using Microsoft.CodeAnalysis.CSharp.Syntax;
using Microsoft.CodeAnalysis.Diagnostics;
using Microsoft.CodeAnalysis.Text;

namespace TplPractices.Analyzers.CodeFixes.Internals;

/// <summary>
/// What every rule's fixer shares: one diagnostic ID, one equivalence key for all its rewrites (so Fix All and
/// dotnet format apply each site's own rewrite), a code action per diagnostic that names a rewrite, and a
/// Fix All (<see cref="RuleFixAllProvider"/>) over the same document rewrite. In a multi-targeted project every fix, single or Fix All,
/// weighs what the rule reports in each target's copy of the file (<see cref="LinkedCopies"/>).
/// Fixers carry <c>[ExportCodeFixProvider]</c> without <c>[Shared]</c>: hosts create analyzer-package fixers by
/// reflection, and <c>[Shared]</c> would make this assembly reference a System.Composition newer than Roslyn 4.8's
/// (the floor-host tests check every reference).
/// </summary>
public abstract class RuleFixer : CodeFixProvider
{
    private readonly DiagnosticAnalyzer _analyzer;
    private readonly FixAllProvider _fixAll;

    /// <param name="analyzer">The rule's analyzer, run over the linked copies of a file for a single fix.</param>
    /// <param name="portableKind">The rewrite that compiles on every target, chosen where the targets' copies disagree.</param>
    /// <param name="equivalenceKey">The key of every code action of the rule.</param>
    /// <param name="fixAllTitle">The Fix All action's title.</param>
    protected RuleFixer(DiagnosticAnalyzer analyzer, string portableKind, string equivalenceKey, string fixAllTitle)
    {
        _analyzer = analyzer;
        PortableKind = portableKind;
        RuleKey = equivalenceKey;
        _fixAll = new RuleFixAllProvider(fixAllTitle, equivalenceKey, FixFinishedAsync, RequiredCopies, analyzer, IsFixable);
    }

    /// <summary>The key of every code action of the rule, as a host hands it back to Fix All.</summary>
    internal string RuleKey { get; }

    /// <summary>The rule's ID, and the peers' IDs whose diagnostics its fix also serves.</summary>
    public sealed override ImmutableArray<string> FixableDiagnosticIds => PeerIds.Insert(0, _analyzer.SupportedDiagnostics[0].Id);

    /// <summary>
    /// Diagnostics of peer analyzers that report the rule's sites without a fix (CA2027 for TPL0017): the rule's fix is
    /// offered on them too, single and Fix All, found through <see cref="PeerDiagnostics"/>.
    /// </summary>
    protected virtual ImmutableArray<string> PeerIds => ImmutableArray<string>.Empty;

    /// <summary>
    /// Rewrites offered beside the site's own <paramref name="kind"/>, one site at a time under their own key and
    /// title, never in Fix All: they change what the code does (TPL0019's TaskScheduler.Default), as their titles say.
    /// </summary>
    protected virtual ImmutableArray<string> AlternativeKinds(string kind) => ImmutableArray<string>.Empty;

    /// <summary>The rewrite that compiles on every target: where linked copies disagree, it wins.</summary>
    protected string PortableKind { get; }

    /// <summary>None for a rule whose fix can change behaviour the compiler cannot see: then no bulk fix, nor dotnet format, applies it.</summary>
    public sealed override FixAllProvider? GetFixAllProvider() => InBulk ? _fixAll : null;

    /// <summary>
    /// False for a rule whose fix changes what the code does at run time in a way only its author can judge (TPL0013 moves
    /// continuations off the completer's thread): the fix is offered one site at a time, its title says what changes.
    /// </summary>
    protected virtual bool InBulk => true;

    public sealed override async Task RegisterCodeFixesAsync(CodeFixContext context)
    {
        // The cheap checks first: the other targets' copies are analyzed only where this copy names a rewrite.
        if (!CanFix(context.Document))
        {
            return;
        }

        var id = _analyzer.SupportedDiagnostics[0].Id;
        if (context.Diagnostics.Any(d => d.Id != id))
        {
            await RegisterForPeersAsync(context, context.Diagnostics.Where(d => d.Id != id).ToList()).ConfigureAwait(false);
        }

        var offered = new HashSet<Diagnostic>();
        foreach (var diagnostic in context.Diagnostics.Where(IsFixable))
        {
            if (await CanFixSiteAsync(context.Document, diagnostic, context.CancellationToken).ConfigureAwait(false)
                && !await CallerInfo.IsQuotedAsync(context.Document, diagnostic.Location.SourceSpan, context.CancellationToken).ConfigureAwait(false)
                && (!(TriesBeforeOffering || MayBeRefused(diagnostic))
                    || await FixFinishedAsync(context.Document, ImmutableArray.Create(diagnostic), checkCompiler: true, context.CancellationToken).ConfigureAwait(false) != context.Document))
            {
                offered.Add(diagnostic);
            }
        }

        if (offered.Count == 0)
        {
            return;
        }

        // A verdict made at the end of a type (TPL0008) needs the whole copy analyzed, not the site's span alone.
        var span = EveryCopyMustReport ? (TextSpan?)null : context.Span;
        var copies = await LinkedCopies.DiagnosticsAsync(context.Document, _analyzer, span, context.CancellationToken).ConfigureAwait(false);
        FixSites.Register(
            context,
            copies,
            RequiredCopies(context.Document),
            PortableKind,
            Title,
            (document, diagnostics, cancellationToken) => FixFinishedAsync(document, diagnostics, checkCompiler: true, cancellationToken),
            RuleKey,
            offered.Contains,
            AlternativeKinds);
    }

    /// <summary>The rule's fix of its own diagnostic at each peer diagnostic's site, registered on the peer's.</summary>
    private async Task RegisterForPeersAsync(CodeFixContext context, IReadOnlyCollection<Diagnostic> peers)
    {
        var document = context.Document;
        var ours = await PeerDiagnostics.OursAsync(document, _analyzer, peers, context.Span, context.CancellationToken).ConfigureAwait(false);
        foreach (var peer in peers)
        {
            if (ours.FirstOrDefault(o => o.Location.SourceSpan.IntersectsWith(peer.Location.SourceSpan) && IsFixable(o)) is not { } own
                || FixSites.KindOf(own) is not { } kind
                || !await CanFixSiteAsync(document, own, context.CancellationToken).ConfigureAwait(false))
            {
                continue;
            }

            var oneSite = FixSites.OneSiteReasonOf(own);
            foreach (var offeredKind in AlternativeKinds(kind).Insert(0, kind))
            {
                var site = ImmutableArray.Create(offeredKind == kind ? own : FixSites.WithKind(own, offeredKind));
                context.RegisterCodeFix(
                    CodeAction.Create(
                        offeredKind == kind ? FixSites.WithReason(Title(offeredKind), oneSite) : Title(offeredKind),
                        async cancellationToken =>
                        {
                            var fixedDocument = await FixFinishedAsync(document, site, checkCompiler: true, cancellationToken).ConfigureAwait(false);
                            var text = await fixedDocument.GetTextAsync(cancellationToken).ConfigureAwait(false);
                            return LinkedCopies.WithTextInEveryCopy(fixedDocument.Project.Solution, document.Id, text);
                        },
                        offeredKind != kind ? FixSites.AlternativeKey(RuleKey, offeredKind)
                            : oneSite is null ? RuleKey
                            : FixSites.OneSiteKey(RuleKey)),
                    peer);
            }
        }
    }

    /// <summary>
    /// A check of the site that needs the solution (its callers, say), made before a fix is offered in the light
    /// bulb; the rewrite itself makes it again for Fix All and leaves a site that fails it alone.
    /// </summary>
    protected virtual Task<bool> CanFixSiteAsync(Document document, Diagnostic diagnostic, CancellationToken cancellationToken) =>
        Task.FromResult(true);

    /// <summary>
    /// True for a rule whose rewrite the analyzer cannot fully vet (TPL0012: whether moved code still compiles without
    /// warnings, which flow analysis decides): the site's rewrite is made and checked before a fix is offered, so the
    /// light bulb never offers one that would step back.
    /// </summary>
    protected virtual bool TriesBeforeOffering => false;

    /// <summary>
    /// True for a rule whose silence in a target's copy means the rewrite is unsafe there (TPL0008: that target
    /// uses the method in another way), not merely unneeded: a site is fixed only where every copy reports it.
    /// </summary>
    protected virtual bool EveryCopyMustReport => false;

    /// <summary>How many copies of <paramref name="document"/> must report a site for it to be fixed.</summary>
    protected int RequiredCopies(Document document) => EveryCopyMustReport ? LinkedCopies.AllCopies(document).Count() : 1;

    /// <summary>
    /// False where no rewrite of the rule compiles cleanly in every copy of the document (every target of a
    /// multi-targeted project): then no fix is offered, and Fix All leaves the document alone.
    /// </summary>
    protected virtual bool CanFix(Document document) => true;

    /// <summary>The code action's title for a rewrite the analyzer named.</summary>
    protected abstract string Title(string kind);

    /// <summary>Applies the rewrites the diagnostics name, all in one document.</summary>
    protected abstract Task<Document> FixDocumentAsync(Document document, ImmutableArray<Diagnostic> diagnostics, CancellationToken cancellationToken);

    /// <summary>
    /// The code the rewrite of the site <paramref name="diagnostic"/> names takes apart and builds again; by default the
    /// site's own node. Where it holds a preprocessor directive the site is not fixed (<see cref="FixOutput"/>).
    /// </summary>
    protected virtual SyntaxNode? RestructuredNode(SyntaxNode root, Diagnostic diagnostic) =>
        root.FindNode(diagnostic.Location.SourceSpan, getInnermostNodeForTie: true);

    /// <summary>
    /// Whether the code the rewrite takes apart carries an attribute list (a lambda's, rare) or directive lines it keeps
    /// in place (<see cref="KeepsStatementsInPlace"/>): the layer refuses a rewrite that drops an attribute or leaves a
    /// stretch between two lines empty, so such a site is rewritten before a fix is offered, and none is offered where
    /// that fails.
    /// </summary>
    private bool MayBeRefused(Diagnostic diagnostic) =>
        diagnostic.Location.SourceTree?.GetRoot() is { } root
        && RestructuredNode(root, diagnostic) is { } node
        && (FileStructure.HoldsDirective(node) || node.DescendantNodes().OfType<AttributeListSyntax>().Any());

    /// <summary>
    /// True for a rewrite that leaves every statement of the code it takes apart where it was (it edits expressions and
    /// keywords, and may drop a statement): a <c>#pragma</c> or <c>#region</c> line between those statements then keeps
    /// the same code on each side and is no reason to leave the site (<see cref="FileStructure.HoldsDirective"/>).
    /// </summary>
    protected virtual bool KeepsStatementsInPlace => false;

    /// <summary>Whether the code the rewrite of the site takes apart holds a directive it cannot rewrite around.</summary>
    private bool Obstructed(SyntaxNode root, Diagnostic diagnostic) =>
        FileStructure.HoldsDirective(RestructuredNode(root, diagnostic), KeepsStatementsInPlace);

    /// <summary>A site that names a rewrite, in code the rewrite can take apart: no action is offered for any other.</summary>
    private bool IsFixable(Diagnostic diagnostic) =>
        FixSites.KindOf(diagnostic) is not null
        && diagnostic.Location.SourceTree?.GetRoot() is { } root
        && !Obstructed(root, diagnostic);

    /// <summary>
    /// The rule's rewrite through the layer every fix shares; Fix All passes <paramref name="checkCompiler"/> false for a
    /// batch it compiles as a whole.
    /// </summary>
    private Task<Document> FixFinishedAsync(Document document, ImmutableArray<Diagnostic> diagnostics, bool checkCompiler, CancellationToken cancellationToken) =>
        FixOutput.RewriteAsync(document, diagnostics, FixDocumentAsync, Obstructed, checkCompiler, cancellationToken);
}
