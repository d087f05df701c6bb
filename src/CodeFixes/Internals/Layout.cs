using System;
using System.Collections.Generic;
using System.Linq;
using System.Text;
using System.Threading;
using System.Threading.Tasks;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp;
using Microsoft.CodeAnalysis.CSharp.Syntax;
using Microsoft.CodeAnalysis.Text;

namespace TplPractices.Analyzers.CodeFixes.Internals;

/// <summary>
/// The lines a rewrite wrote, laid out as the file's author would have written them. The formatter only spaces what
/// the rewrite built; it leaves alone code the rewrite moved and arguments it added to a list. So, in the changed
/// code only: code moved as a whole keeps its continuation lines where they were relative to it; an argument added to
/// a list written one argument a line gets a line of its own (a line comment after the list's ')' staying beside the
/// argument it followed, <see cref="ArgumentComments"/>); a lambda block it made gets one statement a line
/// (<see cref="BodyBlocks"/>), and one the author indented from its line stays that deep (<see cref="LambdaBraces"/>);
/// and a line the rewrite made longer than the file allows is wrapped (<see cref="LongLines"/>).
/// Only white space between tokens changes (and a comment moves to the line it was on), never inside a string or an
/// inactive #if branch.
/// </summary>
internal static class Layout
{
    /// <summary>Levels of nested argument lists spread in one rewrite; a round that finds nothing to spread costs one walk.</summary>
    private const int MaxSpreadRounds = 3;

    /// <summary>The rewritten document laid out in the original file's style (<see cref="Style.Of"/>, taken once by the caller).</summary>
    public static async Task<Document> TidyAsync(Document original, Document document, Style style, CancellationToken cancellationToken)
    {
        var oldRoot = await original.GetSyntaxRootAsync(cancellationToken).ConfigureAwait(false);
        var tree = await document.GetSyntaxTreeAsync(cancellationToken).ConfigureAwait(false);
        if (oldRoot is null || tree is null)
        {
            return document;
        }

        var result = document;
        // The first diff serves the first step too, where the author's spacing needed nothing put back.
        List<TextChange>? known = await TextChangesAsync(original, document, cancellationToken).ConfigureAwait(false);
        // The author's spacing put back, and the spaces the author left at a line's end taken off the lines the rewrite
        // wrote (they are there from the start: `}, ` passes its space on to the argument written after it).
        var newRoot = await tree.GetRootAsync(cancellationToken).ConfigureAwait(false);
        var spacing = AuthorSpacing.Restored(oldRoot, newRoot, known)
            .Concat(AuthorSpacing.TrimmedOnWrittenLines(oldRoot.SyntaxTree.GetText(cancellationToken), newRoot, known))
            .OrderBy(c => c.Span.Start)
            .ToList();
        if (spacing.Count > 0)
        {
            result = result.WithText((await result.GetTextAsync(cancellationToken).ConfigureAwait(false)).WithChanges(spacing));
            known = null;
        }

        // Spreading a list leaves the lists inside it to the next round (their lines move with it): one round per level
        // of nesting, so a call in a lambda gets the layout it would get had its own rewrite come last.
        // A body laid out by the first Mixed round leaves a lambda block inside it as it was; the second lays that out.
        var spreadRounds = Enumerable.Repeat<Func<SyntaxNode, SyntaxNode, IReadOnlyList<TextSpan>, Style, IEnumerable<TextChange>>>(SpreadArguments, MaxSpreadRounds);
        var steps = spreadRounds.Prepend(MovedLines.Of).Concat(new Func<SyntaxNode, SyntaxNode, IReadOnlyList<TextSpan>, Style, IEnumerable<TextChange>>[] { BodyBlocks.Mixed, BodyBlocks.Mixed, LambdaBraces.Of, AddedArguments, ArgumentComments.Of });
        var moved = true;
        foreach (var step in steps)
        {
            // Moving code re-indents it; the steps after the move lay out only what a rewrite wrote, so an author's own
            // layout inside moved code (a list begun on one line and continued on the next) stays theirs.
            var changes = await Changes(original, result, written: !moved, known, cancellationToken).ConfigureAwait(false);
            moved = false;
            known = null;
            var root = await result.GetSyntaxRootAsync(cancellationToken).ConfigureAwait(false);
            if (changes.Count == 0 || root is null)
            {
                break;
            }

            var edits = step(oldRoot, root, changes, style).ToList();
            if (edits.Count > 0)
            {
                result = result.WithText((await result.GetTextAsync(cancellationToken).ConfigureAwait(false)).WithChanges(edits));
            }
        }

        result = await LongLines.WrapAsync(original, result, style, cancellationToken).ConfigureAwait(false);
        result = await MemberSpacing.SeparateAsync(original, result, cancellationToken).ConfigureAwait(false);
        var finalRoot = await result.GetSyntaxRootAsync(cancellationToken).ConfigureAwait(false);
        var flush = finalRoot is null ? [] : MovedLines.FlushDirectivesIndented(oldRoot, finalRoot).ToList();
        return flush.Count == 0 ? result : result.WithText((await result.GetTextAsync(cancellationToken).ConfigureAwait(false)).WithChanges(flush));
    }

    /// <summary>
    /// Where the rewrite's changes lie in the rewritten text; with <paramref name="written"/>, leaving out those that
    /// only re-indent a line. <paramref name="known"/>: the changes, where they were found already.
    /// </summary>
    private static async Task<IReadOnlyList<TextSpan>> Changes(Document original, Document rewritten, bool written, List<TextChange>? known, CancellationToken cancellationToken)
    {
        var changes = known ?? await TextChangesAsync(original, rewritten, cancellationToken).ConfigureAwait(false);
        var spans = TextEdits.NewSpans(changes);
        if (!written)
        {
            return spans;
        }

        var before = await original.GetTextAsync(cancellationToken).ConfigureAwait(false);
        return spans.Where((_, i) => !IsIndentation(before, changes[i])).ToList();
    }

    /// <summary>
    /// White space for white space before a line's first token, line breaks kept: the line moved, nothing on it was
    /// written. (A difference of words takes a line break and the indentation after it as one piece.)
    /// </summary>
    public static bool IsIndentation(SourceText before, TextChange change)
    {
        var old = before.ToString(change.Span);
        var now = change.NewText ?? string.Empty;
        var breaks = old.Count(c => c == '\n');
        var lineStart = before.Lines.GetLineFromPosition(change.Span.Start).Start;
        return string.IsNullOrWhiteSpace(old) && string.IsNullOrWhiteSpace(now) && breaks == now.Count(c => c == '\n')
            && (breaks > 0 || string.IsNullOrWhiteSpace(before.ToString(TextSpan.FromBounds(lineStart, change.Span.Start))));
    }

    /// <summary>The rewrite's changes, in the original text's coordinates, in order.</summary>
    public static Task<List<TextChange>> TextChangesAsync(Document original, Document rewritten, CancellationToken cancellationToken) =>
        TextEdits.BetweenAsync(original, rewritten, cancellationToken);

    /// <summary>
    /// An argument list the rewrite wrote that runs over several lines is laid out one argument a line, the first after
    /// the parenthesis, in a project that runs StyleCop's SA1116 and SA1117 (<see cref="Style.ArgumentsOneALine"/>).
    /// Elsewhere only a list where several arguments would follow a block on its closing line (<c>}, state, options)</c>),
    /// whichever fix wrote the block and whichever the arguments. Done before blocks are split, which then indent from it.
    /// </summary>
    private static IEnumerable<TextChange> SpreadArguments(SyntaxNode oldRoot, SyntaxNode newRoot, IReadOnlyList<TextSpan> changes, Style style)
    {
        var text = newRoot.SyntaxTree.GetText();
        var spread = new List<TextSpan>();
        // What follows a spread list on its last line, the rest of a chain (`).Unwrap().ContinueWith(…)` and the lines of
        // that list), moves with the line; a list in it is laid out from its new line by the next round, as it would
        // have been had the rewrites come the other way round.
        var chainRests = new List<TextSpan>();
        foreach (var list in newRoot.DescendantNodes(n => changes.Any(c => c.IntersectsWith(n.FullSpan))).OfType<BaseArgumentListSyntax>())
        {
            // A list inside one spread here is laid out from its new lines by the steps after this one.
            if (list.Arguments.Count > 1
                && !spread.Any(s => s.Contains(list.Span))
                && !chainRests.Any(r => r.Contains(list.SpanStart))
                && changes.Any(c => c.IntersectsWith(list.Span))
                && !WrittenShapes.IsOneALine(text, list)
                && (style.ArgumentsOneALine ? Spans(text, list) > 1 || WillSplitABlock(text, list, style) : LeavesSeveralAfterABlock(text, list, style)))
            {
                spread.Add(list.Span);
                var column = style.Indentation(text.Lines.GetLineFromPosition(list.SpanStart).ToString()) + style.IndentSize;
                foreach (var argument in list.Arguments.Where(a => !BeginsLine(text, a)))
                {
                    // An argument over several lines (a lambda's block) takes its lines along.
                    yield return BreakBefore(argument, style.NewLine + style.Whitespace(column));
                    foreach (var edit in MovedLines.ShiftLines(newRoot, text, argument, MovedLines.Shift(text, argument, column, column, style), style))
                    {
                        yield return edit;
                    }
                }

                // The last argument moved: the lines after it that continue its chain move as its own lines did. A
                // closing parenthesis the author put on a line of its own begins their lines, which stay; so does a
                // chain the author went on with on a line of its own (`}, options)` / `.ContinueWith(…)`).
                var last = list.Arguments.Last();
                var closing = list.GetLastToken();
                if (!BeginsLine(text, last) && !BeginsLine(text, closing.SpanStart) && !BeginsLine(text, closing.GetNextToken().SpanStart)
                    && ChainTop(list.Parent) is { } top && top.Span.End > list.Span.End)
                {
                    chainRests.Add(TextSpan.FromBounds(list.Span.End, top.Span.End));
                    var from = text.Lines.GetLineFromPosition(last.Span.End).LineNumber;
                    var shift = MovedLines.Shift(text, last, column, column, style);
                    foreach (var edit in MovedLines.ShiftLines(newRoot, text, from, text.Lines.GetLineFromPosition(top.Span.End).LineNumber, shift, style))
                    {
                        yield return edit;
                    }
                }
            }
        }
    }

    /// <summary>The outermost expression of the chain a call begins (<c>StartNew(…).Unwrap().ContinueWith(…)</c>).</summary>
    private static SyntaxNode? ChainTop(SyntaxNode? call)
    {
        var top = call;
        while (top?.Parent is { } parent
            && (parent is MemberAccessExpressionSyntax member && member.Expression == top
                || parent is InvocationExpressionSyntax invocation && invocation.Expression == top
                || parent is ConditionalAccessExpressionSyntax conditional && conditional.Expression == top
                || parent is ElementAccessExpressionSyntax element && element.Expression == top
                || parent.IsKind(SyntaxKind.SuppressNullableWarningExpression)))
        {
            top = parent;
        }

        return top;
    }

    private static bool WillSplitABlock(SourceText text, BaseArgumentListSyntax list, Style style) =>
        list.Arguments.Any(a => IsSplitBlock(text, a, style));

    /// <summary>
    /// Two or more arguments follow one over several lines (a lambda's block, or one about to be split) and do not
    /// begin lines of their own: they would share the block's closing line, <c>}, state, options)</c>.
    /// </summary>
    private static bool LeavesSeveralAfterABlock(SourceText text, BaseArgumentListSyntax list, Style style)
    {
        for (var i = 0; i < list.Arguments.Count - 2; i++)
        {
            if ((IsSplitBlock(text, list.Arguments[i], style) || Spans(text, list.Arguments[i]) > 1)
                && !BeginsLine(text, list.Arguments[i + 1]) && !BeginsLine(text, list.Arguments[i + 2]))
            {
                return true;
            }
        }

        return false;
    }

    private static bool IsSplitBlock(SourceText text, ArgumentSyntax argument, Style style) =>
        argument.Expression is AnonymousFunctionExpressionSyntax { Block: { } block } && BodyBlocks.WillSplit(text, block, style);

    /// <summary>
    /// An argument the rewrite added (or moved) into a list whose other arguments after the first each begin a line:
    /// it begins a line too, indented as they are.
    /// </summary>
    private static IEnumerable<TextChange> AddedArguments(SyntaxNode oldRoot, SyntaxNode newRoot, IReadOnlyList<TextSpan> changes, Style style)
    {
        var text = newRoot.SyntaxTree.GetText();
        foreach (var list in newRoot.DescendantNodes(n => changes.Any(c => c.IntersectsWith(n.FullSpan))).OfType<BaseArgumentListSyntax>())
        {
            var rest = list.Arguments.Skip(1).ToList();
            var own = rest.Where(a => BeginsLine(text, a)).ToList();
            if (own.Count == 0 || own.Count == rest.Count)
            {
                continue;
            }

            // The author's own mix of shared and own lines is theirs: only arguments on lines the rewrite wrote in the
            // list move (a text difference cannot tell which of two equal arguments is the new one, but it knows the
            // line; a receiver rewritten before the list, `self.` added, writes no argument), and only where one of
            // them is new throughout: `self.` written into the arguments of a list that shares lines adds none.
            var arguments = TextSpan.FromBounds(list.SpanStart + 1, list.Span.End - 1);
            bool Written(ArgumentSyntax a) =>
                changes.Any(c => c.IntersectsWith(text.Lines.GetLineFromPosition(a.SpanStart).Span) && c.IntersectsWith(arguments));
            var shared = rest.Where(a => !BeginsLine(text, a)).ToList();
            if (!shared.All(Written) || !shared.Any(a => IsNewThroughout(text, a, changes)))
            {
                continue;
            }

            var indentation = style.Indentation(text.Lines.GetLineFromPosition(own[0].SpanStart).ToString());
            foreach (var argument in rest.Where(a => !BeginsLine(text, a)))
            {
                yield return BreakBefore(argument, style.NewLine + style.Whitespace(indentation));

                // An argument over several lines (`OnlyOnFaulted |` then `ExecuteSynchronously`) takes them along.
                foreach (var edit in MovedLines.ShiftLines(newRoot, text, argument, MovedLines.Shift(text, argument, indentation, indentation, style), style))
                {
                    yield return edit;
                }
            }
        }
    }

    /// <summary>Every character of the node but white space lies in a change: the rewrite wrote all of it.</summary>
    private static bool IsNewThroughout(SourceText text, SyntaxNode node, IReadOnlyList<TextSpan> changes)
    {
        var within = changes.Where(c => c.IntersectsWith(node.Span)).ToList();
        for (var i = node.SpanStart; i < node.Span.End; i++)
        {
            if (!char.IsWhiteSpace(text[i]) && !within.Any(c => c.Contains(i)))
            {
                return false;
            }
        }

        return true;
    }

    /// <summary>A line break before the node in place of the white space there; comments there stay, before the node.</summary>
    public static TextChange BreakBefore(SyntaxNode node, string lineStart) =>
        Between(node.GetFirstToken().GetPreviousToken(), node.GetFirstToken(), lineStart, commentsFirst: false);

    /// <summary>
    /// <paramref name="lineStart"/> in place of the white space between two tokens; the comments there are kept, on
    /// the line before it or on the new line after it.
    /// </summary>
    public static TextChange Between(SyntaxToken left, SyntaxToken right, string lineStart, bool commentsFirst)
    {
        var trivia = left.TrailingTrivia.Concat(right.LeadingTrivia).ToList();
        var comments = Comments(trivia, lineStart);
        var text = comments.Length == 0 ? lineStart
            : commentsFirst ? " " + comments + lineStart
            : lineStart + comments + (trivia.Last(IsComment).IsKind(SyntaxKind.SingleLineCommentTrivia) ? lineStart : " ");
        return new TextChange(TextSpan.FromBounds(left.Span.End, right.SpanStart), text);
    }

    /// <summary>
    /// The comments among the trivia, in order, on one line; one that follows a line comment goes after
    /// <paramref name="lineBreak"/>, since on the same line it would become part of that comment.
    /// </summary>
    public static string Comments(IEnumerable<SyntaxTrivia> trivia, string lineBreak)
    {
        var text = new StringBuilder();
        var afterLineComment = false;
        foreach (var comment in trivia.Where(IsComment))
        {
            text.Append(text.Length == 0 ? string.Empty : afterLineComment ? lineBreak : " ").Append(comment.ToString());
            afterLineComment = comment.IsKind(SyntaxKind.SingleLineCommentTrivia);
        }

        return text.ToString();
    }

    public static bool IsComment(SyntaxTrivia trivia) =>
        trivia.IsKind(SyntaxKind.MultiLineCommentTrivia) || trivia.IsKind(SyntaxKind.SingleLineCommentTrivia);

    public static bool BeginsLine(SourceText text, SyntaxNode node) => BeginsLine(text, node.SpanStart);

    /// <summary>Whether only white space comes before <paramref name="position"/> on its line.</summary>
    public static bool BeginsLine(SourceText text, int position) =>
        string.IsNullOrWhiteSpace(text.ToString(TextSpan.FromBounds(text.Lines.GetLineFromPosition(position).Start, position)));

    public static bool SameLine(SourceText text, int a, int b) => text.Lines.GetLineFromPosition(a).LineNumber == text.Lines.GetLineFromPosition(b).LineNumber;

    /// <summary>How many lines the node's text runs over.</summary>
    public static int Spans(SourceText text, SyntaxNode node) =>
        text.Lines.GetLineFromPosition(node.Span.End).LineNumber - text.Lines.GetLineFromPosition(node.SpanStart).LineNumber + 1;
}
