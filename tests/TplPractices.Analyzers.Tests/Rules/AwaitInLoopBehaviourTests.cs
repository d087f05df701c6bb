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
    /// iterations; it runs as one work item on the pool (the original posted to the context once per iteration).
    /// </summary>
    [Fact]
    public async Task Caveat_TheMovedLoopNoLongerReturnsToTheCallersContext()
    {
        const string Code = """
            using System.Threading;
            using System.Threading.Tasks;

            // Shows a documented caveat of a fix: not a gauntlet input (docs/rules name the difference).
            public static class Loops
            {
                private static int Square(int i) => i * i;

                public static async Task<int> Sum(int n)
                {
                    var total = 0;
                    for (var i = 0; i < n; i++)
                    {
                        total += await Task.Run(() => Square(i));
                    }

                    return total;
                }

                private sealed class Counting : SynchronizationContext
                {
                    public int Posts;

                    public override void Post(SendOrPostCallback callback, object? state)
                    {
                        Interlocked.Increment(ref Posts);
                        ThreadPool.QueueUserWorkItem(_ =>
                        {
                            SetSynchronizationContext(this);
                            callback(state);
                        });
                    }
                }

                public static async Task<string> Posts()
                {
                    var context = new Counting();
                    var previous = SynchronizationContext.Current;
                    SynchronizationContext.SetSynchronizationContext(context);
                    Task<int> sum;
                    try
                    {
                        sum = Sum(5);
                    }
                    finally
                    {
                        SynchronizationContext.SetSynchronizationContext(previous);
                    }

                    return await sum + " after " + (context.Posts >= 5 ? "a post per iteration" : context.Posts + " posts");
                }
            }
            """;
        Assert.Equal("returned 30 after a post per iteration", await CodeRunner.RunAsync(Code, "Loops", "Posts"));
        Assert.Equal("returned 30 after 1 posts", await CodeRunner.RunAsync(await FormatRun.FixAsync(Code, "TPL0005"), "Loops", "Posts"));
    }
}
