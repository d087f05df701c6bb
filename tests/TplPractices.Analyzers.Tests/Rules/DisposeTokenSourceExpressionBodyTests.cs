using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp;
using TplPractices.Analyzers.Tests.Verifiers;
using Verify = TplPractices.Analyzers.Tests.Verifiers.CSharpCodeFixVerifier<
    TplPractices.Analyzers.Rules.DisposeTokenSourceAnalyzer,
    TplPractices.Analyzers.CodeFixes.Rules.DisposeTokenSourceFixer>;

namespace TplPractices.Analyzers.Tests.Rules;

/// <summary>
/// TPL0020 on a source made inline in an expression body whose work is awaited in place
/// (<c>async Task&lt;int&gt; ReadAsync() =&gt; await stream.ReadAsync(…, new CancellationTokenSource(1000).Token);</c>):
/// the body becomes a block that holds the source in a using before what the body did.
/// </summary>
public sealed class DisposeTokenSourceExpressionBodyTests
{
    private static string Class(string members) => $$"""
        using System;
        using System.IO;
        using System.Threading;
        using System.Threading.Tasks;

        class Reader
        {
            private readonly Stream _stream = Stream.Null;
            private readonly byte[] _buffer = new byte[16];
        {{members}}
        }
        """;

    [Fact]
    public async Task ATimeOutInAnAwaitedExpressionBody_IsHeldInAUsingOfABlockBody()
    {
        var before = Class("""
                async Task<int> ReadAsync() => await _stream.ReadAsync(_buffer, 0, 16, [|new CancellationTokenSource(1000)|].Token); // one read

                async Task SkipAsync() => await _stream.ReadAsync(_buffer, 0, 16, [|new CancellationTokenSource(1000)|].Token);

                Task<int> Local()
                {
                    return Read();

                    async Task<int> Read() => await _stream.ReadAsync(_buffer, 0, 16, [|new CancellationTokenSource(500)|].Token);
                }

                Func<Task<int>> Lambda() => async () => await _stream.ReadAsync(_buffer, 0, 16, [|new CancellationTokenSource(250)|].Token);
            """);
        var after = Class("""
                async Task<int> ReadAsync()
                {
                    using var timeoutSource = new CancellationTokenSource(1000);
                    return await _stream.ReadAsync(_buffer, 0, 16, timeoutSource.Token);
                } // one read

                async Task SkipAsync()
                {
                    using var timeoutSource = new CancellationTokenSource(1000);
                    await _stream.ReadAsync(_buffer, 0, 16, timeoutSource.Token);
                }

                Task<int> Local()
                {
                    return Read();

                    async Task<int> Read()
                    {
                        using var timeoutSource = new CancellationTokenSource(500);
                        return await _stream.ReadAsync(_buffer, 0, 16, timeoutSource.Token);
                    }
                }

                Func<Task<int>> Lambda() => async () =>
                {
                    using var timeoutSource = new CancellationTokenSource(250);
                    return await _stream.ReadAsync(_buffer, 0, 16, timeoutSource.Token);
                };
            """);
        await new Verify.Test { TestCode = before, FixedCode = after }.RunAsync();
    }

    [Fact]
    public async Task BesideCSharp73_TheBlockHoldsAUsingStatement()
    {
        var before = Class("""
                async Task<int> ReadAsync() => await _stream.ReadAsync(_buffer, 0, 16, [|new CancellationTokenSource(1000)|].Token);
            """);
        var after = Class("""
                async Task<int> ReadAsync()
                {
                    using (var timeoutSource = new CancellationTokenSource(1000))
                    {
                        return await _stream.ReadAsync(_buffer, 0, 16, timeoutSource.Token);
                    }
                }
            """);
        await new Verify.Test { TestCode = before, FixedCode = after, SharedByNetStandardAndNet10 = true }.RunAsync();
    }

    [Fact]
    public async Task ATimeOutLinkedInAnExpressionBody_BothSourcesAreHeld()
    {
        var before = Class("""
                async Task<int> ReadAsync(CancellationToken caller) =>
                    await _stream.ReadAsync(_buffer, 0, 16, [|CancellationTokenSource.CreateLinkedTokenSource(caller, [|new CancellationTokenSource(1000)|].Token)|].Token);
            """);
        var after = Class("""
                async Task<int> ReadAsync(CancellationToken caller)
                {
                    using var timeoutSource = new CancellationTokenSource(1000);
                    using var linkedSource = CancellationTokenSource.CreateLinkedTokenSource(caller, timeoutSource.Token);
                    return await _stream.ReadAsync(_buffer, 0, 16, linkedSource.Token);
                }
            """);
        await new Verify.Test { TestCode = before, FixedCode = after }.RunAsync();
    }

    /// <summary>A body made a block inside a statement another source is held before: one per Fix All pass, any order.</summary>
    [Fact]
    public async Task ALambdaBodyInsideAHeldStatement_TakesItsTurn()
    {
        var before = Class("""
                async Task Run(Func<CancellationToken, Func<Task>, Task> runner, Func<CancellationToken, Task> work)
                {
                    await runner([|new CancellationTokenSource(1000)|].Token, async () => await work([|new CancellationTokenSource(100)|].Token));
                }
            """);
        var after = Class("""
                async Task Run(Func<CancellationToken, Func<Task>, Task> runner, Func<CancellationToken, Task> work)
                {
                    using var timeoutSource = new CancellationTokenSource(1000);
                    await runner(timeoutSource.Token, async () =>
                    {
                        using var timeoutSource2 = new CancellationTokenSource(100);
                        await work(timeoutSource2.Token);
                    });
                }
            """);
        await new Verify.Test { TestCode = before, FixedCode = after }.RunAsync();
    }

    [Fact]
    public async Task ATaskTheBodyReturns_KeepsItsTimeOut()
    {
        // The returned task may run on after the body: its time-out is meant to fire later, and is not reported.
        await Verify.VerifyAnalyzerAsync(Class("""
                Task<int> ReadAsync() => _stream.ReadAsync(_buffer, 0, 16, new CancellationTokenSource(1000).Token);
            """));
    }
}
