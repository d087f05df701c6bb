using Microsoft.CodeAnalysis.Diagnostics;

namespace TplPractices.Analyzers.Tests.Verifiers;

public static class CSharpAnalyzerVerifier<TAnalyzer>
    where TAnalyzer : DiagnosticAnalyzer, new()
{
    public static Task VerifyAnalyzerAsync(string source, TestTarget target = TestTarget.Net80) =>
        new AnalyzerTest(new TAnalyzer(), fixer: null) { TestCode = source, Target = target }.RunAsync();
}
