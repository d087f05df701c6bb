using System;
using System.Collections.Generic;
using System.Linq;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp;
using Microsoft.CodeAnalysis.CSharp.Syntax;
using Microsoft.CodeAnalysis.Editing;
using Microsoft.CodeAnalysis.Formatting;

namespace TplPractices.Analyzers.CodeFixes.Internals;

/// <summary>
/// The private static readonly fields one rewrite of a document adds: at most one per (type declaration,
/// key), named in the file's style, each placed right before the member that first uses it.
/// </summary>
/// <remarks>
/// Placing a field next to its first use, not after the type's last field, keeps fixes mergeable in
/// multi-targeted projects: each target fixes the shared file on its own, and Roslyn merges the results.
/// Two targets that add different sets of fields at one spot would produce conflict markers; fields anchored
/// to different members never share a spot.
/// </remarks>
internal sealed class NewStaticFields
{
    private readonly FieldNaming.Style _style;
    private readonly string _newLine;
    private readonly Dictionary<(TypeDeclarationSyntax, string), string> _names = new();
    private readonly Dictionary<SyntaxNode, List<FieldDeclarationSyntax>> _byAnchor = new();
    private readonly List<SyntaxNode> _anchorOrder = new();
    private readonly HashSet<string> _taken = new(StringComparer.Ordinal);

    public NewStaticFields(SyntaxNode root)
    {
        _style = FieldNaming.DetectStyle(root);
        _newLine = root.DescendantTrivia().FirstOrDefault(t => t.IsKind(SyntaxKind.EndOfLineTrivia)).ToString() is { Length: > 0 } eol
            ? eol
            : "\n";
    }

    /// <summary>The field's name: an earlier one with the same key, or a new field made by <paramref name="create"/>.</summary>
    public string GetOrAdd(
        SyntaxNode use,
        TypeDeclarationSyntax declaration,
        INamedTypeSymbol type,
        string key,
        Func<(ExpressionSyntax Initializer, TypeSyntax Type, IEnumerable<string> NameWords)> create)
    {
        if (_names.TryGetValue((declaration, key), out var existing))
        {
            return existing;
        }

        var (initializer, fieldType, words) = create();
        var typeName = type.ToDisplayString();
        var name = FieldNaming.MakeUnique(
            FieldNaming.Format(_style, words),
            n => n == type.Name || type.MemberNames.Contains(n) || _taken.Contains(typeName + "." + n));
        _taken.Add(typeName + "." + name);
        _names.Add((declaration, key), name);

        var field = SyntaxFactory.FieldDeclaration(
                SyntaxFactory.VariableDeclaration(fieldType).AddVariables(
                    SyntaxFactory.VariableDeclarator(name).WithInitializer(SyntaxFactory.EqualsValueClause(initializer))))
            .WithModifiers(SyntaxFactory.TokenList(
                SyntaxFactory.Token(SyntaxKind.PrivateKeyword),
                SyntaxFactory.Token(SyntaxKind.StaticKeyword),
                SyntaxFactory.Token(SyntaxKind.ReadOnlyKeyword)))
            .WithAdditionalAnnotations(Formatter.Annotation);

        // The anchor is the member of this declaration that holds the use; a use outside any member (a
        // primary constructor's base arguments, say) appends the field to the declaration instead.
        SyntaxNode anchor = use.AncestorsAndSelf().OfType<MemberDeclarationSyntax>()
            .FirstOrDefault(m => m.Parent == declaration) ?? declaration;
        if (!_byAnchor.TryGetValue(anchor, out var list))
        {
            _byAnchor.Add(anchor, list = new List<FieldDeclarationSyntax>());
            _anchorOrder.Add(anchor);
        }

        list.Add(field);
        return name;
    }

    public void InsertInto(DocumentEditor editor)
    {
        foreach (var anchor in _anchorOrder)
        {
            var fields = _byAnchor[anchor];
            if (anchor is TypeDeclarationSyntax declaration)
            {
                fields.ForEach(field => editor.AddMember(declaration, field));
                continue;
            }

            // The blank lines that separated the anchor from the member above now separate the new fields;
            // one blank line separates the fields from the anchor, whose comments stay with it.
            var leading = anchor.GetLeadingTrivia();
            var blank = leading.TakeWhile(t => t.IsKind(SyntaxKind.EndOfLineTrivia) || t.IsKind(SyntaxKind.WhitespaceTrivia)).ToList();
            var blankLines = blank.Where(t => t.IsKind(SyntaxKind.EndOfLineTrivia)).ToList();
            var isFirstMember = anchor.Parent is TypeDeclarationSyntax parent && parent.Members[0] == anchor;
            var first = fields[0].WithLeadingTrivia(
                blankLines.Count > 0 || isFirstMember ? blankLines : new List<SyntaxTrivia> { SyntaxFactory.EndOfLine(_newLine) });
            var last = fields.Count == 1 ? first : fields[fields.Count - 1];
            last = last.WithTrailingTrivia(SyntaxFactory.EndOfLine(_newLine), SyntaxFactory.EndOfLine(_newLine));
            var ordered = fields.Count == 1
                ? new[] { last }
                : new[] { first }.Concat(fields.Skip(1).Take(fields.Count - 2)).Append(last).ToArray();

            if (blankLines.Count > 0)
            {
                var kept = leading.Skip(blank.Count).ToList();
                var indentation = blank.Where(t => t.IsKind(SyntaxKind.WhitespaceTrivia)).LastOrDefault();
                editor.ReplaceNode(anchor, (current, _) => current.WithLeadingTrivia(
                    kept.Count == 0 || !kept[0].IsKind(SyntaxKind.WhitespaceTrivia) ? new[] { indentation }.Concat(kept) : kept));
            }

            editor.InsertBefore(anchor, ordered);
        }
    }
}
