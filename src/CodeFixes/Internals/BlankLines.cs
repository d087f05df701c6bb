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
    /// that set it apart now sets apart the statement after it, unless that one has its own.
    /// </summary>
    public static void RemoveStatement(DocumentEditor editor, StatementSyntax statement, SyntaxRemoveOptions options = SyntaxRemoveOptions.KeepNoTrivia)
    {
        if (statement.Parent is BlockSyntax block
            && Above(statement) is { } blank
            && block.Statements.IndexOf(statement) + 1 is var next
            && next < block.Statements.Count
            && Above(block.Statements[next]) is null)
        {
            editor.ReplaceNode(block.Statements[next], (current, _) => current.WithLeadingTrivia(current.GetLeadingTrivia().Insert(0, blank)));
        }

        editor.RemoveNode(statement, options);
    }
}
