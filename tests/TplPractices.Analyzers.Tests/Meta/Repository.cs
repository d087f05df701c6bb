using System.Collections.Immutable;
using System.Reflection;
using Microsoft.CodeAnalysis.CodeFixes;
using Microsoft.CodeAnalysis.Diagnostics;
using TplPractices.Analyzers.CodeFixes.Rules;
using TplPractices.Analyzers.Rules;
using TplPractices.Analyzers.Tests.Verifiers;

namespace TplPractices.Analyzers.Tests.Meta;

/// <summary>What the meta tests look at: the repository on disk and every shipped analyzer.</summary>
internal static class Repository
{
    /// <summary>The repository root, recorded at build time by the test project.</summary>
    public static readonly string Root = typeof(Repository).Assembly
        .GetCustomAttributes<AssemblyMetadataAttribute>().Single(a => a.Key == "RepositoryRoot").Value!;

    /// <summary>
    /// Every analyzer a host loads: those marked <c>[DiagnosticAnalyzer]</c>, the two that carry the rules
    /// (<see cref="WarningRulesAnalyzer"/>, <see cref="SuggestionRulesAnalyzer"/>). Each rule's own analyzer class,
    /// which the rule tests use, is not marked.
    /// </summary>
    public static ImmutableArray<DiagnosticAnalyzer> Analyzers() => typeof(CacheConstantTaskResultAnalyzer).Assembly
        .GetTypes()
        .Where(t => !t.IsAbstract && typeof(DiagnosticAnalyzer).IsAssignableFrom(t) && t.GetCustomAttribute<DiagnosticAnalyzerAttribute>() is not null)
        .Select(t => (DiagnosticAnalyzer)Activator.CreateInstance(t)!)
        .ToImmutableArray();

    /// <summary>Each rule's own analyzer class, shipped or not: one per rule ID.</summary>
    public static ImmutableArray<DiagnosticAnalyzer> RuleAnalyzers() => typeof(CacheConstantTaskResultAnalyzer).Assembly
        .GetTypes()
        .Where(t => !t.IsAbstract && typeof(DiagnosticAnalyzer).IsAssignableFrom(t) && t.GetCustomAttribute<DiagnosticAnalyzerAttribute>() is null)
        .Select(t => (DiagnosticAnalyzer)Activator.CreateInstance(t)!)
        .ToImmutableArray();

    /// <summary>Every shipped fixer, by the rule's ID it fixes (peers' IDs it also serves are not keys).</summary>
    public static IReadOnlyDictionary<string, CodeFixProvider> Fixers() => typeof(UseTaskStateFixer).Assembly.GetTypes()
        .Where(t => !t.IsAbstract && typeof(CodeFixProvider).IsAssignableFrom(t))
        .Select(t => (CodeFixProvider)Activator.CreateInstance(t)!)
        .ToDictionary(f => f.FixableDiagnosticIds[0], f => f);

    /// <summary>A test of every shipped analyzer over one source file.</summary>
    public static AnalyzerRun AllRulesTest(string name, string code) => new(Analyzers()) { Sources = { (name, code) } };

    /// <summary>The IDs the run reports, in order, for comparing with an expected list.</summary>
    public static async Task<IEnumerable<string>> IdsAsync(AnalyzerRun run) =>
        (await run.DiagnosticsAsync()).Select(d => d.Id).OrderBy(id => id).ToList();
}
