using System.Linq;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp;
using Microsoft.CodeAnalysis.CSharp.Syntax;
using Microsoft.CodeAnalysis.Editing;

namespace TplPractices.Analyzers.CodeFixes.Internals;

/// <summary>
/// The author's blank lines around what a fix removes or inserts: one that set a removed statement apart stays, and
/// one that already sets a member apart is not doubled (SA1507).
/// </summary>
internal static class BlankLines
{
    /// <summary>The line break of a blank line right above the node (before any comment on it), if it has one.</summary>
    public static SyntaxTrivia? Above(SyntaxNode node) =>
        node.GetLeadingTrivia()
            .TakeWhile(t => t.IsKind(SyntaxKind.WhitespaceTrivia) || t.IsKind(SyntaxKind.EndOfLineTrivia))
            .Where(t => t.IsKind(SyntaxKind.EndOfLineTrivia))
            .Select(t => (SyntaxTrivia?)t)
            .FirstOrDefault();

    /// <summary>
    /// Removes a statement of a block with its trivia (<paramref name="options"/> may keep directives); the blank line
    /// that set it apart now sets apart the statement after it, unless that one has its own. Where it opened the block,
    /// the blank lines below it go too: none follows an opening brace (SA1505).
    /// </summary>
    public static void RemoveStatement(DocumentEditor editor, StatementSyntax statement, SyntaxRemoveOptions options = SyntaxRemoveOptions.KeepNoTrivia)
    {
        if (statement.Parent is BlockSyntax block
            && block.Statements.IndexOf(statement) is var index
            && index + 1 < block.Statements.Count
            && block.Statements[index + 1] is var next)
        {
            if (index == 0 && Above(next) is not null)
            {
                editor.ReplaceNode(next, (current, _) => current.WithLeadingTrivia(WithoutBlankLines(current.GetLeadingTrivia())));
            }
            else if (index > 0 && Above(statement) is { } blank && Above(next) is null)
            {
                editor.ReplaceNode(next, (current, _) => current.WithLeadingTrivia(current.GetLeadingTrivia().Insert(0, blank)));
            }
        }

        editor.RemoveNode(statement, options);
    }

    /// <summary>Leading trivia without the blank lines above its first comment or token (the indentation stays).</summary>
    private static SyntaxTriviaList WithoutBlankLines(SyntaxTriviaList leading)
    {
        var blank = leading.TakeWhile(t => t.IsKind(SyntaxKind.WhitespaceTrivia) || t.IsKind(SyntaxKind.EndOfLineTrivia)).ToList();
        var lastBreak = blank.FindLastIndex(t => t.IsKind(SyntaxKind.EndOfLineTrivia));
        return SyntaxFactory.TriviaList(leading.Skip(lastBreak + 1));
    }
}
