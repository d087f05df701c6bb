using TplPractices.Analyzers.Tests.Gauntlet;
using TplPractices.Analyzers.Tests.Verifiers;

namespace TplPractices.Analyzers.Tests.Rules;

/// <summary>
/// TPL0005: runs the original loops and the fixed ones (the exact text the fix test checks) and requires the
/// same results: the moved loops still accumulate every value, in the same order.
/// </summary>
public sealed class AwaitInLoopBehaviourTests
{
    public static TheoryData<string, object> Cases() => new()
    {
        { "Sum", 0 },
        { "Sum", 1 },
        { "Sum", 100 },
        { "Grid", 7 },
        { "Collect", new[] { 3, -1, 4, 1, -5, 9 } },
        { "Completed", 25 },
    };

    [Theory]
    [MemberData(nameof(Cases))]
    public async Task FixedCode_GivesTheSameResult(string method, object argument)
    {
        var original = await CodeRunner.RunAsync(TestMarkup.Strip(AwaitInLoopCases.Before), "Loops", method, argument);
        var rewritten = await CodeRunner.RunAsync(TestMarkup.Strip(AwaitInLoopCases.After), "Loops", method, argument);

        Assert.Equal(original, rewritten);
        Assert.StartsWith("returned", original, StringComparison.Ordinal);
    }

    /// <summary>
    /// The difference docs/rules/TPL0005.md names: the loop no longer returns to the caller's context between
    /// iterations; it runs as one work item on the pool. A task that is already complete when awaited continues
    /// inline without a post, so the work here takes long enough that each await finds it running (a plain
    /// square raced: on a loaded machine four of five iterations once finished first). The fixed loop posts at
    /// most once, whatever the timing.
    /// </summary>
    [Fact]
    public async Task Caveat_TheMovedLoopNoLongerReturnsToTheCallersContext()
    {
        const string Code = /* lang=c#-test */ """
            using System.Threading;
            using System.Threading.Tasks;

            public static class Loops
            {
                private static int SlowSquare(int i)
                {
                    Thread.Sleep(20);
                    return i * i;
                }

                public static async Task<int> Sum(int n)
                {
                    var total = 0;
                    for (var i = 0; i < n; i++)
                    {
                        total += await Task.Run(() => SlowSquare(i));
                    }

                    return total;
                }
            }

            public static class OnContext
            {
                public static async Task<string> Posts()
                {
                    var posts = await CountingContext.Run(() => Loops.Sum(5));
                    return posts > 1 ? "posts between iterations" : "at most one post";
                }
            }
            """;
        await FixedBehaviour.AssertAsync(
            Code + CountingContext.Source, "TPL0005", "OnContext", "Posts", "returned posts between iterations", "returned at most one post");
    }
}
