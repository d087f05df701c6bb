using System.Collections.Immutable;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.Diagnostics;
using TplPractices.Analyzers.Internals;
using TplPractices.Analyzers.Tests.Verifiers;

namespace TplPractices.Analyzers.Tests.Meta;

/// <summary>
/// Every rule stays out of generated code in each form the compiler recognises. The rules leave that to the
/// compiler's check before it calls them and turn off its second check when they report
/// (<see cref="GeneratedCode"/>), so each form is checked here for every rule at once. These tests also
/// pass with <c>GeneratedCodeAnalysisFlags.None</c>: the flag changes the cost, not what is reported.
/// </summary>
public sealed class GeneratedCodeTests
{
    internal const string Usings = """
        using System;
        using System.Collections.Concurrent;
        using System.Threading.Tasks;

        """;

    // One hit per rule (SuppressionTests silence the same members).
    internal const string Members = """
            Task<int> Answer() => Task.FromResult(42);
            System.Threading.CancellationTokenRegistration OnCancel(System.Threading.CancellationToken token, int x) => token.Register(() => Console.WriteLine(x));
            Task Fill(ConcurrentQueue<int> queue) => Task.Factory.StartNew(() => queue.Enqueue(1), default, TaskCreationOptions.None, TaskScheduler.Default);
            bool Block(Task task) => ((IAsyncResult)task).AsyncWaitHandle.WaitOne(10);
            Task Chain(Task first) => first.ContinueWith(_ => Task.Delay(1)).Unwrap().ContinueWith(_ => Task.CompletedTask).Unwrap();
            async Task<int> Score(int[] items)
            {
                var total = 0;
                foreach (var item in items) total += await Task.Run(() => item * 2);
                return total;
            }
            async Task<long> Size(long n) { if (n > 0) return n; await Task.Yield(); return -n; }
            async Task<long> Sizes() => await Size(1) + await Size(2);
            Task Child() => Task.Factory.StartNew(() => { }, default, TaskCreationOptions.AttachedToParent, TaskScheduler.Default);
            Task Later(int x) => Task.Run(() => Console.WriteLine(x));
            int Converted(Task<int> t) => t.ContinueWith(x => x.Result + 1, TaskScheduler.Default).Result;
            int _created;
            Hits() { System.Threading.Interlocked.Increment(ref _created); }
            [Hot] int Parsed(int x) { if (x > 0) return x; try { return int.Parse("1"); } catch (FormatException) { return 0; } }
            sealed class HotAttribute : Attribute { }
            Task<int> Promised(Action<TaskCompletionSource<int>> start) { var done = new TaskCompletionSource<int>(); start(done); return done.Task; }
            Task<string> Named(string name) => Task.Run(() => name);
            int Cached(ConcurrentDictionary<string, int> cache, int x) => cache.GetOrAdd("k", k => x);
            async Task<int> Core(int x) { await Task.Yield(); return x; }
            async Task<int> Forward(int x) => await Core(x);
            async Task Poll(System.Threading.CancellationToken token) { while (!token.IsCancellationRequested) { _created++; await Task.Delay(1000); } }
            void Twice(Task task) { task.ContinueWith(_ => Console.WriteLine(1), TaskScheduler.Default); task.ContinueWith(_ => Console.WriteLine(2), TaskScheduler.Default); }
            Task Then(Task task) => task.ContinueWith(_ => Console.WriteLine());
            async Task Guarded(Func<System.Threading.CancellationToken, Task> work) { var timeout = new System.Threading.CancellationTokenSource(100); await work(timeout.Token); }
        """;

    private const string Hits = Usings + "class Hits\n{\n" + Members + "\n}\n";

    private static readonly IEnumerable<string> AllRules = CatalogRules.Ids;

    /// <summary>Every rule raised (some are off or suggestions by default), TPL0012 on the members marked [Hot].</summary>
    private static readonly string EveryRuleOn = CatalogRules.EveryRuleOn("Hot");

    internal static AnalyzerRun AllRulesTest(string name, string code)
    {
        var run = Repository.AllRulesTest(name, code);
        run.EditorConfig = EveryRuleOn;
        return run;
    }

    [Fact]
    public void EveryAnalyzer_RunsConcurrently_AndSkipsGeneratedCodeWithoutTheReportTimeRecheck()
    {
        Assert.Equal(AllRules, Repository.Analyzers().SelectMany(a => a.SupportedDiagnostics).Select(d => d.Id).Distinct().OrderBy(id => id));
        Assert.All(Repository.Analyzers(), analyzer =>
        {
            var context = new RecordingContext();
            analyzer.Initialize(context);
            Assert.True(context.Concurrent, analyzer.GetType().Name);
            Assert.Equal(GeneratedCode.Skipped, context.GeneratedCodeFlags);
        });
    }

    [Fact]
    public async Task OrdinaryFile_ReportsEveryRule()
    {
        Assert.Equal(AllRules, await Repository.IdsAsync(AllRulesTest("Hits.cs", Hits)));
    }

    [Theory]
    [InlineData("Hits.g.cs")]
    [InlineData("Hits.G.CS")]
    [InlineData("Hits.designer.cs")]
    [InlineData("Hits.generated.cs")]
    [InlineData("Hits.g.i.cs")]
    [InlineData("TemporaryGeneratedFile_Hits.cs")]
    public async Task GeneratedFileName_ReportsNothing(string name)
    {
        Assert.Empty(await Repository.IdsAsync(AllRulesTest(name, Hits)));
    }

    [Theory]
    [InlineData("// <auto-generated/>\n")]
    [InlineData("// <autogenerated />\n")]
    [InlineData("/* <auto-generated>\n   This file was written by a tool.\n</auto-generated> */\n")]
    [InlineData("// Copyright header\n\n// <auto-generated/>\n")]
    public async Task AutoGeneratedHeader_ReportsNothing(string header)
    {
        Assert.Empty(await Repository.IdsAsync(AllRulesTest("Hits.cs", header + Hits)));
    }

    [Fact]
    public async Task AutoGeneratedCommentAfterTheFirstToken_DoesNotCount()
    {
        Assert.Equal(AllRules, await Repository.IdsAsync(AllRulesTest("Hits.cs", Hits + "// <auto-generated/>\n")));
    }

    [Theory]
    [InlineData("[System.CodeDom.Compiler.GeneratedCode(\"tool\", \"1.0\")]\nclass Hits\n{\n" + Members + "\n}\n")]
    [InlineData("[System.CodeDom.Compiler.GeneratedCode(\"tool\", \"1.0\")]\nclass Outer\n{\nclass Hits\n{\n" + Members + "\n}\n}\n")]
    public async Task GeneratedCodeAttribute_OnTheTypeOrAnOuterType_ReportsNothing(string declarations)
    {
        Assert.Empty(await Repository.IdsAsync(AllRulesTest("Hits.cs", Usings + declarations)));
    }

    [Fact]
    public async Task GeneratedCodeAttribute_OnOneMember_SilencesOnlyThatMember()
    {
        var code = Hits.Replace("    Task<int> Answer()", "    [System.CodeDom.Compiler.GeneratedCode(\"tool\", \"1.0\")]\n    Task<int> Answer()");
        Assert.Equal(AllRules.Where(id => id != "TPL0003"), await Repository.IdsAsync(AllRulesTest("Hits.cs", code)));
    }

    [Fact]
    public async Task EditorConfigGeneratedCode_True_ReportsNothing()
    {
        var test = AllRulesTest("Hits.cs", Hits);
        test.EditorConfig = EveryRuleOn + "generated_code = true\n";
        Assert.Empty(await Repository.IdsAsync(test));
    }

    [Fact]
    public async Task EditorConfigGeneratedCode_False_OverridesTheFileName()
    {
        var test = AllRulesTest("Hits.g.cs", Hits);
        test.EditorConfig = EveryRuleOn + "generated_code = false\n";
        Assert.Equal(AllRules, await Repository.IdsAsync(test));
    }

    [Fact]
    public async Task LineHiddenInsideAnOrdinaryMember_SilencesOnlyTheHiddenLines()
    {
        var code = Usings + "#line default\nclass Hits\n{\n" + Members.Replace(
            "    Task<int> Answer() => Task.FromResult(42);",
            "    Task<int> Answer()\n    {\n#line hidden\n        return Task.FromResult(42);\n#line default\n    }") + "\n}\n";
        Assert.Equal(AllRules.Where(id => id != "TPL0003"), await Repository.IdsAsync(AllRulesTest("Hits.cs", code)));
    }

    [Fact]
    public async Task LinesBeforeTheFirstLineDirective_InAFileWithHiddenLines_AreHidden()
    {
        // Razor's convention, which the compiler follows: such a file is all generated except its mapped lines.
        Assert.Empty(await Repository.IdsAsync(AllRulesTest("Hits.cs", Hits + "#line hidden\n")));
    }

    [Fact]
    public async Task MappedLines_InAFileWithHiddenLines_AreReported()
    {
        var code = Usings + "#line hidden\nclass Hits\n{\n#line 10 \"Hits.razor\"\n" + Members + "\n#line hidden\n}\n";
        Assert.Equal(AllRules, await Repository.IdsAsync(AllRulesTest("Hits.cs", code)));
    }

    /// <summary>Records what an analyzer's Initialize configures; registrations are ignored.</summary>
    private sealed class RecordingContext : AnalysisContext
    {
        public bool Concurrent { get; private set; }

        public GeneratedCodeAnalysisFlags? GeneratedCodeFlags { get; private set; }

        public override void EnableConcurrentExecution() => Concurrent = true;

        public override void ConfigureGeneratedCodeAnalysis(GeneratedCodeAnalysisFlags analysisMode) => GeneratedCodeFlags = analysisMode;

        public override void RegisterCompilationStartAction(Action<CompilationStartAnalysisContext> action) { }

        public override void RegisterCompilationAction(Action<CompilationAnalysisContext> action) { }

        public override void RegisterSemanticModelAction(Action<SemanticModelAnalysisContext> action) { }

        public override void RegisterSymbolAction(Action<SymbolAnalysisContext> action, ImmutableArray<SymbolKind> symbolKinds) { }

        public override void RegisterCodeBlockStartAction<TLanguageKindEnum>(Action<CodeBlockStartAnalysisContext<TLanguageKindEnum>> action) { }

        public override void RegisterCodeBlockAction(Action<CodeBlockAnalysisContext> action) { }

        public override void RegisterSyntaxTreeAction(Action<SyntaxTreeAnalysisContext> action) { }

        public override void RegisterSyntaxNodeAction<TLanguageKindEnum>(Action<SyntaxNodeAnalysisContext> action, ImmutableArray<TLanguageKindEnum> syntaxKinds) { }
    }
}
