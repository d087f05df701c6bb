using System.Collections.Generic;
using System.Linq;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp;
using Microsoft.CodeAnalysis.CSharp.Syntax;

namespace TplPractices.Analyzers.CodeFixes.Internals;

/// <summary>
/// Which partial types a rewrite added members to, by name. Fix All rewrites a batch of documents against one
/// solution, where no part sees what another part's fix adds; two parts that both grow are fixed one after the other
/// instead, so the second can reuse what the first added (TPL0003's cached field) rather than add its own.
/// </summary>
internal static class PartialTypeGrowth
{
    /// <summary>The full names of the partial types declared in the file that have more members after than before.</summary>
    public static IReadOnlyCollection<string> Grown(SyntaxNode before, SyntaxNode after)
    {
        var was = MemberCounts(before);
        return MemberCounts(after)
            .Where(type => type.Value > (was.TryGetValue(type.Key, out var count) ? count : 0))
            .Select(type => type.Key)
            .ToList();
    }

    private static Dictionary<string, int> MemberCounts(SyntaxNode root) =>
        root.DescendantNodes(node => node is CompilationUnitSyntax or BaseNamespaceDeclarationSyntax or TypeDeclarationSyntax)
            .OfType<TypeDeclarationSyntax>()
            .Where(type => type.Modifiers.Any(SyntaxKind.PartialKeyword))
            .GroupBy(FullName)
            .ToDictionary(group => group.Key, group => group.Sum(type => type.Members.Count));

    private static string FullName(TypeDeclarationSyntax type) =>
        string.Join(
            ".",
            type.AncestorsAndSelf().Reverse().Select(node => node switch
            {
                BaseNamespaceDeclarationSyntax ns => ns.Name.ToString(),
                TypeDeclarationSyntax declared => $"{declared.Identifier.ValueText}`{declared.Arity}",
                _ => null,
            }).Where(part => part is not null));
}
