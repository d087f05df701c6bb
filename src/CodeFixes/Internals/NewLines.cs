using System.Linq;
using System.Threading;
using System.Threading.Tasks;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp;
using Microsoft.CodeAnalysis.Text;
using static Microsoft.CodeAnalysis.CSharp.SyntaxFactory;

namespace TplPractices.Analyzers.CodeFixes.Internals;

/// <summary>Line breaks for new blocks: the formatter keeps a new lambda block on one line unless told to break it.</summary>
internal static class NewLines
{
    /// <summary>An elastic line break in the file's own style (LF or CRLF).</summary>
    public static SyntaxTrivia Of(SyntaxNode root) => ElasticEndOfLine(OwnOf(root) ?? "\n");

    /// <summary>A line break in the file's own style that the formatter keeps as it is, with the blank lines beside it.</summary>
    public static SyntaxTrivia FixedOf(SyntaxNode root) => EndOfLine(OwnOf(root) ?? "\n");

    /// <summary>The file's first line break, or null in a file of one line.</summary>
    private static string? OwnOf(SyntaxNode root) =>
        root.DescendantTrivia().FirstOrDefault(t => t.IsKind(SyntaxKind.EndOfLineTrivia)).ToString() is { Length: > 0 } eol ? eol : null;

    /// <summary>
    /// The rewritten document with every line break the fix wrote in the file's own style. The formatter writes the
    /// <c>end_of_line</c> of .editorconfig, which a file does not always follow (CRLF configured, LF files): the file wins.
    /// Where every line of the file ends alike, the whole text is put in its style: a text diff may split a CRLF the
    /// formatter wrote where the file had LF into an inserted lone CR, which no change's text shows as a line break.
    /// </summary>
    public static async Task<Document> AsTheFileHasAsync(Document original, Document rewritten, CancellationToken cancellationToken)
    {
        if (await original.GetSyntaxRootAsync(cancellationToken).ConfigureAwait(false) is not { } root || OwnOf(root) is not { } own)
        {
            return rewritten;
        }

        var text = await original.GetTextAsync(cancellationToken).ConfigureAwait(false);
        if (IsUniform(text.ToString(), own))
        {
            var written = await rewritten.GetTextAsync(cancellationToken).ConfigureAwait(false);
            var all = written.ToString();
            var normalized = Normalized(all, own);
            return normalized == all ? rewritten : original.WithText(SourceText.From(normalized, written.Encoding, written.ChecksumAlgorithm));
        }

        var changes = (await rewritten.GetTextChangesAsync(original, cancellationToken).ConfigureAwait(false)).ToList();
        if (changes.All(c => c.NewText is null || Normalized(c.NewText, own) == c.NewText))
        {
            return rewritten;
        }

        return original.WithText(text.WithChanges(changes.Select(c => new TextChange(c.Span, Normalized(c.NewText ?? string.Empty, own)))));
    }

    /// <summary>Whether every line break of the text is <paramref name="own"/>: then so are those inside its literals.</summary>
    private static bool IsUniform(string text, string own)
    {
        for (var i = 0; i < text.Length; i++)
        {
            var isCrLf = text[i] == '\r' && i + 1 < text.Length && text[i + 1] == '\n';
            if (text[i] == '\r' && (!isCrLf || own != "\r\n") || text[i] == '\n' && own != "\n")
            {
                return false;
            }

            i += isCrLf ? 1 : 0;
        }

        return true;
    }

    private static string Normalized(string text, string lineBreak) =>
        text.Replace("\r\n", "\n").Replace("\n", lineBreak);
}
