using TplPractices.Analyzers.Tests.Gauntlet;

namespace TplPractices.Analyzers.Tests.Verifiers;

/// <summary>
/// For the caveat tests: runs a method of the original code and of what a rule's fix makes of it (as dotnet format
/// fixes it, then a user taking the light-bulb fix at every site the bulk run leaves), and checks that each gives the
/// outcome the rule's page names.
/// </summary>
public static class FixedBehaviour
{
    public static async Task AssertAsync(string code, string ruleId, string typeName, string methodName, string before, string after)
    {
        // Fix All first where the rule has one, then each site it leaves to the light bulb (a fix whose title says what changes).
        var fixedCode = await FormatRun.FixEachSiteAsync(FormatRun.FixesInBulk(ruleId) ? await FormatRun.FixAsync(code, ruleId) : code, ruleId);
        Assert.Equal(before, await CodeRunner.RunAsync(code, typeName, methodName));
        Assert.Equal(after, await CodeRunner.RunAsync(fixedCode, typeName, methodName));
    }
}
