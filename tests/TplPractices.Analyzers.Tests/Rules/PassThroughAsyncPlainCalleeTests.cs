using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp;
using Microsoft.CodeAnalysis.Testing;
using TplPractices.Analyzers.Tests.Verifiers;
using Verify = TplPractices.Analyzers.Tests.Verifiers.CSharpCodeFixVerifier<
    TplPractices.Analyzers.Rules.PassThroughAsyncAnalyzer,
    TplPractices.Analyzers.CodeFixes.Rules.PassThroughAsyncFixer>;

namespace TplPractices.Analyzers.Tests.Rules;

/// <summary>
/// TPL0016 on an await of a plain (not <c>async</c>) method of the same file: it can't throw before its task exists
/// where its body returns a call that can't either, after statements that can't throw (local functions, locals set to
/// reads or lambdas), and where it calls itself again down a path (that path ends in a stack overflow, which no code
/// catches, with or without <c>async</c>; Roslynator's RCS1174 tests await such a method from lambdas).
/// </summary>
public sealed class PassThroughAsyncPlainCalleeTests
{
    private const string Before = /* lang=c#-test */ """
        using System;
        using System.Threading.Tasks;

        public class Pager
        {
            private async Task<int> FetchAsync(int page) { await Task.Yield(); return page * 10; }

            // Walks down to page 1, then fetches it.
            public Task<int> FirstAsync(int page) => page > 1 ? FirstAsync(page - 1) : FetchAsync(page);

            public Task<int> NextAsync(int page)
            {
                Func<int, int> step = p => p + 1;
                int Limit() => 100;
                var start = page;
                return FetchAsync(start + 1);
            }

            public async Task<int> OpenAsync(int page) => {|#0:await|} FirstAsync(page);

            public async Task<int> AdvanceAsync(int page)
            {
                return {|#1:await|} NextAsync(page);
            }

            public Task<int> Both(int page)
            {
                Func<int, Task<int>> open = async p => {|#2:await|} FirstAsync(p);
                Func<int, Task<int>> next = async delegate (int p) { return {|#3:await|} NextAsync(p); };
                return open(page).ContinueWith(t => t.Result + next(page).Result, TaskScheduler.Default);
            }
        }

        public static class Api
        {
            public static async Task<string> Run(int page)
            {
                var p = new Pager();
                return await p.OpenAsync(page) + "," + await p.AdvanceAsync(page) + "," + await p.Both(page);
            }
        }
        """;

    private static readonly string After = Before
        .Replace("public async Task<int> OpenAsync(int page) => {|#0:await|} FirstAsync(page);", "public Task<int> OpenAsync(int page) => FirstAsync(page);", StringComparison.Ordinal)
        .Replace("public async Task<int> AdvanceAsync(int page)", "public Task<int> AdvanceAsync(int page)", StringComparison.Ordinal)
        .Replace("return {|#1:await|} NextAsync(page);", "return NextAsync(page);", StringComparison.Ordinal)
        .Replace("async p => {|#2:await|} FirstAsync(p)", "p => FirstAsync(p)", StringComparison.Ordinal)
        .Replace("async delegate (int p) { return {|#3:await|} NextAsync(p); }", "delegate (int p) { return NextAsync(p); }", StringComparison.Ordinal);

    private static readonly string[][] Arguments =
    [
        ["'OpenAsync'", "'FirstAsync'"],
        ["'AdvanceAsync'", "'NextAsync'"],
        ["This lambda", "'FirstAsync'"],
        ["This anonymous method", "'NextAsync'"],
    ];

    [Fact]
    public async Task AwaitsOfPlainMethodsThatCannotThrow_AreFixed_OnTwoTargets()
    {
        var test = new Verify.Test
        {
            TestCode = Before,
            FixedCode = After,
            LinkedTargets = { new LinkedTarget(TestTarget.NetStandard20, LanguageVersion.CSharp7_3, NullableContextOptions.Disable) },
        };
        for (var i = 0; i < Arguments.Length; i++)
        {
            test.ExpectedDiagnostics.Add(Verify.Diagnostic().WithLocation(i).WithArguments(Arguments[i]));
        }

        await test.RunAsync();
    }

    [Theory]
    [InlineData(1)]
    [InlineData(4)]
    public async Task FixedCode_DoesWhatTheOriginalDid(int page)
    {
        var original = await CodeRunner.RunAsync(TestMarkup.Strip(Before), "Api", "Run", page);
        Assert.Equal(original, await CodeRunner.RunAsync(After, "Api", "Run", page));
        Assert.Equal("returned 10," + (page + 1) * 10 + "," + (10 + (page + 1) * 10), original);
    }

    /// <summary>
    /// Not reported: a plain method with a statement before its return that can throw (checked arithmetic, a call),
    /// one whose other path throws, a virtual one (an override may throw first), and one with a <c>using</c> local
    /// (disposing runs code).
    /// </summary>
    [Fact]
    public async Task PlainMethodsThatMayThrowFirst_AreNotReported()
    {
        await Verify.VerifyAnalyzerAsync(/* lang=c#-test */ """
            using System;
            using System.Threading.Tasks;

            public class Pager
            {
                private async Task<int> FetchAsync(int page) { await Task.Yield(); return page; }

                private Task<int> Checked(int page) { var next = checked(page + 1); return FetchAsync(next); }
                private Task<int> Called(int page) { var next = Math.Max(page, 1); return FetchAsync(next); }
                private Task<int> Guarded(int page) => page > 1 ? Guarded(page - 1) : throw new ArgumentOutOfRangeException(nameof(page));
                protected virtual Task<int> Replaceable(int page) => page > 1 ? Replaceable(page - 1) : FetchAsync(page);
                private Task<int> Disposing(int page) { using var scope = new System.IO.MemoryStream(); return FetchAsync(page); }

                public async Task<int> A(int page) => await Checked(page);
                public async Task<int> B(int page) => await Called(page);
                public async Task<int> C(int page) => await Guarded(page);
                public async Task<int> D(int page) => await Replaceable(page);
                public async Task<int> E(int page) => await Disposing(page);
            }
            """);
    }
}
