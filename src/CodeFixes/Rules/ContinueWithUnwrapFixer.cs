using System;
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
using Microsoft.CodeAnalysis.FindSymbols;
using Microsoft.CodeAnalysis.Formatting;
using Microsoft.CodeAnalysis.Operations;
using Microsoft.CodeAnalysis.Simplification;
using TplPractices.Analyzers.CodeFixes.Internals;
using TplPractices.Analyzers.Internals;
using TplPractices.Analyzers.Rules;
using static Microsoft.CodeAnalysis.CSharp.SyntaxFactory;

namespace TplPractices.Analyzers.CodeFixes.Rules;

/// <summary>
/// TPL0002: rewrites a returned ContinueWith/Unwrap chain into sequential awaits in a function made async.
/// The analyzer only names this fix where the rewrite compiles and reads the same values.
/// </summary>
[ExportCodeFixProvider(LanguageNames.CSharp, Name = nameof(ContinueWithUnwrapFixer))]
public sealed class ContinueWithUnwrapFixer : RuleFixer
{
    public const string EquivalenceKey = DiagnosticIds.ContinueWithUnwrapChain + "_Await";

    public ContinueWithUnwrapFixer()
        : base(new ContinueWithUnwrapAnalyzer(), ContinueWithChain.FixAwait, EquivalenceKey, "Rewrite the ContinueWith/Unwrap chains as awaits")
    {
    }

    protected override string Title(string kind) => "Await the tasks in sequence (stops at the first fault)";

    /// <summary>The function made async: a branch of it another target compiles might return a task of its own.</summary>
    protected override SyntaxNode? RestructuredNode(SyntaxNode root, Diagnostic diagnostic) =>
        Restructured.Function(root.FindNode(diagnostic.Location.SourceSpan, getInnermostNodeForTie: true));

    /// <summary>
    /// One chain at a time, innermost first, each against a fresh semantic model: a continuation may hold a
    /// lambda that returns a chain of its own, and both rewrites must survive.
    /// </summary>
    protected override async Task<Document> FixDocumentAsync(
        Document document,
        ImmutableArray<Diagnostic> diagnostics,
        CancellationToken cancellationToken)
    {
        var root = await document.GetSyntaxRootAsync(cancellationToken).ConfigureAwait(false);
        if (root is null)
        {
            return document;
        }

        var marks = new Dictionary<SyntaxNode, SyntaxAnnotation>();
        foreach (var (span, _) in FixSites.Of(diagnostics, PortableKind))
        {
            marks[root.FindNode(span, getInnermostNodeForTie: true)] = new SyntaxAnnotation();
        }

        if (marks.Count == 1)
        {
            // One chain: found in the document as it is, whose semantic model Fix All's other documents share;
            // an annotated copy would need a compilation of its own.
            var only = marks.Keys.Single();
            return await FixOneAsync(document, current => current.FindNode(only.Span, getInnermostNodeForTie: true), cancellationToken).ConfigureAwait(false);
        }

        var order = marks.OrderBy(m => m.Key.Span.Length).Select(m => m.Value).ToList();
        document = document.WithSyntaxRoot(root.ReplaceNodes(marks.Keys, (original, node) => node.WithAdditionalAnnotations(marks[original])));
        foreach (var mark in order)
        {
            document = await FixOneAsync(document, current => current.GetAnnotatedNodes(mark).FirstOrDefault(), cancellationToken).ConfigureAwait(false);
        }

        return document;
    }

    /// <summary>No fix is offered for a method a caller calls without using its task (CS4014 once it is async).</summary>
    protected override async Task<bool> CanFixSiteAsync(Document document, Diagnostic diagnostic, CancellationToken cancellationToken)
    {
        var model = await document.GetSemanticModelAsync(cancellationToken).ConfigureAwait(false);
        var node = (await document.GetSyntaxRootAsync(cancellationToken).ConfigureAwait(false))?.FindNode(diagnostic.Location.SourceSpan, getInnermostNodeForTie: true);
        return model is null || node is null
            || model.GetEnclosingSymbol(node.SpanStart, cancellationToken) is not IMethodSymbol containing
            || !await HasDiscardingCallAsync(document, EnclosingFunction(model, node, containing), cancellationToken).ConfigureAwait(false);
    }

    /// <summary>The method or local function whose body holds the node (lambdas have no callers by name).</summary>
    private static IMethodSymbol EnclosingFunction(SemanticModel model, SyntaxNode node, IMethodSymbol containing) =>
        node.FirstAncestorOrSelf<LocalFunctionStatementSyntax>() is { } local && model.GetDeclaredSymbol(local) is IMethodSymbol function
            ? function
            : containing;

    private static async Task<Document> FixOneAsync(Document document, Func<SyntaxNode, SyntaxNode?> locate, CancellationToken cancellationToken)
    {
        var root = await document.GetSyntaxRootAsync(cancellationToken).ConfigureAwait(false);
        var model = await document.GetSemanticModelAsync(cancellationToken).ConfigureAwait(false);
        if (root is null || locate(root) is not { } node
            || model is null
            || ContinueWithChain.Context.TryCreate(model.Compilation) is not { } symbols
            || model.GetOperation(node, cancellationToken) is not IInvocationOperation unwrap
            || model.GetEnclosingSymbol(node.SpanStart, cancellationToken) is not { } containing
            || ContinueWithChain.TryCreate(unwrap, symbols) is not { } chain
            || !chain.CanBecomeAwaits(symbols, containing)
            || chain.ReturnSite() is not { } site
            || ContinueWithChain.Function(site, containing) is not { } function
            || FunctionSyntax(site, function.Operation) is not { } functionSyntax
            || await HasDiscardingCallAsync(document, function.Symbol, cancellationToken).ConfigureAwait(false))
        {
            return document;
        }

        var names = new LocalNames(functionSyntax.FirstAncestorOrSelf<MemberDeclarationSyntax>() ?? functionSyntax, model, node.SpanStart);
        var returnsValue = function.Symbol.ReturnType is INamedTypeSymbol { IsGenericType: true };
        var statements = AwaitStatements(chain, returnsValue, names, SyntaxGenerator.GetGenerator(document));
        if (!returnsValue && site.Syntax is ReturnStatementSyntax returned && !EndsTheBody(returned, functionSyntax))
        {
            // The return left the function; the awaits alone would run on into the code after it.
            statements.Add(ReturnStatement());
        }

        var endOfLine = NewLines.Of(root);
        var rewritten = ReplaceBody(functionSyntax, site.Syntax, statements, endOfLine);
        return document.WithSyntaxRoot(root.ReplaceNode(functionSyntax, AddAsync(rewritten).WithAdditionalAnnotations(Formatter.Annotation)));
    }

    /// <summary>
    /// A call that drops the task (<c>M();</c>) draws CS4014 once M is async, an error under TreatWarningsAsErrors:
    /// such a method is left as it is.
    /// </summary>
    private static async Task<bool> HasDiscardingCallAsync(Document document, IMethodSymbol function, CancellationToken cancellationToken)
    {
        if (function.MethodKind is not (MethodKind.Ordinary or MethodKind.LocalFunction or MethodKind.ExplicitInterfaceImplementation))
        {
            return false;
        }

        foreach (var reference in await SymbolFinder.FindReferencesAsync(function, document.Project.Solution, cancellationToken).ConfigureAwait(false))
        {
            foreach (var location in reference.Locations)
            {
                var root = await location.Document.GetSyntaxRootAsync(cancellationToken).ConfigureAwait(false);
                var model = await location.Document.GetSemanticModelAsync(cancellationToken).ConfigureAwait(false);
                if (root?.FindNode(location.Location.SourceSpan, getInnermostNodeForTie: true).FirstAncestorOrSelf<InvocationExpressionSyntax>() is { } call
                    && model?.GetOperation(call, cancellationToken)?.Parent is IExpressionStatementOperation)
                {
                    return true;
                }
            }
        }

        return false;
    }

    private static bool EndsTheBody(ReturnStatementSyntax statement, SyntaxNode function) =>
        statement.Parent is BlockSyntax block && block.Parent == function && block.Statements.Last() == statement;

    private static SyntaxNode? FunctionSyntax(IReturnOperation site, IOperation? function) =>
        function?.Syntax ?? site.Syntax.FirstAncestorOrSelf<MethodDeclarationSyntax>();

    /// <summary>
    /// <c>var result = await A(); var result2 = await B(result); return await C(result2);</c>. A link returning
    /// <c>Task.FromResult(value)</c> gives the value itself, as TPL0014 would write its await; the first await (of the
    /// antecedent) always stays, so the method keeps one.
    /// </summary>
    private static List<StatementSyntax> AwaitStatements(ContinueWithChain chain, bool returnsValue, LocalNames names, SyntaxGenerator generator)
    {
        var statements = new List<StatementSyntax>();
        var awaited = (ExpressionSyntax)chain.Antecedent.Syntax;
        IInvocationOperation? completed = null;
        for (var i = 0; i < chain.Links.Length; i++)
        {
            var link = chain.Links[i];
            var reads = link.ResultReads().Select(r => r.Syntax).ToList();
            var returned = (ExpressionSyntax)link.ReturnedTask!.Syntax;
            if (reads.Count == 0)
            {
                AddStatement(statements, awaited, completed);
            }
            else
            {
                var name = names.Next();
                statements.Add(LocalDeclarationStatement(VariableDeclaration(
                    IdentifierName("var"),
                    SingletonSeparatedList(VariableDeclarator(Identifier(name)).WithInitializer(EqualsValueClause(ValueOf(awaited, completed, generator)))))));
                returned = returned.ReplaceNodes(reads, (original, _) => IdentifierName(name).WithTriviaFrom(original));
            }

            awaited = returned;
            completed = link.ReturnedFromResult;
        }

        if (returnsValue)
        {
            statements.Add(ReturnStatement(ValueOf(awaited, completed, generator)));
        }
        else
        {
            AddStatement(statements, awaited, completed);
        }

        return statements;
    }

    /// <summary>The await of <paramref name="awaited"/>, or the value where it is a <c>Task.FromResult</c> call (<paramref name="completed"/>).</summary>
    private static ExpressionSyntax ValueOf(ExpressionSyntax awaited, IInvocationOperation? completed, SyntaxGenerator generator)
    {
        if (completed is null || awaited is not InvocationExpressionSyntax { ArgumentList.Arguments.Count: 1 } call)
        {
            return Await(awaited);
        }

        return CompletedValue.InPlaceOfAwait(
            generator, call.ArgumentList.Arguments[0].Expression, completed.Arguments[0].Value.WithoutImplicitConversions().Type, completed.TargetMethod.TypeArguments[0]);
    }

    /// <summary>
    /// <c>await X;</c>, or for a <c>Task.FromResult(value)</c>: the value as a statement where it does something (no cast:
    /// a cast is no statement), nothing where it is a plain value, the await where it is neither (as TPL0014 decides).
    /// </summary>
    private static void AddStatement(List<StatementSyntax> statements, ExpressionSyntax awaited, IInvocationOperation? completed)
    {
        var value = completed?.Arguments[0].Value.WithoutImplicitConversions();
        if (value is not null && AwaitInLoop.IsKeptAsStatement(value)
            && awaited is InvocationExpressionSyntax { ArgumentList.Arguments.Count: 1 } call)
        {
            statements.Add(ExpressionStatement(call.ArgumentList.Arguments[0].Expression.WithoutTrivia()));
        }
        else if (value is null || !AwaitInLoop.IsDroppedAsStatement(value))
        {
            statements.Add(ExpressionStatement(Await(awaited)));
        }
    }

    /// <summary>
    /// <c>await operand.ConfigureAwait(false)</c>: a continuation passed no scheduler runs on the default one, never on
    /// the caller's synchronization context, and so does the code after each await.
    /// </summary>
    private static AwaitExpressionSyntax Await(ExpressionSyntax operand)
    {
        var bare = operand.WithoutTrivia();
        var task = bare is InvocationExpressionSyntax or MemberAccessExpressionSyntax or IdentifierNameSyntax
            or ElementAccessExpressionSyntax or ParenthesizedExpressionSyntax or ThisExpressionSyntax
            ? bare
            : ParenthesizedExpression(bare);
        return AwaitExpression(InvocationExpression(
            MemberAccessExpression(SyntaxKind.SimpleMemberAccessExpression, task, IdentifierName("ConfigureAwait")),
            ArgumentList(SingletonSeparatedList(Argument(LiteralExpression(SyntaxKind.FalseLiteralExpression))))));
    }

    /// <summary>Puts the statements where the returned chain was: in place of the return, or as a new block body.</summary>
    private static SyntaxNode ReplaceBody(SyntaxNode function, SyntaxNode returned, List<StatementSyntax> statements, SyntaxTrivia endOfLine)
    {
        if (returned is ReturnStatementSyntax statement)
        {
            return statement.Parent is BlockSyntax
                ? function.ReplaceNode(statement, statements.Select((s, i) => i == 0 ? s.WithLeadingTrivia(statement.GetLeadingTrivia()) : s))
                : function.ReplaceNode(statement, Block(statements).WithTriviaFrom(statement));
        }

        // Lambdas: the formatter keeps a new block on one line unless it is told to break it.
        var block = Block(
            Token(SyntaxKind.OpenBraceToken).WithTrailingTrivia(endOfLine),
            List(statements.Select(s => s.WithTrailingTrivia(endOfLine))),
            Token(SyntaxKind.CloseBraceToken));
        return function switch
        {
            // A comment after the expression body's semicolon moves to the closing brace.
            MethodDeclarationSyntax method => method.WithExpressionBody(null).WithSemicolonToken(default)
                .WithBody(block.WithCloseBraceToken(block.CloseBraceToken.WithTrailingTrivia(method.SemicolonToken.TrailingTrivia))),
            LocalFunctionStatementSyntax local => local.WithExpressionBody(null).WithSemicolonToken(default)
                .WithBody(block.WithCloseBraceToken(block.CloseBraceToken.WithTrailingTrivia(local.SemicolonToken.TrailingTrivia))),
            AnonymousFunctionExpressionSyntax lambda => lambda.WithExpressionBody(null).WithBlock(block),
            _ => function,
        };
    }

    /// <summary>Adds <c>async</c> after the other modifiers, taking over the leading trivia when it comes first.</summary>
    private static SyntaxNode AddAsync(SyntaxNode function)
    {
        var modifiers = function switch
        {
            MethodDeclarationSyntax method => method.Modifiers,
            LocalFunctionStatementSyntax local => local.Modifiers,
            AnonymousFunctionExpressionSyntax lambda => lambda.Modifiers,
            _ => default,
        };
        var asyncToken = Token(SyntaxKind.AsyncKeyword).WithTrailingTrivia(Space);
        var first = modifiers.Count == 0 ? FirstTokenAfterAttributes(function) : default;
        if (first != default)
        {
            function = function.ReplaceToken(first, first.WithLeadingTrivia());
            asyncToken = asyncToken.WithLeadingTrivia(first.LeadingTrivia);
        }

        var withAsync = modifiers.Add(asyncToken);
        return function switch
        {
            MethodDeclarationSyntax method => method.WithModifiers(withAsync),
            LocalFunctionStatementSyntax local => local.WithModifiers(withAsync),
            AnonymousFunctionExpressionSyntax lambda => lambda.WithModifiers(withAsync),
            _ => function,
        };
    }

    private static SyntaxToken FirstTokenAfterAttributes(SyntaxNode function) => function switch
    {
        MethodDeclarationSyntax method => method.ReturnType.GetFirstToken(),
        LocalFunctionStatementSyntax local => local.ReturnType.GetFirstToken(),
        ParenthesizedLambdaExpressionSyntax lambda => lambda.ReturnType?.GetFirstToken() ?? lambda.ParameterList.GetFirstToken(),
        SimpleLambdaExpressionSyntax lambda => lambda.Parameter.GetFirstToken(),
        AnonymousMethodExpressionSyntax method => method.DelegateKeyword,
        _ => default,
    };

    /// <summary>Names for the awaited values that clash with nothing the function can see or declares.</summary>
    private sealed class LocalNames
    {
        private readonly HashSet<string> _taken;
        private int _count;

        public LocalNames(SyntaxNode scope, SemanticModel model, int position)
        {
            _taken = new HashSet<string>(scope.DescendantTokens().Where(t => t.IsKind(SyntaxKind.IdentifierToken)).Select(t => t.ValueText));
            _taken.UnionWith(model.LookupSymbols(position).Select(s => s.Name));
        }

        public string Next()
        {
            string name;
            do
            {
                _count++;
                name = _count == 1 ? "result" : "result" + _count;
            }
            while (!_taken.Add(name));

            return name;
        }
    }
}
