using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp;
using Microsoft.CodeAnalysis.CSharp.Syntax;
using Microsoft.CodeAnalysis.Text;

namespace TplPractices.Analyzers.Tests.Gauntlet;

/// <summary>Where the fixable diagnostics of a case sit, and the code around them that a fix may rewrite.</summary>
internal static class Sites
{
    /// <summary>The nodes the fixable diagnostics are reported on.</summary>
    public static IEnumerable<SyntaxNode> Nodes(GauntletCase gauntletCase) =>
        gauntletCase.Fixable.Select(d => gauntletCase.Root.FindNode(d.Location.SourceSpan, getInnermostNodeForTie: true)).Distinct();

    /// <summary>The statement of a statement list (a block, a switch section, the top level) that holds the node.</summary>
    public static StatementSyntax? Statement(SyntaxNode node) =>
        node.AncestorsAndSelf().OfType<StatementSyntax>().FirstOrDefault(s => s.Parent is BlockSyntax or SwitchSectionSyntax or GlobalStatementSyntax);

    /// <summary>The member of a type (method, property, field, constructor …) that holds the node.</summary>
    public static MemberDeclarationSyntax? Member(SyntaxNode node) =>
        node.AncestorsAndSelf().OfType<MemberDeclarationSyntax>()
            .FirstOrDefault(m => m is not BaseTypeDeclarationSyntax and not BaseNamespaceDeclarationSyntax and not GlobalStatementSyntax);

    /// <summary>
    /// The code a fix of the site may rewrite: its member when that is short, as most are in tests; otherwise its
    /// statement.
    /// </summary>
    public static SyntaxNode Region(SyntaxNode node)
    {
        var member = Member(node);
        if (member is not null && member.DescendantTokens().Count() <= 400)
        {
            return member;
        }

        return (SyntaxNode?)Statement(node) ?? member ?? node;
    }

    /// <summary>The argument lists in the code a fix of any site may rewrite, outside interpolated strings.</summary>
    public static IEnumerable<ArgumentListSyntax> ArgumentLists(GauntletCase gauntletCase) =>
        Nodes(gauntletCase).Select(Region).Distinct()
            .SelectMany(r => r.DescendantNodes().OfType<ArgumentListSyntax>())
            .Where(l => !l.Ancestors().Any(a => a is InterpolatedStringExpressionSyntax))
            .Distinct();

    /// <summary>The type the site is declared in.</summary>
    public static TypeDeclarationSyntax? Type(SyntaxNode node) => node.AncestorsAndSelf().OfType<TypeDeclarationSyntax>().FirstOrDefault();

    /// <summary>
    /// The lines the node covers, when it has them to itself (nothing but whitespace beside it): where a context can
    /// put preprocessor lines around it.
    /// </summary>
    public static TextSpan? OwnLines(SyntaxNode node)
    {
        var text = node.SyntaxTree.GetText();
        var first = text.Lines.GetLineFromPosition(node.SpanStart);
        var last = text.Lines.GetLineFromPosition(node.Span.End);
        var before = text.ToString(TextSpan.FromBounds(first.Start, node.SpanStart));
        var after = text.ToString(TextSpan.FromBounds(node.Span.End, last.End));
        return string.IsNullOrWhiteSpace(before) && string.IsNullOrWhiteSpace(after)
            ? TextSpan.FromBounds(first.Start, last.EndIncludingLineBreak)
            : null;
    }

    /// <summary>The text with the insertions made (positions in the original text).</summary>
    public static string Insert(string text, IEnumerable<(int Position, string Text)> insertions)
    {
        var result = text;
        foreach (var (position, inserted) in insertions.OrderByDescending(i => i.Position))
        {
            result = result.Insert(position, inserted);
        }

        return result;
    }

    /// <summary>
    /// The text with each stretch of whole lines in both branches of <c>#if NET … #else … #endif</c>: a target that
    /// defines NET compiles one copy, any other the other.
    /// </summary>
    public static string InBothBranches(string text, IEnumerable<TextSpan> lines) => Insert(text, lines.SelectMany(span => new[]
    {
        (span.Start, "#if NET\n"),
        (span.End, "#else\n" + text.Substring(span.Start, span.Length) + "#endif\n"),
    }));

    /// <summary>Whether the token lies inside an interpolated string, where nothing can be put between tokens.</summary>
    public static bool InInterpolatedString(SyntaxToken token) =>
        token.Parent?.AncestorsAndSelf().Any(n => n is InterpolatedStringExpressionSyntax) == true
        && !token.IsKind(SyntaxKind.InterpolatedStringStartToken) && !token.IsKind(SyntaxKind.InterpolatedVerbatimStringStartToken)
        && !token.IsKind(SyntaxKind.InterpolatedSingleLineRawStringStartToken) && !token.IsKind(SyntaxKind.InterpolatedMultiLineRawStringStartToken);
}
