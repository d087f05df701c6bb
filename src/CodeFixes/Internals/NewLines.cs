using System.Linq;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp;
using static Microsoft.CodeAnalysis.CSharp.SyntaxFactory;

namespace TplPractices.Analyzers.CodeFixes.Internals;

/// <summary>Line breaks for new blocks: the formatter keeps a new lambda block on one line unless told to break it.</summary>
internal static class NewLines
{
    /// <summary>An elastic line break in the file's own style (LF or CRLF).</summary>
    public static SyntaxTrivia Of(SyntaxNode root) =>
        ElasticEndOfLine(root.DescendantTrivia().FirstOrDefault(t => t.IsKind(SyntaxKind.EndOfLineTrivia)).ToString() is { Length: > 0 } eol ? eol : "\n");
}
