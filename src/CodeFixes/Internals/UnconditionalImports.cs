using System.Collections.Generic;
using System.Linq;
using System.Text.RegularExpressions;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp;
using Microsoft.CodeAnalysis.CSharp.Syntax;

namespace TplPractices.Analyzers.CodeFixes.Internals;

/// <summary>
/// In a file whose usings sit partly in <c>#if</c> branches: the namespaces every copy of the file imports (its usings
/// outside any <c>#if</c>, and the compilation's global usings outside any), and the simple names a conditional using
/// may bring in some copy. A type of such a namespace whose name no conditional using may bring binds the same by its
/// simple name in every target (<c>TaskScheduler</c> beside <c>#if NETSTANDARD using Random = …; #endif</c>).
/// </summary>
internal sealed class UnconditionalImports
{
    // A using in a branch the compiler skips is text, not syntax: read its name from the line.
    private static readonly Regex DisabledUsing = new(
        @"^\s*(?:global\s+)?using\s+(?:static\s+)?(?:(?<alias>@?\w+)\s*=\s*)?(?<name>[\w.:@<>, ]+?)\s*;", RegexOptions.Multiline);

    private readonly HashSet<string> _imported;
    private readonly HashSet<string> _mayBeBrought;
    private readonly bool _unknown;

    private UnconditionalImports(HashSet<string> imported, HashSet<string> mayBeBrought, bool unknown)
    {
        _imported = imported;
        _mayBeBrought = mayBeBrought;
        _unknown = unknown;
    }

    public static UnconditionalImports Of(CompilationUnitSyntax? root, Compilation compilation)
    {
        var imported = new HashSet<string>();
        var mayBeBrought = new HashSet<string>();
        var unknown = root is null;
        foreach (var tree in compilation.SyntaxTrees)
        {
            if (tree.GetRoot() is not CompilationUnitSyntax unit || (unit != root && !unit.Usings.Any(u => u.GlobalKeyword.IsKind(SyntaxKind.GlobalKeyword))))
            {
                continue;
            }

            var depths = FileStructure.IfDepths(unit);
            foreach (var directive in unit.Usings.Concat(unit.Members.OfType<BaseNamespaceDeclarationSyntax>().SelectMany(n => n.Usings)))
            {
                if (unit != root && !directive.GlobalKeyword.IsKind(SyntaxKind.GlobalKeyword))
                {
                    continue;
                }

                var name = Plain(directive.Name?.ToString() ?? string.Empty);
                var isStatic = !directive.StaticKeyword.IsKind(SyntaxKind.None);
                if (FileStructure.IfDepthAt(depths, directive.SpanStart) > 0)
                {
                    unknown |= !Bring(directive.Alias?.Name.Identifier.ValueText, isStatic ? null : name, compilation, mayBeBrought);
                }
                else if (directive.Alias is null && !isStatic)
                {
                    imported.Add(name);
                }
            }

            foreach (var text in unit.DescendantTrivia().Where(t => t.IsKind(SyntaxKind.DisabledTextTrivia)))
            {
                foreach (Match match in DisabledUsing.Matches(text.ToString()))
                {
                    var alias = match.Groups["alias"].Success ? match.Groups["alias"].Value.TrimStart('@') : null;
                    unknown |= !Bring(alias, match.Value.Contains("static ") ? null : Plain(match.Groups["name"].Value), compilation, mayBeBrought);
                }
            }
        }

        return new UnconditionalImports(imported, mayBeBrought, unknown);
    }

    /// <summary>Whether a using outside any <c>#if</c> (of this file, or a global one) imports the namespace.</summary>
    public bool Imports(string namespaceName) => _imported.Contains(namespaceName);

    /// <summary>Whether the type's simple name binds to it in every copy of the file through a using of its namespace.</summary>
    public bool BringEverywhere(INamedTypeSymbol type) =>
        !_unknown && type.ContainingType is null && _imported.Contains(type.ContainingNamespace.ToDisplayString()) && !_mayBeBrought.Contains(type.Name);

    /// <summary>
    /// Records what a conditional using may bring: its alias, or the type names of its namespace. False where that is
    /// unknown: a static using, or a namespace this compilation does not have (another target's).
    /// </summary>
    private static bool Bring(string? alias, string? namespaceName, Compilation compilation, HashSet<string> names)
    {
        if (alias is not null)
        {
            names.Add(alias);
            return true;
        }

        if (namespaceName is null || Namespace(compilation.GlobalNamespace, namespaceName) is not { } found)
        {
            return false;
        }

        names.UnionWith(found.GetTypeMembers().Select(t => t.Name));
        return true;
    }

    private static INamespaceSymbol? Namespace(INamespaceSymbol global, string name)
    {
        INamespaceSymbol? current = global;
        foreach (var part in name.Split('.'))
        {
            current = current?.GetNamespaceMembers().FirstOrDefault(n => n.Name == part);
        }

        return current;
    }

    private static string Plain(string name) =>
        (name.StartsWith("global::", System.StringComparison.Ordinal) ? name.Substring("global::".Length) : name).Replace(" ", string.Empty);
}
