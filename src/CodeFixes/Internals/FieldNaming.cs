using System;
using System.Collections.Generic;
using System.Linq;
using System.Runtime.CompilerServices;
using System.Text;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp;
using Microsoft.CodeAnalysis.CSharp.Syntax;
using Microsoft.CodeAnalysis.Editing;

namespace TplPractices.Analyzers.CodeFixes.Internals;

/// <summary>Names new private static fields the way the file (or else the project) already names its fields.</summary>
internal static class FieldNaming
{
    internal enum Style
    {
        /// <summary><c>s_camelCase</c>, the .NET runtime's style; the default when the file gives no hint.</summary>
        StaticPrefix,

        /// <summary><c>_camelCase</c>.</summary>
        Underscore,

        /// <summary><c>PascalCase</c>.</summary>
        Pascal,
    }

    /// <summary>
    /// The file's style; where the file has no field that tells (a partial part, a class of methods), the style most
    /// files of the project use, so that one Fix All names alike in every file.
    /// </summary>
    public static Style DetectStyle(SyntaxNode root, Compilation compilation) =>
        HintOf(root) ?? ProjectStyles.GetValue(compilation, c => new StrongBox<Style>(ProjectStyle(c))).Value;

    /// <summary>The project's style, found once per compilation: a Fix All asks it for each file that does not tell.</summary>
    private static readonly ConditionalWeakTable<Compilation, StrongBox<Style>> ProjectStyles = new();

    /// <summary>Counted over the first files that tell, in the compilation's order: the same answer on every run.</summary>
    private static Style ProjectStyle(Compilation compilation)
    {
        var votes = new int[3];
        var told = 0;
        foreach (var tree in compilation.SyntaxTrees)
        {
            if (HintOf(tree.GetRoot()) is { } style)
            {
                votes[(int)style]++;
                if (++told == FilesAsked)
                {
                    break;
                }
            }
        }

        var best = Style.StaticPrefix;
        for (var style = Style.StaticPrefix; style <= Style.Pascal; style++)
        {
            best = votes[(int)style] > votes[(int)best] ? style : best;
        }

        return best;
    }

    /// <summary>How many of the project's files that name fields are asked, at most.</summary>
    private const int FilesAsked = 50;

    /// <summary>The style the file's own fields show, or null where none does.</summary>
    private static Style? HintOf(SyntaxNode root)
    {
        var fields = root.DescendantNodes(n => n is not BaseMethodDeclarationSyntax and not BasePropertyDeclarationSyntax)
            .OfType<FieldDeclarationSyntax>()
            .Where(f => !f.Modifiers.Any(SyntaxKind.ConstKeyword))
            .ToList();

        bool Any(Func<FieldDeclarationSyntax, bool> filter, Func<string, bool> name) =>
            fields.Where(filter).SelectMany(f => f.Declaration.Variables).Any(v => name(v.Identifier.ValueText));

        static bool IsStatic(FieldDeclarationSyntax f) => f.Modifiers.Any(SyntaxKind.StaticKeyword);
        static bool IsNotPublic(FieldDeclarationSyntax f) =>
            !f.Modifiers.Any(SyntaxKind.PublicKeyword) && !f.Modifiers.Any(SyntaxKind.ProtectedKeyword)
            && !f.Modifiers.Any(SyntaxKind.InternalKeyword);

        if (Any(IsStatic, n => n.StartsWith("s_", StringComparison.Ordinal)))
        {
            return Style.StaticPrefix;
        }

        if (Any(IsNotPublic, n => n.StartsWith("_", StringComparison.Ordinal)))
        {
            return Style.Underscore;
        }

        return Any(f => IsStatic(f) && IsNotPublic(f), n => n.Length > 0 && char.IsUpper(n[0])) ? Style.Pascal : null;
    }

    public static string Format(Style style, IEnumerable<string> words)
    {
        var pascal = string.Concat(words.Where(w => w.Length > 0).Select(Capitalize));
        var camel = pascal.Length == 0 ? pascal : char.ToLowerInvariant(pascal[0]) + pascal.Substring(1);
        return style switch
        {
            Style.Pascal => pascal,
            Style.Underscore => "_" + camel,
            _ => "s_" + camel,
        };
    }

    /// <summary>Appends 2, 3, … until <paramref name="isTaken"/> says the name is free.</summary>
    public static string MakeUnique(string name, Func<string, bool> isTaken)
    {
        var candidate = name;
        for (var suffix = 2; isTaken(candidate); suffix++)
        {
            candidate = name + suffix.ToString(System.Globalization.CultureInfo.InvariantCulture);
        }

        return candidate;
    }

    /// <summary>The names one rewrite of a document gave, by scope, so that two sites fixed together never share one.</summary>
    private static readonly ConditionalWeakTable<DocumentEditor, HashSet<string>> Given = new();

    /// <summary>
    /// A name free at <paramref name="position"/>: none written in <paramref name="writtenIn"/>, none in scope there, and
    /// none this editor gave before in the same <paramref name="scope"/> (a member's locals, a type's new methods).
    /// </summary>
    public static string FreeName(DocumentEditor editor, string scope, SyntaxNode writtenIn, int position, string name)
    {
        var given = Given.GetOrCreateValue(editor);
        var prefix = scope + ":";
        var written = NamesWrittenIn(writtenIn);
        var free = MakeUnique(name, n => given.Contains(prefix + n) || written.Contains(n) || !editor.SemanticModel.LookupSymbols(position, name: n).IsEmpty);
        given.Add(prefix + free);
        return free;
    }

    /// <summary>
    /// A name for a new local at <paramref name="position"/>: none the member writes (a later declaration would clash, an
    /// unresolved name would start binding to it), none in scope there (a field or parameter it would hide), and none
    /// this editor gave before in the same member (two sites fixed together).
    /// </summary>
    public static string FreeLocal(DocumentEditor editor, SyntaxNode member, int position, string name) =>
        // Keyed by the member: names given in other members cannot clash.
        FreeName(editor, "member " + member.SpanStart.ToString(System.Globalization.CultureInfo.InvariantCulture), member, position, name);

    /// <summary>
    /// Every identifier written in <paramref name="node"/> (a type declaration): a new member takes none of them, since a
    /// local would hide it and an unresolved name (half-typed code) would start binding to it (found by FuzzTests).
    /// </summary>
    public static HashSet<string> NamesWrittenIn(SyntaxNode node) =>
        new(node.DescendantTokens().Where(t => t.IsKind(SyntaxKind.IdentifierToken)).Select(t => t.ValueText), StringComparer.Ordinal);

    /// <summary>Splits text into identifier words: letters and digits kept, everything else a break.</summary>
    public static IEnumerable<string> WordsOf(string text, int maxWords)
    {
        var word = new StringBuilder();
        var count = 0;
        foreach (var c in text + " ")
        {
            if (char.IsLetterOrDigit(c) && c < 128)
            {
                word.Append(c);
                continue;
            }

            if (word.Length > 0)
            {
                yield return Capitalize(word.ToString());
                word.Clear();
                if (++count == maxWords)
                {
                    yield break;
                }
            }
        }
    }

    private static string Capitalize(string word) =>
        word.Length == 0 ? word : char.ToUpperInvariant(word[0]) + word.Substring(1);
}
