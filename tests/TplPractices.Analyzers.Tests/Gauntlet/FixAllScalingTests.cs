using System.Collections.Immutable;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CodeActions;
using Microsoft.CodeAnalysis.CodeFixes;
using Microsoft.CodeAnalysis.Diagnostics;
using Microsoft.CodeAnalysis.Text;
using TplPractices.Analyzers.CodeFixes.Internals;
using TplPractices.Analyzers.Internals;
using TplPractices.Analyzers.Tests.Meta;

namespace TplPractices.Analyzers.Tests.Gauntlet;

/// <summary>
/// The shared Fix All (<see cref="RuleFixAllProvider"/>) checks the documents a pass changed by running the rule
/// again, one document at a time, and the compiler starts a new analysis of the compilation for each. What a rule works
/// out once per compilation (the symbols it resolves, TPL0008's index of every file's identifiers) must still be worked
/// out once per project and pass, not once per changed document: per document, Fix All grew with the square of the
/// project. Counted, not timed, through the registration every rule uses (<see cref="RuleRegistration"/>).
/// </summary>
public sealed class FixAllScalingTests
{
    [Theory]
    [InlineData(1, 20)]
    [InlineData(2, 20)]
    public async Task APassIsCheckedWithOneAnalysisPerProject(int targets, int documents)
    {
        var files = Enumerable.Range(0, documents).Select(n => ($"File{n}.cs", $"class C{n} {{ }}\n")).ToList();
        var setup = targets == 1 ? GauntletSetup.Single : GauntletSetup.Modern;
        var solution = setup.Create(files, OutputKind.DynamicallyLinkedLibrary);
        var counter = new CountingRule();
        var provider = new RuleFixAllProvider(
            "test",
            "key",
            async (document, _, _, cancellationToken) => document.WithText(SourceText.From((await document.GetTextAsync(cancellationToken)) + "// fixed\n")),
            _ => 1,
            counter,
            _ => true);

        var changed = await FixAllAsync(provider, solution);

        Assert.All(changed.Projects.SelectMany(p => p.Documents), d => Assert.EndsWith("// fixed\n", d.GetTextAsync().Result.ToString(), StringComparison.Ordinal));
        Assert.Equal(targets, counter.Resolved);
    }

    /// <summary>
    /// Each new compilation costs time in proportion to the project, so a pass rewrites every document against the one
    /// compilation it starts from, and compiles the batch once, not once per document.
    /// </summary>
    [Theory]
    [InlineData(1)]
    [InlineData(2)]
    public async Task APassRewritesEveryDocumentAgainstOneCompilation(int targets)
    {
        var files = Enumerable.Range(0, 10).Select(n => ($"File{n}.cs", $"class C{n} {{ }}\n")).ToList();
        var setup = targets == 1 ? GauntletSetup.Single : GauntletSetup.Modern;
        var seen = new HashSet<Compilation>();
        var provider = new RuleFixAllProvider(
            "test",
            "key",
            async (document, _, _, cancellationToken) =>
            {
                var model = await document.GetSemanticModelAsync(cancellationToken);
                lock (seen)
                {
                    seen.Add(model!.Compilation);
                }

                return document.WithText(SourceText.From((await document.GetTextAsync(cancellationToken)) + "// fixed\n"));
            },
            _ => 1,
            new CountingRule(),
            _ => true);

        var changed = await FixAllAsync(provider, setup.Create(files, OutputKind.DynamicallyLinkedLibrary));

        Assert.All(changed.Projects.SelectMany(p => p.Documents), d => Assert.EndsWith("// fixed\n", d.GetTextAsync().Result.ToString(), StringComparison.Ordinal));
        Assert.Single(seen);
    }

    /// <summary>
    /// Two parts of one partial type that each add the same member compile alone but not together: the batch compile
    /// rejects them, and they are fixed one after the other, the second seeing the first's member.
    /// </summary>
    [Fact]
    public async Task DocumentsTheBatchRejectsAreFixedOneAfterAnother()
    {
        var files = Enumerable.Range(0, 3).Select(n => ($"File{n}.cs", $"partial class P {{ void M{n}() {{ }} }}\n")).ToList();
        var provider = new RuleFixAllProvider(
            "test",
            "key",
            async (document, _, _, cancellationToken) =>
            {
                var model = await document.GetSemanticModelAsync(cancellationToken);
                return model!.Compilation.GetTypeByMetadataName("P")!.GetMembers("Shared").IsEmpty
                    ? document.WithText(SourceText.From((await document.GetTextAsync(cancellationToken)) + "partial class P { static int Shared; }\n"))
                    : document;
            },
            _ => 1,
            new CountingRule(),
            _ => true);

        var changed = await FixAllAsync(provider, GauntletSetup.Single.Create(files, OutputKind.DynamicallyLinkedLibrary));

        var compilation = (await changed.Projects.Single().GetCompilationAsync())!;
        Assert.Empty(compilation.GetDiagnostics().Where(d => d.Severity == DiagnosticSeverity.Error));
        Assert.Single(compilation.GetTypeByMetadataName("P")!.GetMembers("Shared"));
    }

    private static async Task<Solution> FixAllAsync(FixAllProvider provider, Solution solution)
    {
        var first = solution.Projects.First().Documents.First();
        var context = new FixAllContext(
            first, Repository.Fixers()["TPL0003"], FixAllScope.Solution, "key", [CountingRule.Rule.Id], new OneSitePerDocument(), CancellationToken.None);
        var fixAll = await provider.GetFixAsync(context);
        return (await fixAll!.GetOperationsAsync(CancellationToken.None)).OfType<ApplyChangesOperation>().Single().ChangedSolution;
    }

    /// <summary>Reports nothing; registers as every rule does, and counts how often its symbols are resolved.</summary>
    [DiagnosticAnalyzer(LanguageNames.CSharp)]
    private sealed class CountingRule : DiagnosticAnalyzer
    {
        public static readonly DiagnosticDescriptor Rule = new("TPLTEST", "Test", "Test", "Test", DiagnosticSeverity.Warning, isEnabledByDefault: true);

        private int _resolved;

        public int Resolved => _resolved;

        public override ImmutableArray<DiagnosticDescriptor> SupportedDiagnostics => [Rule];

        public override void Initialize(AnalysisContext context)
        {
            context.EnableConcurrentExecution();
            context.ConfigureGeneratedCodeAnalysis(GeneratedCodeAnalysisFlags.None);
            context.RegisterRule(OperationRule.Create(
                Rule,
                _ =>
                {
                    Interlocked.Increment(ref _resolved);
                    return new Symbols();
                },
                (_, _, _) => { },
                OperationKind.Invocation));
        }

        private sealed class Symbols;
    }

    /// <summary>One site at the start of every document of every project, as if a rule had reported each file once.</summary>
    private sealed class OneSitePerDocument : FixAllContext.DiagnosticProvider
    {
        public override async Task<IEnumerable<Diagnostic>> GetAllDiagnosticsAsync(Project project, CancellationToken cancellationToken)
        {
            var diagnostics = new List<Diagnostic>();
            foreach (var document in project.Documents)
            {
                diagnostics.AddRange(await GetDocumentDiagnosticsAsync(document, cancellationToken));
            }

            return diagnostics;
        }

        public override async Task<IEnumerable<Diagnostic>> GetDocumentDiagnosticsAsync(Document document, CancellationToken cancellationToken) =>
            [Diagnostic.Create(CountingRule.Rule, Location.Create((await document.GetSyntaxTreeAsync(cancellationToken))!, new TextSpan(0, 5)))];

        public override Task<IEnumerable<Diagnostic>> GetProjectDiagnosticsAsync(Project project, CancellationToken cancellationToken) =>
            Task.FromResult(Enumerable.Empty<Diagnostic>());
    }
}
