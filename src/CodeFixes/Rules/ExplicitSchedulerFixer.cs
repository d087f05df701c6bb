using System.Collections.Immutable;
using System.Linq;
using System.Threading;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CodeFixes;
using Microsoft.CodeAnalysis.CSharp.Syntax;
using Microsoft.CodeAnalysis.Editing;
using Microsoft.CodeAnalysis.Operations;
using Microsoft.CodeAnalysis.Text;
using TplPractices.Analyzers.CodeFixes.Internals;
using TplPractices.Analyzers.Internals;
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

    protected override string Title(string kind) => kind switch
    {
        ExplicitScheduler.FixPassDefault => "Pass TaskScheduler.Default (changes where the work runs: the thread pool, not the caller's scheduler)",
        ExplicitScheduler.FixPassInPlace => "Pass the argument the delegate's state took in its own place, and no state",
        _ => "Pass TaskScheduler.Current explicitly",
    };

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
        var moved = kind == ExplicitScheduler.FixPassInPlace ? MovedState(operation, full) : null;
        if (kind == ExplicitScheduler.FixPassInPlace && moved is null)
        {
            return;
        }

        FullTaskCall.Rewrite(
            editor,
            call,
            operation.Arguments,
            full,
            parameter => parameter.Name == moved?.From ? editor.Generator.NullLiteralExpression()
                : parameter.Ordinal == full.Parameters.Length - 1 ? editor.Generator.MemberAccessExpression(ImportedType.Of(editor.Generator, parameter.Type), scheduler)
                : null,
            moved);
    }

    /// <summary>The state parameter, and the parameter of <paramref name="full"/> its argument was meant for.</summary>
    private static (string From, string To)? MovedState(IInvocationOperation operation, IMethodSymbol full)
    {
        var state = operation.Arguments.FirstOrDefault(a => a.Parameter?.Name == "state");
        if (state?.Value is not IConversionOperation { Operand.Type: { } type })
        {
            return null;
        }

        var target = full.Parameters.FirstOrDefault(p => p.Ordinal > 0 && p.Name != "state" && p.Type is INamedTypeSymbol named && type.IsOrDerivesFrom(named));
        return target is null ? null : ("state", target.Name);
    }
}
