using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp;
using Microsoft.CodeAnalysis.Testing;
using TplPractices.Analyzers.Tests.Verifiers;
using Verify = TplPractices.Analyzers.Tests.Verifiers.CSharpCodeFixVerifier<
    TplPractices.Analyzers.Rules.PassThroughAsyncAnalyzer,
    TplPractices.Analyzers.CodeFixes.Rules.PassThroughAsyncFixer>;

namespace TplPractices.Analyzers.Tests.Rules;

/// <summary>
/// TPL0016 in a function that holds <c>#pragma warning</c>, <c>#region</c> or <c>#nullable</c> lines between its
/// statements, or in a lambda it passes on (test suites silence an analyzer around one call this way, found on
/// EasyNetQ's tests). The fix only turns awaits into returns, so every statement keeps its side of each line: such a
/// function is fixed, one site or all. A line inside an expression, and an <c>#if</c> anywhere, still leave it alone.
/// </summary>
public sealed class PassThroughAsyncDirectiveLinesTests
{
    private const string Before = /* lang=c#-test */ """
        using System;
        using System.Threading.Tasks;

        public abstract class Fixture
        {
            protected async Task<IDisposable?> StartAsync(string name) { await Task.Yield(); return name.Length > 3 ? null : new Lease(); }

            protected static async Task<Exception> CatchAsync(Func<Task> body)
            {
                try { await body(); } catch (Exception e) { return e; }
                throw new InvalidOperationException("nothing thrown");
            }

            protected abstract Task InitializeAsync();

            private sealed class Lease : IDisposable { public void Dispose() { } }
        }

        public sealed class Consumer : Fixture
        {
            public int Calls;

            protected override async Task InitializeAsync()
            {
        #pragma warning disable CS0618 // an analyzer's ID in real code
                {|#0:await|} StartAsync("queue");
        #pragma warning restore CS0618
            }

            public async Task<Exception> Failing()
            {
                #region what it checks
                return {|#1:await|} CatchAsync(async () =>
                {
        #pragma warning disable CS0618
                    Calls++;
        #pragma warning restore CS0618
                    await Task.Yield();
                    throw new TimeoutException("late");
                });
                #endregion
            }

            public async Task<IDisposable?> Loose(string name)
            {
        #nullable disable warnings
                return {|#2:await|} StartAsync(name);
        #nullable restore warnings
            }

            public static async Task<string> Run(int x)
            {
                var consumer = new Consumer();
                await consumer.InitializeAsync();
                var failure = await consumer.Failing();
                var lease = await consumer.Loose(x > 1 ? "abc" : "abcdef");
                return failure.Message + "/" + consumer.Calls + "/" + (lease is null);
            }
        }
        """;

    private static readonly string After = TestMarkup.Strip(Before)
        .Replace("protected override async Task InitializeAsync()", "protected override Task InitializeAsync()", StringComparison.Ordinal)
        .Replace("        await StartAsync(\"queue\");", "        return StartAsync(\"queue\");", StringComparison.Ordinal)
        .Replace("public async Task<Exception> Failing()", "public Task<Exception> Failing()", StringComparison.Ordinal)
        .Replace("return await CatchAsync(", "return CatchAsync(", StringComparison.Ordinal)
        .Replace("public async Task<IDisposable?> Loose(", "public Task<IDisposable?> Loose(", StringComparison.Ordinal)
        .Replace("return await StartAsync(name);", "return StartAsync(name);", StringComparison.Ordinal);

    private static IEnumerable<DiagnosticResult> Reports() =>
    [
        Verify.Diagnostic().WithLocation(0).WithArguments("'InitializeAsync'", "'StartAsync'"),
        Verify.Diagnostic().WithLocation(1).WithArguments("'Failing'", "'CatchAsync'"),
        Verify.Diagnostic().WithLocation(2).WithArguments("'Loose'", "'StartAsync'"),
    ];

    [Fact]
    public async Task LinesBetweenStatements_LeaveTheFixOffered_OneSiteAndAll()
    {
        var test = new Verify.Test { TestCode = Before, FixedCode = After };
        test.ExpectedDiagnostics.AddRange(Reports());
        await test.RunAsync();
    }

    /// <summary>The same file for netstandard2.0 at C# 7.3 (no nullable annotations, so no #nullable lines) beside net10.0.</summary>
    [Fact]
    public async Task OnTwoTargets_TheFixBuildsInBoth()
    {
        static string Legacy(string code) => code
            .Replace("IDisposable?", "IDisposable", StringComparison.Ordinal)
            .Replace("#nullable disable warnings\n", string.Empty, StringComparison.Ordinal)
            .Replace("#nullable restore warnings\n", string.Empty, StringComparison.Ordinal);
        var test = new Verify.Test
        {
            TestCode = Legacy(Before),
            FixedCode = Legacy(After),
            LinkedTargets = { new LinkedTarget(TestTarget.NetStandard20, LanguageVersion.CSharp7_3, NullableContextOptions.Disable) },
        };
        test.ExpectedDiagnostics.AddRange(Reports());
        await test.RunAsync();
    }

    [Theory]
    [InlineData(1)]
    [InlineData(2)]
    public async Task FixedCode_ShowsWhatTheOriginalShowed(int x)
    {
        var original = await CodeRunner.RunAsync(TestMarkup.Strip(Before), "Consumer", "Run", x);
        Assert.StartsWith("returned late/1/", original, StringComparison.Ordinal);
        Assert.Equal(original, await CodeRunner.RunAsync(After, "Consumer", "Run", x));
    }

    /// <summary>
    /// <c>var r = await N(); return r;</c> with lines around the return: the fix would drop the only statement between
    /// them, which the shared layer refuses (a silenced stretch left empty), so the site stays as it was.
    /// </summary>
    [Fact]
    public async Task LinesAroundAStatementTheFixDrops_LeaveTheSiteUnfixed()
    {
        const string Code = """
            using System.Threading.Tasks;

            public class C
            {
                private async Task<int> SizeAsync(string name) { await Task.Yield(); return name.Length; }

                public async Task<int> Size(string name)
                {
                    var size = {|#0:await|} SizeAsync(name);
            #pragma warning disable CS0618
                    return size;
            #pragma warning restore CS0618
                }
            }
            """;
        var test = new Verify.Test { TestCode = Code, FixedCode = Code };
        test.ExpectedDiagnostics.Add(Verify.Diagnostic().WithLocation(0).WithArguments("'Size'", "'SizeAsync'"));
        await test.RunAsync();
    }

    /// <summary>A line inside the awaited call's arguments sits inside code the fix rebuilds: reported, not fixed.</summary>
    [Fact]
    public async Task ALineInsideTheAwaitedCall_LeavesTheSiteUnfixed()
    {
        const string Code = """
            using System;
            using System.Threading.Tasks;

            public class C
            {
                private async Task<int> SizeAsync(string name) { await Task.Yield(); return name.Length; }

                public async Task<int> Size(string name)
                {
                    return {|#0:await|} SizeAsync(
            #pragma warning disable CS0618
                        name
            #pragma warning restore CS0618
                    );
                }
            }
            """;
        var test = new Verify.Test { TestCode = Code, FixedCode = Code };
        test.ExpectedDiagnostics.Add(Verify.Diagnostic().WithLocation(0).WithArguments("'Size'", "'SizeAsync'"));
        await test.RunAsync();
    }
}
