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
        const string Runner = """

            public static class OnContext
            {
                public static async Task<string> Posts()
                {
                    var posts = await CountingContext.Run(() => Loops.Sum(5));
                    return posts >= 5 ? "a post per iteration" : posts + " posts";
                }
            }
            """;
        await FixedBehaviour.AssertAsync(
            TestMarkup.Strip(AwaitInLoopCases.Before) + Runner + CountingContext.Source, "TPL0005", "OnContext", "Posts", "returned a post per iteration", "returned 1 posts");
    }
}
