using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp;
using Microsoft.CodeAnalysis.CSharp.Syntax;
using TplPractices.Analyzers.Internals;

namespace TplPractices.Analyzers.Tests.Rules;

/// <summary>
/// TPL0008 and TPL0010 find names by searching the source text (<see cref="TextSearch"/>): what the search finds must
/// be what a walk over every token finds, whatever the text around it.
/// </summary>
public sealed class TextSearchTests
{
    private const string Code = """
        class C
        {
            // Get() in a comment
            string Text => "Get()" + $"{Get()} Get";
            int Getter() => Get() + @Get() + \u0047et() + G\u0065t();
        #if NEVER
            int Hidden() => Get();
        #endif
            int Get() { lock (this) { } return 1; }
        }
        """;

    /// <summary>What a walk over every token gives: the reference the search is held to.</summary>
    private static List<SyntaxToken> Walked(SyntaxNode node, string word, SyntaxKind kind) =>
        node.DescendantTokens().Where(t => t.IsKind(kind) && t.ValueText == word).ToList();

    [Fact]
    public void FindsWhatAWalkFinds_AndNothingInCommentsStringsOrDisabledCode()
    {
        var root = CSharpSyntaxTree.ParseText(Code).GetRoot();

        var found = root.TokensNamed("Get", SyntaxKind.IdentifierToken);

        Assert.Equal(Walked(root, "Get", SyntaxKind.IdentifierToken), found);
        // The interpolation, the plain call, @Get, the two escaped spellings, and the declaration.
        Assert.Equal(6, found.Count);
        Assert.Equal(new[] { "Get", "Get", "@Get", "\\u0047et", "G\\u0065t", "Get" }, found.Select(t => t.Text));
    }

    [Fact]
    public void KeywordsAreFoundByKind()
    {
        var root = CSharpSyntaxTree.ParseText(Code.Replace("lock (this)", "lock (@lock)", StringComparison.Ordinal)).GetRoot();

        Assert.Single(root.TokensNamed("lock", SyntaxKind.LockKeyword));
        Assert.Single(root.TokensNamed("lock", SyntaxKind.IdentifierToken));
        Assert.False(root.HasTokenNamed("Getter", SyntaxKind.LockKeyword));
    }

    /// <summary>The early-stopping test answers as the full search does, for names found, escaped, hidden and absent.</summary>
    [Theory]
    [InlineData("Get", true)]
    [InlineData("Getter", true)]
    [InlineData("Text", true)]
    [InlineData("Hidden", false)]
    [InlineData("Missing", false)]
    public void HasTokenNamed_AnswersAsTheSearch(string word, bool expected)
    {
        var root = CSharpSyntaxTree.ParseText(Code).GetRoot();
        var escapedOnly = root.DescendantNodes().OfType<InvocationExpressionSyntax>().Single(i => i.ToString() == "\\u0047et()");

        Assert.Equal(expected, root.HasTokenNamed(word, SyntaxKind.IdentifierToken));
        Assert.Equal(Walked(root, word, SyntaxKind.IdentifierToken).Count > 0, root.HasTokenNamed(word, SyntaxKind.IdentifierToken));
        Assert.True(escapedOnly.HasTokenNamed("Get", SyntaxKind.IdentifierToken));
    }

    [Fact]
    public void SearchesOnlyTheNode()
    {
        var root = CSharpSyntaxTree.ParseText(Code).GetRoot();
        var getter = root.DescendantNodes().OfType<MethodDeclarationSyntax>().Single(m => m.Identifier.ValueText == "Getter");

        Assert.Equal(Walked(getter, "Get", SyntaxKind.IdentifierToken), getter.TokensNamed("Get", SyntaxKind.IdentifierToken));
        Assert.Equal(4, getter.TokensNamed("Get", SyntaxKind.IdentifierToken).Count);
    }

    /// <summary>
    /// The word in the trivia just before a token that is the word (a comment over the call, the other branch of an
    /// <c>#if</c>): the token is still found. Once, the search skipped past the token that owned the trivia.
    /// </summary>
    [Theory]
    [InlineData("// Get() first\n        Get();")]
    [InlineData("/* Get */ Get();")]
    [InlineData("#if NEVER\n        Get();\n#else\n        Get();\n#endif")]
    [InlineData("#if NEVER\n        Get(); Get();\n#endif\n        Get();")]
    public void AWordInTheTokensOwnTrivia_DoesNotHideTheToken(string statements)
    {
        var root = CSharpSyntaxTree.ParseText($$"""
            class C
            {
                void M()
                {
                    {{statements}}
                }
                int Get() => 1;
            }
            """).GetRoot();
        var body = root.DescendantNodes().OfType<MethodDeclarationSyntax>().Single(m => m.Identifier.ValueText == "M").Body!;

        Assert.Single(Walked(body, "Get", SyntaxKind.IdentifierToken));
        Assert.Equal(Walked(body, "Get", SyntaxKind.IdentifierToken), body.TokensNamed("Get", SyntaxKind.IdentifierToken));
        Assert.True(body.HasTokenNamed("Get", SyntaxKind.IdentifierToken));
    }

    /// <summary>A file over 40,000 characters is searched through a copy of the node's text alone.</summary>
    [Fact]
    public void LargeFiles_AreSearchedFromTheNodesOwnText()
    {
        var filler = string.Concat(Enumerable.Repeat("    int Get_Filler() => 0; // Get\n", 2_000));
        var root = CSharpSyntaxTree.ParseText(Code.Replace("{\n", "{\n" + filler, StringComparison.Ordinal)).GetRoot();
        Assert.True(root.FullSpan.Length > 40_000);
        var getter = root.DescendantNodes().OfType<MethodDeclarationSyntax>().Single(m => m.Identifier.ValueText == "Getter");

        Assert.Equal(Walked(getter, "Get", SyntaxKind.IdentifierToken), getter.TokensNamed("Get", SyntaxKind.IdentifierToken));
        Assert.Equal(Walked(root, "Get", SyntaxKind.IdentifierToken), root.TokensNamed("Get", SyntaxKind.IdentifierToken));
    }
}
