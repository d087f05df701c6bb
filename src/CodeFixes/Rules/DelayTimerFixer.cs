using System.Collections.Immutable;
using System.Linq;
using System.Threading;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CodeFixes;
using Microsoft.CodeAnalysis.CSharp;
using Microsoft.CodeAnalysis.CSharp.Syntax;
using Microsoft.CodeAnalysis.Editing;
using Microsoft.CodeAnalysis.Operations;
using Microsoft.CodeAnalysis.Text;
using TplPractices.Analyzers.CodeFixes.Internals;
using TplPractices.Analyzers.Internals;
using TplPractices.Analyzers.Rules;
using static Microsoft.CodeAnalysis.CSharp.SyntaxFactory;

namespace TplPractices.Analyzers.CodeFixes.Rules;

/// <summary>
/// TPL0017: <c>while (!token.IsCancellationRequested) { Work(); await Task.Delay(1000, token); }</c> →
/// <c>using var timer = new PeriodicTimer(TimeSpan.FromMilliseconds(1000));</c> before the loop and
/// <c>await timer.WaitForNextTickAsync(token);</c> in place of the delay. The loop, its condition and its body stay.
/// </summary>
[ExportCodeFixProvider(LanguageNames.CSharp, Name = nameof(DelayTimerFixer))]
public sealed class DelayTimerFixer : SiteRuleFixer
{
    public const string EquivalenceKey = DiagnosticIds.DelayTimer + "_PeriodicTimer";

    public DelayTimerFixer()
        : base(new DelayTimerAnalyzer(), DelayTimer.FixPeriodicTimer, EquivalenceKey, "Use a PeriodicTimer for timer loops")
    {
    }

    /// <summary>CA2027 (NetAnalyzers) reports the same race without a fix: this fix is offered on it too.</summary>
    protected override ImmutableArray<string> PeerIds => ImmutableArray.Create("CA2027");

    protected override string Title(string kind) => kind is DelayTimer.FixCancelDelay or DelayTimer.FixCancelDelayAfterWinner
        ? "Cancel the delay once the race is decided"
        : "Use one PeriodicTimer for the loop";

    /// <summary>A target that shares the file without PeriodicTimer shows only in the compiled copies: tried before offered.</summary>
    protected override bool TriesBeforeOffering => true;

    /// <summary>
    /// The delay's statement is rewritten where it stands and the new ones go before the loop or around the race: every
    /// other statement stays, so a <c>#pragma</c> line in the loop (a silenced catch-all) keeps its code on each side.
    /// </summary>
    protected override bool KeepsStatementsInPlace => true;

    /// <summary>The rewrite adds a statement before the loop and edits its last one: the loop is what it takes apart.</summary>
    protected override SyntaxNode? RestructuredNode(SyntaxNode root, Diagnostic diagnostic)
    {
        var node = root.FindNode(diagnostic.Location.SourceSpan, getInnermostNodeForTie: true);
        return FixSites.KindOf(diagnostic) is DelayTimer.FixCancelDelay or DelayTimer.FixCancelDelayAfterWinner
            ? node.FirstAncestorOrSelf<StatementSyntax>(s => s.Parent is BlockSyntax or GlobalStatementSyntax or SwitchSectionSyntax) ?? node
            : node.FirstAncestorOrSelf<StatementSyntax>(s => s is WhileStatementSyntax or DoStatementSyntax or ForStatementSyntax) ?? node;
    }

    /// <summary>The loop or the race statement is the one the analyzer found (<see cref="DelayTimer.Site.Parts"/>).</summary>
    protected override void FixSite(DocumentEditor editor, TextSpan span, string kind, Diagnostic reported, CancellationToken cancellationToken)
    {
        var parts = FixSites.PartsOf(reported);
        if (parts.IsEmpty)
        {
            return;
        }

        if (kind is DelayTimer.FixCancelDelay or DelayTimer.FixCancelDelayAfterWinner)
        {
            // The race's statement (or an expression body that uses the winner), then by their kind of node: the awaited
            // race the statement uses, the declaration that holds the delay, and the token to link to (the caller's, or an own
            // source's that nothing cancels).
            var statement = FixSites.Part<SyntaxNode>(editor.OriginalRoot, parts[0]);
            ExpressionSyntax? winner = null;
            LocalDeclarationStatementSyntax? held = null;
            ExpressionSyntax? linked = null;
            var alsoRaced = new System.Collections.Generic.List<InvocationExpressionSyntax>();
            foreach (var part in parts.Skip(1))
            {
                // The race's other delays, which take the same token: calls of Task.Delay, where WaitAny's call is the winner.
                if (FixSites.Part<InvocationExpressionSyntax>(editor.OriginalRoot, part) is { } call
                    && editor.SemanticModel.GetSymbolInfo(call, cancellationToken).Symbol is IMethodSymbol { Name: "Delay", IsStatic: true })
                {
                    alsoRaced.Add(call);
                }
                // The race's value: an await of WhenAny, WaitAny's call or a blocking GetResult() (a token is a name or
                // `source.Token`, never a call), or WhenAny's `.Result`.
                else if ((FixSites.Part<AwaitExpressionSyntax>(editor.OriginalRoot, part)
                    ?? (ExpressionSyntax?)FixSites.Part<InvocationExpressionSyntax>(editor.OriginalRoot, part)
                    ?? BlockingResult(FixSites.Part<MemberAccessExpressionSyntax>(editor.OriginalRoot, part))) is { } race)
                {
                    winner = race;
                }
                else if (FixSites.Part<LocalDeclarationStatementSyntax>(editor.OriginalRoot, part) is { } declaration)
                {
                    held = declaration;
                }
                else if (FixSites.Part<ExpressionSyntax>(editor.OriginalRoot, part) is { } token)
                {
                    linked = token;
                }
                else
                {
                    return;
                }
            }

            // A race of several delays is reported at each, and one fix rewrites them all: Fix All takes the race once.
            if ((statement is StatementSyntax || statement is ExpressionSyntax && winner is not null)
                && (kind == DelayTimer.FixCancelDelay) == (winner is null)
                && (alsoRaced.Count == 0 || RacesRewritten.GetOrCreateValue(editor).Add(statement!)))
            {
                DelayTimerRaceRewrite.CancelAfterTheRace(editor, span, statement!, linked, winner, held, alsoRaced);
            }

            return;
        }

        // The timer loop, then the same delays awaited before a continue, which take the tick too.
        if (FixSites.Part<StatementSyntax>(editor.OriginalRoot, parts[0]) is not { } loop)
        {
            return;
        }

        var delays = new System.Collections.Generic.List<InvocationExpressionSyntax>();
        foreach (var part in parts.Skip(1))
        {
            if (FixSites.Part<InvocationExpressionSyntax>(editor.OriginalRoot, part) is not { } early)
            {
                return;
            }

            delays.Add(early);
        }

        var compilation = editor.SemanticModel.Compilation;
        if (kind != DelayTimer.FixPeriodicTimer
            || compilation.GetTypeByMetadataName("System.Threading.PeriodicTimer") is not { } periodicTimer
            || compilation.GetTypeByMetadataName("System.TimeSpan") is not { } timeSpan
            || FixSites.Part<InvocationExpressionSyntax>(editor.OriginalRoot, span) is not { } delaySyntax
            || editor.SemanticModel.GetOperation(delaySyntax, cancellationToken) is not IInvocationOperation delay
            || AddedStatements.LocalScopeOf(loop) is not { } member
            || DelayTimer.PeriodOf(delay) is not { } periodArgument
            || periodArgument.Written() is not { } writtenPeriod
            || periodArgument.Syntax is not ArgumentSyntax periodSyntax)
        {
            return;
        }

        var generator = editor.Generator;
        var name = FieldNaming.FreeLocal(editor, member, loop.SpanStart, "timer");
        var period = SymbolEqualityComparer.Default.Equals(periodArgument.Value.WithoutImplicitConversions().Type, timeSpan)
            ? writtenPeriod.Expression.WithoutTrivia()
            : (ExpressionSyntax)generator.InvocationExpression(
                generator.MemberAccessExpression(ImportedType.Of(generator, timeSpan), "FromMilliseconds"),
                writtenPeriod.Expression.WithoutTrivia());
        var timer = AddedStatements.UsingVar(AddedStatements.Var(name, (ExpressionSyntax)generator.ObjectCreationExpression(ImportedType.Of(generator, periodicTimer), period)));
        AddedStatements.Before(editor, loop, [timer]);

        // Each delay the same call: its own arguments but the period (the analyzer found them equivalent).
        var periodIndex = delaySyntax.ArgumentList.Arguments.IndexOf(periodSyntax);
        delays.Add(delaySyntax);
        foreach (var each in delays)
        {
            var tick = InvocationExpression(
                MemberAccessExpression(SyntaxKind.SimpleMemberAccessExpression, IdentifierName(name), IdentifierName("WaitForNextTickAsync")),
                ArgumentList(SeparatedList(each.ArgumentList.Arguments.Where((_, i) => i != periodIndex))));
            editor.ReplaceNode(each, tick.WithTriviaFrom(each));
        }
    }

    /// <summary>The races of several delays one document's rewrite has taken, so that the other delays' sites leave them be.</summary>
    private static readonly System.Runtime.CompilerServices.ConditionalWeakTable<DocumentEditor, System.Collections.Generic.HashSet<SyntaxNode>> RacesRewritten = new();

    /// <summary>WhenAny's <c>.Result</c>, a race a blocked thread waits for; null for any other member (a token's <c>source.Token</c>).</summary>
    private static ExpressionSyntax? BlockingResult(MemberAccessExpressionSyntax? access) =>
        access is { Name.Identifier.ValueText: "Result" } ? access : null;
}
