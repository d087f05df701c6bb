using System;
using System.Collections.Generic;
using System.Linq;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp;
using Microsoft.CodeAnalysis.CSharp.Syntax;
using Microsoft.CodeAnalysis.Diagnostics;
using Microsoft.CodeAnalysis.Editing;
using Microsoft.CodeAnalysis.Formatting;
using TplPractices.Analyzers.Internals;

namespace TplPractices.Analyzers.CodeFixes.Internals;

/// <summary>
/// The private static readonly fields one rewrite of a document adds: at most one per (type declaration,
/// key), named as the project's naming rule or else its code asks (<see cref="FieldNameStyle"/>, <see cref="FieldNaming"/>), placed where ordering rules such as StyleCop's SA1201/SA1204 expect
/// them, after the type's static fields, but never below a static initializer that may call the rewritten code
/// (<see cref="SafePrefix"/>). Where the type has any static initializer that runs code or reads another type
/// (<see cref="StaticInitializers.IsInert"/>), the fields go into a nested holder class instead: its initializer runs
/// on first use, so no order of the type's initializers, nor a cycle through another type's, can see them unset.
/// </summary>
internal sealed class NewStaticFields
{
    private readonly FieldNameStyle _privateStyle;
    private readonly FieldNameStyle _internalStyle;
    private readonly string _newLine;
    private readonly Dictionary<(TypeDeclarationSyntax, string), string> _names = new();
    private readonly Dictionary<TypeDeclarationSyntax, List<FieldDeclarationSyntax>> _byDeclaration = new();
    private readonly HashSet<string> _taken = new(StringComparer.Ordinal);
    private readonly Dictionary<TypeDeclarationSyntax, HashSet<string>> _writtenNames = new();
    private readonly Dictionary<TypeDeclarationSyntax, Holder?> _holders = new();
    private readonly SemanticModel _model;

    /// <summary>The project asks that a member's default accessibility go unwritten: a new field or holder gets no <c>private</c>.</summary>
    private readonly bool _omitPrivate;

    /// <summary>The nested class that holds a type declaration's new fields: one already there, or a new one.</summary>
    private sealed class Holder
    {
        public Holder(string name, ClassDeclarationSyntax? existing)
        {
            Name = name;
            Existing = existing;
        }

        public string Name { get; }

        public ClassDeclarationSyntax? Existing { get; }
    }

    /// <summary>What a holder class is called (numbered where the type has a member of that name that is none).</summary>
    public const string HolderName = "CachedTasks";

    public NewStaticFields(SyntaxNode root, SemanticModel model, AnalyzerConfigOptions options)
    {
        _model = model;
        // A naming rule the project configured decides; else the style its code shows.
        var configuredPrivate = FieldNameStyle.Configured(options, isPrivate: true);
        var configuredInternal = FieldNameStyle.Configured(options, isPrivate: false);
        var shown = configuredPrivate is null || configuredInternal is null ? FieldNaming.DetectStyle(root, model.Compilation) : null;
        _privateStyle = configuredPrivate ?? shown!;
        _omitPrivate = DefaultAccessibility.Omitted(options, root);
        _internalStyle = configuredInternal ?? shown!;
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

        var holder = HolderFor(declaration, type);
        var owner = holder is null ? typeName : typeName + "." + holder.Name;
        var holderMembers = holder?.Existing?.Members.OfType<FieldDeclarationSyntax>().SelectMany(f => f.Declaration.Variables).Select(v => v.Identifier.ValueText).ToList();
        var name = FieldNaming.MakeUnique(
            (holder is null ? _privateStyle : _internalStyle).Format(words),
            n => holderMembers is not null
                ? holderMembers.Contains(n) || _taken.Contains(owner + "." + n)
                : n == type.Name || type.MemberNames.Contains(n) || written.Contains(n) || _taken.Contains(owner + "." + n));
        _taken.Add(owner + "." + name);
        _names.Add((declaration, key), name);

        var field = SyntaxFactory.FieldDeclaration(
                SyntaxFactory.VariableDeclaration(fieldType).AddVariables(
                    SyntaxFactory.VariableDeclarator(name).WithInitializer(SyntaxFactory.EqualsValueClause(initializer))))
            .WithModifiers(Modifiers(holder is null ? SyntaxKind.PrivateKeyword : SyntaxKind.InternalKeyword, SyntaxKind.StaticKeyword, SyntaxKind.ReadOnlyKeyword))
            .WithAdditionalAnnotations(Formatter.Annotation);

        if (!_byDeclaration.TryGetValue(declaration, out var list))
        {
            _byDeclaration.Add(declaration, list = new List<FieldDeclarationSyntax>());
        }

        list.Add(field);
        return name;
    }

    /// <summary>The holder class of the declaration's new fields, or null where they go into the type itself.</summary>
    public string? HolderOf(TypeDeclarationSyntax declaration) => _holders.TryGetValue(declaration, out var holder) ? holder?.Name : null;

    private Holder? HolderFor(TypeDeclarationSyntax declaration, INamedTypeSymbol type)
    {
        if (!_holders.TryGetValue(declaration, out var holder))
        {
            holder = declaration.Members.Any(m => StaticInitializers.Of(m) is { } initializer && !StaticInitializers.IsInert(initializer, _model))
                ? ExistingHolder(declaration) is { } existing
                    ? new Holder(existing.Identifier.ValueText, existing)
                    : new Holder(FieldNaming.MakeUnique(HolderName, n => type.MemberNames.Contains(n) || n == type.Name), null)
                : null;
            _holders.Add(declaration, holder);
        }

        return holder;
    }

    /// <summary>A holder an earlier fix wrote: a nested static class of that name holding only cached tasks.</summary>
    public static ClassDeclarationSyntax? ExistingHolder(TypeDeclarationSyntax declaration) =>
        declaration.Members.OfType<ClassDeclarationSyntax>().FirstOrDefault(c =>
            c.Identifier.ValueText.StartsWith(HolderName, StringComparison.Ordinal)
            && c.Modifiers.Any(SyntaxKind.StaticKeyword)
            && c.Members.All(m => StaticInitializers.Of(m) is { } initializer && StaticInitializers.IsCachedTask(initializer)));

    public void InsertInto(DocumentEditor editor)
    {
        foreach (var pair in _byDeclaration)
        {
            var (declaration, fields) = (pair.Key, pair.Value);
            if (_holders.TryGetValue(declaration, out var holder) && holder is not null)
            {
                InsertIntoHolder(editor, declaration, holder, fields);
                continue;
            }

            var lastStatic = SafePrefix(declaration, editor.SemanticModel).OfType<FieldDeclarationSyntax>().LastOrDefault();
            if (lastStatic is not null)
            {
                // The last new field ends its line as the file does: left elastic, the formatter redoes the break before
                // the member after it, and a blank line the author left there goes where that member is a field.
                var last = fields[fields.Count - 1].WithTrailingTrivia(SyntaxFactory.EndOfLine(_newLine));
                editor.InsertAfter(lastStatic, fields.Take(fields.Count - 1).Append(last));
            }
            else if (declaration.Members.FirstOrDefault() is { } first)
            {
                // One blank line separates the new fields from a first member that is not a field, or opens a
                // #region the fields stay out of, unless it has one.
                var last = (first is FieldDeclarationSyntax && !first.GetLeadingTrivia().Any(t => t.IsDirective)) || BlankLines.Above(first) is not null
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

    /// <summary>The modifiers, <c>private</c> left out where the project omits a default accessibility.</summary>
    private SyntaxTokenList Modifiers(params SyntaxKind[] kinds) => DefaultAccessibility.Modifiers(_omitPrivate, kinds);

    private void InsertIntoHolder(DocumentEditor editor, TypeDeclarationSyntax declaration, Holder holder, List<FieldDeclarationSyntax> fields)
    {
        if (holder.Existing is { } existing)
        {
            fields.ForEach(field => editor.AddMember(existing, field));
            return;
        }

        // Last in the type, where nested types go (SA1201); the comment says why it exists.
        var comment = SyntaxFactory.Comment(
            "// Cached tasks in a class of their own: its initializer runs on first use, whatever order this type's static initializers run in.");
        var added = SyntaxFactory.ClassDeclaration(holder.Name)
            .WithModifiers(Modifiers(SyntaxKind.PrivateKeyword, SyntaxKind.StaticKeyword))
            .WithMembers(SyntaxFactory.List<MemberDeclarationSyntax>(fields))
            .WithLeadingTrivia(SyntaxFactory.EndOfLine(_newLine), comment, SyntaxFactory.EndOfLine(_newLine))
            .WithAdditionalAnnotations(Formatter.Annotation);
        editor.AddMember(declaration, added);
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
