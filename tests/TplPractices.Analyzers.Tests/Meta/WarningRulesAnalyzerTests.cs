using System.Collections.Immutable;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp;
using Microsoft.CodeAnalysis.Diagnostics;
using TplPractices.Analyzers.Rules;
using TplPractices.Analyzers.Tests.Verifiers;

namespace TplPractices.Analyzers.Tests.Meta;

/// <summary>
/// The rules share two analyzers (docs/performance.md): one runs each rule where it is a warning or an error, the other
/// the rules that do not ship as warnings where they are suggestions. Together they must report what each rule reports
/// on its own, and leave each rule off where the compiler would have left that rule's own analyzer off.
/// </summary>
public sealed class WarningRulesAnalyzerTests
{
    /// <summary>The rules that ship as warnings (the catalog's), each with a hit in <see cref="Hits"/>.</summary>
    private static readonly ImmutableArray<string> Shared = CatalogRules.Warnings;

    /// <summary>One hit of each shared rule.</summary>
    private const string Hits = """
        using System;
        using System.Collections.Concurrent;
        using System.Threading;
        using System.Threading.Tasks;

        class Service
        {
            Task<int> A() => Task.FromResult(42);
            Task B(ConcurrentQueue<int> q, int x) => Task.Factory.StartNew(() => q.Enqueue(x));
            Task C(Task t) => t.ContinueWith(_ => Task.Delay(1)).Unwrap();
            Task<string> G(string name) => Task.Run(() => name);
            bool D(Task t) => ((IAsyncResult)t).AsyncWaitHandle.WaitOne(10);
            async Task<int> E(int[] xs) { var s = 0; foreach (var x in xs) s += await Task.Run(() => x * 2); return s; }
            CancellationTokenRegistration F(CancellationToken token, int x) => token.Register(() => Console.WriteLine(x));
            Task H() => Task.Factory.StartNew(() => { }, TaskCreationOptions.AttachedToParent);
        }
        """;

    private static AnalyzerRun Run(DiagnosticAnalyzer analyzer, params (string Name, string Code)[] files)
    {
        var run = new AnalyzerRun(analyzer) { NullableContext = NullableContextOptions.Disable };
        run.Sources.AddRange(files);
        return run;
    }

    /// <summary>The rules that do not ship as warnings, one hit each.</summary>
    private const string OptInHits = """
        using System;
        using System.Threading.Tasks;

        class Later
        {
            int _n;
            Later() { System.Threading.Interlocked.Increment(ref _n); }
            Task<int> Run(int x) => Task.Run(() => x * 2);
            private async Task<long> F(long n) { if (n > 0) return n; await Task.Yield(); return -n; }
            async Task<long> G() => await F(2) + 1;
            int K(Task<int> t) => t.ContinueWith(x => x.Result + 1).Result;
            Task<int> L(Action<TaskCompletionSource<int>> start) { var done = new TaskCompletionSource<int>(); start(done); return done.Task; }
            [Hot] int P(int x) { if (x > 0) return x; try { return int.Parse("1"); } catch (FormatException) { return 0; } }
            sealed class HotAttribute : Attribute { }
        }
        """;

    private static readonly ImmutableArray<string> OptIn = CatalogRules.BelowWarning;

    [Fact]
    public void TheWarningAnalyzerCarriesEveryRule_TheSuggestionAnalyzerTheOthers()
    {
        Assert.Equal(Shared.Concat(OptIn).OrderBy(id => id), new WarningRulesAnalyzer().SupportedDiagnostics.Select(d => d.Id).OrderBy(id => id));
        Assert.Equal(OptIn, new SuggestionRulesAnalyzer().SupportedDiagnostics.Select(d => d.Id).OrderBy(id => id));
    }

    /// <summary>
    /// A rule that does not ship as a warning: a suggestion (TPL0007 off) runs in the suggestions' analyzer, raised it
    /// runs in the warnings' one, never in both, and set to none in neither.
    /// </summary>
    [Theory]
    [InlineData(null, "TPL0008,TPL0010,TPL0011,TPL0012,TPL0013,TPL0019", "")]
    [InlineData("warning", "", "TPL0007,TPL0008,TPL0010,TPL0011,TPL0012,TPL0013,TPL0019")]
    [InlineData("error", "", "TPL0007,TPL0008,TPL0010,TPL0011,TPL0012,TPL0013,TPL0019")]
    [InlineData("suggestion", "TPL0007,TPL0008,TPL0010,TPL0011,TPL0012,TPL0013,TPL0019", "")]
    [InlineData("silent", "TPL0007,TPL0008,TPL0010,TPL0011,TPL0012,TPL0013,TPL0019", "")]
    [InlineData("none", "", "")]
    public async Task OptInRules_RunInExactlyOneAnalyzer_ByTheirSeverity(string? severity, string bySuggestions, string byWarnings)
    {
        async Task<string> IdsAsync(DiagnosticAnalyzer analyzer)
        {
            var run = Run(analyzer, ("Test0.cs", OptInHits));
            run.EditorConfig = "root = true\n[*.cs]\ntpl_practices.TPL0012.required_attributes = Hot\n"
                + (severity is null ? "" : string.Concat(OptIn.Select(id => $"dotnet_diagnostic.{id}.severity = {severity}\n")));
            return string.Join(",", await Repository.IdsAsync(run));
        }

        Assert.Equal(bySuggestions, await IdsAsync(new SuggestionRulesAnalyzer()));
        Assert.Equal(byWarnings, await IdsAsync(new WarningRulesAnalyzer()));
    }

    [Fact]
    public async Task ReportsWhatEachRuleReportsOnItsOwn()
    {
        var template = File.ReadAllText(Path.Combine(Repository.Root, "benchmarks", "build-cost", "FileTemplate.txt"))
            .Replace("{N7}", "3", StringComparison.Ordinal).Replace("{N5}", "2", StringComparison.Ordinal).Replace("{N}", "7", StringComparison.Ordinal);
        var files = new[] { ("Hits.cs", Hits), ("Template.cs", template) };
        var own = new List<string>();
        foreach (var analyzer in Repository.RuleAnalyzers().Where(a => Shared.Contains(a.SupportedDiagnostics[0].Id)))
        {
            own.AddRange((await Run(analyzer, files).DiagnosticsAsync()).Select(Describe));
        }

        var shared = (await Run(new WarningRulesAnalyzer(), files).DiagnosticsAsync()).Select(Describe).ToList();
        Assert.Equal(own.OrderBy(d => d, StringComparer.Ordinal), shared.OrderBy(d => d, StringComparer.Ordinal));
        Assert.Equal(Shared.Length * 2, shared.Count);
    }

    [Theory]
    [MemberData(nameof(SharedIds))]
    public async Task RuleSetToNoneInEditorConfig_IsOff_AndTheOthersStayOn(string id)
    {
        var run = Run(new WarningRulesAnalyzer(), ("Test0.cs", Hits));
        run.EditorConfig = $"root = true\n[*.cs]\ndotnet_diagnostic.{id}.severity = none\n";
        Assert.Equal(Shared.Where(s => s != id), await Repository.IdsAsync(run));
    }

    [Fact]
    public async Task RuleOffForTheProject_ButOnInOneFile_ReportsInThatFileOnly()
    {
        var run = Run(new WarningRulesAnalyzer(), ("A.cs", Hits), ("B.cs", Hits.Replace("class Service", "class Other", StringComparison.Ordinal)));
        run.EditorConfig = "root = true\n[*.cs]\ndotnet_diagnostic.TPL0003.severity = none\n[B.cs]\ndotnet_diagnostic.TPL0003.severity = suggestion\n";
        var diagnostics = await run.DiagnosticsAsync();
        var tpl0003 = Assert.Single(diagnostics, d => d.Id == "TPL0003");
        Assert.EndsWith("B.cs", tpl0003.Location.SourceTree!.FilePath, StringComparison.Ordinal);
        Assert.Equal(DiagnosticSeverity.Info, tpl0003.Severity);
        Assert.Equal(2 * Shared.Length - 1, diagnostics.Length);
    }

    /// <summary>/nowarn, a rule set or a global config: the compilation's own options.</summary>
    [Fact]
    public async Task RuleOffInTheCompilationOptions_IsOff()
    {
        var compilation = CSharpCompilation.Create(
            "Test",
            [CSharpSyntaxTree.ParseText(Hits, path: "Test0.cs")],
            TestTarget.Net100.References(),
            new CSharpCompilationOptions(OutputKind.DynamicallyLinkedLibrary)
                .WithSpecificDiagnosticOptions([new("TPL0001", ReportDiagnostic.Suppress), new("TPL0009", ReportDiagnostic.Suppress)]));
        var diagnostics = await compilation
            .WithAnalyzers(ImmutableArray.Create<DiagnosticAnalyzer>(new WarningRulesAnalyzer()))
            .GetAnalyzerDiagnosticsAsync();
        Assert.Equal(Shared.Except(["TPL0001", "TPL0009"]), diagnostics.Select(d => d.Id).OrderBy(id => id));
    }

    public static TheoryData<string> SharedIds()
    {
        var data = new TheoryData<string>();
        foreach (var id in Shared)
        {
            data.Add(id);
        }

        return data;
    }

    private static string Describe(Diagnostic d) => $"{d.Id} {d.Location.SourceTree?.FilePath} {d.Location.SourceSpan} {d.GetMessage(System.Globalization.CultureInfo.InvariantCulture)}";
}
