using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp;
using TplPractices.Analyzers.Tests.Verifiers;
using Verify = TplPractices.Analyzers.Tests.Verifiers.CSharpCodeFixVerifier<
    TplPractices.Analyzers.Rules.PassThroughAsyncAnalyzer,
    TplPractices.Analyzers.CodeFixes.Rules.PassThroughAsyncFixer>;

namespace TplPractices.Analyzers.Tests.Rules;

/// <summary>
/// TPL0016 on a storage provider's asynchronous member that runs its synchronous twin on the pool
/// (<c>=> await Task.Run(FlushCore, token)</c>, seen in a caching library's LiteDB provider): the method group binds
/// to <c>this</c>, which is never null, even where the twin is abstract in the base and overridden here; and
/// <c>Task.Run</c> with a canceled token returns a canceled task rather than throwing, so the returned task ends as
/// the awaited one did. The library builds for netstandard2.0 and net6.0 from one file.
/// </summary>
public sealed class PassThroughAsyncPoolTwinTests
{
    private const string Before = /* lang=c#-test */ """
        using System.Threading;
        using System.Threading.Tasks;

        public abstract class Provider
        {
            public int Flushed;
            public abstract void FlushCore();
            public abstract Task FlushAsync(CancellationToken token = default);
        }

        public sealed class FileProvider : Provider
        {
            public override void FlushCore() => Flushed++;

            public override async Task FlushAsync(CancellationToken token = default) => {|#0:await|} Task.Run(FlushCore, token);
        }

        public static class Api
        {
            public static async Task<string> Run(bool canceled)
            {
                var provider = new FileProvider();
                var flush = provider.FlushAsync(new CancellationToken(canceled));
                try { await flush; } catch (TaskCanceledException) { }
                return flush.Status + " " + provider.Flushed;
            }
        }
        """;

    private static readonly string After = Before.Replace(
        "public override async Task FlushAsync(CancellationToken token = default) => {|#0:await|} Task.Run(FlushCore, token);",
        "public override Task FlushAsync(CancellationToken token = default) => Task.Run(FlushCore, token);",
        StringComparison.Ordinal);

    [Fact]
    public async Task PoolTwinOfThis_IsFixed_OnBothTargets()
    {
        await new Verify.Test
        {
            TestCode = Before,
            FixedCode = After,
            LinkedTargets = { new LinkedTarget(TestTarget.NetStandard20, LanguageVersion.CSharp7_3, NullableContextOptions.Disable) },
            ExpectedDiagnostics = { Verify.Diagnostic().WithLocation(0).WithArguments("'FlushAsync'", "'Run'") },
        }.RunAsync();
    }

    [Theory]
    [InlineData(false, "returned RanToCompletion 1")]
    [InlineData(true, "returned Canceled 0")]
    public async Task FixedCode_EndsAsTheOriginalDid(bool canceled, string expected)
    {
        var original = await CodeRunner.RunAsync(TestMarkup.Strip(Before), "Api", "Run", canceled);
        Assert.Equal(original, await CodeRunner.RunAsync(After, "Api", "Run", canceled));
        Assert.Equal(expected, original);
    }
}
