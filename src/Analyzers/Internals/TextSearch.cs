using System;
using System.Collections.Generic;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp;

namespace TplPractices.Analyzers.Internals;

/// <summary>
/// Finds tokens by their text. Walking a node's tokens builds the red tree under it and costs hundreds of instructions
/// a token; most questions here ("does this type call M?") have few or no answers, so the source text is searched
/// instead (an ordinal, vectorized scan) and only the tokens at its matches are read, each by one descent from the
/// node.
/// </summary>
internal static class TextSearch
{
    /// <summary>
    /// A file's whole text is the string it was read into, had for free; a large file (over 40,000 characters the
    /// compiler holds in chunks) would be copied whole, so only the node's part is.
    /// </summary>
    private const int LargeFile = 40_000;

    /// <summary>
    /// The tokens in <paramref name="node"/> (not in its trivia: comments, directives, disabled code) of the
    /// <paramref name="kind"/> whose value is <paramref name="word"/>, in source order. An identifier written with a
    /// unicode escape (<c>\u0046oo</c>) or as <c>@Foo</c> is found as well: its value is what counts.
    /// </summary>
    public static List<SyntaxToken> TokensNamed(this SyntaxNode node, string word, SyntaxKind kind)
    {
        var found = new List<SyntaxToken>();
        Search(node, word, kind, found);
        return found;
    }

    /// <summary>
    /// Text the compiler does not bind (inactive code, another file's whole text): whether <paramref name="word"/> occurs
    /// with no identifier character on either side.
    /// </summary>
    public static bool ContainsWord(string text, string word)
    {
        for (var at = text.IndexOf(word, StringComparison.Ordinal); at >= 0; at = text.IndexOf(word, at + 1, StringComparison.Ordinal))
        {
            var end = at + word.Length;
            if ((at == 0 || !SyntaxFacts.IsIdentifierPartCharacter(text[at - 1]))
                && (end == text.Length || !SyntaxFacts.IsIdentifierPartCharacter(text[end])))
            {
                return true;
            }
        }

        return false;
    }

    /// <summary>True when <see cref="TokensNamed"/> would find one; stops at the first.</summary>
    public static bool HasTokenNamed(this SyntaxNode node, string word, SyntaxKind kind) => Search(node, word, kind, found: null);

    /// <summary>True when <see cref="TokensNamed"/> would find one that <paramref name="accept"/> takes; stops at the first.</summary>
    public static bool HasTokenNamed(this SyntaxNode node, string word, SyntaxKind kind, Func<SyntaxToken, bool> accept) =>
        Search(node, word, kind, found: null, accept: accept);

    /// <summary>True when <see cref="TokensNamed"/> would find one that starts before <paramref name="position"/>.</summary>
    public static bool HasTokenNamedBefore(this SyntaxNode node, int position, string word, SyntaxKind kind) =>
        Search(node, word, kind, found: null, before: position);

    /// <summary>Adds the tokens found to <paramref name="found"/>; with none given, returns true at the first.</summary>
    private static bool Search(SyntaxNode node, string word, SyntaxKind kind, List<SyntaxToken>? found, int before = int.MaxValue, Func<SyntaxToken, bool>? accept = null)
    {
        var last = -1;
        var text = TextAround(node, out var offset);
        var start = node.Span.Start - offset;
        var end = Math.Min(node.Span.End, before) - offset;
        while (NextCandidate(text, word, start, end) is var at and >= 0)
        {
            var token = node.FindToken(offset + at);
            // An escaped identifier can be reached twice (at the word and at an escape in it): it counts once.
            if (token.Span.Contains(offset + at) && token.ValueText == word && token.IsKind(kind) && token.SpanStart > last
                && (accept is null || accept(token)))
            {
                if (found is null)
                {
                    return true;
                }

                last = token.SpanStart;
                found.Add(token);
            }

            // A match in the token's leading trivia (a comment, disabled code) is not the token: the token itself is
            // read next. Otherwise past the token, or past an escape that was not one.
            start = offset + at < token.SpanStart ? token.SpanStart - offset : Math.Max(at + 1, token.Span.End - offset);
        }

        return found?.Count > 0;
    }

    /// <summary>A string holding the node's text, and the position in the file of its first character (<see cref="LargeFile"/>).</summary>
    private static string TextAround(SyntaxNode node, out int offset)
    {
        var text = node.SyntaxTree.GetText();
        if (text.Length <= LargeFile)
        {
            offset = 0;
            return text.ToString();
        }

        offset = node.SpanStart;
        return text.ToString(node.Span);
    }

    /// <summary>
    /// The next place before <paramref name="end"/> where the word, or an escape that could spell it (<c>\u</c>,
    /// <c>\U</c>), starts; -1 when there is none.
    /// </summary>
    private static int NextCandidate(string text, string word, int start, int end)
    {
        if (start >= end)
        {
            return -1;
        }

        var plain = text.IndexOf(word, start, end - start, StringComparison.Ordinal);
        var escape = text.IndexOf('\\', start, end - start);
        while (escape >= 0 && (plain < 0 || escape < plain))
        {
            if (escape + 1 < end && text[escape + 1] is 'u' or 'U')
            {
                return escape;
            }

            escape = escape + 1 < end ? text.IndexOf('\\', escape + 1, end - escape - 1) : -1;
        }

        return plain;
    }
}
