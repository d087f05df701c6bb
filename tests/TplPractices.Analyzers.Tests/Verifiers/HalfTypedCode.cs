using Microsoft.CodeAnalysis.Diagnostics;

namespace TplPractices.Analyzers.Tests.Verifiers;

/// <summary>Wraps a statement as typed so far in a compilable-looking file, for the incomplete-code tests.</summary>
public static class HalfTypedCode
{
    public static string InMethod(string parameters, string statement) =>
        "using System;\nusing System.Threading;\nusing System.Threading.Tasks;\n\nclass C\n{\n    object? M(" + parameters + ")\n    {\n        "
        + statement + ";\n        return null;\n    }\n}\n";

    /// <summary>How many diagnostics the analyzer reports on it; the test fails if the analyzer throws.</summary>
    public static async Task<int> CountDiagnosticsAsync(DiagnosticAnalyzer analyzer, string parameters, string statement) =>
        (await AnalyzerRun.Of(analyzer, InMethod(parameters, statement)).DiagnosticsAsync()).Length;
}
