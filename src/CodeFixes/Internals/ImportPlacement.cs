using System.Collections.Generic;
using System.Linq;
using System.Threading;
using System.Threading.Tasks;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp;
using Microsoft.CodeAnalysis.CSharp.Syntax;

namespace TplPractices.Analyzers.CodeFixes.Internals;

/// <summary>
/// Roslyn's import adder appends a using to a list it finds unsorted, after the file's aliases and static usings;
/// StyleCop's SA1208/SA1209 want those last (Discord.Net's event handling got <c>using System.Threading;</c> below
/// <c>using GameModel = …;</c>). A plain using the fix added there moves up into the plain usings above them: to its
/// place where those are sorted (System first or not; DotNetty sorts them and leaves its static usings unsorted), after
/// the last otherwise. The usings that were there keep the lines before them (a blank line before the static ones).
/// </summary>
internal static class ImportPlacement
{
    public static async Task<Document> BeforeAliasesAsync(Document original, Document document, CancellationToken cancellationToken)
    {
        if (await original.GetSyntaxRootAsync(cancellationToken).ConfigureAwait(false) is not CompilationUnitSyntax before
            || await document.GetSyntaxRootAsync(cancellationToken).ConfigureAwait(false) is not CompilationUnitSyntax after)
        {
            return document;
        }

        var had = new Dictionary<string, SyntaxTriviaList>();
        foreach (var directive in UsingLists(before).SelectMany(list => list))
        {
            var key = Key(directive);
            if (!had.ContainsKey(key))
            {
                had.Add(key, directive.GetLeadingTrivia());
            }
        }

        var moved = after.ReplaceNodes(
            UsingLists(after).Select(list => list.FirstOrDefault()?.Parent).OfType<SyntaxNode>(),
            (_, container) => container switch
            {
                CompilationUnitSyntax unit => unit.WithUsings(Reordered(unit.Usings, had)),
                BaseNamespaceDeclarationSyntax space => space.WithUsings(Reordered(space.Usings, had)),
                _ => container,
            });
        return moved == after ? document : document.WithSyntaxRoot(moved);
    }

    private static IEnumerable<SyntaxList<UsingDirectiveSyntax>> UsingLists(CompilationUnitSyntax root) =>
        root.DescendantNodesAndSelf(n => n is CompilationUnitSyntax or BaseNamespaceDeclarationSyntax)
            .Select(n => n switch
            {
                CompilationUnitSyntax unit => unit.Usings,
                BaseNamespaceDeclarationSyntax space => space.Usings,
                _ => default,
            })
            .Where(list => list.Count > 1);

    private static string Key(UsingDirectiveSyntax directive) => directive.WithoutTrivia().ToString();

    private static bool IsPlain(UsingDirectiveSyntax directive) =>
        directive.Alias is null && directive.StaticKeyword.IsKind(SyntaxKind.None) && directive.GlobalKeyword.IsKind(SyntaxKind.None);

    private static string NameOf(UsingDirectiveSyntax directive) => directive.Name?.ToString() ?? string.Empty;

    private static SyntaxList<UsingDirectiveSyntax> Reordered(SyntaxList<UsingDirectiveSyntax> usings, Dictionary<string, SyntaxTriviaList> had)
    {
        if (usings.Any(u => u.GetLeadingTrivia().Any(t => t.IsDirective)))
        {
            return usings;
        }

        var added = usings.Where(u => IsPlain(u) && !had.ContainsKey(Key(u))).ToList();
        var kept = usings.Where(u => !added.Contains(u)).ToList();
        var firstOther = kept.FindIndex(u => !IsPlain(u));
        if (added.Count == 0 || firstOther <= 0)
        {
            return usings;
        }

        // Where the adder put it among unsorted plain usings, it stays where the adder put it.
        var systemFirst = IsSorted(kept.Take(firstOther));
        if (systemFirst is null && usings.IndexOf(added[0]) < usings.IndexOf(kept[firstOther]))
        {
            return usings;
        }

        // Each on a line of its own, indented as the plain usings are; the usings that were there get back the lines
        // before them, which the adder may have moved onto the one it wrote.
        var indentation = kept[firstOther - 1].GetLeadingTrivia().Where(t => t.IsKind(SyntaxKind.WhitespaceTrivia));
        var restored = kept.Select(u => had.TryGetValue(Key(u), out var leading) ? u.WithLeadingTrivia(leading) : u).ToList();
        var plain = restored.Take(firstOther).ToList();
        foreach (var directive in added.Select(u => u.WithLeadingTrivia(indentation)))
        {
            var at = systemFirst is { } first ? plain.FindIndex(u => Compare(NameOf(directive), NameOf(u), first) < 0) : -1;
            if (at < 0)
            {
                plain.Add(directive);
            }
            else
            {
                // The one it goes before keeps its place's leading lines; the new one takes a plain indentation.
                var leading = plain[at].GetLeadingTrivia();
                plain[at] = plain[at].WithLeadingTrivia(indentation);
                plain.Insert(at, directive.WithLeadingTrivia(leading));
            }
        }

        return SyntaxFactory.List(plain.Concat(restored.Skip(firstOther)));
    }

    /// <summary>Whether the plain usings are sorted with System's first (true), sorted without that (false), or neither.</summary>
    private static bool? IsSorted(IEnumerable<UsingDirectiveSyntax> plain)
    {
        var names = plain.Select(NameOf).ToList();
        bool Sorted(bool systemFirst) => names.Zip(names.Skip(1), (a, b) => Compare(a, b, systemFirst) <= 0).All(x => x);
        return Sorted(systemFirst: true) ? true : Sorted(systemFirst: false) ? false : null;
    }

    private static int Compare(string a, string b, bool systemFirst)
    {
        if (systemFirst && IsSystem(a) != IsSystem(b))
        {
            return IsSystem(a) ? -1 : 1;
        }

        var ignoringCase = string.Compare(a, b, System.StringComparison.OrdinalIgnoreCase);
        return ignoringCase != 0 ? ignoringCase : string.CompareOrdinal(a, b);
    }

    private static bool IsSystem(string name) => name == "System" || name.StartsWith("System.", System.StringComparison.Ordinal);
}
