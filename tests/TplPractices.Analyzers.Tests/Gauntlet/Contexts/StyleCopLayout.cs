using System.Collections.Immutable;
using System.Reflection;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.Diagnostics;
using TplPractices.Analyzers.Tests.Verifiers;

namespace TplPractices.Analyzers.Tests.Gauntlet.Contexts;

/// <summary>
/// A project that runs StyleCop.Analyzers with its layout rules as errors, as some libraries do under
/// TreatWarningsAsErrors: a statement a line (SA1107), and the arguments of a list over several lines each on a line
/// of their own, the first after the parenthesis (SA1116, SA1117). Such a project builds only while the rules find
/// nothing: where the original breaks none of a rule, the fixed code must break none either.
/// </summary>
internal sealed class StyleCopLayout : GauntletContext
{
    private static readonly string[] Rules = ["SA1107", "SA1116", "SA1117"];

    private static readonly Lazy<AnalyzerFileReference> StyleCop = new(() => PackagedAnalyzers.Load("stylecop", "StyleCop.Analyzers.dll"));

    public override string Name => "StyleCop layout rules as errors";

    public override ImmutableArray<GauntletSetup> Setups => [GauntletSetup.Single];

    public override Variant? Apply(GauntletCase gauntletCase, GauntletSetup setup) =>
        new(Name, gauntletCase, setup, [("Test0.cs", gauntletCase.Code)], ExpectAsync, Transform: WithStyleCop);

    private static Solution WithStyleCop(Solution solution) =>
        solution.AddAnalyzerReference(solution.ProjectIds[0], StyleCop.Value);

    private static async Task<string?> ExpectAsync(Solution before, Solution after)
    {
        var was = await CountsAsync(before);
        var now = await CountsAsync(after);
        var broken = Rules.Where(id => was.GetValueOrDefault(id) == 0 && now.GetValueOrDefault(id) > 0).ToList();
        return broken.Count == 0 ? null : $"the fixes broke {string.Join(", ", broken.Select(id => $"{id} ({now[id]} times)"))}";
    }

    private static async Task<Dictionary<string, int>> CountsAsync(Solution solution)
    {
        var project = solution.Projects.First();
        var analyzers = StyleCop.Value.GetAnalyzers(LanguageNames.CSharp)
            .Where(a => a.SupportedDiagnostics.Any(d => Rules.Contains(d.Id)))
            .ToImmutableArray();
        var compilation = (await project.GetCompilationAsync())!;
        var options = compilation.Options.WithSpecificDiagnosticOptions(Rules.ToDictionary(id => id, _ => ReportDiagnostic.Error));
        var diagnostics = await compilation.WithOptions(options).WithAnalyzers(analyzers, project.AnalyzerOptions).GetAnalyzerDiagnosticsAsync();
        return diagnostics.Where(d => Rules.Contains(d.Id)).GroupBy(d => d.Id).ToDictionary(g => g.Key, g => g.Count());
    }
}
