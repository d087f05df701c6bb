using System;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp;
using Microsoft.CodeAnalysis.Diagnostics;

namespace TplPractices.Analyzers.CodeFixes.Internals;

/// <summary>
/// Whether a member a fix adds (TPL0003's cached field and its holder, TPL0012's slow path) writes <c>private</c>:
/// not where <c>dotnet_style_require_accessibility_modifiers</c> is <c>omit_if_default</c> (IDE0040 asks that a
/// default accessibility go unwritten) or <c>never</c> (the project writes no modifier it need not: RestSharp's
/// members).
/// </summary>
internal static class DefaultAccessibility
{
    public static bool Omitted(AnalyzerConfigOptions options) =>
        options.TryGetValue("dotnet_style_require_accessibility_modifiers", out var value)
        && value.Split(':')[0].Trim() is var setting
        && (setting.Equals("never", StringComparison.OrdinalIgnoreCase) || setting.Equals("omit_if_default", StringComparison.OrdinalIgnoreCase));

    /// <summary>The setting for <paramref name="tree"/> in <paramref name="document"/>'s project.</summary>
    public static bool Omitted(Document document, SyntaxTree tree) =>
        Omitted(document.Project.AnalyzerOptions.AnalyzerConfigOptionsProvider.GetOptions(tree));

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
