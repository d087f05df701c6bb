using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp;
using TplPractices.Analyzers.Tests.Verifiers;
using Verify = TplPractices.Analyzers.Tests.Verifiers.CSharpCodeFixVerifier<
    TplPractices.Analyzers.Rules.PassThroughAsyncAnalyzer,
    TplPractices.Analyzers.CodeFixes.Rules.PassThroughAsyncFixer>;

namespace TplPractices.Analyzers.Tests.Rules;

/// <summary>
/// TPL0016 where the test that chooses the await reads the <c>Length</c> of a string or array that cannot be null: a
/// variable its pattern matched (<c>o is string s &amp;&amp; s.Length &gt; 0</c>), a null-conditional <c>s?.Length</c>,
/// or a property pattern (<c>{ Length: &gt; 0 }</c>), which tests for null first. The length reads a field and cannot
/// throw, so no exception moves out of the task.
/// </summary>
public sealed class PassThroughAsyncLengthTests
{
    /// <summary>C# 7.3's forms, the same on netstandard2.0 beside net10.0.</summary>
    private const string Lengths = /* lang=c#-test */ """
        using System.Threading.Tasks;

        public class Texts
        {
            private async Task<string> LookupAsync(string key) { await Task.Yield(); return "v:" + key; }

            public async Task<string> Matched(object value)
            {
                if (value is string text && text.Length > 2) return [|await|] LookupAsync(text);
                return await LookupAsync("short");
            }

            public async Task<string> Tested(string text) => text?.Length == 0 ? [|await|] LookupAsync("empty") : await LookupAsync("some");

            public async Task<string> Cased(object value)
            {
                switch (value)
                {
                    case string[] parts when parts.Length > 1:
                        return [|await|] LookupAsync("parts");
                    default:
                        return await LookupAsync("one");
                }
            }
        }

        public static class Api
        {
            public static async Task<string> Run(object value, string text)
            {
                var texts = new Texts();
                return await texts.Matched(value) + "," + await texts.Tested(text) + "," + await texts.Cased(value);
            }
        }
        """;

    private static string LengthsFixed() => TestMarkup.Strip(Lengths)
        .Replace("public async Task<string> Matched", "public Task<string> Matched", System.StringComparison.Ordinal)
        .Replace("return await LookupAsync(text);", "return LookupAsync(text);", System.StringComparison.Ordinal)
        .Replace("return await LookupAsync(\"short\");", "return LookupAsync(\"short\");", System.StringComparison.Ordinal)
        .Replace("public async Task<string> Tested(string text) => text?.Length == 0 ? await LookupAsync(\"empty\") : await LookupAsync(\"some\");",
            "public Task<string> Tested(string text) => text?.Length == 0 ? LookupAsync(\"empty\") : LookupAsync(\"some\");", System.StringComparison.Ordinal)
        .Replace("public async Task<string> Cased", "public Task<string> Cased", System.StringComparison.Ordinal)
        .Replace("return await LookupAsync(\"parts\");", "return LookupAsync(\"parts\");", System.StringComparison.Ordinal)
        .Replace("return await LookupAsync(\"one\");", "return LookupAsync(\"one\");", System.StringComparison.Ordinal);

    [Fact]
    public async Task LengthsOfMatchedOrTestedValues_AreFixed_OnEveryTarget()
    {
        await new Verify.Test
        {
            TestCode = Lengths,
            FixedCode = LengthsFixed(),
            LinkedTargets = { new LinkedTarget(TestTarget.NetStandard20, LanguageVersion.CSharp7_3, NullableContextOptions.Disable) },
        }.RunAsync();
    }

    /// <summary>Each path, null included, returns the same before and after the fix.</summary>
    [Theory]
    [InlineData(null, null)]
    [InlineData("ab", "")]
    [InlineData("abc", "x")]
    [InlineData(new[] { "p", "q" }, "")]
    [InlineData(new[] { "p" }, null)]
    public async Task FixedCode_DoesWhatTheOriginalDid(object? value, string? text)
    {
        var original = await CodeRunner.RunAsync(TestMarkup.Strip(Lengths), "Api", "Run", value, text);
        Assert.StartsWith("returned v:", original, System.StringComparison.Ordinal);
        Assert.Equal(original, await CodeRunner.RunAsync(LengthsFixed(), "Api", "Run", value, text));
    }

    /// <summary>A property pattern on the length (C# 9's relational patterns), negated or in a switch expression's arm.</summary>
    [Fact]
    public async Task PropertyPatternsOnTheLength_AreFixed()
    {
        await new Verify.Test
        {
            TestCode = /* lang=c#-test */ """
                #nullable enable
                using System.Threading.Tasks;

                public class Texts
                {
                    private async Task<int> CountAsync(int n) { await Task.Yield(); return n; }

                    public async Task<int> Blank(string? text)
                    {
                        if (text is not { Length: > 0 }) return [|await|] CountAsync(0);
                        return await CountAsync(1);
                    }

                    public async Task<int> Armed(object value) => [|await|] (value switch { int[] { Length: 0 } => CountAsync(0), string s => CountAsync(s.Length), _ => CountAsync(-1) });
                }
                """,
            FixedCode = /* lang=c#-test */ """
                #nullable enable
                using System.Threading.Tasks;

                public class Texts
                {
                    private async Task<int> CountAsync(int n) { await Task.Yield(); return n; }

                    public Task<int> Blank(string? text)
                    {
                        if (text is not { Length: > 0 }) return CountAsync(0);
                        return CountAsync(1);
                    }

                    public Task<int> Armed(object value) => value switch { int[] { Length: 0 } => CountAsync(0), string s => CountAsync(s.Length), _ => CountAsync(-1) };
                }
                """,
        }.RunAsync();
    }

    /// <summary>
    /// Not reported: the length of a parameter (a caller's <c>null!</c> passes it), of a <c>var</c> pattern's variable
    /// (it matches null), of a matched variable assigned again, of a two-dimension array (its count can overflow), and
    /// a collection's <c>Count</c> (a property with a body).
    /// </summary>
    [Fact]
    public async Task LengthsThatCanThrow_AreNotReported()
    {
        await Verify.VerifyAnalyzerAsync(/* lang=c#-test */ """
            using System.Collections.Generic;
            using System.Threading.Tasks;

            public class Quiet
            {
                private async Task<int> LoadAsync(int id) { await Task.Yield(); return id; }

                public async Task<int> Parameter(int[] items) { if (items.Length > 0) return await LoadAsync(0); return await LoadAsync(1); }
                public async Task<int> AnyValue(string value) { if (value is var text && text.Length > 0) return await LoadAsync(0); return await LoadAsync(1); }
                public async Task<int> Reassigned(object value)
                {
                    if (value is string text)
                    {
                        text = null;
                        if (text.Length > 0) return await LoadAsync(0);
                    }

                    return await LoadAsync(1);
                }
                public async Task<int> Grid(object value) { if (value is int[,] grid && grid.Length > 0) return await LoadAsync(0); return await LoadAsync(1); }
                public async Task<int> Counted(object value) { if (value is List<int> list && list.Count > 0) return await LoadAsync(0); return await LoadAsync(1); }
            }
            """);
    }
}
