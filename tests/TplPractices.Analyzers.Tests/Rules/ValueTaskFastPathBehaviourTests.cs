using TplPractices.Analyzers.Tests.Verifiers;
using Verify = TplPractices.Analyzers.Tests.Verifiers.CSharpCodeFixVerifier<
    TplPractices.Analyzers.Rules.ValueTaskFastPathAnalyzer,
    TplPractices.Analyzers.CodeFixes.Rules.ValueTaskFastPathFixer>;

namespace TplPractices.Analyzers.Tests.Rules;

/// <summary>TPL0008: the fixed code returns and throws what the original did, and its synchronous path stops allocating.</summary>
public sealed class ValueTaskFastPathBehaviourTests
{
    private const string Before = /* lang=c#-test */ """
        using System;
        using System.Collections.Generic;
        using System.Threading.Tasks;

        public static class Api
        {
            private static readonly Dictionary<int, string> Cache = new() { [1] = "one" };

            private static async Task<string> Get(int key)
            {
                if (Cache.TryGetValue(key, out var hit)) {|#0:return hit;|}
                if (key < 0) throw new ArgumentOutOfRangeException(nameof(key));
                await Task.Yield();
                return "loaded " + key;
            }

            public static async Task<string> Read(int key) => await Get(key) + "|" + await Get(key + 1).ConfigureAwait(false);

            public static async Task<long> BytesPerCachedCall()
            {
                await Get(1);
                var before = GC.GetAllocatedBytesForCurrentThread();
                for (var i = 0; i < 1000; i++)
                {
                    await Get(1);
                }

                return (GC.GetAllocatedBytesForCurrentThread() - before) / 1000;
            }
        }
        """;

    private static readonly string After = TestMarkup.Strip(Before).Replace("async Task<string> Get", "async ValueTask<string> Get", StringComparison.Ordinal);

    [Fact]
    public async Task TheFix_IsTheOneMeasuredHere()
    {
        await new Verify.Test
        {
            TestCode = Before,
            FixedCode = After,
            ExpectedDiagnostics = { Verify.Diagnostic().WithLocation(0).WithArguments("Get", "string") },
        }.RunAsync();
    }

    [Theory]
    [InlineData(1)]
    [InlineData(2)]
    [InlineData(-5)]
    public async Task FixedCode_ReturnsAndThrowsAsTheOriginalDid(int key)
    {
        var original = await CodeRunner.RunAsync(TestMarkup.Strip(Before), "Api", "Read", key);
        var rewritten = await CodeRunner.RunAsync(After, "Api", "Read", key);
        Assert.Equal(original, rewritten);
    }

    /// <summary>The rule's point, on the runtime the tests run on: a Task&lt;string&gt; per cached call before, nothing after.</summary>
    [Fact]
    public async Task CachedCall_AllocatesATaskBeforeAndNothingAfter()
    {
        var before = await CodeRunner.RunAsync(TestMarkup.Strip(Before), "Api", "BytesPerCachedCall");
        var after = await CodeRunner.RunAsync(After, "Api", "BytesPerCachedCall");
        Assert.Matches("^returned (6[4-9]|[7-9][0-9])$", before);
        Assert.Equal("returned 0", after);
    }
}
