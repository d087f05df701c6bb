using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp.Syntax;

namespace TplPractices.Analyzers.Tests.Gauntlet.Contexts;

/// <summary>
/// Before each statement that passes a capturing lambda, the captured variables read in a tuple literal
/// (<c>GC.KeepAlive((a, b));</c>), as a state a first fix writes reads them. A read is not a write: every site must
/// still be reported with its fix.
/// </summary>
internal sealed class TupleReads : GauntletContext
{
    public override string Name => "captured variables read in a tuple";

    public override Variant? Apply(GauntletCase gauntletCase, GauntletSetup setup)
    {
        var insertions = new List<(int, string)>();
        foreach (var node in Sites.Nodes(gauntletCase).OfType<AnonymousFunctionExpressionSyntax>())
        {
            if (Sites.Statement(node) is not { Parent: BlockSyntax } statement)
            {
                continue;
            }

            var flow = gauntletCase.Model.AnalyzeDataFlow(node);
            var captured = flow?.CapturedInside.Where(s => s is ILocalSymbol or IParameterSymbol { IsThis: false })
                .Where(s => gauntletCase.Model.LookupSymbols(statement.SpanStart, name: s.Name).Contains(s, SymbolEqualityComparer.Default))
                .Select(s => s.Name).ToList();
            if (captured is not { Count: > 0 })
            {
                continue;
            }

            var tuple = captured.Count == 1 ? $"({captured[0]}, {captured[0]})" : $"({string.Join(", ", captured)})";
            var indent = statement.GetLeadingTrivia().LastOrDefault(t => t.IsKind(Microsoft.CodeAnalysis.CSharp.SyntaxKind.WhitespaceTrivia)).ToString();
            insertions.Add((statement.SpanStart, $"System.GC.KeepAlive({tuple});\n{indent}"));
        }

        var fixable = gauntletCase.Fixable.Length;
        return insertions.Count == 0 ? null : Single(gauntletCase, setup, Sites.Insert(gauntletCase.Code, insertions), async (original, _) =>
        {
            var project = original.Projects.Single(p => p.Name.Contains("net10.0", StringComparison.Ordinal));
            var found = (await FormatRun.AnalysisAsync(project)).Reported.Count(d => d.Properties.ContainsKey(DiagnosticPropertyKeys.FixKind));
            return found < fixable ? $"{fixable - found} of the {fixable} fixable sites are no longer reported with a fix once their captures are read in a tuple" : null;
        });
    }
}
