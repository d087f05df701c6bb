using System.Collections.Generic;
using System.Linq;
using System.Threading;
using System.Threading.Tasks;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp;
using Microsoft.CodeAnalysis.CSharp.Syntax;
using Microsoft.CodeAnalysis.Simplification;

namespace TplPractices.Analyzers.CodeFixes.Internals;

/// <summary>
/// For a file whose usings sit in <c>#if</c> branches, where the simplifier may not lean on them: the type names a
/// rewrite wrote fully qualified are shortened where the short form needs no using, so it binds the same in every
/// target. A type with a keyword gets it (<c>object</c>, not <c>global::System.Object</c>); a type of a namespace the
/// code is inside gets its simple name (<c>TaskCreationOptions</c> in <c>namespace System.Threading.Tasks</c>), and so
/// does a type of a namespace every copy imports, whose name no conditional using may bring (<see cref="UnconditionalImports"/>).
/// </summary>
internal static class NamesInScope
{
    public static async Task<Document> ReduceAsync(Document document, CancellationToken cancellationToken)
    {
        var root = await document.GetSyntaxRootAsync(cancellationToken).ConfigureAwait(false);
        var model = await document.GetSemanticModelAsync(cancellationToken).ConfigureAwait(false);
        if (root is null || model is null)
        {
            return document;
        }

        // Each name's short form: its keyword, or SyntaxKind.None for its simple name.
        var shorter = new Dictionary<SyntaxNode, SyntaxKind>();
        UnconditionalImports? imports = null;
        foreach (var node in root.GetAnnotatedNodes(Simplifier.Annotation).SelectMany(n => n.DescendantNodesAndSelf()))
        {
            if (node is QualifiedNameSyntax or AliasQualifiedNameSyntax or MemberAccessExpressionSyntax
                && model.GetSymbolInfo(node, cancellationToken).Symbol is INamedTypeSymbol type
                && Shortened(node, type, model, () => imports ??= UnconditionalImports.Of(root as CompilationUnitSyntax, model.Compilation)) is { } keyword)
            {
                shorter[node] = keyword;
            }
        }

        if (shorter.Count == 0)
        {
            return document;
        }

        var reduced = root.ReplaceNodes(shorter.Keys, (original, rewritten) =>
            (shorter[original] is var keyword && keyword != SyntaxKind.None
                ? (SyntaxNode)SyntaxFactory.PredefinedType(SyntaxFactory.Token(keyword))
                : RightmostName(rewritten))
            .WithTriviaFrom(original));
        return document.WithSyntaxRoot(reduced);
    }

    /// <summary>The type's keyword, <c>SyntaxKind.None</c> for its simple name, or null where neither is sure to bind the same.</summary>
    private static SyntaxKind? Shortened(SyntaxNode node, INamedTypeSymbol type, SemanticModel model, System.Func<UnconditionalImports> imports)
    {
        if (Keyword(type.SpecialType) is var keyword && keyword != SyntaxKind.None)
        {
            return keyword;
        }

        if (type.ContainingType is not null || !(IsInside(node, type.ContainingNamespace) || imports().BringEverywhere(type)))
        {
            return null;
        }

        var option = node is ExpressionSyntax expression && SyntaxFacts.IsInTypeOnlyContext(expression)
            ? SpeculativeBindingOption.BindAsTypeOrNamespace
            : SpeculativeBindingOption.BindAsExpression;
        var bound = model.GetSpeculativeSymbolInfo(node.SpanStart, RightmostName(node), option).Symbol;
        return SymbolEqualityComparer.Default.Equals(bound?.OriginalDefinition, type.OriginalDefinition) ? SyntaxKind.None : null;
    }

    /// <summary>The namespace is the one a declaration around the node names, or one that contains it.</summary>
    private static bool IsInside(SyntaxNode node, INamespaceSymbol? namespaceSymbol)
    {
        if (namespaceSymbol is null || namespaceSymbol.IsGlobalNamespace)
        {
            return false;
        }

        var name = namespaceSymbol.ToDisplayString();
        var enclosing = string.Join(".", node.Ancestors().OfType<BaseNamespaceDeclarationSyntax>().Reverse().Select(n => n.Name.ToString()));
        return enclosing == name || enclosing.StartsWith(name + ".", System.StringComparison.Ordinal);
    }

    private static SimpleNameSyntax RightmostName(SyntaxNode node) => node switch
    {
        QualifiedNameSyntax qualified => qualified.Right,
        AliasQualifiedNameSyntax alias => alias.Name,
        MemberAccessExpressionSyntax access => access.Name,
        _ => (SimpleNameSyntax)node,
    };

    private static SyntaxKind Keyword(SpecialType type) => type switch
    {
        SpecialType.System_Object => SyntaxKind.ObjectKeyword,
        SpecialType.System_String => SyntaxKind.StringKeyword,
        SpecialType.System_Boolean => SyntaxKind.BoolKeyword,
        SpecialType.System_Char => SyntaxKind.CharKeyword,
        SpecialType.System_SByte => SyntaxKind.SByteKeyword,
        SpecialType.System_Byte => SyntaxKind.ByteKeyword,
        SpecialType.System_Int16 => SyntaxKind.ShortKeyword,
        SpecialType.System_UInt16 => SyntaxKind.UShortKeyword,
        SpecialType.System_Int32 => SyntaxKind.IntKeyword,
        SpecialType.System_UInt32 => SyntaxKind.UIntKeyword,
        SpecialType.System_Int64 => SyntaxKind.LongKeyword,
        SpecialType.System_UInt64 => SyntaxKind.ULongKeyword,
        SpecialType.System_Single => SyntaxKind.FloatKeyword,
        SpecialType.System_Double => SyntaxKind.DoubleKeyword,
        SpecialType.System_Decimal => SyntaxKind.DecimalKeyword,
        SpecialType.System_Void => SyntaxKind.VoidKeyword,
        _ => SyntaxKind.None,
    };
}
