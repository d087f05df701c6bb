using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp;
using Microsoft.CodeAnalysis.CSharp.Syntax;
using TplPractices.Analyzers.Tests.Meta;

namespace TplPractices.Analyzers.Tests.Verifiers;

/// <summary>The C# the tests already hold: the samples, and every raw C# string in the test sources (markup removed).</summary>
public static class TestSources
{
    private static readonly Lazy<IReadOnlyList<(string Origin, string Code)>> All = new(Load);

    /// <summary>Each source with where it came from (a file name, and the line of the string in it).</summary>
    public static IReadOnlyList<(string Origin, string Code)> WithOrigins => All.Value;

    public static IReadOnlyList<string> Codes => All.Value.Select(s => s.Code).ToList();

    private static IReadOnlyList<(string Origin, string Code)> Load()
    {
        var inputs = Directory.GetFiles(Path.Combine(Repository.Root, "samples"), "TPL*.cs", SearchOption.AllDirectories)
            .OrderBy(path => path, StringComparer.Ordinal)
            .Select(path => (Path.GetFileName(path), File.ReadAllText(path)))
            .ToList();
        var tests = Directory.GetFiles(Path.Combine(Repository.Root, "tests"), "*.cs", SearchOption.AllDirectories)
            .Where(path => !path.Contains($"{Path.DirectorySeparatorChar}obj{Path.DirectorySeparatorChar}", StringComparison.Ordinal))
            .OrderBy(path => path, StringComparer.Ordinal);
        foreach (var file in tests)
        {
            var tree = CSharpSyntaxTree.ParseText(File.ReadAllText(file));
            foreach (var literal in tree.GetRoot().DescendantNodes().OfType<LiteralExpressionSyntax>())
            {
                if (literal.Token.IsKind(SyntaxKind.MultiLineRawStringLiteralToken) && literal.Token.ValueText.Contains("using System", StringComparison.Ordinal))
                {
                    var line = tree.GetLineSpan(literal.Span).StartLinePosition.Line + 1;
                    inputs.Add(($"{Path.GetFileName(file)}:{line}", WithoutMarkup(literal.Token.ValueText)));
                }
            }
        }

        return inputs.GroupBy(i => i.Item2, StringComparer.Ordinal).Select(g => g.First()).ToList();
    }

    /// <summary>The source the test library would compile from a test's markup; the text itself where it is not markup.</summary>
    private static string WithoutMarkup(string markup)
    {
        try
        {
            return TestMarkup.Strip(markup);
        }
        catch (ArgumentException)
        {
            return markup;
        }
    }
}
