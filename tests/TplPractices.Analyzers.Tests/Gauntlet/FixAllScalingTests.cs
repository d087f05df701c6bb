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
/// The shared Fix All (<see cref="SequentialFixAllProvider"/>) checks the documents a pass changed by running the rule
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
        var provider = new SequentialFixAllProvider(
            "test",
            async (document, _, cancellationToken) => document.WithText(SourceText.From((await document.GetTextAsync(cancellationToken)) + "// fixed\n")),
            _ => 1,
            counter,
            _ => true);

        var first = solution.Projects.First().Documents.First();
        var context = new FixAllContext(
            first, Repository.Fixers()["TPL0003"], FixAllScope.Solution, "key", [CountingRule.Rule.Id], new OneSitePerDocument(), CancellationToken.None);
        var fixAll = await provider.GetFixAsync(context);
        var changed = (await fixAll!.GetOperationsAsync(CancellationToken.None)).OfType<ApplyChangesOperation>().Single().ChangedSolution;

        Assert.All(changed.Projects.SelectMany(p => p.Documents), d => Assert.EndsWith("// fixed\n", d.GetTextAsync().Result.ToString(), StringComparison.Ordinal));
        Assert.Equal(targets, counter.Resolved);
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
            context.RegisterOperationActionWith(
                Rule,
                _ =>
                {
                    Interlocked.Increment(ref _resolved);
                    return new Symbols();
                },
                (_, _, _) => { },
                OperationKind.Invocation);
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
