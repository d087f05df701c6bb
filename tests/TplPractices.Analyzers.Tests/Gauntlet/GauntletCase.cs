using System.Collections.Immutable;
using Microsoft.CodeAnalysis;
using TplPractices.Analyzers.Tests.Verifiers;

namespace TplPractices.Analyzers.Tests.Gauntlet;

/// <summary>
/// A source the tests already hold on which some rule offers a fix, with what the contexts build on: its tree and
/// semantic model on net10.0, and the sites of the fixable diagnostics.
/// </summary>
internal sealed class GauntletCase
{
    private GauntletCase(string origin, string code, OutputKind outputKind, Document document, SemanticModel model, ImmutableArray<Diagnostic> fixable, IReadOnlySet<string> reported)
    {
        Reported = reported;
        Origin = origin;
        Code = code;
        OutputKind = outputKind;
        Document = document;
        Model = model;
        Fixable = fixable;
    }

    /// <summary>Where the source comes from: a sample's file name, or a test file and line.</summary>
    public string Origin { get; }

    public string Code { get; }

    /// <summary>A console application for top-level statements, a library otherwise.</summary>
    public OutputKind OutputKind { get; }

    public Document Document { get; }

    public SemanticModel Model { get; }

    public SyntaxNode Root => Model.SyntaxTree.GetRoot();

    /// <summary>The diagnostics that name a rewrite, in source order.</summary>
    public ImmutableArray<Diagnostic> Fixable { get; }

    /// <summary>The IDs of every rule that reports on the case as it is, with or without a fix.</summary>
    public IReadOnlySet<string> Reported { get; }

    public override string ToString() => Origin;

    private static readonly Lazy<Task<IReadOnlyList<GauntletCase>>> AllCases = new(LoadAsync);

    /// <summary>Sources that show a difference a rule page documents (the caveat tests) say so, and are left out.</summary>
    public const string CaveatMarker = "// Shows a documented caveat of a fix";

    /// <summary>Every test source and sample that compiles on net10.0 without errors and has a fixable diagnostic.</summary>
    public static Task<IReadOnlyList<GauntletCase>> AllAsync() => AllCases.Value;

    /// <summary>
    /// The sources are taken on every core at once, in the order they come: the two longest test classes start first and
    /// both wait on this load, and taken one at a time it left the other core idle.
    /// </summary>
    private static async Task<IReadOnlyList<GauntletCase>> LoadAsync()
    {
        var sources = TestSources.WithOrigins.Where(s => !s.Code.Contains(CaveatMarker, StringComparison.Ordinal)).ToList();
        var workers = Math.Max(1, Environment.ProcessorCount);
        var parts = await Task.WhenAll(Enumerable.Range(0, workers).Select(worker => Task.Run(async () =>
        {
            var part = new List<(int Index, GauntletCase Case)>();
            for (var i = worker; i < sources.Count; i += workers)
            {
                if (await LoadAsync(sources[i].Origin, sources[i].Code) is { } loaded)
                {
                    part.Add((i, loaded));
                }
            }

            return part;
        })));
        return parts.SelectMany(p => p).OrderBy(p => p.Index).Select(p => p.Case).ToList();
    }

    /// <summary>The case a source makes, or null where it has nothing to fix or does not compile.</summary>
    private static async Task<GauntletCase?> LoadAsync(string origin, string code)
    {
        var kind = code.Contains("class ", StringComparison.Ordinal) || !code.Contains("await ", StringComparison.Ordinal)
            ? OutputKind.DynamicallyLinkedLibrary
            : OutputKind.ConsoleApplication;
        var project = GauntletSetup.Single.Create([("Test0.cs", code)], kind).Projects.Single();
        var analysis = await FormatRun.AnalysisAsync(project);
        var fixable = analysis.Reported
            .Where(d => d.Properties.ContainsKey(DiagnosticPropertyKeys.FixKind))
            .OrderBy(d => d.Location.SourceSpan.Start)
            .ToImmutableArray();
        if (fixable.IsEmpty || analysis.Compiler.Any(d => d.Severity == DiagnosticSeverity.Error))
        {
            return null;
        }

        var document = project.Documents.Single();
        return new GauntletCase(origin, code, kind, document, (await document.GetSemanticModelAsync())!, fixable, analysis.Reported.Select(d => d.Id).ToHashSet());
    }
}
