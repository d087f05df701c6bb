using System;
using System.Collections.Generic;
using System.Linq;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp;
using Microsoft.CodeAnalysis.CSharp.Syntax;
using Microsoft.CodeAnalysis.Editing;
using Microsoft.CodeAnalysis.Formatting;
using TplPractices.Analyzers.Internals;

namespace TplPractices.Analyzers.CodeFixes.Internals;

/// <summary>
/// The private static readonly fields one rewrite of a document adds: at most one per (type declaration,
/// key), named in the file's style, placed where ordering rules such as StyleCop's SA1201/SA1204 expect
/// them, after the type's static fields, but never below a static initializer that may call the rewritten code
/// (<see cref="SafePrefix"/>).
/// </summary>
internal sealed class NewStaticFields
{
    private readonly FieldNaming.Style _style;
    private readonly string _newLine;
    private readonly Dictionary<(TypeDeclarationSyntax, string), string> _names = new();
    private readonly Dictionary<TypeDeclarationSyntax, List<FieldDeclarationSyntax>> _byDeclaration = new();
    private readonly HashSet<string> _taken = new(StringComparer.Ordinal);
    private readonly Dictionary<TypeDeclarationSyntax, HashSet<string>> _writtenNames = new();

    public NewStaticFields(SyntaxNode root)
    {
        _style = FieldNaming.DetectStyle(root);
        _newLine = root.DescendantTrivia().FirstOrDefault(t => t.IsKind(SyntaxKind.EndOfLineTrivia)).ToString() is { Length: > 0 } eol
            ? eol
            : "\n";
    }

    /// <summary>The field's name: an earlier one with the same key, or a new field made by <paramref name="create"/>.</summary>
    public string GetOrAdd(
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

        if (!_writtenNames.TryGetValue(declaration, out var written))
        {
            written = FieldNaming.NamesWrittenIn(declaration);
            _writtenNames.Add(declaration, written);
        }

        var name = FieldNaming.MakeUnique(
            FieldNaming.Format(_style, words),
            n => n == type.Name || type.MemberNames.Contains(n) || written.Contains(n) || _taken.Contains(typeName + "." + n));
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

        if (!_byDeclaration.TryGetValue(declaration, out var list))
        {
            _byDeclaration.Add(declaration, list = new List<FieldDeclarationSyntax>());
        }

        list.Add(field);
        return name;
    }

    public void InsertInto(DocumentEditor editor)
    {
        foreach (var pair in _byDeclaration)
        {
            var (declaration, fields) = (pair.Key, pair.Value);
            var lastStatic = SafePrefix(declaration, editor.SemanticModel).OfType<FieldDeclarationSyntax>().LastOrDefault();
            if (lastStatic is not null)
            {
                editor.InsertAfter(lastStatic, fields);
            }
            else if (declaration.Members.FirstOrDefault() is { } first)
            {
                // One blank line separates the new fields from a first member that is not a field.
                var last = first is FieldDeclarationSyntax
                    ? fields[fields.Count - 1]
                    : fields[fields.Count - 1].WithTrailingTrivia(SyntaxFactory.EndOfLine(_newLine), SyntaxFactory.EndOfLine(_newLine));
                editor.InsertBefore(first, fields.Take(fields.Count - 1).Append(last));
            }
            else
            {
                fields.ForEach(field => editor.AddMember(declaration, field));
            }
        }
    }

    /// <summary>
    /// The type's static fields, constants and auto-properties up to the first whose initializer may run the
    /// compilation's own code: static initializers run in text order, and one that calls the code a fix rewrites must
    /// find the new field set. New fields go after the last field of this prefix, or first in the type.
    /// </summary>
    public static IEnumerable<MemberDeclarationSyntax> SafePrefix(TypeDeclarationSyntax declaration, SemanticModel model)
    {
        foreach (var member in declaration.Members)
        {
            if (StaticInitializers.Of(member) is { } initializer && RunsOwnCode(initializer, model))
            {
                yield break;
            }

            if (StaticInitializers.Of(member) is not null
                || (member is FieldDeclarationSyntax field && (field.Modifiers.Any(SyntaxKind.StaticKeyword) || field.Modifiers.Any(SyntaxKind.ConstKeyword))))
            {
                yield return member;
            }
        }
    }

    /// <summary>
    /// A lambda, or a call or creation of something declared in source or unresolved: library code cannot call back
    /// into the type.
    /// </summary>
    private static bool RunsOwnCode(ExpressionSyntax initializer, SemanticModel model) =>
        StaticInitializers.MayRunCode(initializer)
        && initializer.DescendantNodesAndSelf().Any(n => n switch
        {
            AnonymousFunctionExpressionSyntax => true,
            InvocationExpressionSyntax or BaseObjectCreationExpressionSyntax => model.GetSymbolInfo(n).Symbol is not { } called
                || called.Locations.Any(l => l.IsInSource),
            _ => false,
        });
}
