using System.Collections.Generic;
using System.Linq;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp.Syntax;
using Microsoft.CodeAnalysis.Editing;
using Microsoft.CodeAnalysis.Formatting;
using static Microsoft.CodeAnalysis.CSharp.SyntaxFactory;

namespace TplPractices.Analyzers.CodeFixes.Internals;

/// <summary>
/// A source a fix adds, in a using block around the statements it must outlive, where no using declaration can stand
/// (before C# 8, directly in a switch section).
/// </summary>
internal static class UsingBlocks
{
    /// <summary>
    /// The statements replace <paramref name="first"/> (and <paramref name="removed"/>, a statement right after it that
    /// goes into the block too) in a using block of the source. A local those statements declare would be hidden in the
    /// block: it is declared first, without its value, and the block assigns it (<c>Task first; using (…) { first =
    /// await Task.WhenAny(…); delayCancellation.Cancel(); }</c>). The analyzers take no statement that declares a
    /// variable in an expression, which the block would hide too.
    /// </summary>
    public static void Replace(DocumentEditor editor, StatementSyntax first, StatementSyntax? removed, VariableDeclarationSyntax source, IReadOnlyList<StatementSyntax> inside)
    {
        var originals = new[] { first, removed }.OfType<LocalDeclarationStatementSyntax>().Where(d => d.Declaration.Variables.Count == 1).ToList();
        var declaredFirst = new List<StatementSyntax>();
        var assigned = new List<StatementSyntax>();
        foreach (var statement in inside)
        {
            if (statement is LocalDeclarationStatementSyntax { Declaration.Variables: { Count: 1 } variables }
                && variables[0] is { Initializer: { } value } variable
                && originals.FirstOrDefault(o => o.Declaration.Variables[0].Identifier.ValueText == variable.Identifier.ValueText) is { } original)
            {
                var (declaration, assignment) = DeclaredApart.Of(editor, original.Declaration.Variables[0], original.Declaration.Type, variable.Identifier, value.Value);
                declaredFirst.Add(declaration);
                assigned.Add(assignment);
            }
            else
            {
                assigned.Add(statement);
            }
        }

        var block = UsingStatement(source, null, Block(assigned))
            .WithTriviaFrom(first)
            .WithAdditionalAnnotations(Formatter.Annotation);
        if (removed is not null)
        {
            BlankLines.RemoveStatement(editor, removed);
        }

        if (declaredFirst.Count > 0)
        {
            AddedStatements.Before(editor, first, declaredFirst, block);
            return;
        }

        editor.ReplaceNode(first.Parent is GlobalStatementSyntax outer ? outer : first, first.Parent is GlobalStatementSyntax ? GlobalStatement(block) : block);
    }
}
