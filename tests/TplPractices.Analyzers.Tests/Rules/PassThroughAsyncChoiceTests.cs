using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp;
using Microsoft.CodeAnalysis.Testing;
using TplPractices.Analyzers.Tests.Verifiers;
using Verify = TplPractices.Analyzers.Tests.Verifiers.CSharpCodeFixVerifier<
    TplPractices.Analyzers.Rules.PassThroughAsyncAnalyzer,
    TplPractices.Analyzers.CodeFixes.Rules.PassThroughAsyncFixer>;

namespace TplPractices.Analyzers.Tests.Rules;

/// <summary>
/// TPL0016 where the code chooses what to await, each choice one that cannot throw: a switch expression ending in a
/// discard arm (around the awaited task, or around the awaits), an <c>if … else if</c> chain without <c>else</c> before
/// the last return, a local computed by unchecked arithmetic, <c>Task.WhenAll</c> of a params span (C# 13 on .NET 9
/// and later binds the span overload) and <c>Task.WhenAny(task1, task2)</c>.
/// </summary>
public sealed class PassThroughAsyncChoiceTests
{
    private const string Before = /* lang=c#-test */ """
        using System;
        using System.Threading.Tasks;

        public class Catalog
        {
            private readonly int _offset = 100;

            public async Task<int> ByIdAsync(int id) { await Task.Yield(); return id + _offset; }

            public async Task<int> ByNameAsync(int id) { await Task.Yield(); return -id; }

            public async Task<int> PickAsync(int kind) => {|#0:await|} (kind switch
            {
                0 => ByIdAsync(kind),
                > 10 => ByNameAsync(kind),
                _ => ByIdAsync(-kind),
            });

            public async Task<int> ArmsAsync(int kind)
            {
                return kind switch
                {
                    1 => {|#1:await|} ByIdAsync(1),
                    _ => await ByNameAsync(kind),
                };
            }

            public async Task<int> ChainAsync(int n)
            {
                if (n > 0)
                {
                    return {|#2:await|} ByIdAsync(n);
                }
                else if (n < -5)
                {
                    return await ByNameAsync(n);
                }

                return await ByIdAsync(0);
            }

            public async Task<int> NextAsync(int n)
            {
                var next = (n + 1) * 2;
                return {|#3:await|} ByIdAsync(next);
            }

            public async Task BothAsync(int n) => {|#4:await|} Task.WhenAll(ByIdAsync(n), ByNameAsync(n));

            public async Task<Task<int>> FirstAsync(int n) => {|#5:await|} Task.WhenAny(ByIdAsync(n), ByIdAsync(n));
        }

        public static class Api
        {
            public static async Task<string> Run(int x)
            {
                var c = new Catalog();
                var both = c.BothAsync(x);
                await both;
                return await c.PickAsync(x) + "," + await c.ArmsAsync(x) + "," + await c.ChainAsync(x) + "," + await c.NextAsync(x) + "," + await await c.FirstAsync(x) + "," + both.Status;
            }
        }
        """;

    private const string After = /* lang=c#-test */ """
        using System;
        using System.Threading.Tasks;

        public class Catalog
        {
            private readonly int _offset = 100;

            public async Task<int> ByIdAsync(int id) { await Task.Yield(); return id + _offset; }

            public async Task<int> ByNameAsync(int id) { await Task.Yield(); return -id; }

            public Task<int> PickAsync(int kind) => kind switch
            {
                0 => ByIdAsync(kind),
                > 10 => ByNameAsync(kind),
                _ => ByIdAsync(-kind),
            };

            public Task<int> ArmsAsync(int kind)
            {
                return kind switch
                {
                    1 => ByIdAsync(1),
                    _ => ByNameAsync(kind),
                };
            }

            public Task<int> ChainAsync(int n)
            {
                if (n > 0)
                {
                    return ByIdAsync(n);
                }
                else if (n < -5)
                {
                    return ByNameAsync(n);
                }

                return ByIdAsync(0);
            }

            public Task<int> NextAsync(int n)
            {
                var next = (n + 1) * 2;
                return ByIdAsync(next);
            }

            public Task BothAsync(int n) => Task.WhenAll(ByIdAsync(n), ByNameAsync(n));

            public Task<Task<int>> FirstAsync(int n) => Task.WhenAny(ByIdAsync(n), ByIdAsync(n));
        }

        public static class Api
        {
            public static async Task<string> Run(int x)
            {
                var c = new Catalog();
                var both = c.BothAsync(x);
                await both;
                return await c.PickAsync(x) + "," + await c.ArmsAsync(x) + "," + await c.ChainAsync(x) + "," + await c.NextAsync(x) + "," + await await c.FirstAsync(x) + "," + both.Status;
            }
        }
        """;

    [Fact]
    public async Task ChoicesThatCannotThrow_AreFixed_OnTheNewestCSharp()
    {
        var test = new Verify.Test { TestCode = Before, FixedCode = After, LanguageVersion = LanguageVersion.Preview };
        test.ExpectedDiagnostics.Add(Verify.Diagnostic().WithLocation(0).WithArguments("'PickAsync'", "'ByIdAsync' or 'ByNameAsync'"));
        test.ExpectedDiagnostics.Add(Verify.Diagnostic().WithLocation(1).WithArguments("'ArmsAsync'", "'ByIdAsync' or 'ByNameAsync'"));
        test.ExpectedDiagnostics.Add(Verify.Diagnostic().WithLocation(2).WithArguments("'ChainAsync'", "'ByIdAsync' or 'ByNameAsync'"));
        test.ExpectedDiagnostics.Add(Verify.Diagnostic().WithLocation(3).WithArguments("'NextAsync'", "'ByIdAsync'"));
        test.ExpectedDiagnostics.Add(Verify.Diagnostic().WithLocation(4).WithArguments("'BothAsync'", "'WhenAll'"));
        test.ExpectedDiagnostics.Add(Verify.Diagnostic().WithLocation(5).WithArguments("'FirstAsync'", "'WhenAny'"));
        await test.RunAsync();
    }

    [Theory]
    [InlineData(0)]
    [InlineData(4)]
    [InlineData(-9)]
    [InlineData(12)]
    public async Task FixedCode_DoesWhatTheOriginalDid(int x)
    {
        var original = await CodeRunner.RunAsync(TestMarkup.Strip(Before), "Api", "Run", x);
        Assert.Equal(original, await CodeRunner.RunAsync(After, "Api", "Run", x));
        Assert.EndsWith(",RanToCompletion", original, StringComparison.Ordinal);
    }

    /// <summary>The shapes C# 7.3 can write (no switch expression), on netstandard2.0 beside net10.0: both copies build the fix.</summary>
    [Fact]
    public async Task ChainAndArithmetic_OnNetStandard20AtCSharp73_AreFixed()
    {
        var test = new Verify.Test
        {
            TestCode = """
                using System.Threading.Tasks;

                public class Catalog
                {
                    public async Task<int> ByIdAsync(int id) { await Task.Yield(); return id; }

                    public async Task<int> ChainAsync(int n)
                    {
                        if (n > 0) return {|#0:await|} ByIdAsync(n);
                        else if (n < 0) return await ByIdAsync(-n);
                        return await ByIdAsync(0);
                    }

                    public async Task<long> WideAsync(int n)
                    {
                        long wide = n << 3;
                        return {|#2:await|} WidenAsync(wide ^ 7L, n * 2 + 1).ConfigureAwait(false);
                    }

                    private async Task<long> WidenAsync(long x, int y) { await Task.Yield(); return x + y; }

                    public async Task BothAsync(int n) { {|#1:await|} Task.WhenAll(ByIdAsync(n), ByIdAsync(n + 1)); }
                }
                """,
            FixedCode = """
                using System.Threading.Tasks;

                public class Catalog
                {
                    public async Task<int> ByIdAsync(int id) { await Task.Yield(); return id; }

                    public Task<int> ChainAsync(int n)
                    {
                        if (n > 0) return ByIdAsync(n);
                        else if (n < 0) return ByIdAsync(-n);
                        return ByIdAsync(0);
                    }

                    public Task<long> WideAsync(int n)
                    {
                        long wide = n << 3;
                        return WidenAsync(wide ^ 7L, n * 2 + 1);
                    }

                    private async Task<long> WidenAsync(long x, int y) { await Task.Yield(); return x + y; }

                    public Task BothAsync(int n) { return Task.WhenAll(ByIdAsync(n), ByIdAsync(n + 1)); }
                }
                """,
            LinkedTargets = { new LinkedTarget(TestTarget.NetStandard20, LanguageVersion.CSharp7_3, NullableContextOptions.Disable) },
        };
        test.ExpectedDiagnostics.Add(Verify.Diagnostic().WithLocation(0).WithArguments("'ChainAsync'", "'ByIdAsync'"));
        test.ExpectedDiagnostics.Add(Verify.Diagnostic().WithLocation(1).WithArguments("'BothAsync'", "'WhenAll'"));
        test.ExpectedDiagnostics.Add(Verify.Diagnostic().WithLocation(2).WithArguments("'WideAsync'", "'WidenAsync'"));
        await test.RunAsync();
    }

    /// <summary>
    /// Not reported: a switch expression without a discard arm (a value it misses throws SwitchExpressionException at
    /// the call once the fix has run), one whose guard calls code, an <c>else if</c> branch that falls through, and
    /// locals computed by arithmetic that can throw: <c>checked</c>, division (by zero), decimal (always checked) and
    /// a project that checks overflow (below); and a race with a delay, which TPL0017 fixes where it is on.
    /// </summary>
    [Fact]
    public async Task ChoicesThatCouldThrow_AreNotReported()
    {
        await Verify.VerifyAnalyzerAsync(/* lang=c#-test */ """
            using System;
            using System.Threading.Tasks;

            public class Quiet
            {
                public async Task<int> LoadAsync(int id) { await Task.Yield(); return id; }

                public async Task<int> NoDiscard(int k) => await (k switch { 1 => LoadAsync(1), int other => LoadAsync(other) });
                public async Task<int> GuardCalls(int k, string s) => await (k switch { 1 => LoadAsync(1), _ when s.Trim() == "" => LoadAsync(2), _ => LoadAsync(3) });
                public async Task<int> FallsThrough(int n) { if (n > 0) { return await LoadAsync(n); } else if (n < 0) { Console.WriteLine(n); } return await LoadAsync(0); }
                public async Task<int> Checked(int n) { var next = checked(n + 1); return await LoadAsync(next); }
                public async Task<int> Divided(int n) { var half = 10 / n; return await LoadAsync(half); }
                public async Task<int> Money(decimal m) { var more = m + 1; return await LoadAsync(1); }
                public async Task<Task> Raced() => await Task.WhenAny(LoadAsync(1), Task.Delay(100));                // TPL0017's site: its fix cancels the delay after the await
            }
            """);
    }

    [Fact]
    public async Task ArithmeticInAProjectThatChecksOverflow_IsNotReported()
    {
        var test = new Verify.Test
        {
            TestCode = """
                using System.Threading.Tasks;

                public class Quiet
                {
                    public async Task<int> LoadAsync(int id) { await Task.Yield(); return id; }

                    public async Task<int> Next(int n) { var next = n + 1; return await LoadAsync(next); }
                }
                """,
        };
        test.SolutionTransforms.Add((solution, projectId) =>
        {
            var options = (Microsoft.CodeAnalysis.CSharp.CSharpCompilationOptions)solution.GetProject(projectId)!.CompilationOptions!;
            return solution.WithProjectCompilationOptions(projectId, options.WithOverflowChecks(true));
        });
        await test.RunAsync();
    }

    /// <summary>
    /// Guards of the base library that cannot throw: <c>string.IsNullOrEmpty</c> and <c>IsNullOrWhiteSpace</c> take null
    /// and test, and a nullable's <c>HasValue</c> reads a flag. The same code on netstandard2.0 at C# 7.3 beside net10.0.
    /// </summary>
    private const string Guards = /* lang=c#-test */ """
        using System.Threading.Tasks;

        public class Names
        {
            private async Task<string> LookupAsync(string key) { await Task.Yield(); return "v:" + key; }

            public async Task<string> Get(string key)
            {
                if (string.IsNullOrEmpty(key)) return [|await|] LookupAsync("none");
                return await LookupAsync(key);
            }

            public async Task<string> Trimmed(string key) => string.IsNullOrWhiteSpace(key) ? [|await|] LookupAsync("blank") : await LookupAsync(key);

            public async Task<string> Numbered(int? id)
            {
                if (!id.HasValue) return [|await|] LookupAsync("unknown");
                return await LookupAsync("known");
            }
        }

        public static class Api
        {
            public static async Task<string> Run(string key, int id)
            {
                var names = new Names();
                int? maybe = id < 0 ? (int?)null : id;
                return await names.Get(key) + "," + await names.Trimmed(key) + "," + await names.Numbered(maybe);
            }
        }
        """;

    private static string GuardsFixed() => TestMarkup.Strip(Guards)
        .Replace("public async Task<string> Get", "public Task<string> Get", System.StringComparison.Ordinal)
        .Replace("return await LookupAsync(\"none\");", "return LookupAsync(\"none\");", System.StringComparison.Ordinal)
        .Replace("return await LookupAsync(key);", "return LookupAsync(key);", System.StringComparison.Ordinal)
        .Replace("public async Task<string> Trimmed(string key) => string.IsNullOrWhiteSpace(key) ? await LookupAsync(\"blank\") : await LookupAsync(key);",
            "public Task<string> Trimmed(string key) => string.IsNullOrWhiteSpace(key) ? LookupAsync(\"blank\") : LookupAsync(key);", System.StringComparison.Ordinal)
        .Replace("public async Task<string> Numbered", "public Task<string> Numbered", System.StringComparison.Ordinal)
        .Replace("return await LookupAsync(\"unknown\");", "return LookupAsync(\"unknown\");", System.StringComparison.Ordinal)
        .Replace("return await LookupAsync(\"known\");", "return LookupAsync(\"known\");", System.StringComparison.Ordinal);

    [Fact]
    public async Task GuardsOfTheBaseLibrary_AreFixed_OnEveryTarget()
    {
        await new Verify.Test
        {
            TestCode = Guards,
            FixedCode = GuardsFixed(),
            LinkedTargets = { new LinkedTarget(TestTarget.NetStandard20, LanguageVersion.CSharp7_3, NullableContextOptions.Disable) },
        }.RunAsync();
    }

    [Theory]
    [InlineData(null, -1)]
    [InlineData("", 3)]
    [InlineData("  ", 0)]
    [InlineData("k", 7)]
    public async Task Guards_FixedCode_DoesWhatTheOriginalDid(string? key, int id)
    {
        var original = await CodeRunner.RunAsync(TestMarkup.Strip(Guards), "Api", "Run", key, id);
        Assert.StartsWith("returned v:", original, System.StringComparison.Ordinal);
        Assert.Equal(original, await CodeRunner.RunAsync(GuardsFixed(), "Api", "Run", key, id));
    }

    /// <summary>Not reported: a guard that reads a property of a reference that may be null, or parses.</summary>
    [Fact]
    public async Task GuardsThatCanThrow_AreNotReported()
    {
        await Verify.VerifyAnalyzerAsync(/* lang=c#-test */ """
            using System.Threading.Tasks;

            public class Quiet
            {
                private async Task<int> LoadAsync(int id) { await Task.Yield(); return id; }

                public async Task<int> ByLength(string s) { if (s.Length == 0) return await LoadAsync(0); return await LoadAsync(1); }
                public async Task<int> Parsed(string s) { if (int.Parse(s) > 0) return await LoadAsync(0); return await LoadAsync(1); }
                public async Task<int> Unwrapped(int? n) { if (n.HasValue) return await LoadAsync(n.Value); return await LoadAsync(0); }
            }
            """);
    }
}
