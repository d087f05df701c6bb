using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp;
using Microsoft.CodeAnalysis.CSharp.Syntax;
using Microsoft.CodeAnalysis.Text;

namespace TplPractices.Analyzers.Tests.Gauntlet.Contexts;

/// <summary>
/// The case indented two spaces a level, or with tabs, with no .editorconfig that says so (as many applications are):
/// every statement and member a fix writes or moves on a line of its own sits one such level inside the brace that
/// holds it, as the author's do. The formatter's default would put it four spaces in, and a member after a rewritten
/// one with it.
/// </summary>
internal sealed class FileIndent(bool tabs) : GauntletContext
{
    /// <summary>One level, in the file's own indentation.</summary>
    private readonly string _level = tabs ? "\t" : "  ";

    public override string Name => tabs ? "indented with tabs" : "two spaces a level";

    public override Variant? Apply(GauntletCase gauntletCase, GauntletSetup setup)
    {
        var text = gauntletCase.Root.SyntaxTree.GetText();
        if (!IndentsByFour(text))
        {
            return null;
        }

        var kept = MultiLineStrings(gauntletCase.Root);
        var lines = text.Lines.Select(line =>
        {
            var content = line.ToString();
            var spaces = content.Length - content.TrimStart(' ').Length;
            return kept.Any(s => s.Contains(line.Start) && s.Start != line.Start)
                ? content
                : string.Concat(Enumerable.Repeat(_level, spaces / 4)) + new string(' ', tabs ? spaces % 4 : spaces % 4 / 2) + content[spaces..];
        });
        return Single(gauntletCase, setup, string.Join("\n", lines), ExpectAsync);
    }

    /// <summary>
    /// Some line ending with a brace is followed by one four spaces deeper (directives skipped): the case shows the
    /// step this context rewrites. Top-level statements with no block, say, show none.
    /// </summary>
    private static bool IndentsByFour(SourceText text)
    {
        var lines = text.Lines.Select(l => l.ToString()).Where(l => l.Trim().Length > 0 && !l.TrimStart().StartsWith('#')).ToList();
        return lines.Zip(lines.Skip(1)).Any(p => p.First.TrimEnd().EndsWith('{') && Spaces(p.Second) == Spaces(p.First) + 4);
    }

    private static int Spaces(string line) => line.Length - line.TrimStart(' ').Length;

    /// <summary>Strings over several lines, whose text moves with no line of them.</summary>
    private static List<TextSpan> MultiLineStrings(SyntaxNode root) =>
        root.DescendantTokens()
            .Where(t => t.IsKind(SyntaxKind.StringLiteralToken) || t.IsKind(SyntaxKind.InterpolatedStringTextToken) || t.IsKind(SyntaxKind.MultiLineRawStringLiteralToken))
            .Select(t => t.Span)
            .Concat(root.DescendantNodes().OfType<InterpolatedStringExpressionSyntax>().Select(s => s.Span))
            .ToList();

    private async Task<string?> ExpectAsync(Solution before, Solution after)
    {
        foreach (var document in after.Projects.First().Documents)
        {
            var old = before.Projects.First().Documents.First(d => d.Name == document.Name);
            var authors = (await old.GetTextAsync()).Lines.Select(l => l.ToString()).ToHashSet(StringComparer.Ordinal);
            var root = (await document.GetSyntaxRootAsync())!;
            var text = root.SyntaxTree.GetText();
            foreach (var (node, brace) in InsideBraces(root))
            {
                var line = text.Lines.GetLineFromPosition(node.SpanStart);
                var braceLine = text.Lines.GetLineFromPosition(brace.SpanStart);
                if (authors.Contains(line.ToString()) || !BeginsLine(text, node.SpanStart) || !BeginsLine(text, brace.SpanStart))
                {
                    continue;
                }

                if (Indentation(line) != Indentation(braceLine) + _level)
                {
                    return $"{document.Name} line {line.LineNumber + 1} is not one level inside its brace: '{line}'";
                }
            }
        }

        return null;
    }

    /// <summary>Each statement of a block and member of a type or namespace, with the brace that opens what holds it.</summary>
    private static IEnumerable<(SyntaxNode Node, SyntaxToken Brace)> InsideBraces(SyntaxNode root)
    {
        foreach (var node in root.DescendantNodes())
        {
            switch (node.Parent)
            {
                case BlockSyntax block when node is StatementSyntax:
                    yield return (node, block.OpenBraceToken);
                    break;
                case TypeDeclarationSyntax type when node is MemberDeclarationSyntax:
                    yield return (node, type.OpenBraceToken);
                    break;
                case NamespaceDeclarationSyntax space when node is MemberDeclarationSyntax:
                    yield return (node, space.OpenBraceToken);
                    break;
            }
        }
    }

    private static bool BeginsLine(SourceText text, int position) =>
        string.IsNullOrWhiteSpace(text.ToString(TextSpan.FromBounds(text.Lines.GetLineFromPosition(position).Start, position)));

    private static string Indentation(TextLine line) => line.ToString()[..(line.ToString().Length - line.ToString().TrimStart().Length)];
}
