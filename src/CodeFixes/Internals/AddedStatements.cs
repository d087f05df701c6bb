using System.Collections.Generic;
using System.Linq;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp;
using Microsoft.CodeAnalysis.CSharp.Syntax;
using Microsoft.CodeAnalysis.Editing;
using Microsoft.CodeAnalysis.Formatting;

namespace TplPractices.Analyzers.CodeFixes.Internals;

/// <summary>
/// Statements a fix writes beside one it keeps (a source before a race, its cancel after). Built without trivia, a
/// new statement lets the formatter redo the line breaks on both sides of it, and a blank line the author left above
/// the kept statement, or below it, went. So each new statement gets the kept line's indentation and the file's line
/// break, and the first one before the kept statement takes the blank lines and comments above it: the group stands
/// where the statement stood. At the top level each is a global statement.
/// </summary>
internal static class AddedStatements
{
    /// <summary>The statements go before <paramref name="kept"/>, which may be rewritten as well (<paramref name="replacement"/>).</summary>
    public static void Before(DocumentEditor editor, StatementSyntax kept, IReadOnlyList<StatementSyntax> added, StatementSyntax? replacement = null)
    {
        if (added.Count == 0)
        {
            return;
        }

        var line = LineOf(kept);
        var (above, onTheLine) = Split(line.GetLeadingTrivia());
        editor.InsertBefore(line, Placed(editor, kept, added, onTheLine, firstAbove: above));
        editor.ReplaceNode(line, (current, _) => (replacement is null ? current : line is GlobalStatementSyntax ? SyntaxFactory.GlobalStatement(replacement) : replacement)
            .WithLeadingTrivia(onTheLine));
    }

    public static void After(DocumentEditor editor, StatementSyntax kept, IReadOnlyList<StatementSyntax> added) =>
        editor.InsertAfter(LineOf(kept), Placed(editor, kept, added, Split(LineOf(kept).GetLeadingTrivia()).OnTheLine, firstAbove: default));

    /// <summary>
    /// Each statement on a line of its own, indented as the kept one, ending in the file's line break that the formatter
    /// keeps; the first one after <paramref name="firstAbove"/>.
    /// </summary>
    private static IEnumerable<SyntaxNode> Placed(DocumentEditor editor, StatementSyntax kept, IReadOnlyList<StatementSyntax> added, SyntaxTriviaList onTheLine, SyntaxTriviaList firstAbove)
    {
        var indentation = SyntaxFactory.TriviaList(onTheLine.TakeWhile(t => t.IsKind(SyntaxKind.WhitespaceTrivia)));
        var lineBreak = NewLines.FixedOf(editor.OriginalRoot);
        return added.Select((statement, i) => Wrapped(kept, statement
            .WithLeadingTrivia(i == 0 ? firstAbove.AddRange(indentation) : indentation)
            .WithTrailingTrivia(lineBreak)));
    }

    /// <summary><c>var name = value</c>, the declaration of a local a fix adds.</summary>
    public static VariableDeclarationSyntax Var(string name, ExpressionSyntax value) =>
        SyntaxFactory.VariableDeclaration(
            SyntaxFactory.IdentifierName("var"),
            SyntaxFactory.SingletonSeparatedList(SyntaxFactory.VariableDeclarator(SyntaxFactory.Identifier(name)).WithInitializer(SyntaxFactory.EqualsValueClause(value))));

    /// <summary><c>using var name = value;</c> (C# 8), disposed when its block ends.</summary>
    public static LocalDeclarationStatementSyntax UsingVar(VariableDeclarationSyntax declaration) =>
        SyntaxFactory.LocalDeclarationStatement(declaration).WithUsingKeyword(SyntaxFactory.Token(SyntaxKind.UsingKeyword));

    /// <summary>The member whose locals a new local's name must not clash with (the file, for top-level statements).</summary>
    public static SyntaxNode? LocalScopeOf(SyntaxNode node) =>
        node.Ancestors().FirstOrDefault(a => a is MemberDeclarationSyntax and not GlobalStatementSyntax or CompilationUnitSyntax);

    /// <summary>The node that stands on the statement's lines: its global statement at the top level.</summary>
    private static SyntaxNode LineOf(StatementSyntax statement) => statement.Parent is GlobalStatementSyntax global ? global : statement;

    private static SyntaxNode Wrapped(StatementSyntax kept, StatementSyntax statement)
    {
        var annotated = statement.WithAdditionalAnnotations(Formatter.Annotation);
        return kept.Parent is GlobalStatementSyntax ? SyntaxFactory.GlobalStatement(annotated) : annotated;
    }

    /// <summary>Leading trivia split after its last line break (or directive): what stands above the line, and what starts it.</summary>
    private static (SyntaxTriviaList Above, SyntaxTriviaList OnTheLine) Split(SyntaxTriviaList leading)
    {
        var lastBreak = -1;
        for (var i = 0; i < leading.Count; i++)
        {
            if (leading[i].IsKind(SyntaxKind.EndOfLineTrivia) || leading[i].HasStructure)
            {
                lastBreak = i;
            }
        }

        return (SyntaxFactory.TriviaList(leading.Take(lastBreak + 1)), SyntaxFactory.TriviaList(leading.Skip(lastBreak + 1)));
    }
}
