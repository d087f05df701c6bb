using System.Collections.Generic;
using System.Linq;
using System.Threading;
using System.Threading.Tasks;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp;
using Microsoft.CodeAnalysis.CSharp.Syntax;
using Microsoft.CodeAnalysis.Text;

namespace TplPractices.Analyzers.CodeFixes.Internals;

/// <summary>
/// A line the rewrite made longer than <see cref="Style.MaxLineLength"/> (and than the lines it replaced) is wrapped
/// as a person would, the outermost construct written on that line first: an argument list of two or more, one
/// argument a line; a body's block, or the block of an <c>if</c> or a loop on its line, one statement a line (before
/// the lists in its condition); an initializer of two or more, one element a line; then an
/// expression body or a variable's (or a deconstruction's, declared or assigned) value on the next line; last a single argument. Lines the
/// author wrote long are theirs, moved or not.
/// </summary>
internal static class LongLines
{
    // Each step turns one single-line list or block into lines, so this only bounds pathological input.
    private const int MaxSteps = 32;

    public static async Task<Document> WrapAsync(Document original, Document document, Style style, CancellationToken cancellationToken)
    {
        var before = await original.GetTextAsync(cancellationToken).ConfigureAwait(false);
        document = await JoinAsync(original, document, style, cancellationToken).ConfigureAwait(false);
        for (var step = 0; step < MaxSteps; step++)
        {
            var text = await document.GetTextAsync(cancellationToken).ConfigureAwait(false);
            var root = await document.GetSyntaxRootAsync(cancellationToken).ConfigureAwait(false);
            if (root is null || Next(before, root, text, await Layout.TextChangesAsync(original, document, cancellationToken).ConfigureAwait(false), style) is not { } edit)
            {
                return document;
            }

            document = document.WithText(text.WithChanges(edit));
        }

        return document;
    }

    /// <summary>The first wrap of a too-long line the changes wrote, or null when none is long or none can be wrapped.</summary>
    private static TextChange[]? Next(SourceText before, SyntaxNode root, SourceText text, List<TextChange> changes, Style style)
    {
        var spans = TextEdits.NewSpans(changes);
        for (var i = 0; i < changes.Count; i++)
        {
            var replaced = before.Lines.GetLinePositionSpan(changes[i].Span);
            var longest = Enumerable.Range(replaced.Start.Line, replaced.End.Line - replaced.Start.Line + 1).Max(n => style.Width(before.Lines[n]));
            if (longest > style.MaxLineLength && Layout.IsIndentation(before, changes[i]))
            {
                // A line the author wrote too long, moved: still theirs.
                continue;
            }

            var written = text.Lines.GetLinePositionSpan(spans[i]);
            for (var n = written.Start.Line; n <= written.End.Line; n++)
            {
                var line = text.Lines[n];
                var width = style.Width(line);
                if (width > style.MaxLineLength && width > longest && Wrap(root, line, style, spans) is { } edit)
                {
                    return edit;
                }
            }
        }

        return null;
    }

    /// <summary>
    /// The inverse of wrapping a list: an argument list the rewrite shortened, laid out one single-line argument a line
    /// with nothing but white space between them, goes back onto one line where that line fits. Two fixes of one call
    /// then give one text in either order: one that lengthens the list past the limit (wrapped) and one that shortens
    /// it again (joined) end where the other order, never too long, ends.
    /// </summary>
    private static async Task<Document> JoinAsync(Document original, Document document, Style style, CancellationToken cancellationToken)
    {
        var changes = await Layout.TextChangesAsync(original, document, cancellationToken).ConfigureAwait(false);
        var spans = TextEdits.NewSpans(changes);
        var text = await document.GetTextAsync(cancellationToken).ConfigureAwait(false);
        if (spans.Count == 0 || await document.GetSyntaxRootAsync(cancellationToken).ConfigureAwait(false) is not { } root)
        {
            return document;
        }

        var joins = root.DescendantNodes(n => spans.Any(span => n.FullSpan.IntersectsWith(span)))
            .OfType<ArgumentListSyntax>()
            .Where(list => spans.Any(span => list.Span.IntersectsWith(span)) && IsOneArgumentALine(list, text) && Shortened(list, changes, spans))
            .Select(list => Joined(list, text, style))
            .OfType<TextChange>()
            .ToList();

        // Nested lists overlap: the outermost is joined, the others stay as they are.
        var outermost = joins.Where(j => !joins.Any(o => o.Span != j.Span && o.Span.Contains(j.Span))).ToList();
        return outermost.Count == 0 ? document : document.WithText(text.WithChanges(outermost));
    }

    private static bool IsOneArgumentALine(ArgumentListSyntax list, SourceText text) =>
        list.Arguments.Count > 1
        && list.Arguments.All(a => Layout.BeginsLine(text, a) && text.Lines.GetLineFromPosition(a.SpanStart).LineNumber == text.Lines.GetLineFromPosition(a.Span.End).LineNumber)
        && list.DescendantTrivia().All(t => t.IsKind(SyntaxKind.WhitespaceTrivia) || t.IsKind(SyntaxKind.EndOfLineTrivia));

    /// <summary>
    /// The rewrite made the list shorter, the change a join undoes a wrap for. One it made longer (a token added to a
    /// delay in <c>Task.WhenAny(</c> written a task a line) keeps the author's lines.
    /// </summary>
    private static bool Shortened(ArgumentListSyntax list, List<TextChange> changes, IReadOnlyList<TextSpan> spans) =>
        Enumerable.Range(0, changes.Count).Where(i => spans[i].IntersectsWith(list.Span)).Sum(i => (changes[i].NewText?.Length ?? 0) - changes[i].Span.Length) < 0;

    /// <summary>The list on one line, where the line it starts on then fits.</summary>
    private static TextChange? Joined(ArgumentListSyntax list, SourceText text, Style style)
    {
        var joined = "(" + string.Join(", ", list.Arguments.Select(a => a.ToString())) + ")";
        var first = text.Lines.GetLineFromPosition(list.SpanStart);
        var last = text.Lines.GetLineFromPosition(list.Span.End);
        var line = text.ToString(TextSpan.FromBounds(first.Start, list.SpanStart)) + joined + text.ToString(TextSpan.FromBounds(list.Span.End, last.End));
        return style.Width(SourceText.From(line).Lines[0]) <= style.MaxLineLength ? new TextChange(list.Span, joined) : null;
    }

    private static TextChange[]? Wrap(SyntaxNode root, TextLine line, Style style, IReadOnlyList<TextSpan> written)
    {
        // Any construct on the line may be wrapped: the rewrite made the whole line long, wherever on it it wrote. One
        // it wrote in goes first: `x.Load(id).ContinueWith(…)` is wrapped at the continuation's list that a fix gave
        // arguments, not at the receiver's call before it (azure-amqp's SASL handler).
        var onLine = root.DescendantNodes(line.Span).Where(n => (line.Span.Contains(n.Span) || ArgumentsOnTheLine(n, line)) && !InInterpolation(n)).ToList();
        var nodes = onLine.Where(n => written.Any(w => w.IntersectsWith(n.Span))).Concat(onLine).ToList();
        var indentation = style.Indentation(line.ToString());
        var inner = style.Whitespace(indentation + style.IndentSize);

        // A list begun on an earlier line whose arguments this line continues (one argument wrapped before, more added
        // since): the arguments on this line go one a line, as its first already does. Not a list whose argument before
        // them ends on this line (`}, token).ContinueWith(…)`, after a lambda's block): that line is the block's end, and
        // what made it long was written after it.
        if (root.DescendantNodes(line.Span).OfType<BaseArgumentListSyntax>().FirstOrDefault(l =>
                l.Arguments.Count > 1 && l.SpanStart < line.Start && ContinuesOnTheLine(l, line)) is { } continued)
        {
            var sameLevel = style.NewLine + style.Whitespace(indentation);
            return continued.Arguments.Where(a => line.Span.Contains(a.SpanStart) && !Layout.BeginsLine(line.Text!, a)).Select(a => Layout.BreakBefore(a, sameLevel)).ToArray();
        }
        // The outermost first: a list before the lambdas in it, a block before the calls in it.
        // A statement's block comes before the lists in the statement's own condition: the statement precedes them.
        switch (nodes.FirstOrDefault(n => n is BaseArgumentListSyntax { Arguments.Count: > 1 } or InitializerExpressionSyntax { Expressions.Count: > 1 }
            || (n is BlockSyntax block && BodyBlocks.IsBody(block) && BodyBlocks.CanExpand(block))
            || (BlockOf(n) is { } owned && BodyBlocks.CanExpand(owned))))
        {
            case StatementSyntax statement when BlockOf(statement) is { } owned:
                return [BodyBlocks.Expand(owned, style)];
            case BaseArgumentListSyntax list:
                return list.Arguments.Select(a => Layout.BreakBefore(a, style.NewLine + inner)).ToArray();
            case BlockSyntax block:
                return [BodyBlocks.Expand(block, style)];
            case InitializerExpressionSyntax initializer:
                var outer = style.NewLine + style.Whitespace(indentation);
                return initializer.Expressions.Select(e => Layout.BreakBefore(e, style.NewLine + inner))
                    .Append(Layout.Between(initializer.OpenBraceToken.GetPreviousToken(), initializer.OpenBraceToken, outer, commentsFirst: true))
                    .Append(Layout.Between(initializer.CloseBraceToken.GetPreviousToken(), initializer.CloseBraceToken, outer, commentsFirst: true))
                    .ToArray();
        }

        // Then a member's expression body, or a variable's or field's value, goes to the next line.
        if (root.DescendantNodes(line.Span).OfType<ArrowExpressionClauseSyntax>().FirstOrDefault(a => line.Span.Contains(a.ArrowToken.Span) && line.Span.Contains(a.Expression.SpanStart)) is { } arrow
            && arrow.Parent is MemberDeclarationSyntax or LocalFunctionStatementSyntax or AccessorDeclarationSyntax)
        {
            return [Layout.Between(arrow.ArrowToken, arrow.Expression.GetFirstToken(), style.NewLine + inner, commentsFirst: true)];
        }

        if (nodes.OfType<EqualsValueClauseSyntax>().FirstOrDefault(e => e.Parent is VariableDeclaratorSyntax && !Layout.BeginsLine(line.Text!, e.Value)) is { } initial)
        {
            return [Layout.Between(initial.EqualsToken, initial.Value.GetFirstToken(), style.NewLine + inner, commentsFirst: true)];
        }

        // A deconstruction's value (`var (name, self) = ((string, C))state!;`, as the state fixes write it, or a swap whose
        // names a state fix read through `self`) likewise.
        if (nodes.OfType<AssignmentExpressionSyntax>().FirstOrDefault(a =>
                a.Left is DeclarationExpressionSyntax or TupleExpressionSyntax && a.Parent is ExpressionStatementSyntax && !Layout.BeginsLine(line.Text!, a.Right)) is { } deconstruction)
        {
            return [Layout.Between(deconstruction.OperatorToken, deconstruction.Right.GetFirstToken(), style.NewLine + inner, commentsFirst: true)];
        }

        // Last, a single argument.
        if (nodes.OfType<BaseArgumentListSyntax>().FirstOrDefault(l => l.Arguments.Count == 1) is { } one)
        {
            return [Layout.BreakBefore(one.Arguments[0], style.NewLine + inner)];
        }

        return null;
    }

    /// <summary>
    /// A list that opens on the line with every argument on it, its <c>)</c> on a later line (after a line comment:
    /// <c>Delay(400, token // the time-out</c>): it can be wrapped on this line like one that closes there.
    /// </summary>
    private static bool ArgumentsOnTheLine(SyntaxNode node, TextLine line) =>
        node is BaseArgumentListSyntax { Arguments.Count: > 0 } list
        && line.Span.Contains(list.SpanStart)
        && list.Arguments.All(a => line.Span.Contains(a.Span));

    /// <summary>
    /// Whether arguments of <paramref name="list"/> share <paramref name="line"/> without beginning it, after an argument
    /// that ended on an earlier line.
    /// </summary>
    private static bool ContinuesOnTheLine(BaseArgumentListSyntax list, TextLine line)
    {
        for (var i = 1; i < list.Arguments.Count; i++)
        {
            if (line.Span.Contains(list.Arguments[i].SpanStart) && !Layout.BeginsLine(line.Text!, list.Arguments[i]))
            {
                return list.Arguments[i - 1].Span.End < line.Start;
            }
        }

        return false;
    }

    /// <summary>
    /// The block of an <c>if</c> without <c>else</c>, a loop, <c>using</c>, <c>lock</c> or <c>fixed</c>, written on the
    /// statement's line (<c>if (x) { Log(…); }</c>): its lines are the wrap a person would choose, where breaking the
    /// condition's call leaves a line that ends in a block. An <c>if</c> with an <c>else</c> keeps its line, or the two
    /// branches would be laid out differently.
    /// </summary>
    private static BlockSyntax? BlockOf(SyntaxNode node) => node switch
    {
        IfStatementSyntax { Else: null, Statement: BlockSyntax block } => block,
        WhileStatementSyntax { Statement: BlockSyntax block } => block,
        ForStatementSyntax { Statement: BlockSyntax block } => block,
        CommonForEachStatementSyntax { Statement: BlockSyntax block } => block,
        UsingStatementSyntax { Statement: BlockSyntax block } => block,
        LockStatementSyntax { Statement: BlockSyntax block } => block,
        FixedStatementSyntax { Statement: BlockSyntax block } => block,
        _ => null,
    };

    // A line break in an interpolation's hole needs C# 11; a rewrite has no need to risk it.
    private static bool InInterpolation(SyntaxNode node) => node.Ancestors().Any(a => a.IsKind(SyntaxKind.Interpolation));
}
