using System.Collections.Immutable;
using System.Threading;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CodeFixes;
using Microsoft.CodeAnalysis.CSharp.Syntax;
using Microsoft.CodeAnalysis.Editing;
using Microsoft.CodeAnalysis.Operations;
using Microsoft.CodeAnalysis.Text;
using TplPractices.Analyzers.CodeFixes.Internals;
using TplPractices.Analyzers.Rules;

namespace TplPractices.Analyzers.CodeFixes.Rules;

/// <summary>
/// TPL0019: moves a StartNew or ContinueWith to the overload that takes a TaskScheduler (<see cref="FullTaskCall"/>),
/// passing <c>TaskScheduler.Current</c>, which the call used already (exact, in bulk); or, one site at a time under
/// its own title, <c>TaskScheduler.Default</c>. Offered on CA2008's and VSTHRD105's diagnostics too.
/// </summary>
[ExportCodeFixProvider(LanguageNames.CSharp, Name = nameof(ExplicitSchedulerFixer))]
public sealed class ExplicitSchedulerFixer : SiteRuleFixer
{
    public const string EquivalenceKey = DiagnosticIds.ExplicitScheduler + "_PassScheduler";

    public ExplicitSchedulerFixer()
        : base(new ExplicitSchedulerAnalyzer(), ExplicitScheduler.FixPassCurrent, EquivalenceKey, "Pass TaskScheduler.Current explicitly")
    {
    }

    /// <summary>CA2008 (NetAnalyzers) and VSTHRD105 (VS Threading) report these calls without a fix.</summary>
    protected override ImmutableArray<string> PeerIds => ImmutableArray.Create("CA2008", "VSTHRD105");

    protected override ImmutableArray<string> AlternativeKinds(string kind) =>
        kind == ExplicitScheduler.FixPassCurrent ? ImmutableArray.Create(ExplicitScheduler.FixPassDefault) : ImmutableArray<string>.Empty;

    protected override string Title(string kind) => kind == ExplicitScheduler.FixPassDefault
        ? "Pass TaskScheduler.Default (changes where the work runs: the thread pool, not the caller's scheduler)"
        : "Pass TaskScheduler.Current explicitly";

    protected override void FixSite(DocumentEditor editor, TextSpan span, string kind, CancellationToken cancellationToken)
    {
        var call = editor.OriginalRoot.FindNode(span, getInnermostNodeForTie: true).FirstAncestorOrSelf<InvocationExpressionSyntax>();
        if (call is null
            || editor.SemanticModel.GetOperation(call, cancellationToken) is not IInvocationOperation operation
            || FullTaskCall.SiblingOf(operation.TargetMethod, editor.SemanticModel.Compilation, orSchedulerOnly: true) is not { } full)
        {
            return;
        }

        var scheduler = kind == ExplicitScheduler.FixPassDefault ? "Default" : "Current";
        FullTaskCall.Rewrite(editor, call, operation.Arguments, full, parameter =>
            parameter.Ordinal == full.Parameters.Length - 1
                ? editor.Generator.MemberAccessExpression(ImportedType.Of(editor.Generator, parameter.Type), scheduler)
                : null);
    }
}
