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
/// <c>using GameModel = …;</c>). A plain using the fix added there moves up, to follow the last plain using above them.
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

        var had = new HashSet<string>(UsingLists(before).SelectMany(list => list).Select(u => u.Name?.ToString() ?? string.Empty));
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

    private static bool IsPlain(UsingDirectiveSyntax directive) =>
        directive.Alias is null && directive.StaticKeyword.IsKind(SyntaxKind.None) && directive.GlobalKeyword.IsKind(SyntaxKind.None);

    private static SyntaxList<UsingDirectiveSyntax> Reordered(SyntaxList<UsingDirectiveSyntax> usings, HashSet<string> had)
    {
        var firstOther = usings.IndexOf(u => !IsPlain(u));
        if (firstOther <= 0 || usings.Any(u => u.GetLeadingTrivia().Any(t => t.IsDirective)))
        {
            return usings;
        }

        var moved = usings.Skip(firstOther + 1).Where(u => IsPlain(u) && !had.Contains(u.Name?.ToString() ?? string.Empty)).ToList();
        if (moved.Count == 0)
        {
            return usings;
        }

        // Each on a line of its own, indented as the plain using above the others, its blank lines left to them.
        var indentation = usings[firstOther - 1].GetLeadingTrivia().Where(t => t.IsKind(SyntaxKind.WhitespaceTrivia));
        var kept = usings.Where(u => !moved.Contains(u)).ToList();
        kept.InsertRange(firstOther, moved.Select(u => u.WithLeadingTrivia(indentation)));
        return SyntaxFactory.List(kept);
    }
}
