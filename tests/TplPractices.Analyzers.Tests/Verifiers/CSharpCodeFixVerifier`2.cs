using Microsoft.CodeAnalysis.CodeFixes;
using Microsoft.CodeAnalysis.CSharp.Testing;
using Microsoft.CodeAnalysis.Diagnostics;
using Microsoft.CodeAnalysis.Testing;

namespace TplPractices.Analyzers.Tests.Verifiers;

/// <summary>The template's verifier aliases over Microsoft.CodeAnalysis.Testing, with our offline <see cref="Test"/>.</summary>
public static partial class CSharpCodeFixVerifier<TAnalyzer, TCodeFix>
    where TAnalyzer : DiagnosticAnalyzer, new()
    where TCodeFix : CodeFixProvider, new()
{
    public static DiagnosticResult Diagnostic() => CSharpCodeFixVerifier<TAnalyzer, TCodeFix, DefaultVerifier>.Diagnostic();

    public static Task VerifyAnalyzerAsync(string source, TestTarget target = TestTarget.Net100) =>
        new Test { TestCode = source, Target = target }.RunAsync();

    /// <summary>Checks the diagnostics of <paramref name="source"/>, then every way of fixing them.</summary>
    public static Task VerifyCodeFixAsync(string source, string fixedSource, TestTarget target = TestTarget.Net100) =>
        new Test { TestCode = source, FixedCode = fixedSource, Target = target }.RunAsync();
}
