using System.Collections.Generic;
using System.Linq;
using System.Runtime.CompilerServices;
using System.Threading;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CodeFixes;
using Microsoft.CodeAnalysis.CSharp;
using Microsoft.CodeAnalysis.CSharp.Syntax;
using Microsoft.CodeAnalysis.Editing;
using Microsoft.CodeAnalysis.Formatting;
using Microsoft.CodeAnalysis.Text;
using TplPractices.Analyzers.CodeFixes.Internals;
using TplPractices.Analyzers.Internals;
using TplPractices.Analyzers.Rules;

namespace TplPractices.Analyzers.CodeFixes.Rules;

/// <summary>
/// TPL0020: declares the source with <c>using</c>, so it is disposed when its block ends: <c>using var source = …;</c>
/// from C# 8, or before it <c>using (var source = …) { … }</c> around the rest of the block; a source nothing held is
/// declared so before its statement. The analyzer offers it only where nothing uses the source or its token after the block.
/// </summary>
[ExportCodeFixProvider(LanguageNames.CSharp, Name = nameof(DisposeTokenSourceFixer))]
public sealed class DisposeTokenSourceFixer : SiteRuleFixer
{
    public const string EquivalenceKey = DiagnosticIds.DisposeTokenSource + "_DeclareWithUsing";

    // Statements one rewrite already changed or moved (a using declaration, a source held before one, the rest of a block
    // a using statement takes): a second source there waits for Fix All's next pass.
    private static readonly ConditionalWeakTable<DocumentEditor, HashSet<SyntaxNode>> TakenStatements = new();

    public DisposeTokenSourceFixer()
        : base(new DisposeTokenSourceAnalyzer(), DisposeTokenSource.FixUsingStatement, EquivalenceKey, "Declare the sources with using")
    {
    }

    protected override string Title(string kind) => "Declare the source with using";

    protected override SyntaxNode? RestructuredNode(SyntaxNode root, Diagnostic diagnostic)
    {
        if (FixSites.KindOf(diagnostic) == DisposeTokenSource.FixHoldInUsing)
        {
            return root.FindNode(diagnostic.Location.SourceSpan, getInnermostNodeForTie: true).FirstAncestorOrSelf<StatementSyntax>();
        }

        var statement = root.FindNode(diagnostic.Location.SourceSpan, getInnermostNodeForTie: true).FirstAncestorOrSelf<LocalDeclarationStatementSyntax>();
        return FixSites.KindOf(diagnostic) == DisposeTokenSource.FixUsingStatement ? statement?.Parent : statement;
    }

    protected override void FixSite(DocumentEditor editor, TextSpan span, string kind, CancellationToken cancellationToken)
    {
        if (kind == DisposeTokenSource.FixHoldInUsing)
        {
            HoldInUsing(editor, span, cancellationToken);
            return;
        }

        if (editor.OriginalRoot.FindNode(span, getInnermostNodeForTie: true).FirstAncestorOrSelf<LocalDeclarationStatementSyntax>() is not { } statement
            || !statement.UsingKeyword.IsKind(SyntaxKind.None))
        {
            return;
        }

        var usingKeyword = SyntaxFactory.Token(SyntaxKind.UsingKeyword).WithLeadingTrivia(statement.GetLeadingTrivia()).WithTrailingTrivia(SyntaxFactory.Space);
        if (kind == DisposeTokenSource.FixUsingDeclaration)
        {
            if (Take(editor, statement, []))
            {
                editor.ReplaceNode(statement, statement.WithoutLeadingTrivia().WithUsingKeyword(usingKeyword));
            }

            return;
        }

        var following = (statement.Parent as BlockSyntax)?.Statements.SkipWhile(s => s != statement).Skip(1).ToList();
        if (following is null || !Take(editor, statement, following))
        {
            return;
        }

        var body = SyntaxFactory.Block(following).WithAdditionalAnnotations(Formatter.Annotation);
        var wrapped = SyntaxFactory.UsingStatement(statement.Declaration.WithoutTrivia(), null, body)
            .WithUsingKeyword(usingKeyword)
            .WithTrailingTrivia(statement.GetTrailingTrivia())
            .WithAdditionalAnnotations(Formatter.Annotation);
        editor.ReplaceNode(statement, wrapped);
        foreach (var moved in following)
        {
            editor.RemoveNode(moved, SyntaxRemoveOptions.KeepNoTrivia);
        }
    }

    /// <summary>
    /// Takes <paramref name="statement"/> (or an expression body), and the statements a using block will move, for this
    /// pass; false where this pass already changed or moved one of them, a statement around them or one inside (a
    /// source held before <c>var linked = Create…(token, new CancellationTokenSource(t).Token);</c>, the rest of a block
    /// a using took, a statement in a lambda of a body made a block): the editor cannot change a node twice, and this
    /// site waits for Fix All's next pass.
    /// </summary>
    private static bool Take(DocumentEditor editor, SyntaxNode statement, IReadOnlyCollection<StatementSyntax> moved)
    {
        var taken = TakenStatements.GetOrCreateValue(editor);
        if (moved.Prepend(statement).Any(node => node.AncestorsAndSelf().Any(taken.Contains) || taken.Any(t => node.Span.Contains(t.Span))))
        {
            return false;
        }

        taken.Add(statement);
        taken.UnionWith(moved);
        return true;
    }

    /// <summary>
    /// <c>await F(new CancellationTokenSource(t).Token);</c> → <c>using var timeoutSource = new
    /// CancellationTokenSource(t);</c> and <c>await F(timeoutSource.Token);</c>; where a copy of the file is compiled
    /// before C# 8, <c>using (var timeoutSource = …) { await F(timeoutSource.Token); }</c>, with a local the statement
    /// declares declared before the block. An expression body becomes a block of the two (<see cref="ExpressionBodies"/>).
    /// One statement takes one source per pass, the next waits for Fix All's next pass.
    /// </summary>
    private static void HoldInUsing(DocumentEditor editor, TextSpan span, CancellationToken cancellationToken)
    {
        var created = editor.OriginalRoot.FindNode(span, getInnermostNodeForTie: true);
        if (created is not (ObjectCreationExpressionSyntax or InvocationExpressionSyntax)
            || editor.SemanticModel.GetOperation(created, cancellationToken) is not { } operation
            || DisposeTokenSource.StatementToHoldBefore(operation) is not { } holder
            || AddedStatements.LocalScopeOf(holder) is not { } member)
        {
            return;
        }

        var name = FieldNaming.FreeLocal(editor, member, holder.SpanStart, created is InvocationExpressionSyntax ? "linkedSource" : "timeoutSource");
        var source = AddedStatements.Var(name, ((ExpressionSyntax)created).WithoutTrivia());
        var usingDeclaration = LinkedCopies.OldestLanguageVersion(editor.OriginalDocument) >= LanguageVersion.CSharp8;
        if (holder is ExpressionSyntax body)
        {
            // One source per body a pass, as per statement: the body is replaced whole.
            var read = ExpressionBodies.AsStatement(body.ReplaceNode(created, SyntaxFactory.IdentifierName(name).WithTriviaFrom(created)), ExpressionBodies.Returns(editor.SemanticModel, body));
            if (Take(editor, body, []))
            {
                ExpressionBodies.ReplaceWithBlock(editor, body, usingDeclaration
                    ? SyntaxFactory.Block(AddedStatements.UsingVar(source), read)
                    : SyntaxFactory.Block(SyntaxFactory.UsingStatement(source, null, SyntaxFactory.Block(read))));
            }

            return;
        }

        if (holder is not StatementSyntax statement || !Take(editor, statement, []))
        {
            return;
        }

        var reading = statement.ReplaceNode(created, SyntaxFactory.IdentifierName(name).WithTriviaFrom(created));
        if (usingDeclaration)
        {
            AddedStatements.Before(editor, statement, [AddedStatements.UsingVar(source)], reading);
        }
        else if (UsingPlacement.BlockFits(statement, editor.SemanticModel))
        {
            UsingBlocks.Replace(editor, statement, null, source, [reading.WithoutLeadingTrivia().WithoutTrailingTrivia()]);
        }
    }
}
