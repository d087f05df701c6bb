using System.Collections.Immutable;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp;
using Microsoft.CodeAnalysis.CSharp.Syntax;

namespace TplPractices.Analyzers.Tests.Gauntlet.Contexts;

/// <summary>
/// The site's type made partial and split over two files: the members without a site move to the second file (or the
/// latter half, where every member has one), with the file's usings and namespace.
/// </summary>
internal sealed class PartialSplit : GauntletContext
{
    public override string Name => "partial type over two files";

    public override Variant? Apply(GauntletCase gauntletCase, GauntletSetup setup)
    {
        var nodes = Sites.Nodes(gauntletCase).ToList();
        if (nodes.Select(Sites.Type).FirstOrDefault(t => t is not null && t.Parent is BaseNamespaceDeclarationSyntax or CompilationUnitSyntax) is not { } type
            || type is InterfaceDeclarationSyntax || type.Members.Count < 2)
        {
            return null;
        }

        var withSite = type.Members.Where(m => nodes.Any(n => m.Span.Contains(n.Span))).ToList();
        var moved = type.Members.Except(withSite).ToList();
        if (moved.Count == 0)
        {
            moved = type.Members.Skip(type.Members.Count / 2).ToList();
        }

        var partialType = type.Modifiers.Any(SyntaxKind.PartialKeyword) ? type : type.AddModifiers(SyntaxFactory.Token(SyntaxKind.PartialKeyword).WithTrailingTrivia(SyntaxFactory.Space));
        var first = gauntletCase.Root.ReplaceNode(type, partialType.WithMembers(SyntaxFactory.List(type.Members.Except(moved))));

        var header = $"{string.Join(" ", partialType.Modifiers.Select(m => m.Text))} {partialType.Keyword.Text} {type.Identifier.Text}{type.TypeParameterList}";
        var usings = string.Concat(((CompilationUnitSyntax)gauntletCase.Root).Usings.Select(u => u.ToFullString()));
        var body = $"{header}\n{{\n{string.Concat(moved.Select(m => m.ToFullString()))}\n}}\n";
        var second = type.Parent switch
        {
            FileScopedNamespaceDeclarationSyntax ns => $"{usings}\nnamespace {ns.Name};\n\n{body}",
            NamespaceDeclarationSyntax ns => $"{usings}\nnamespace {ns.Name}\n{{\n{body}}}\n",
            _ => $"{usings}\n{body}",
        };
        return new Variant(Name, gauntletCase, setup, ImmutableArray.Create(("Test0.cs", first.ToFullString()), ("Test1.cs", second)));
    }
}
