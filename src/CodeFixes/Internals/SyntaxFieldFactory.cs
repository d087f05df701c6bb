using System.Collections.Generic;
using System.Linq;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp;
using Microsoft.CodeAnalysis.CSharp.Syntax;

namespace TplPractices.Analyzers.CodeFixes.Internals;

internal static class SyntaxFieldFactory
{
    public static FieldDeclarationSyntax PrivateStaticReadOnly(string name, SyntaxNode type, SyntaxNode initializer) =>
        SyntaxFactory.FieldDeclaration(
                SyntaxFactory.VariableDeclaration((TypeSyntax)type).AddVariables(
                    SyntaxFactory.VariableDeclarator(name)
                        .WithInitializer(SyntaxFactory.EqualsValueClause((ExpressionSyntax)initializer))))
            .WithModifiers(SyntaxFactory.TokenList(
                SyntaxFactory.Token(SyntaxKind.PrivateKeyword),
                SyntaxFactory.Token(SyntaxKind.StaticKeyword),
                SyntaxFactory.Token(SyntaxKind.ReadOnlyKeyword)));

    /// <summary>Separates inserted fields from the member that follows them by one blank line.</summary>
    public static IEnumerable<SyntaxNode> WithBlankLineAfterLast(IReadOnlyList<SyntaxNode> fields, string newLine)
    {
        var last = fields[fields.Count - 1];
        return fields.Take(fields.Count - 1)
            .Append(last.WithTrailingTrivia(SyntaxFactory.EndOfLine(newLine), SyntaxFactory.EndOfLine(newLine)));
    }

    /// <summary>The line break the document already uses.</summary>
    public static string NewLineOf(SyntaxNode root) =>
        root.DescendantTrivia().FirstOrDefault(t => t.IsKind(SyntaxKind.EndOfLineTrivia)).ToString() is { Length: > 0 } found
            ? found
            : "\n";
}
