using System;
using System.Linq;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp;
using Microsoft.CodeAnalysis.CSharp.Syntax;
using Microsoft.CodeAnalysis.Diagnostics;

namespace TplPractices.Analyzers.CodeFixes.Internals;

/// <summary>
/// Whether a member a fix adds (TPL0003's cached field and its holder, TPL0012's slow path) writes <c>private</c>:
/// not where <c>dotnet_style_require_accessibility_modifiers</c> is <c>omit_if_default</c> (IDE0040 asks that a
/// default accessibility go unwritten) or <c>never</c> (the project writes no modifier it need not: RestSharp's
/// members). Where no setting says, the file's own members decide, as they decide a new field's name: more of them
/// leaving a default accessibility unwritten than writing <c>private</c>, two at least (DotNetty's TLS stream writes none).
/// </summary>
internal static class DefaultAccessibility
{
    public static bool Omitted(AnalyzerConfigOptions options, SyntaxNode root) =>
        options.TryGetValue("dotnet_style_require_accessibility_modifiers", out var value)
            ? value.Split(':')[0].Trim() is var setting
              && (setting.Equals("never", StringComparison.OrdinalIgnoreCase) || setting.Equals("omit_if_default", StringComparison.OrdinalIgnoreCase))
            : OmittedInFile(root);

    /// <summary>The setting for <paramref name="root"/> in <paramref name="document"/>'s project.</summary>
    public static bool Omitted(Document document, SyntaxNode root) =>
        Omitted(document.Project.AnalyzerOptions.AnalyzerConfigOptionsProvider.GetOptions(root.SyntaxTree), root);

    /// <summary>
    /// Members of classes, structs and records that could write <c>private</c>: more leave it out than write it, and
    /// more than one (a lone helper without a modifier says little). An
    /// interface's, an enum's, an explicit implementation, a static constructor, a finalizer and a partial method
    /// written without a modifier cannot write it, and do not count.
    /// </summary>
    private static bool OmittedInFile(SyntaxNode root)
    {
        var (written, omitted) = (0, 0);
        foreach (var member in root.DescendantNodes(n => n is CompilationUnitSyntax or BaseNamespaceDeclarationSyntax || IsClassLike(n))
            .OfType<MemberDeclarationSyntax>()
            .Where(m => IsClassLike(m.Parent) && CouldBePrivate(m)))
        {
            var accessibility = member.Modifiers.Where(t => SyntaxFacts.IsAccessibilityModifier(t.Kind())).ToList();
            omitted += accessibility.Count == 0 ? 1 : 0;
            written += accessibility.Count == 1 && accessibility[0].IsKind(SyntaxKind.PrivateKeyword) ? 1 : 0;
        }

        return omitted > written && omitted > 1;
    }

    /// <summary>A class, struct or record: a type whose members' default accessibility is <c>private</c>.</summary>
    private static bool IsClassLike(SyntaxNode? node) => node is TypeDeclarationSyntax and not InterfaceDeclarationSyntax;

    private static bool CouldBePrivate(MemberDeclarationSyntax member) => member switch
    {
        ConstructorDeclarationSyntax constructor => !constructor.Modifiers.Any(SyntaxKind.StaticKeyword),
        DestructorDeclarationSyntax => false,
        MethodDeclarationSyntax method => method.ExplicitInterfaceSpecifier is null && !method.Modifiers.Any(SyntaxKind.PartialKeyword)
            && !method.Modifiers.Any(SyntaxKind.OverrideKeyword),
        BasePropertyDeclarationSyntax property => property.ExplicitInterfaceSpecifier is null && !property.Modifiers.Any(SyntaxKind.OverrideKeyword),
        OperatorDeclarationSyntax or ConversionOperatorDeclarationSyntax => false,
        _ => true,
    };

    /// <summary>The tokens of <paramref name="kinds"/>, <c>private</c> left out where <paramref name="omitted"/>.</summary>
    public static SyntaxTokenList Modifiers(bool omitted, params SyntaxKind[] kinds)
    {
        var tokens = new SyntaxTokenList();
        foreach (var kind in kinds)
        {
            if (!(omitted && kind == SyntaxKind.PrivateKeyword))
            {
                tokens = tokens.Add(SyntaxFactory.Token(kind));
            }
        }

        return tokens;
    }
}
