using TplPractices.Analyzers.Tests.Verifiers;

namespace TplPractices.Analyzers.Tests.Rules;

/// <summary>TPL0003: the caveats docs/rules/TPL0003.md names, shown on the code the fix writes.</summary>
public sealed class CacheConstantTaskResultBehaviourTests
{
    private const string Code = /* lang=c#-test */ """
        using System.Threading.Tasks;

        // Shows a documented caveat of a fix: not a gauntlet input (docs/rules name the difference).
        public static class Answers
        {
            public static Task<int> Get() => Task.FromResult(42);

            public static Task Flush() => Task.FromResult("done");

            public static bool SameTaskTwice() => ReferenceEquals(Get(), Get());

            public static string FlushedValue()
            {
                try { return ((Task<string>)Flush()).Result; } catch (System.InvalidCastException) { return "not a Task<string>"; }
            }
        }
        """;

    [Theory]
    [InlineData("SameTaskTwice", "returned False", "returned True")]
    [InlineData("FlushedValue", "returned done", "returned not a Task<string>")]
    public async Task Caveat_TheFixedCodeDiffersAsTheDocsSay(string method, string before, string after)
    {
        await FixedBehaviour.AssertAsync(Code, "TPL0003", "Answers", method, before, after);
    }
}
