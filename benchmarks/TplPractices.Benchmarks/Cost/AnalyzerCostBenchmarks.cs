using System;
using System.Collections.Generic;
using System.Collections.Immutable;
using System.IO;
using System.Linq;
using System.Threading.Tasks;
using BenchmarkDotNet.Attributes;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp;
using Microsoft.CodeAnalysis.Diagnostics;
using TplPractices.Analyzers;
using TplPractices.Analyzers.Rules;

namespace TplPractices.Benchmarks.Cost;

/// <summary>
/// What each rule costs the compiler: analyzing a generated compilation of 1,000 files (about 120,000 lines, one hit
/// of each rule per file plus near-misses) with the rule, run as a build runs it when it is a warning (in the shared
/// WarningRulesAnalyzer, every other rule off), against an analyzer that registers nothing and a no-op analyzer that
/// registers the same operation callbacks. The no-op baseline isolates the rule's own work
/// from the compiler's IOperation construction, which any operation analyzer triggers.
/// </summary>
[MemoryDiagnoser]
[BenchmarkCategory(Category)]
public class AnalyzerCostBenchmarks
{
    public const string Category = "AnalyzerCost";

    /// <summary>1,000 files for a measurement; the smoke run, which only proves each rule's exact count, sets fewer.</summary>
    public static int Files { get; set; } = 1000;

    private Compilation _compilation = null!;
    private DiagnosticAnalyzer _rule = null!;
    private DiagnosticAnalyzer _noOp = null!;

    /// <summary>
    /// Every rule the shared analyzer carries (the catalog's), or those listed in TPL_COST_RULES (comma-separated IDs), to
    /// measure a few again. TPL0012 speaks only on members marked with an attribute the user names; the template names none.
    /// </summary>
    public static IEnumerable<string> Rules() =>
        Only
        ?? Environment.GetEnvironmentVariable("TPL_COST_RULES")?.Split(',', StringSplitOptions.RemoveEmptyEntries | StringSplitOptions.TrimEntries)
        ?? new WarningRulesAnalyzer().SupportedDiagnostics.Select(d => d.Id).Where(id => id != DiagnosticIds.HotPathInlining).OrderBy(id => id, StringComparer.Ordinal).ToArray();

    /// <summary>Set by the smoke run, in process, to hand BenchmarkDotNet fewer rules than <see cref="Rules"/> names.</summary>
    public static IReadOnlyList<string>? Only { get; set; }

    /// <summary>
    /// Each rule's exact count on the generated files, without BenchmarkDotNet: the check its setup makes. Returns the
    /// number of rules whose count is wrong.
    /// </summary>
    public static int CheckCounts(IEnumerable<string> rules)
    {
        var failures = 0;
        foreach (var rule in rules)
        {
            try
            {
                new AnalyzerCostBenchmarks { Rule = rule }.Setup();
                Console.WriteLine($"cost smoke: {rule} reports exactly its generated hits on {Files} files");
            }
            catch (InvalidOperationException e)
            {
                Console.WriteLine($"cost smoke: FAIL {e.Message}");
                failures++;
            }
        }

        return failures;
    }

    [ParamsSource(nameof(Rules))]
    public string Rule { get; set; } = DiagnosticIds.CacheConstantTaskResult;

    [GlobalSetup]
    public void Setup()
    {
        _compilation = CreateCompilation(Rule);
        _noOp = Rule switch
        {
            DiagnosticIds.AsyncWaitHandle => new NoOpAnalyzer(OperationKind.PropertyReference),
            DiagnosticIds.AwaitInLoop => new NoOpAnalyzer(OperationKind.Await),
            DiagnosticIds.CallbackState => new NoOpAnalyzer(OperationKind.Invocation, OperationKind.ObjectCreation),
            DiagnosticIds.ValueTaskFastPath => new NoOpAnalyzer(OperationKind.MethodBody, OperationKind.LocalFunction),
            DiagnosticIds.AttachedToParent => new NoOpAnalyzer(OperationKind.FieldReference, OperationKind.LocalReference),
            DiagnosticIds.ConstructorConcurrency => new NoOpAnalyzer(OperationKind.ConstructorBody),
            DiagnosticIds.CompletionSourceContinuations => new NoOpAnalyzer(OperationKind.ObjectCreation),
            DiagnosticIds.AvailableValue => new NoOpAnalyzer(OperationKind.Invocation, OperationKind.Await),
            DiagnosticIds.PassThroughAsync => new NoOpAnalyzer(OperationKind.Await),
            DiagnosticIds.DisposeTokenSource => new NoOpAnalyzer(OperationKind.ObjectCreation, OperationKind.Invocation),
            _ => new NoOpAnalyzer(OperationKind.Invocation),
        };

        // Measured where a build runs it: in the shared analyzer, as a warning, every other rule off.
        _rule = new WarningRulesAnalyzer();

        // The exact count: one hit per file, no near-miss reported. The Task.Run in ScoreAsync's loop is TPL0005's while
        // that rule is on, the one in Named TPL0014's; with every other rule off both are TPL0007's too. Likewise the two
        // ContinueWith links of Chain are TPL0002's while it is on, and TPL0019's too with every other rule off.
        var expected = Rule is DiagnosticIds.TaskRunState or DiagnosticIds.ExplicitScheduler ? 3 * Files : Files;
        var count = Analyze(_rule).GetAwaiter().GetResult();
        if (count != expected)
        {
            throw new InvalidOperationException($"{Rule} reported {count} diagnostics; expected exactly {expected}.");
        }
    }

    [Benchmark(Baseline = true, Description = "empty analyzer")]
    public Task<int> Empty() => Analyze(new NoOpAnalyzer());

    [Benchmark(Description = "no-op, same callbacks")]
    public Task<int> NoOp() => Analyze(_noOp);

    [Benchmark(Description = "the rule")]
    public Task<int> RuleAnalyzer() => Analyze(_rule);

    private async Task<int> Analyze(DiagnosticAnalyzer analyzer)
    {
        var diagnostics = await _compilation
            .WithAnalyzers(ImmutableArray.Create(analyzer), new AnalyzerOptions(ImmutableArray<AdditionalText>.Empty))
            .GetAnalyzerDiagnosticsAsync()
            .ConfigureAwait(false);
        return diagnostics.Length;
    }

    private static Compilation CreateCompilation(string measured)
    {
        var severities = new WarningRulesAnalyzer().SupportedDiagnostics
            .Select(d => new KeyValuePair<string, ReportDiagnostic>(d.Id, d.Id == measured ? ReportDiagnostic.Warn : ReportDiagnostic.Suppress));
        var parse = new CSharpParseOptions(LanguageVersion.CSharp12);
        var trees = Enumerable.Range(0, Files).Select(i => CSharpSyntaxTree.ParseText(GeneratedFiles.Render(i), parse, $"File{i}.cs"));
        return CSharpCompilation.Create(
            "Generated",
            trees,
            Basic.Reference.Assemblies.Net80.References.All,
            new CSharpCompilationOptions(OutputKind.DynamicallyLinkedLibrary)
                .WithSpecificDiagnosticOptions(severities));
    }

    /// <summary>Registers the given operation callbacks and does nothing in them; with none, it is the empty baseline.</summary>
#pragma warning disable RS1001, RS1025, RS1026, RS2008 // A measuring baseline, not a shipped analyzer.
    private sealed class NoOpAnalyzer(params OperationKind[] kinds) : DiagnosticAnalyzer
    {
        private static readonly DiagnosticDescriptor Descriptor = new("NOOP", "No-op", "No-op", "Benchmark", DiagnosticSeverity.Hidden, true);

        public override ImmutableArray<DiagnosticDescriptor> SupportedDiagnostics { get; } = ImmutableArray.Create(Descriptor);

        public override void Initialize(AnalysisContext context)
        {
            context.EnableConcurrentExecution();
            context.ConfigureGeneratedCodeAnalysis(GeneratedCodeAnalysisFlags.ReportDiagnostics); // as the rules do
            if (kinds.Length > 0)
            {
                context.RegisterOperationAction(static _ => { }, kinds);
            }
        }
    }

#pragma warning restore RS1001, RS1025, RS1026, RS2008
}
