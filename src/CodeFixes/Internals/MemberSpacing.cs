using System.Collections.Generic;
using System.Collections.Immutable;
using System.Linq;
using System.Threading;
using System.Threading.Tasks;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp;
using Microsoft.CodeAnalysis.CSharp.Syntax;
using Microsoft.CodeAnalysis.Text;

namespace TplPractices.Analyzers.CodeFixes.Internals;

/// <summary>
/// A member a fix wrote (a cached task's field) that wrapping left on several lines, or that stands beside a member
/// on several lines, is set apart from it by a blank line, as single-line fields need not be: StyleCop's SA1516, an
/// error where warnings are, asks for it (found on Jellyfin, whose new field wrapped before its logger field, and on
/// Stateless, whose new field followed a constant laid over three lines).
/// </summary>
internal static class MemberSpacing
{
    public static async Task<Document> SeparateAsync(Document original, Document document, CancellationToken cancellationToken)
    {
        // Only members the fix added (names the file did not have): an author's members keep the spacing they have.
        if (await document.GetSyntaxRootAsync(cancellationToken).ConfigureAwait(false) is not { } root
            || await original.GetSyntaxRootAsync(cancellationToken).ConfigureAwait(false) is not { } originalRoot)
        {
            return document;
        }

        var existing = originalRoot.DescendantNodes(IsMemberContainer).OfType<MemberDeclarationSyntax>().SelectMany(NamesOf).ToImmutableHashSet();
        var added = root.DescendantNodes(IsMemberContainer).OfType<MemberDeclarationSyntax>()
            .Where(m => m is not BaseTypeDeclarationSyntax && NamesOf(m).Any() && !NamesOf(m).Any(existing.Contains))
            .ToList();
        if (added.Count == 0)
        {
            return document;
        }

        var text = await document.GetTextAsync(cancellationToken).ConfigureAwait(false);
        var breaks = new SortedSet<int>();
        foreach (var member in added)
        {
            if (member.Parent is not TypeDeclarationSyntax type)
            {
                continue;
            }

            // A blank line above the member (unless it opens the type) and above the member after it, where either of
            // the two it stands between runs over several lines (an author's constant laid over three lines, too).
            var index = type.Members.IndexOf(member);
            if (index > 0 && (SpansLines(text, member) || SpansLines(text, type.Members[index - 1])) && !HasBlankLineBefore(text, member))
            {
                breaks.Add(text.Lines[FirstLine(text, member)].Start);
            }

            if (index + 1 < type.Members.Count && (SpansLines(text, member) || SpansLines(text, type.Members[index + 1]))
                && !HasBlankLineBefore(text, type.Members[index + 1]))
            {
                breaks.Add(text.Lines[FirstLine(text, type.Members[index + 1])].Start);
            }
        }

        if (breaks.Count == 0)
        {
            return document;
        }

        var newLine = NewLines.FixedOf(root).ToFullString();
        return document.WithText(text.WithChanges(breaks.Select(position => new TextChange(new TextSpan(position, 0), newLine))));
    }

    private static bool IsMemberContainer(SyntaxNode node) => node is CompilationUnitSyntax or BaseNamespaceDeclarationSyntax or TypeDeclarationSyntax;

    private static IEnumerable<string> NamesOf(MemberDeclarationSyntax member) => member switch
    {
        BaseFieldDeclarationSyntax field => field.Declaration.Variables.Select(v => v.Identifier.ValueText),
        MethodDeclarationSyntax method => new[] { method.Identifier.ValueText },
        PropertyDeclarationSyntax property => new[] { property.Identifier.ValueText },
        BaseTypeDeclarationSyntax type => new[] { type.Identifier.ValueText },
        _ => Enumerable.Empty<string>(),
    };

    private static int LineOf(SourceText text, int position) => text.Lines.GetLineFromPosition(position).LineNumber;

    private static bool SpansLines(SourceText text, MemberDeclarationSyntax member) => LineOf(text, member.SpanStart) < LineOf(text, member.Span.End);

    /// <summary>The member's first line, its comments and attributes included.</summary>
    private static int FirstLine(SourceText text, MemberDeclarationSyntax member) =>
        LineOf(text, member.GetLeadingTrivia().Where(t => !t.IsKind(SyntaxKind.EndOfLineTrivia) && !t.IsKind(SyntaxKind.WhitespaceTrivia))
            .Select(t => t.SpanStart).DefaultIfEmpty(member.SpanStart).First());

    /// <summary>Whether the line above the member's first line is blank or opens its type.</summary>
    private static bool HasBlankLineBefore(SourceText text, MemberDeclarationSyntax member)
    {
        var first = FirstLine(text, member);
        var above = first == 0 ? string.Empty : text.Lines[first - 1].ToString().Trim();
        return above.Length == 0 || above.EndsWith("{", System.StringComparison.Ordinal);
    }
}
