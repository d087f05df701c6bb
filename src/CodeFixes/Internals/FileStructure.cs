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
/// What a fix must leave as it was: the file's preprocessor lines, the code in each of their branches, its attributes
/// (a rewrite that removes a lambda would drop the lambda's), the caller information its calls receive
/// (<see cref="CallerInfo"/>), and what the compiler says of it in every target. A branch another target compiles is text to this one; a fix that moves or
/// drops it changes that target.
/// </summary>
internal static class FileStructure
{
    /// <summary>
    /// Whether a preprocessor directive lies inside the node (not in the trivia before it). With
    /// <paramref name="linesStay"/> (a rewrite that leaves every statement where it was) a <c>#pragma</c>,
    /// <c>#region</c>, <c>#endregion</c> or <c>#nullable</c> line between statements, or before a <c>catch</c>,
    /// <c>finally</c> or <c>else</c> (a silenced catch-all), does not count: the same code stays on each side of it. An
    /// <c>#if</c> always counts, and so does a line inside an expression.
    /// </summary>
    public static bool HoldsDirective(SyntaxNode? node, bool linesStay = false) =>
        node is not null
        && node.HasDirectiveInside()
        && (!linesStay || node.DescendantTrivia().Any(t => t.IsDirective && node.Span.Contains(t.Span) && !IsLineBetweenStatements(t)));

    private static bool IsLineBetweenStatements(SyntaxTrivia trivia)
    {
        if (!trivia.IsKind(SyntaxKind.PragmaWarningDirectiveTrivia) && !trivia.IsKind(SyntaxKind.RegionDirectiveTrivia)
            && !trivia.IsKind(SyntaxKind.EndRegionDirectiveTrivia) && !trivia.IsKind(SyntaxKind.NullableDirectiveTrivia))
        {
            return false;
        }

        // Before a statement of a block or switch section, a catch, finally or else clause, a switch label, or a
        // block's brace (`catch (Exception e)` / `#pragma warning restore` / `{`): the places a rewrite that moves no
        // statement leaves as they were. Not before a lambda's opening brace: the state rules rebuild the lambda's
        // head, and the line would end up inside it.
        var token = trivia.Token;
        return (token.Parent is BlockSyntax block
                && (token.IsKind(SyntaxKind.CloseBraceToken) || (token.IsKind(SyntaxKind.OpenBraceToken) && block.Parent is not AnonymousFunctionExpressionSyntax)))
            || (token.Parent is CatchClauseSyntax or FinallyClauseSyntax or ElseClauseSyntax or SwitchLabelSyntax && token.Parent.GetFirstToken() == token)
            || (token.Parent?.FirstAncestorOrSelf<StatementSyntax>() is { Parent: BlockSyntax or SwitchSectionSyntax } statement
                && statement.GetFirstToken() == token);
    }

    /// <summary>
    /// Whether the file's usings (or its first namespace's) sit in an <c>#if</c> branch that the code after them does
    /// not share. <c>#pragma</c>, <c>#region</c> and <c>#nullable</c> lines do not make them conditional, and neither does
    /// a whole-file <c>#if</c> (opened before the first using, closed after the last member): every target that
    /// compiles the code compiles those usings too, so names can be written as the file's usings allow.
    /// </summary>
    public static async Task<bool> ImportsAreConditionalAsync(Document document, CancellationToken cancellationToken)
    {
        if (await document.GetSyntaxRootAsync(cancellationToken).ConfigureAwait(false) is not CompilationUnitSyntax unit)
        {
            return false;
        }

        var usings = unit.Usings.Concat(unit.Members.OfType<BaseNamespaceDeclarationSyntax>().SelectMany(n => n.Usings)).ToList();
        var around = usings.SelectMany(u => u.GetLeadingTrivia().Concat(u.GetTrailingTrivia()))
            .Concat(unit.Members.FirstOrDefault()?.GetLeadingTrivia() ?? default)
            .Where(IsConditional)
            .Distinct()
            .ToList();
        return around.Count > 0 && !OpensAWholeFileCondition(unit, around);
    }

    /// <summary>
    /// Whether any of the positions lies in an <c>#if</c> branch that the file's usings are not in. A namespace imported
    /// for code there is imported in every target, also one that skips the branch and may lack the namespace: NLog
    /// spells out <c>System.Threading.Tasks</c> in its code under <c>#if !NET35</c>, since its net35 copy has no such namespace.
    /// </summary>
    public static bool AnyInABranchTheUsingsAreNot(CompilationUnitSyntax unit, IEnumerable<int> positions)
    {
        var firstUsing = unit.Usings.Concat(unit.Members.OfType<BaseNamespaceDeclarationSyntax>().SelectMany(n => n.Usings)).FirstOrDefault();
        var depths = IfDepths(unit);
        var usingsDepth = IfDepthAt(depths, firstUsing?.SpanStart ?? 0);
        return positions.Any(position => IfDepthAt(depths, position) > usingsDepth);
    }

    /// <summary>Each #if and #endif of the file, in order, as +1 and -1 at its position.</summary>
    public static List<(int Position, int Step)> IfDepths(CompilationUnitSyntax unit) =>
        Directives(unit)
            .Where(d => d.IsKind(SyntaxKind.IfDirectiveTrivia) || d.IsKind(SyntaxKind.EndIfDirectiveTrivia))
            .Select(d => (d.SpanStart, d.IsKind(SyntaxKind.IfDirectiveTrivia) ? 1 : -1))
            .ToList();

    /// <summary>How many <c>#if</c> branches hold the position, read from <see cref="IfDepths"/>.</summary>
    public static int IfDepthAt(List<(int Position, int Step)> depths, int position) =>
        depths.TakeWhile(d => d.Position < position).Sum(d => d.Step);

    private static bool IsConditional(SyntaxTrivia trivia) =>
        trivia.IsKind(SyntaxKind.IfDirectiveTrivia) || trivia.IsKind(SyntaxKind.ElifDirectiveTrivia)
        || trivia.IsKind(SyntaxKind.ElseDirectiveTrivia) || trivia.IsKind(SyntaxKind.EndIfDirectiveTrivia);

    /// <summary>The one conditional line near the usings is the file's first, an <c>#if</c>, and the file's last is its <c>#endif</c>.</summary>
    private static bool OpensAWholeFileCondition(CompilationUnitSyntax unit, List<SyntaxTrivia> around)
    {
        var all = unit.DescendantTrivia(descendIntoTrivia: false).Where(IsConditional).ToList();
        if (around.Count != 1 || !around[0].IsKind(SyntaxKind.IfDirectiveTrivia) || all[0] != around[0]
            || all[all.Count - 1].SpanStart < (unit.Members.LastOrDefault()?.Span.End ?? 0))
        {
            return false;
        }

        // The first #if must close at the last line, not before: no #else of it, no second top-level #if.
        var depth = 0;
        for (var i = 0; i < all.Count; i++)
        {
            depth += all[i].IsKind(SyntaxKind.IfDirectiveTrivia) ? 1 : all[i].IsKind(SyntaxKind.EndIfDirectiveTrivia) ? -1 : 0;
            if ((depth == 0 && i < all.Count - 1) || (depth == 1 && i > 0 && !all[i].IsKind(SyntaxKind.EndIfDirectiveTrivia) && !all[i].IsKind(SyntaxKind.IfDirectiveTrivia)))
            {
                return false;
            }
        }

        return depth == 0;
    }

    /// <summary>
    /// True when <paramref name="after"/> has the same preprocessor lines as <paramref name="before"/>, no branch of
    /// theirs that held code is left empty, the calls in the changed code receive the same caller information, and no copy of the file (every target's, with its own language version and
    /// nullable setting) gains a compiler error or warning: a warning is an error under TreatWarningsAsErrors.
    /// That last check is left to the caller when <paramref name="checkCompiler"/> is false.
    /// </summary>
    public static async Task<bool> KeptAsync(Document before, Document after, bool checkCompiler, CancellationToken cancellationToken)
    {
        if (after == before)
        {
            return true;
        }

        var oldTree = await before.GetSyntaxTreeAsync(cancellationToken).ConfigureAwait(false);
        var newTree = await after.GetSyntaxTreeAsync(cancellationToken).ConfigureAwait(false);
        if (oldTree is null || newTree is null)
        {
            return false;
        }

        var oldRoot = await oldTree.GetRootAsync(cancellationToken).ConfigureAwait(false);
        var newRoot = await newTree.GetRootAsync(cancellationToken).ConfigureAwait(false);
        var oldDirectives = Directives(oldRoot);
        var newDirectives = Directives(newRoot);
        return oldDirectives.Select(d => d.ToString().Trim()).SequenceEqual(newDirectives.Select(d => d.ToString().Trim()))
            && !Branches(oldRoot, oldDirectives).Zip(Branches(newRoot, newDirectives), (was, @is) => was && !@is).Any(emptied => emptied)
            && AttributesKept(oldRoot, newRoot)
            && await CallerInfo.KeptAsync(before, after, cancellationToken).ConfigureAwait(false)
            && (!checkCompiler || await NoNewCompilerDiagnosticsAsync(before, await after.GetTextAsync(cancellationToken).ConfigureAwait(false), cancellationToken).ConfigureAwait(false));
    }

    /// <summary>Whether every attribute list of the old code is still there, as often as it was.</summary>
    private static bool AttributesKept(SyntaxNode oldRoot, SyntaxNode newRoot)
    {
        var left = newRoot.DescendantNodes().OfType<AttributeListSyntax>().GroupBy(a => a.ToString()).ToDictionary(g => g.Key, g => g.Count());
        return oldRoot.DescendantNodes().OfType<AttributeListSyntax>().GroupBy(a => a.ToString()).All(g => left.TryGetValue(g.Key, out var n) && n >= g.Count());
    }

    private static async Task<bool> NoNewCompilerDiagnosticsAsync(Document before, SourceText after, CancellationToken cancellationToken)
    {
        foreach (var copy in LinkedCopies.AllCopies(before))
        {
            if (!await NoNewCompilerDiagnosticsAsync(copy, copy.WithText(after), cancellationToken).ConfigureAwait(false))
            {
                return false;
            }
        }

        return true;
    }

    /// <summary>Whether the compiler reports no error or warning in <paramref name="after"/> that it did not in <paramref name="before"/> (one document in two solutions).</summary>
    public static async Task<bool> NoNewCompilerDiagnosticsAsync(Document before, Document after, CancellationToken cancellationToken)
    {
        var was = await CountsAsync(before, cancellationToken).ConfigureAwait(false);
        var @is = await CountsAsync(after, cancellationToken).ConfigureAwait(false);
        return !@is.Any(count => count.Value > (was.TryGetValue(count.Key, out var old) ? old : 0));
    }

    /// <summary>The compiler's errors and warnings in the document, by ID.</summary>
    private static async Task<Dictionary<string, int>> CountsAsync(Document document, CancellationToken cancellationToken) =>
        (await document.GetSemanticModelAsync(cancellationToken).ConfigureAwait(false))?.GetDiagnostics(cancellationToken: cancellationToken)
            .Where(d => d.Severity >= DiagnosticSeverity.Warning && !d.IsSuppressed)
            .GroupBy(d => d.Id)
            .ToDictionary(g => g.Key, g => g.Count())
        ?? new Dictionary<string, int>();

    /// <summary>The file's preprocessor lines, in order, those of skipped branches included.</summary>
    public static List<SyntaxTrivia> Directives(SyntaxNode root) => root.DescendantTrivia().Where(t => t.IsDirective).ToList();

    /// <summary>For each stretch between two directives, whether it holds anything but white space.</summary>
    private static IEnumerable<bool> Branches(SyntaxNode root, List<SyntaxTrivia> directives)
    {
        var text = root.SyntaxTree.GetText();
        for (var i = 0; i + 1 < directives.Count; i++)
        {
            var between = text.ToString(Microsoft.CodeAnalysis.Text.TextSpan.FromBounds(directives[i].FullSpan.End, directives[i + 1].FullSpan.Start));
            yield return !string.IsNullOrWhiteSpace(between);
        }
    }

}
