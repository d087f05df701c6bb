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
    /// The tokens in <paramref name="node"/> (not in its trivia: comments, directives, disabled code) of one of the
    /// <paramref name="kinds"/> whose value is <paramref name="word"/>, in source order. An identifier written with a
    /// unicode escape (<c>\u0046oo</c>) or as <c>@Foo</c> is found as well: its value is what counts.
    /// </summary>
    public static List<SyntaxToken> TokensNamed(this SyntaxNode node, string word, params SyntaxKind[] kinds)
    {
        var found = new List<SyntaxToken>();
        var span = node.Span;
        var (text, offset) = TextAround(node);
        var start = span.Start - offset;
        var end = span.End - offset;
        while (NextCandidate(text, word, start, end) is var at and >= 0)
        {
            var token = node.FindToken(offset + at);
            if (token.Span.Contains(offset + at)
                && token.ValueText == word
                && Array.IndexOf(kinds, token.Kind()) >= 0
                && (found.Count == 0 || found[found.Count - 1].SpanStart < token.SpanStart))
            {
                found.Add(token);
            }

            // Past the token, or past an escape that was not one.
            start = Math.Max(at + 1, token.Span.End - offset);
        }

        return found;
    }

    /// <summary>True when <see cref="TokensNamed"/> would find one.</summary>
    public static bool HasTokenNamed(this SyntaxNode node, string word, params SyntaxKind[] kinds) =>
        node.TokensNamed(word, kinds).Count > 0;

    /// <summary>
    /// A string holding the node's text, and the position in the file of its first character. A file's whole text is
    /// the string it was read into, had for free; a large file (over 40,000 characters the compiler holds in chunks)
    /// would be copied whole, so only the node's part is.
    /// </summary>
    private static (string Text, int Offset) TextAround(SyntaxNode node)
    {
        var text = node.SyntaxTree.GetText();
        return text.Length <= LargeFile ? (text.ToString(), 0) : (text.ToString(node.Span), node.SpanStart);
    }

    private const int LargeFile = 40_000;

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
