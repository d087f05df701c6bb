using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp;
using TplPractices.Analyzers.Tests.Verifiers;
using Verify = TplPractices.Analyzers.Tests.Verifiers.CSharpCodeFixVerifier<
    TplPractices.Analyzers.Rules.DelayTimerAnalyzer,
    TplPractices.Analyzers.CodeFixes.Rules.DelayTimerFixer>;

namespace TplPractices.Analyzers.Tests.Rules;

/// <summary>The three checks each of TPL0017's race shapes makes: its fix, its behaviour before and after, and where it has none.</summary>
internal static class DelayTimerRaceChecks
{
    /// <summary>Each marked delay <c>{|#i:…|}</c> is reported with <paramref name="messages"/>[i], and the fixes give <paramref name="fixedCode"/>.</summary>
    public static Task FixesAsync(string code, string fixedCode, params string[] messages)
    {
        var test = new Verify.Test { TestCode = code, FixedCode = fixedCode };
        test.ExpectedDiagnostics.AddRange(messages.Select((message, i) => Verify.Diagnostic().WithLocation(i).WithArguments(message)));
        return test.RunAsync();
    }

    /// <summary><c>Api.All()</c> returns <paramref name="expected"/> before the fix and the same after it.</summary>
    public static async Task DecidesTheSameAsync(string code, string fixedCode, string expected)
    {
        var original = await CodeRunner.RunAsync(TestMarkup.Strip(code), "Api", "All");
        Assert.Equal("returned " + expected, original);
        Assert.Equal(original, await CodeRunner.RunAsync(fixedCode, "Api", "All"));
    }

    /// <summary>
    /// As <see cref="FixesAsync"/>, in a file netstandard2.0 compiles at C# 7.3 beside net10.0 (a library's usual pair):
    /// both copies are analyzed, and the one fixed text compiles in both.
    /// </summary>
    public static Task FixesBesideCSharp73Async(string code, string fixedCode, params string[] messages)
    {
        var test = new Verify.Test
        {
            TestCode = code,
            FixedCode = fixedCode,
            LinkedTargets = { new LinkedTarget(TestTarget.NetStandard20, LanguageVersion.CSharp7_3, NullableContextOptions.Disable) },
        };
        test.ExpectedDiagnostics.AddRange(messages.Select((message, i) => Verify.Diagnostic().WithLocation(i).WithArguments(message)));
        return test.RunAsync();
    }

    /// <summary>Each marked delay is reported with <paramref name="messages"/>[i], and no fix changes the code.</summary>
    public static Task HasNoFixAsync(string code, params string[] messages) => FixesAsync(code, code, messages);
}
