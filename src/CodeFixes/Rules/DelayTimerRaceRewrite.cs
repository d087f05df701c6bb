using System.Linq;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp;
using Microsoft.CodeAnalysis.CSharp.Syntax;
using Microsoft.CodeAnalysis.Editing;
using Microsoft.CodeAnalysis.Formatting;
using Microsoft.CodeAnalysis.Operations;
using Microsoft.CodeAnalysis.Text;
using TplPractices.Analyzers.CodeFixes.Internals;
using TplPractices.Analyzers.Internals;
using static Microsoft.CodeAnalysis.CSharp.SyntaxFactory;

namespace TplPractices.Analyzers.CodeFixes.Rules;

/// <summary>TPL0017's race fix: a source whose token the raced delay takes, canceled once the race is decided.</summary>
internal static class DelayTimerRaceRewrite
{
    /// <summary>
    /// <c>var first = await Task.WhenAny(work, Task.Delay(t));</c> → <c>using var delayCancellation = new
    /// CancellationTokenSource();</c>, the race with <c>Task.Delay(t, delayCancellation.Token)</c>, then
    /// <c>delayCancellation.Cancel();</c>. Before C# 8 a using block holds the race and the cancel. A delay that took the
    /// caller's token (or an own source's that nothing cancels) takes a source linked to it
    /// (<c>CancellationTokenSource.CreateLinkedTokenSource(token)</c>), which that token's cancellation cancels as it did the delay.
    /// </summary>
    /// <remarks>
    /// Where the statement goes on to use the race's result (<paramref name="winner"/>), the race moves into a local
    /// before it, the cancel follows the race, and the statement reads the local:
    /// <c>if (await Task.WhenAny(work, Task.Delay(t)) != work)</c> → <c>var winner = await Task.WhenAny(work,
    /// Task.Delay(t, delayCancellation.Token)); delayCancellation.Cancel(); if (winner != work)</c>.
    /// A delay held in a local (<paramref name="held"/>) takes the token where it is declared, and the source goes before
    /// that declaration; the cancel still follows the race.
    /// </remarks>
    public static void CancelAfterTheRace(
        DocumentEditor editor, TextSpan span, SyntaxNode statement, ExpressionSyntax? linkedToken, ExpressionSyntax? winner, LocalDeclarationStatementSyntax? held,
        System.Collections.Generic.IReadOnlyList<InvocationExpressionSyntax> alsoRaced)
    {
        var model = editor.SemanticModel;
        if (FixSites.Part<InvocationExpressionSyntax>(editor.OriginalRoot, span) is not { } delaySyntax
            || model.Compilation.GetTypeByMetadataName("System.Threading.CancellationTokenSource") is not { } sourceType
            || AddedStatements.LocalScopeOf(statement) is not { } member)
        {
            return;
        }

        // A file shared with a target of an older C# takes the form every copy compiles: a using block before C# 8.
        // A using declaration cannot stand directly in a switch section either (CS8647): the using block goes there.
        var usingDeclaration = LinkedCopies.OldestLanguageVersion(editor.OriginalDocument) >= LanguageVersion.CSharp8 && statement.Parent is not SwitchSectionSyntax;

        var generator = editor.Generator;
        var name = FieldNaming.FreeLocal(editor, member, statement.SpanStart, "delayCancellation");
        var token = Argument(MemberAccessExpression(SyntaxKind.SimpleMemberAccessExpression, IdentifierName(name), IdentifierName("Token")));
        var newDelay = WithToken(delaySyntax, token, model);
        // The race's other delays that nothing can cancel take the same token: one source, canceled once, for the race.
        var delays = alsoRaced.Prepend(delaySyntax).ToDictionary(d => (SyntaxNode)d, d => d == delaySyntax ? newDelay : WithToken(d, token, model));
        TNode WithTokens<TNode>(TNode node)
            where TNode : SyntaxNode => node.ReplaceNodes(delays.Keys.Where(d => node.Span.Contains(d.Span)), (original, _) => delays[original]);
        var newSource = linkedToken is null
            ? (ExpressionSyntax)generator.ObjectCreationExpression(ImportedType.Of(generator, sourceType))
            : (ExpressionSyntax)generator.InvocationExpression(
                generator.MemberAccessExpression(ImportedType.Of(generator, sourceType), "CreateLinkedTokenSource"),
                linkedToken.WithoutTrivia());
        var cancel = ExpressionStatement(InvocationExpression(MemberAccessExpression(SyntaxKind.SimpleMemberAccessExpression, IdentifierName(name), IdentifierName("Cancel"))));
        var declaration = AddedStatements.Var(name, newSource);

        // Before C# 8 the using block holds the held delay's declaration too, with the race right after it (the analyzer
        // takes no other); the race itself keeps its text.
        var heldInBlock = held is not null && !usingDeclaration ? held.ReplaceNode(delaySyntax, newDelay).WithoutLeadingTrivia().WithoutTrailingTrivia() : null;
        if (held is not null && usingDeclaration)
        {
            // The source before the delay's declaration, the delay takes its token there; the race itself keeps its text.
            editor.ReplaceNode(delaySyntax, newDelay);
            AddedStatements.Before(editor, held, [AddedStatements.UsingVar(declaration)]);
        }

        if (winner is not null)
        {
            UseTheWinner(
                editor, statement, member, winner, held is null ? WithTokens(winner) : winner, held is null || heldInBlock is not null ? declaration : null, cancel, usingDeclaration,
                heldInBlock is null ? null : (held!, heldInBlock));
            return;
        }

        if (usingDeclaration)
        {
            // A held delay took its token and its source above (where it is declared).
            if (held is null)
            {
                foreach (var delay in delays)
                {
                    editor.ReplaceNode(delay.Key, delay.Value);
                }

                AddedStatements.Before(editor, (StatementSyntax)statement, [AddedStatements.UsingVar(declaration)]);
            }

            AddedStatements.After(editor, (StatementSyntax)statement, [cancel]);
            return;
        }

        // Before C# 8: the statement moves into a using block, after the held delay's declaration where there is one.
        if (held is not null)
        {
            UsingBlocks.Replace(editor, held, (StatementSyntax)statement, declaration, [heldInBlock!, ((StatementSyntax)statement).WithoutLeadingTrivia().WithoutTrailingTrivia(), cancel]);
            return;
        }

        var raced = WithTokens((StatementSyntax)statement).WithoutLeadingTrivia().WithoutTrailingTrivia();
        UsingBlocks.Replace(editor, (StatementSyntax)statement, null, declaration, [raced, cancel]);
    }

    /// <summary>
    /// The delay with <paramref name="token"/>: the token's argument, named or not, in whatever place, takes it, with its
    /// name. Without one (<c>Delay(t)</c>, <c>Delay(t, timeProvider)</c>) the token goes last: each has an overload that adds
    /// it there. Among named arguments it is named too.
    /// </summary>
    private static InvocationExpressionSyntax WithToken(InvocationExpressionSyntax delay, ArgumentSyntax token, SemanticModel model)
    {
        var arguments = delay.ArgumentList.Arguments;
        var tokenArgument = (model.GetOperation(delay) as IInvocationOperation)?.Arguments
            .FirstOrDefault(a => a.Parameter?.Type.Name == "CancellationToken")?.Written();
        // Appended through the shared rebuild: a line break after the last argument (a ')' on a line of its own, a line
        // comment) goes after the token, which would otherwise begin that line with a comma.
        return delay.WithArgumentList(tokenArgument is null
            ? StateRewrite.Rebuild(delay.ArgumentList, (_, argument) => argument, arguments.Count,
                [arguments.Any(a => a.NameColon is not null) ? token.WithNameColon(NameColon("cancellationToken")) : token])
            : delay.ArgumentList.WithArguments(arguments.Replace(tokenArgument, token.WithNameColon(tokenArgument.NameColon).WithTriviaFrom(tokenArgument))));
    }

    /// <summary>
    /// The source, the race in a local of its own and the cancel go before the statement, which reads the local where it
    /// awaited the race; before C# 8 a using block holds the three and the statement, after the declaration of a
    /// <paramref name="held"/> delay (the race right after it).
    /// </summary>
    private static void UseTheWinner(
        DocumentEditor editor, SyntaxNode statement, SyntaxNode member, ExpressionSyntax winner, ExpressionSyntax race, VariableDeclarationSyntax? source, StatementSyntax cancel, bool usingDeclaration,
        (LocalDeclarationStatementSyntax Original, StatementSyntax InBlock)? held)
    {
        var name = FieldNaming.FreeLocal(editor, member, statement.SpanStart, "winner");
        var local = LocalDeclarationStatement(VariableDeclaration(IdentifierName("var"), SingletonSeparatedList(
            VariableDeclarator(Identifier(name)).WithInitializer(EqualsValueClause(race.WithoutTrivia())))));
        // (await …).IsCompleted reads winner.IsCompleted: the parentheses go with the await.
        SyntaxNode used = winner.Parent is ParenthesizedExpressionSyntax parenthesized ? parenthesized : winner;
        if (statement is ExpressionSyntax body)
        {
            if (source is null)
            {
                return; // a held delay is declared in a block, never beside an expression body
            }

            // A body that is the race alone, where nothing is returned (async Task M() => await Task.WhenAny(…)), keeps
            // the race as a statement: a local read by nothing would be a statement of a lone name.
            var returns = ExpressionBodies.Returns(editor.SemanticModel, body);
            ToBlockBody(
                editor,
                body,
                !returns && used == body ? null : body.ReplaceNode(used, IdentifierName(name).WithTriviaFrom(used)),
                returns,
                source,
                !returns && used == body ? ExpressionStatement(race.WithoutTrivia()) : local,
                cancel,
                usingDeclaration);
            return;
        }

        if (statement is WhileStatementSyntax or DoStatementSyntax)
        {
            // The analyzer takes a loop's race only inline. Before C# 8 each pass declares the winner, and a using block
            // assigns it and cancels: Task winner; using (…) { winner = await Task.WhenAny(…); delayCancellation.Cancel(); }
            if (source is null)
            {
                return;
            }

            if (usingDeclaration)
            {
                LoopOnTheWinner(editor, (StatementSyntax)statement, used, name, [AddedStatements.UsingVar(source), local, cancel]);
            }
            else if (editor.SemanticModel.GetTypeInfo(winner).Type is { } type and not IErrorTypeSymbol)
            {
                var (declared, assigned) = DeclaredApart.Of((TypeSyntax)ImportedType.Of(editor.Generator, type.WithNullableAnnotation(NullableAnnotation.None)), Identifier(name), race);
                // The block's closing brace ends its line as the file does: left elastic, the formatter puts a blank line after it.
                var block = Block(assigned, cancel).WithCloseBraceToken(Token(SyntaxKind.CloseBraceToken).WithTrailingTrivia(NewLines.FixedOf(editor.OriginalRoot)));
                LoopOnTheWinner(editor, (StatementSyntax)statement, used, name, [declared, UsingStatement(source, null, block)]);
            }

            return;
        }

        if (statement is IfStatementSyntax { Else: null, Condition: BinaryExpressionSyntax { RawKind: (int)SyntaxKind.LogicalAndExpression } both } guarded
            && both.Right.Span.Contains(used.Span))
        {
            if (source is not null)
            {
                RaceAfterTheGuard(editor, guarded, both, used, name, local, source, cancel);
            }

            return;
        }

        var reading = (StatementSyntax)statement.ReplaceNode(used, IdentifierName(name).WithTriviaFrom(used));
        if (usingDeclaration)
        {
            // A held delay's source is declared before the delay already.
            var before = source is null
                ? new StatementSyntax[] { local, cancel }
                : new StatementSyntax[] { AddedStatements.UsingVar(source), local, cancel };
            // The statement's comments and blank lines speak of the race, which now comes first: they lead the new lines.
            AddedStatements.Before(editor, (StatementSyntax)statement, before, reading);
            return;
        }

        var inside = new[] { local, cancel, reading.WithoutLeadingTrivia().WithoutTrailingTrivia() };
        if (held is { } heldDelay)
        {
            UsingBlocks.Replace(editor, heldDelay.Original, (StatementSyntax)statement, source!, [heldDelay.InBlock, .. inside]);
            return;
        }

        UsingBlocks.Replace(editor, (StatementSyntax)statement, null, source!, inside);
    }

    /// <summary>
    /// <c>if (ready &amp;&amp; await Task.WhenAny(…) != work) S</c> (no else) → <c>if (ready) { using var source …; var winner =
    /// await Task.WhenAny(…); source.Cancel(); if (winner != work) S }</c>: <c>ready</c> is tested first, the race runs
    /// only where it holds, as the <c>&amp;&amp;</c> ran it; before C# 8 a using block holds the race, the cancel and the test.
    /// </summary>
    private static void RaceAfterTheGuard(
        DocumentEditor editor, IfStatementSyntax guarded, BinaryExpressionSyntax both, SyntaxNode used, string name, StatementSyntax local, VariableDeclarationSyntax source, StatementSyntax cancel)
    {
        var test = IfStatement(both.Right.ReplaceNode(used, IdentifierName(name).WithTriviaFrom(used)).WithoutTrivia(), guarded.Statement.WithoutTrailingTrivia())
            .WithAdditionalAnnotations(Formatter.Annotation);
        var usingDeclaration = LinkedCopies.OldestLanguageVersion(editor.OriginalDocument) >= LanguageVersion.CSharp8;
        var inside = usingDeclaration
            ? new StatementSyntax[] { AddedStatements.UsingVar(source), local, cancel, test }
            : new StatementSyntax[] { UsingStatement(source, null, Block(local, cancel, test)) };
        var block = Block(inside.Select(s => s.WithAdditionalAnnotations(Formatter.Annotation)))
            .WithCloseBraceToken(Token(SyntaxKind.CloseBraceToken).WithTrailingTrivia(guarded.GetTrailingTrivia()))
            .WithAdditionalAnnotations(Formatter.Annotation);
        editor.ReplaceNode(guarded, guarded
            .WithCondition(both.Left.WithoutTrailingTrivia())
            .WithCloseParenToken(guarded.CloseParenToken.WithTrailingTrivia())
            .WithStatement(block));
    }

    /// <summary>
    /// <c>while (await Task.WhenAny(…) != work) { … }</c> → <c>while (true) { using var source …; var winner = await
    /// Task.WhenAny(…); source.Cancel(); if (winner == work) break; … }</c>: each pass races, cancels and tests as the
    /// condition did, before the body. A <c>continue</c> in the body starts the next pass, which races again, as the
    /// condition did; the source is disposed at the end of each pass. A <c>do … while</c> (whose body has no
    /// <c>continue</c> of its own, which the analyzer checks) takes the same race and test at the end of each pass.
    /// </summary>
    private static void LoopOnTheWinner(DocumentEditor editor, StatementSyntax loop, SyntaxNode used, string name, StatementSyntax[] race)
    {
        var (test, body) = loop is DoStatementSyntax bottom
            ? (bottom.Condition, bottom.Statement)
            : (((WhileStatementSyntax)loop).Condition, ((WhileStatementSyntax)loop).Statement);
        var condition = test.ReplaceNode(used, IdentifierName(name).WithTriviaFrom(used));
        // The break's closing brace ends its line as the file does: left elastic, the formatter puts a blank line after it.
        // Its 'if' starts a line of its own without a blank line above it, after a using block too (left elastic, the
        // formatter puts one after a block).
        var exit = IfStatement(
            Token(SyntaxKind.IfKeyword).WithLeadingTrivia(SyntaxTriviaList.Empty),
            Token(SyntaxKind.OpenParenToken),
            Negated(editor.SemanticModel, test, condition),
            Token(SyntaxKind.CloseParenToken),
            Block(BreakStatement()).WithCloseBraceToken(Token(SyntaxKind.CloseBraceToken).WithTrailingTrivia(NewLines.FixedOf(editor.OriginalRoot))),
            null);
        var added = race.Append(exit).Select(s => s.WithAdditionalAnnotations(Formatter.Annotation));
        if (loop is WhileStatementSyntax whileLoop)
        {
            editor.ReplaceNode(loop, whileLoop
                .WithCondition(LiteralExpression(SyntaxKind.TrueLiteralExpression).WithTriviaFrom(whileLoop.Condition))
                .WithStatement(BodyOf(body).WithStatements(List(added.Concat(Statements(body))))));
            return;
        }

        // do { … } while (…); → while (true) { …; the race; the test }: the body runs first, as it did; the loop's
        // own line breaks go where 'do' and the closing ';' had them.
        var doLoop = (DoStatementSyntax)loop;
        var block = BodyOf(body);
        block = block.WithStatements(List(Statements(body).Concat(added)))
            .WithCloseBraceToken(block.CloseBraceToken.WithTrailingTrivia(doLoop.SemicolonToken.TrailingTrivia));
        editor.ReplaceNode(loop, WhileStatement(
                Token(doLoop.DoKeyword.LeadingTrivia, SyntaxKind.WhileKeyword, TriviaList(Space)),
                Token(SyntaxKind.OpenParenToken),
                LiteralExpression(SyntaxKind.TrueLiteralExpression),
                Token(TriviaList(), SyntaxKind.CloseParenToken, doLoop.DoKeyword.TrailingTrivia),
                block));
    }

    /// <summary>
    /// The block the loop's statements go into: the author's, where it spans lines; a new one, laid out by the formatter,
    /// for a body of one statement, an empty statement or a block on one line (<c>{ beats++; }</c>), whose braces would
    /// otherwise share lines with the race's statements. The line break after the body goes after the closing brace.
    /// </summary>
    private static BlockSyntax BodyOf(StatementSyntax statement)
    {
        if (statement is BlockSyntax block && !OnOneLine(block))
        {
            return block;
        }

        return Block()
            .WithCloseBraceToken(Token(SyntaxKind.CloseBraceToken).WithTrailingTrivia(statement.GetTrailingTrivia()))
            .WithAdditionalAnnotations(Formatter.Annotation);
    }

    /// <summary>The loop's own statements, each without the spacing of a one-line block (the formatter lays them out).</summary>
    private static SyntaxList<StatementSyntax> Statements(StatementSyntax statement) => statement switch
    {
        BlockSyntax block when !OnOneLine(block) => block.Statements,
        BlockSyntax block => List(block.Statements.Select(s => s.WithoutLeadingTrivia().WithTrailingTrivia(s.GetTrailingTrivia().Where(t => !t.IsKind(SyntaxKind.WhitespaceTrivia))).WithAdditionalAnnotations(Formatter.Annotation))),
        EmptyStatementSyntax => default,
        _ => SingletonList(statement.WithoutTrailingTrivia()),
    };

    private static bool OnOneLine(BlockSyntax block)
    {
        var text = block.SyntaxTree.GetText();
        return text.Lines.GetLineFromPosition(block.OpenBraceToken.SpanStart).LineNumber == text.Lines.GetLineFromPosition(block.CloseBraceToken.SpanStart).LineNumber;
    }

    /// <summary>
    /// The test that ends the loop: <c>a != b</c> becomes <c>a == b</c> (and back) where the operator is the language's own,
    /// <c>!x</c> becomes <c>x</c>, anything else <c>!(…)</c>.
    /// </summary>
    private static ExpressionSyntax Negated(SemanticModel model, ExpressionSyntax original, ExpressionSyntax condition)
    {
        var bare = condition.WithoutTrivia();
        if (bare is BinaryExpressionSyntax binary && binary.Kind() is SyntaxKind.EqualsExpression or SyntaxKind.NotEqualsExpression
            && model.GetOperation(original) is IBinaryOperation { OperatorMethod: null })
        {
            var equals = binary.IsKind(SyntaxKind.NotEqualsExpression);
            return BinaryExpression(
                equals ? SyntaxKind.EqualsExpression : SyntaxKind.NotEqualsExpression,
                binary.Left,
                Token(equals ? SyntaxKind.EqualsEqualsToken : SyntaxKind.ExclamationEqualsToken).WithTriviaFrom(binary.OperatorToken),
                binary.Right);
        }

        return bare is PrefixUnaryExpressionSyntax { RawKind: (int)SyntaxKind.LogicalNotExpression } not
            ? not.Operand is ParenthesizedExpressionSyntax inner ? inner.Expression : not.Operand
            : PrefixUnaryExpression(SyntaxKind.LogicalNotExpression, ParenthesizedExpression(bare));
    }

    /// <summary>
    /// An expression body becomes a block: the source, the race's local and the cancel, then the body read as a return
    /// (or as a statement where the function returns no value).
    /// </summary>
    private static void ToBlockBody(DocumentEditor editor, ExpressionSyntax body, ExpressionSyntax? reading, bool returns, VariableDeclarationSyntax source, StatementSyntax race, StatementSyntax cancel, bool usingDeclaration)
    {
        var statements = new System.Collections.Generic.List<StatementSyntax> { race, cancel };
        if (reading is not null)
        {
            statements.Add(ExpressionBodies.AsStatement(reading, returns));
        }

        ExpressionBodies.ReplaceWithBlock(editor, body, usingDeclaration
            ? Block(statements.Prepend(AddedStatements.UsingVar(source)))
            : Block(UsingStatement(source, null, Block(statements))));
    }
}
