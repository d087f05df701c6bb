using System;
using System.Collections.Generic;
using System.Collections.Immutable;
using System.Linq;
using System.Threading;
using System.Threading.Tasks;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp.Syntax;
using Microsoft.CodeAnalysis.Editing;
using Microsoft.CodeAnalysis.Formatting;
using Microsoft.CodeAnalysis.Options;
using Microsoft.CodeAnalysis.Simplification;
using Microsoft.CodeAnalysis.Text;

namespace TplPractices.Analyzers.CodeFixes.Internals;

/// <summary>
/// The one layer every fix goes through, single or Fix All, for what no rule should handle on its own: code the
/// rewrite restructures must hold no preprocessor directive; imports, simplification and formatting are done once,
/// here, so every linked copy gets the same text; comments the rewrite dropped are put back; and a rewrite that would
/// change the file's preprocessor structure, or add a compiler error or warning in any target's copy, is not applied
/// (site by site, where several share a document).
/// </summary>
internal static class FixOutput
{
    /// <summary>A rule's rewrite of the sites its diagnostics name, all in one document.</summary>
    public delegate Task<Document> Rewrite(Document document, ImmutableArray<Diagnostic> diagnostics, CancellationToken cancellationToken);

    /// <summary>
    /// The document with the sites rewritten and finished. <paramref name="obstructed"/> tells whether the code the
    /// rewrite of a site takes apart and builds again holds a directive (<see cref="FileStructure.HoldsDirective"/>):
    /// the branches another target compiles cannot be rewritten from what this one sees, so that site is left alone.
    /// With <paramref name="checkCompiler"/> false the caller compiles the result itself (Fix All checks a whole
    /// batch of documents in one compilation) and only the file's structure is checked here.
    /// </summary>
    public static async Task<Document> RewriteAsync(
        Document document,
        ImmutableArray<Diagnostic> diagnostics,
        Rewrite rewrite,
        Func<SyntaxNode, Diagnostic, bool> obstructed,
        bool checkCompiler,
        CancellationToken cancellationToken)
    {
        var root = await document.GetSyntaxRootAsync(cancellationToken).ConfigureAwait(false);
        if (root is null)
        {
            return document;
        }

        var sites = diagnostics.Where(d => !obstructed(root, d)).ToImmutableArray();
        if (sites.IsEmpty)
        {
            return document;
        }

        var all = await FinishAsync(document, await rewrite(document, sites, cancellationToken).ConfigureAwait(false), cancellationToken).ConfigureAwait(false);
        if (await FileStructure.KeptAsync(document, all, checkCompiler, cancellationToken).ConfigureAwait(false))
        {
            return all;
        }

        // Some site broke the structure: take them one at a time and keep those that do not.
        var current = document;
        var edits = new List<IReadOnlyList<TextChange>>();
        foreach (var site in sites.GroupBy(d => d.Location.SourceSpan).OrderBy(g => g.Key.Start))
        {
            var tree = await current.GetSyntaxTreeAsync(cancellationToken).ConfigureAwait(false);
            if (tree is null || TextEdits.Map(site.Key, edits) is not { } span)
            {
                continue;
            }

            var relocated = site.Select(d => FixSites.Relocated(d, tree, span, edits)).ToImmutableArray();
            var one = await FinishAsync(current, await rewrite(current, relocated, cancellationToken).ConfigureAwait(false), cancellationToken).ConfigureAwait(false);
            if (one != current && await FileStructure.KeptAsync(current, one, checkCompiler, cancellationToken).ConfigureAwait(false))
            {
                edits.Add((await one.GetTextChangesAsync(current, cancellationToken).ConfigureAwait(false)).ToList());
                current = one;
            }
        }

        return current;
    }

    /// <summary>
    /// Imports, simplification and formatting of what the rewrite annotated, the lost comments put back, and the result
    /// as plain text: no annotation is left for a later clean-up to act on in one linked copy and not the others.
    /// </summary>
    private static async Task<Document> FinishAsync(Document original, Document rewritten, CancellationToken cancellationToken)
    {
        if (rewritten == original)
        {
            return original;
        }

        var document = rewritten;
        if (!await FileStructure.ImportsAreConditionalAsync(original, cancellationToken).ConfigureAwait(false))
        {
            // Where a file's usings sit in #if branches, another target may lack one: names stay fully qualified,
            // but for the keywords and the names of the namespace the code is in (NamesInScope).
            // Each pass binds the member it touches: a rewrite that annotated nothing for it skips it.
            // A name written in an #if branch the usings are not in keeps its namespace (FileStructure.AnyInABranchTheUsingsAreNot).
            if (await HasAnnotatedAsync(document, Simplifier.AddImportsAnnotation, cancellationToken).ConfigureAwait(false)
                && !await WritesInABranchTheUsingsAreNotAsync(document, cancellationToken).ConfigureAwait(false))
            {
                document = await ImportAdder.AddImportsAsync(document, Simplifier.AddImportsAnnotation, cancellationToken: cancellationToken).ConfigureAwait(false);
                document = await ImportPlacement.BeforeAliasesAsync(original, document, cancellationToken).ConfigureAwait(false);
            }

            if (await HasAnnotatedAsync(document, Simplifier.Annotation, cancellationToken).ConfigureAwait(false))
            {
                document = await Simplifier.ReduceAsync(document, Simplifier.Annotation, cancellationToken: cancellationToken).ConfigureAwait(false);
            }

            document = await UnmentionedAliases.ReplaceAsync(original, document, cancellationToken).ConfigureAwait(false);
        }
        else
        {
            document = await NamesInScope.ReduceAsync(document, cancellationToken).ConfigureAwait(false);
        }

        // What the rewrite built without trivia (elastic) is spaced as the IDE's own clean-up would space it, indented
        // as the file is (the one Style serves the formatter and the layout steps after it).
        var originalRoot = await original.GetSyntaxRootAsync(cancellationToken).ConfigureAwait(false);
        if (originalRoot is null)
        {
            return original;
        }

        var style = Style.Of(original.Project.AnalyzerOptions.AnalyzerConfigOptionsProvider.GetOptions(originalRoot.SyntaxTree), originalRoot, original.Project);
        var formatting = IndentedAsTheFile(await document.GetOptionsAsync(cancellationToken).ConfigureAwait(false), style);
        document = await Formatter.FormatAsync(document, Formatter.Annotation, formatting, cancellationToken).ConfigureAwait(false);
        document = await Formatter.FormatAsync(document, SyntaxAnnotation.ElasticAnnotation, formatting, cancellationToken).ConfigureAwait(false);
        document = await LostComments.RestoreAsync(original, document, cancellationToken).ConfigureAwait(false);
        document = await Layout.TidyAsync(original, document, style, cancellationToken).ConfigureAwait(false);
        document = await NewLines.AsTheFileHasAsync(original, document, cancellationToken).ConfigureAwait(false);
        var text = await document.GetTextAsync(cancellationToken).ConfigureAwait(false);
        return original.WithText(text);
    }

    /// <summary>
    /// The formatter's options, indenting as the file does where no .editorconfig says otherwise (<see cref="Style"/>:
    /// with tabs, or spaces by the file's own step). Null where they need no change.
    /// </summary>
    private static OptionSet? IndentedAsTheFile(OptionSet options, Style style)
    {
        if (style.Tabs == options.GetOption(FormattingOptions.UseTabs, LanguageNames.CSharp)
            && style.IndentSize == options.GetOption(FormattingOptions.IndentationSize, LanguageNames.CSharp)
            && (!style.Tabs || style.IndentSize == options.GetOption(FormattingOptions.TabSize, LanguageNames.CSharp)))
        {
            return null;
        }

        var changed = options.WithChangedOption(FormattingOptions.UseTabs, LanguageNames.CSharp, style.Tabs)
            .WithChangedOption(FormattingOptions.IndentationSize, LanguageNames.CSharp, style.IndentSize);
        return style.Tabs ? changed.WithChangedOption(FormattingOptions.TabSize, LanguageNames.CSharp, style.IndentSize) : changed;
    }

    /// <summary>
    /// Whether a name the rewrite wants imported lies in an <c>#if</c> branch the usings are not in, and its namespace
    /// might be missing from a target that skips the branch. <c>System</c> and <c>System.Threading</c> are in every
    /// target .NET has had, and a namespace the file imports already gains no using, so their names do not hold the
    /// import back: the names the other fixes write, before or after this one, then come out the same whichever runs
    /// first (a <c>CancellationToken.None</c> TPL0019 wrote in a branch stayed spelled out when TPL0007 ran first).
    /// </summary>
    private static async Task<bool> WritesInABranchTheUsingsAreNotAsync(Document document, CancellationToken cancellationToken)
    {
        if (await document.GetSyntaxRootAsync(cancellationToken).ConfigureAwait(false) is not CompilationUnitSyntax unit)
        {
            return false;
        }

        var names = unit.GetAnnotatedNodesAndTokens(Simplifier.AddImportsAnnotation).ToList();
        if (!FileStructure.AnyInABranchTheUsingsAreNot(unit, names.Select(n => n.SpanStart))
            || await document.GetSemanticModelAsync(cancellationToken).ConfigureAwait(false) is not { } model)
        {
            return false;
        }

        var imports = UnconditionalImports.Of(unit, model.Compilation);
        return FileStructure.AnyInABranchTheUsingsAreNot(unit, names
            .Where(n => !(n.AsNode() is { } node
                && model.GetSymbolInfo(node, cancellationToken).Symbol is INamedTypeSymbol { ContainingType: null } type
                && type.ContainingNamespace.ToDisplayString() is var space
                && (space is "System" or "System.Threading" || imports.Imports(space))))
            .Select(n => n.SpanStart));
    }

    private static async Task<bool> HasAnnotatedAsync(Document document, SyntaxAnnotation annotation, CancellationToken cancellationToken) =>
        (await document.GetSyntaxRootAsync(cancellationToken).ConfigureAwait(false))?.GetAnnotatedNodesAndTokens(annotation).Any() == true;
}
