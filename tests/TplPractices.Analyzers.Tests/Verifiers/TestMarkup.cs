using System.Collections.Immutable;
using Microsoft.CodeAnalysis.Testing;
using Microsoft.CodeAnalysis.Text;

namespace TplPractices.Analyzers.Tests.Verifiers;

public static class TestMarkup
{
    /// <summary>The source the test library compiles from a test's markup: spans and location markers removed.</summary>
    public static string Strip(string markup)
    {
        TestFileMarkupParser.GetSpans(markup, out var source, out ImmutableDictionary<string, ImmutableArray<TextSpan>> _);
        return source;
    }
}
