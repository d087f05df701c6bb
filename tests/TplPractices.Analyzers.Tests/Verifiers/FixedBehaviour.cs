using TplPractices.Analyzers.Tests.Gauntlet;

namespace TplPractices.Analyzers.Tests.Verifiers;

/// <summary>
/// For the caveat tests: runs a method of the original code and of what a rule's fix makes of it (as dotnet format
/// fixes it, or a user taking the light-bulb fix at every site where the fix is not in Fix All), and checks that each gives the outcome the rule's page names.
/// </summary>
public static class FixedBehaviour
{
    public static async Task AssertAsync(string code, string ruleId, string typeName, string methodName, string before, string after)
    {
        var fixedCode = FormatRun.FixesInBulk(ruleId) ? await FormatRun.FixAsync(code, ruleId) : await FormatRun.FixEachSiteAsync(code, ruleId);
        Assert.Equal(before, await CodeRunner.RunAsync(code, typeName, methodName));
        Assert.Equal(after, await CodeRunner.RunAsync(fixedCode, typeName, methodName));
    }
}
