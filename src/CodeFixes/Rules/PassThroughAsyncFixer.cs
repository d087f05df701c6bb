using System.Collections.Immutable;
using System.Linq;
using System.Threading.Tasks;
using System.Threading;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CodeFixes;
using Microsoft.CodeAnalysis.CSharp;
using Microsoft.CodeAnalysis.CSharp.Syntax;
using Microsoft.CodeAnalysis.Editing;
using Microsoft.CodeAnalysis.Operations;
using TplPractices.Analyzers.CodeFixes.Internals;
using TplPractices.Analyzers.Internals;
using TplPractices.Analyzers.Rules;
using static Microsoft.CodeAnalysis.CSharp.SyntaxFactory;

namespace TplPractices.Analyzers.CodeFixes.Rules;

/// <summary>
/// TPL0016: <c>async Task&lt;T&gt; M(x) =&gt; await N(x);</c> → <c>Task&lt;T&gt; M(x) =&gt; N(x);</c>. Each await the
/// diagnostic names (its location and additional locations: one per path) gives way to its task: in a returned value
/// or an expression body the task takes the await's place; <c>await N(x);</c> becomes <c>return N(x);</c> (a
/// <c>return;</c> or <c>break;</c> after it goes); <c>var r = await N(x); return r;</c> becomes <c>return N(x);</c>.
/// A ConfigureAwait that only chooses the context (<c>true</c>, <c>false</c>, <c>ConfigureAwaitOptions.None</c>) goes
/// with its await, and <c>async</c> goes from the function.
/// </summary>
[ExportCodeFixProvider(LanguageNames.CSharp, Name = nameof(PassThroughAsyncFixer))]
public sealed class PassThroughAsyncFixer : RuleFixer
{
    public const string EquivalenceKey = DiagnosticIds.PassThroughAsync + "_ReturnTheTask";

    public PassThroughAsyncFixer()
        : base(new PassThroughAsyncAnalyzer(), PassThroughAsync.FixReturnTask, EquivalenceKey, "Return the tasks of pass-through async methods")
    {
    }

    protected override string Title(string kind) => "Remove 'async' and return the task";

    /// <summary>The diagnostic is on the first await; the rewrite takes the whole function apart.</summary>
    protected override SyntaxNode? RestructuredNode(SyntaxNode root, Diagnostic diagnostic) =>
        Function(root.FindToken(diagnostic.Location.SourceSpan.Start)) ?? base.RestructuredNode(root, diagnostic);

    /// <summary>The statements stay: an await gives way to its task, a statement after it may go.</summary>
    protected override bool KeepsStatementsInPlace => true;

    private static SyntaxNode? Function(SyntaxToken awaitKeyword) =>
        awaitKeyword.Parent is AwaitExpressionSyntax await ? PassThroughAsync.FunctionOf(await) : null;

    /// <summary>
    /// A returned constant's <c>Task.FromResult</c>, written by the fix or returned in place of its await, is fixed only
    /// where the file has one target: another target's runtime may not cache the value, and TPL0003 would then take the
    /// task (the analyzer cannot see the other targets; <see cref="PassThroughAsync.ConstantKey"/>).
    /// </summary>
    protected override Task<bool> CanFixSiteAsync(Document document, Diagnostic diagnostic, CancellationToken cancellationToken) =>
        Task.FromResult(!diagnostic.Properties.ContainsKey(PassThroughAsync.ConstantKey) || LinkedCopies.AllCopies(document).Count() == 1);

    protected override async Task<Document> FixDocumentAsync(Document document, ImmutableArray<Diagnostic> diagnostics, CancellationToken cancellationToken)
    {
        var editor = await DocumentEditor.CreateAsync(document, cancellationToken).ConfigureAwait(false);
        var root = editor.OriginalRoot;
        foreach (var (span, kind, reported) in FixSites.Reported(diagnostics, PortableKind))
        {
            // Fix All as the light bulb (CanFixSiteAsync): a constant only where the file has one target.
            if (!await CanFixSiteAsync(document, reported, cancellationToken).ConfigureAwait(false))
            {
                continue;
            }

            if (kind == PassThroughAsync.FixReturnValue)
            {
                ReturnTheValue(editor, root.FindToken(span.Start).Parent as AwaitExpressionSyntax, cancellationToken);
                continue;
            }

            var parts = FixSites.PartsOf(reported);

            // The analyzer named every path's await (the first by its keyword, the others as parts): the fixer rewrites
            // those, trusting it rather than checking again.
            var awaits = parts
                .Select(part => FixSites.Part<AwaitExpressionSyntax>(root, part))
                .Prepend(root.FindToken(span.Start).Parent as AwaitExpressionSyntax)
                .ToList();
            if (awaits[0] is not { } first
                || PassThroughAsync.FunctionOf(first) is not { } function
                || awaits.Any(a => a is null || PassThroughAsync.FunctionOf(a) != function))
            {
                continue;
            }

            foreach (var ending in awaits)
            {
                ReturnTheTask(editor, ending!, cancellationToken);
            }

            editor.ReplaceNode(function, (current, _) => WithoutAsync(current));
        }

        return editor.GetChangedDocument();
    }

    private static ExpressionSyntax? CompletedInsteadOfZeroDelay(DocumentEditor editor, IOperation awaited) =>
        awaited.WithoutImplicitConversions() is IInvocationOperation { TargetMethod.Name: "Delay" } delay
        && AwaitInLoop.Context.TryCreate(editor.SemanticModel.Compilation) is { } context
        && AwaitInLoop.IsZeroDelayCall(delay, context)
        && !context.TaskType.GetMembers("CompletedTask").IsEmpty
            ? (ExpressionSyntax)editor.Generator.MemberAccessExpression(ImportedType.Of(editor.Generator, context.TaskType), "CompletedTask")
            : null;

    private static void ReturnTheTask(DocumentEditor editor, AwaitExpressionSyntax awaitSyntax, CancellationToken cancellationToken)
    {
        if (editor.SemanticModel.GetOperation(awaitSyntax, cancellationToken) is not IAwaitOperation await
            || PassThroughAsync.Awaited(await.Operation) is not { Syntax: ExpressionSyntax task } awaited)
        {
            return;
        }

        // A zero delay returned is TPL0014's next site (Task.CompletedTask): written so at once, one format run is enough.
        if (CompletedInsteadOfZeroDelay(editor, awaited) is { } completed)
        {
            task = completed.WithTriviaFrom(task);
        }

        // A ValueTask function returns the task in one (the analyzer allows it for methods and local functions).
        if (ValueTaskReturnType(editor, awaitSyntax, awaited, cancellationToken) is { } valueTask)
        {
            task = ObjectCreationExpression(Token(SyntaxKind.NewKeyword).WithTrailingTrivia(Space), valueTask, ArgumentList(SingletonSeparatedList(Argument(task.WithoutTrivia()))), null)
                .WithTriviaFrom(task);
        }

        // The await's trivia go around the task, a comment after 'await' before it (one in a dropped ConfigureAwait is put
        // back by the shared layer); parentheses around the await alone go with it.
        ExpressionSyntax replaced = awaitSyntax;
        while (replaced.Parent is ParenthesizedExpressionSyntax parentheses)
        {
            replaced = parentheses;
        }

        var afterKeyword = awaitSyntax.AwaitKeyword.TrailingTrivia.SkipWhile(t => t.IsKind(SyntaxKind.WhitespaceTrivia));
        var returned = task
            .WithLeadingTrivia(replaced.GetLeadingTrivia().AddRange(afterKeyword).AddRange(task.GetLeadingTrivia()))
            .WithTrailingTrivia(replaced.GetTrailingTrivia());
        switch (replaced.Parent)
        {
            case ExpressionStatementSyntax statement:
                editor.ReplaceNode(statement, Return(returned, statement));
                RemoveFollowing(editor, statement);
                break;
            case EqualsValueClauseSyntax { Parent.Parent.Parent: LocalDeclarationStatementSyntax declaration }:
                editor.ReplaceNode(declaration, Return(returned, declaration));
                RemoveFollowing(editor, declaration);
                break;
            default:
                editor.ReplaceNode(replaced, returned);
                break;
        }
    }

    /// <summary>
    /// The written return type of a method or local function returning a <c>ValueTask</c> or <c>ValueTask&lt;T&gt;</c>
    /// where the awaited task is a <c>Task</c>: the type to wrap the task in; null where the task is returned as it is.
    /// </summary>
    private static TypeSyntax? ValueTaskReturnType(DocumentEditor editor, AwaitExpressionSyntax awaitSyntax, IOperation awaited, CancellationToken cancellationToken)
    {
        var written = PassThroughAsync.FunctionOf(awaitSyntax) switch
        {
            MethodDeclarationSyntax method => method.ReturnType,
            LocalFunctionStatementSyntax local => local.ReturnType,
            _ => null,
        };
        return written is not null
            && editor.SemanticModel.GetTypeInfo(written, cancellationToken).Type is { } returnType
            && PassThroughAsync.Context.TryCreate(editor.SemanticModel.Compilation) is { } context
            && context.WrapsInValueTask(awaited.Type, returnType)
                ? written.WithoutTrivia()
                : null;
    }

    /// <summary>
    /// <c>await done; return value;</c> → <c>return Task.FromResult(value);</c>, without <c>async</c>: the analyzer found the
    /// await's task complete and the value a read of the result type.
    /// </summary>
    private static void ReturnTheValue(DocumentEditor editor, AwaitExpressionSyntax? awaitSyntax, CancellationToken cancellationToken)
    {
        if (awaitSyntax?.Parent is not ExpressionStatementSyntax statement
            || PassThroughAsync.Next(statement) is not ReturnStatementSyntax { Expression: { } value } returned
            || PassThroughAsync.FunctionOf(awaitSyntax) is not { } function
            || editor.SemanticModel.Compilation.GetTypeByMetadataName(WellKnownTypeNames.Task) is not { } task)
        {
            return;
        }

        var fromResult = InvocationExpression(
            MemberAccessExpression(SyntaxKind.SimpleMemberAccessExpression, (ExpressionSyntax)ImportedType.Of(editor.Generator, task), IdentifierName("FromResult")),
            ArgumentList(SingletonSeparatedList(Argument(value.WithoutTrivia()))));
        editor.ReplaceNode(statement, Return(fromResult, statement));
        editor.RemoveNode(returned, SyntaxRemoveOptions.KeepNoTrivia);
        editor.ReplaceNode(function, (current, _) => WithoutAsync(current));
    }

    private static ReturnStatementSyntax Return(ExpressionSyntax task, StatementSyntax replaced) =>
        ReturnStatement(task.WithLeadingTrivia(Space).WithTrailingTrivia()).WithTriviaFrom(replaced);

    /// <summary>The <c>return;</c>, <c>break;</c> or <c>return r;</c> that ended the path after the await.</summary>
    private static void RemoveFollowing(DocumentEditor editor, StatementSyntax statement)
    {
        if (PassThroughAsync.Next(statement) is { } next && next is ReturnStatementSyntax or BreakStatementSyntax)
        {
            editor.RemoveNode(next, SyntaxRemoveOptions.KeepNoTrivia);
        }
    }

    /// <summary>The function without <c>async</c>; what stood before the keyword (indentation, a comment) moves to the token after it.</summary>
    private static SyntaxNode WithoutAsync(SyntaxNode function)
    {
        var index = PassThroughAsync.ModifiersOf(function).IndexOf(SyntaxKind.AsyncKeyword);
        var keyword = PassThroughAsync.ModifiersOf(function)[index];
        var next = keyword.GetNextToken();
        var moved = function.ReplaceToken(next, next.WithLeadingTrivia(keyword.LeadingTrivia.AddRange(next.LeadingTrivia)));
        return WithModifiers(moved, PassThroughAsync.ModifiersOf(moved).RemoveAt(index));
    }

    private static SyntaxNode WithModifiers(SyntaxNode function, SyntaxTokenList modifiers) => function switch
    {
        MethodDeclarationSyntax method => method.WithModifiers(modifiers),
        LocalFunctionStatementSyntax local => local.WithModifiers(modifiers),
        AnonymousFunctionExpressionSyntax lambda => lambda.WithModifiers(modifiers),
        _ => function,
    };
}
