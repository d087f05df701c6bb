using System.Collections.Generic;
using System.Collections.Immutable;
using System.Linq;
using System.Threading;
using System.Threading.Tasks;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CodeFixes;
using Microsoft.CodeAnalysis.CSharp;
using Microsoft.CodeAnalysis.CSharp.Syntax;
using Microsoft.CodeAnalysis.Editing;
using Microsoft.CodeAnalysis.Formatting;
using Microsoft.CodeAnalysis.Operations;
using Microsoft.CodeAnalysis.Simplification;
using TplPractices.Analyzers.CodeFixes.Internals;
using TplPractices.Analyzers.Internals;
using TplPractices.Analyzers.Rules;
using static Microsoft.CodeAnalysis.CSharp.SyntaxFactory;

namespace TplPractices.Analyzers.CodeFixes.Rules;

/// <summary>
/// TPL0005: moves a loop of awaited Task.Run calls into one Task.Run, or uses an already-completed task's
/// value without awaiting it. Case (c), an async method that never awaits, is reported without a fix.
/// </summary>
[ExportCodeFixProvider(LanguageNames.CSharp, Name = nameof(AwaitInLoopFixer))]
public sealed class AwaitInLoopFixer : RuleFixer
{
    public const string EquivalenceKey = DiagnosticIds.AwaitInLoop + "_AwaitOnce";

    public AwaitInLoopFixer()
        : base(new AwaitInLoopAnalyzer(), AwaitInLoop.FixUseValue, EquivalenceKey, "Await once per loop, not once per iteration")
    {
    }

    protected override string Title(string kind) => kind == AwaitInLoop.FixMoveLoop
        ? "Run the whole loop in one Task.Run (the loop then runs on the thread pool)"
        : "Use the completed task's value without awaiting it";

    /// <summary>
    /// A moved loop: the function around it, whose branches another target compiles would otherwise keep an await
    /// outside the new lambda, or move it into one that is not async. A completed value: the await alone.
    /// </summary>
    protected override SyntaxNode? RestructuredNode(SyntaxNode root, Diagnostic diagnostic)
    {
        var node = root.FindNode(diagnostic.Location.SourceSpan, getInnermostNodeForTie: true);
        return FixSites.KindOf(diagnostic) == AwaitInLoop.FixMoveLoop ? Restructured.Function(node) : node;
    }

    protected override async Task<Document> FixDocumentAsync(
        Document document,
        ImmutableArray<Diagnostic> diagnostics,
        CancellationToken cancellationToken)
    {
        var editor = await DocumentEditor.CreateAsync(document, cancellationToken).ConfigureAwait(false);
        var endOfLine = NewLines.Of(editor.OriginalRoot);
        // What the analyzer found travels as the diagnostic's additional locations (AwaitInLoop.Parts).
        foreach (var (span, kind, parts) in FixSites.WithParts(diagnostics, PortableKind))
        {
            if (kind != AwaitInLoop.FixMoveLoop)
            {
                CompletedValue.UseValue(editor, parts, cancellationToken);
            }
            else if (parts.Length == 3
                && FixSites.Part<StatementSyntax>(editor.OriginalRoot, parts[0]) is { } loop
                && FixSites.Part<CSharpSyntaxNode>(editor.OriginalRoot, parts[1]) is { } work
                && FixSites.Part<InvocationExpressionSyntax>(editor.OriginalRoot, parts[2]) is { } run
                && FixSites.Part<AwaitExpressionSyntax>(editor.OriginalRoot, span) is { } awaitSyntax)
            {
                MoveLoop(editor, loop, work, run, awaitSyntax, endOfLine);
            }
        }

        return editor.GetChangedDocument();
    }

    /// <summary><c>for (...) { x += await Task.Run(() =&gt; F(i)); }</c> → <c>await Task.Run(() =&gt; { for (...) { x += F(i); } });</c></summary>
    private static void MoveLoop(DocumentEditor editor, StatementSyntax loop, SyntaxNode work, InvocationExpressionSyntax run, AwaitExpressionSyntax awaitSyntax, SyntaxTrivia endOfLine)
    {
        // The work takes the await's place inside the loop.
        var movedLoop = work switch
        {
            BlockSyntax block when awaitSyntax.Parent is ExpressionStatementSyntax statement && statement.Parent is BlockSyntax =>
                loop.ReplaceNode(statement, block.Statements),
            BlockSyntax block when awaitSyntax.Parent is ExpressionStatementSyntax statement => loop.ReplaceNode(statement, block),
            ExpressionSyntax expression when awaitSyntax.Parent is ExpressionStatementSyntax => loop.ReplaceNode(awaitSyntax, expression.WithoutTrivia()),
            ExpressionSyntax expression => loop.ReplaceNode(
                awaitSyntax,
                ParenthesizedExpression(expression.WithoutTrivia()).WithAdditionalAnnotations(Simplifier.Annotation)),
            _ => loop,
        };

        // The loop becomes the body of the Task.Run it awaited: same call, same ConfigureAwait, no type arguments.
        var body = Block(
            Token(SyntaxKind.OpenBraceToken).WithTrailingTrivia(endOfLine),
            SingletonList(movedLoop.WithoutLeadingTrivia().WithTrailingTrivia(endOfLine)),
            Token(SyntaxKind.CloseBraceToken));
        var callee = run.Expression is MemberAccessExpressionSyntax { Name: GenericNameSyntax generic } access
            ? access.WithName(IdentifierName(generic.Identifier))
            : run.Expression;
        var newRun = run.WithExpression(callee)
            .WithArgumentList(ArgumentList(SingletonSeparatedList(Argument(ParenthesizedLambdaExpression(ParameterList(), body)))));
        var newAwait = awaitSyntax.ReplaceNode(run, newRun).WithoutTrivia();
        editor.ReplaceNode(loop, ExpressionStatement(newAwait)
            .WithTriviaFrom(loop)
            .WithAdditionalAnnotations(Formatter.Annotation));
    }
}
