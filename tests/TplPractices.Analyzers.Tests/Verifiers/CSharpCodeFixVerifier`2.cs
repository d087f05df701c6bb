using Microsoft.CodeAnalysis.CodeFixes;
using Microsoft.CodeAnalysis.Diagnostics;

namespace TplPractices.Analyzers.Tests.Verifiers;

public static partial class CSharpCodeFixVerifier<TAnalyzer, TCodeFix>
    where TAnalyzer : DiagnosticAnalyzer, new()
    where TCodeFix : CodeFixProvider, new()
{
    public static Task VerifyAnalyzerAsync(string source, TestTarget target = TestTarget.Net80) =>
        new Test { TestCode = source, Target = target }.RunAsync();

    /// <summary>Checks the diagnostics of <paramref name="source"/>, then every way of fixing them.</summary>
    public static Task VerifyCodeFixAsync(string source, string fixedSource, TestTarget target = TestTarget.Net80) =>
        new Test { TestCode = source, FixedCode = fixedSource, Target = target }.RunAsync();
}
