using System.Collections.Immutable;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CodeActions;
using Microsoft.CodeAnalysis.CodeFixes;
using Microsoft.CodeAnalysis.CSharp;
using Microsoft.CodeAnalysis.CSharp.Testing;
using Microsoft.CodeAnalysis.Diagnostics;
using Microsoft.CodeAnalysis.Testing;
using Microsoft.CodeAnalysis.Testing.Model;
using Microsoft.CodeAnalysis.Text;

namespace TplPractices.Analyzers.Tests.Verifiers;

public static partial class CSharpCodeFixVerifier<TAnalyzer, TCodeFix>
{
    /// <summary>
    /// The library's code-fix test, set up once for this repository: reference assemblies from restored packages
    /// (<see cref="OfflineReferences"/>), an explicit language version and nullable context, and optional linked
    /// targets (<see cref="LinkedTargets"/>) for multi-targeted projects.
    /// </summary>
    public sealed class Test : CSharpCodeFixTest<TAnalyzer, TCodeFix, DefaultVerifier>
    {
        public Test()
        {
            ReferenceAssemblies = OfflineReferences.None;
            // Every test analyzing its input again under #pragma cost about 6 % of the rule tests' time, and again as
            // generated code about 6 % more: SuppressionTests show each rule silenced by #pragma and [SuppressMessage]
            // once, and GeneratedCodeTests each rule quiet in every form of generated code the compiler knows.
            TestBehaviors |= TestBehaviors.SkipSuppressionCheck | TestBehaviors.SkipGeneratedCodeCheck;
        }

        public TestTarget Target { get; set; } = TestTarget.Net100;

        public LanguageVersion LanguageVersion { get; set; } = LanguageVersion.CSharp12;

        public NullableContextOptions NullableContext { get; set; } = NullableContextOptions.Enable;

        /// <summary>The oldest setup the rules support: C# 7.3 with nullable off, on .NET Framework 4.7.2.</summary>
        public bool OnCSharp73NetFramework
        {
            get => LanguageVersion == LanguageVersion.CSharp7_3 && Target == TestTarget.Net472;
            set
            {
                if (value)
                {
                    LanguageVersion = LanguageVersion.CSharp7_3;
                    NullableContext = NullableContextOptions.Disable;
                    Target = TestTarget.Net472;
                }
            }
        }

        /// <summary>
        /// The library our users ship most: one file compiled for netstandard2.0 under C# 7.3 with nullable off (the
        /// markup's target) and, as a linked copy, for net10.0 with nullable on.
        /// </summary>
        public bool SharedByNetStandardAndNet10
        {
            get => Target == TestTarget.NetStandard20 && LinkedTargets.Contains(NetTen);
            set
            {
                if (value)
                {
                    Target = TestTarget.NetStandard20;
                    LanguageVersion = LanguageVersion.CSharp7_3;
                    NullableContext = NullableContextOptions.Disable;
                    LinkedTargets.Add(NetTen);
                }
            }
        }

        private static readonly LinkedTarget NetTen = new(TestTarget.Net100, LanguageVersion.CSharp12, NullableContextOptions.Enable);

        /// <summary>
        /// More targets that share every file as linked documents, as a multi-targeted project does. The markup
        /// describes <see cref="Target"/>; every target's copy must equal the expected code and compile.
        /// </summary>
        public List<LinkedTarget> LinkedTargets { get; } = new();

        protected override Task RunImplAsync(CancellationToken cancellationToken)
        {
            TestState.AdditionalReferences.AddRange(Target.References());
            // With one project, Fix All in the project and in the solution take the same diagnostics through the same
            // path (RuleFixAllProvider.ScopeDiagnosticsAsync): the solution's run stands for both.
            if (LinkedTargets.Count == 0 && TestState.AdditionalProjects.Count == 0)
            {
                CodeFixTestBehaviors |= CodeFixTestBehaviors.SkipFixAllInProjectCheck;

                // With one document too, the solution's diagnostics are the document's (ScopeDiagnosticsAsync, then the
                // same Group and passes): the document's run, the IDE's usual scope, stands for it. Tests of several
                // files, linked targets or projects, and the gauntlet's solution-wide runs, keep the solution's.
                if (TestState.Sources.Count == 1)
                {
                    CodeFixTestBehaviors |= CodeFixTestBehaviors.SkipFixAllInSolutionCheck;
                }
            }
            // A diagnostic's additional locations carry the nodes the analyzer found to its fixer (FixSites.WithParts):
            // the fix tests check what the fixer makes of them, so the expectations need not list them.
            foreach (var expected in new[] { TestState.ExpectedDiagnostics, FixedState.ExpectedDiagnostics, BatchFixedState.ExpectedDiagnostics })
            {
                for (var i = 0; i < expected.Count; i++)
                {
                    expected[i] = expected[i].WithOptions(expected[i].Options | DiagnosticOptions.IgnoreAdditionalLocations);
                }
            }

            return base.RunImplAsync(cancellationToken);
        }

        /// <summary>Conditional compilation symbols of the test's own target (an SDK project defines NET, NETSTANDARD2_0, …).</summary>
        public List<string> PreprocessorSymbols { get; } = new();

        protected override ParseOptions CreateParseOptions() =>
            ((CSharpParseOptions)base.CreateParseOptions()).WithLanguageVersion(LanguageVersion).WithPreprocessorSymbols(PreprocessorSymbols);

        protected override CompilationOptions CreateCompilationOptions() =>
            ((CSharpCompilationOptions)base.CreateCompilationOptions()).WithNullableContextOptions(NullableContext);

        protected override async Task<Project> CreateProjectImplAsync(
            EvaluatedProjectState primaryProject, ImmutableArray<EvaluatedProjectState> additionalProjects, CancellationToken cancellationToken) =>
            await LinkedProjects.AddAsync(
                await base.CreateProjectImplAsync(primaryProject, additionalProjects, cancellationToken), LinkedTargets, cancellationToken);

        protected override ImmutableArray<(Project project, Diagnostic diagnostic)> FilterDiagnostics(
            ImmutableArray<(Project project, Diagnostic diagnostic)> diagnostics) =>
            LinkedProjects.Filter(base.FilterDiagnostics(diagnostics));

        /// <summary>A single fix changes one copy of a linked file; the IDE's workspace gives the change to every copy, and so does this.</summary>
        protected override CodeFixContext CreateCodeFixContext(
            Document document, TextSpan span, ImmutableArray<Diagnostic> diagnostics, Action<CodeAction, ImmutableArray<Diagnostic>> registerCodeFix, CancellationToken cancellationToken) =>
            base.CreateCodeFixContext(document, span, diagnostics, (action, fixes) => registerCodeFix(LinkedProjects.ReachEveryCopy(action, document.Project.Solution), fixes), cancellationToken);

        /// <summary>
        /// The library feeds Fix All the diagnostics the test checks, which leave the linked copies' out; dotnet format
        /// and the IDE feed it every target's, and so does this.
        /// </summary>
        protected override FixAllContext CreateFixAllContext(
            Document? document, TextSpan? diagnosticSpan, Project project, CodeFixProvider codeFixProvider, FixAllScope scope, string? codeActionEquivalenceKey,
            IEnumerable<string> diagnosticIds, DiagnosticSeverity minimumSeverity, FixAllContext.DiagnosticProvider fixAllDiagnosticProvider, CancellationToken cancellationToken) =>
            base.CreateFixAllContext(
                document, diagnosticSpan, project, codeFixProvider, scope, codeActionEquivalenceKey, diagnosticIds, minimumSeverity,
                LinkedTargets.Count == 0 ? fixAllDiagnosticProvider : LinkedProjects.EveryTargetsDiagnostics(GetDiagnosticAnalyzers().ToImmutableArray()),
                cancellationToken);

        /// <summary>Called before each analysis of a project: the moment to check that a fix reached every linked copy.</summary>
        protected override AnalyzerOptions GetAnalyzerOptions(Project project)
        {
            LinkedProjects.AssertCopiesAgree(project);
            return base.GetAnalyzerOptions(project);
        }
    }
}
