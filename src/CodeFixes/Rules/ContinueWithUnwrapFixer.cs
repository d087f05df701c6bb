using System;
using System.Collections.Generic;
using System.Collections.Immutable;
using System.Globalization;
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
using Microsoft.CodeAnalysis.Text;
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

    protected override string Title(string kind) => "Await the tasks in sequence (stops at the first fault, unwraps its exception)";

    /// <summary>
    /// One site at a time: the awaits stop at a fault where the chain ran on, and throw the fault itself where the chain
    /// threw an AggregateException around it, which only the author can judge; Fix All and dotnet format must not.
    /// </summary>
    protected override bool InBulk => false;

    /// <summary>The function made async: a branch of it another target compiles might return a task of its own.</summary>
    protected override SyntaxNode? RestructuredNode(SyntaxNode root, Diagnostic diagnostic) =>
        Restructured.Function(root.FindNode(diagnostic.Location.SourceSpan, getInnermostNodeForTie: true));

    /// <summary>
    /// One chain at a time, innermost first, each against a fresh semantic model: a continuation may hold a lambda that
    /// returns a chain of its own, and both rewrites must survive. The nodes each rewrite needs are the ones the analyzer
    /// found (<see cref="ContinueWithChain.FixParts"/>), marked before the first rewrite so that the later ones find
    /// them in the rewritten code; a chain whose nodes an earlier rewrite replaced is left for the next run.
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

        var chains = new List<(TextSpan Span, ChainFacts Facts, List<SyntaxNode> Nodes)>();
        foreach (var (span, _, diagnostic) in FixSites.Reported(diagnostics, PortableKind))
        {
            if (ChainFacts.Of(diagnostic) is { } facts && facts.Find(root) is { } nodes)
            {
                chains.Add((span, facts, nodes));
            }
        }

        if (chains.Count == 1)
        {
            // One chain: found in the document as it is, whose semantic model Fix All's other documents share;
            // an annotated copy would need a compilation of its own.
            var (_, facts, nodes) = chains[0];
            return await FixOneAsync(document, facts, _ => nodes, cancellationToken).ConfigureAwait(false);
        }

        var marks = new Dictionary<SyntaxNode, List<SyntaxAnnotation>>();
        var order = new List<(ChainFacts Facts, List<SyntaxAnnotation> Marks)>();
        foreach (var (_, facts, nodes) in chains.OrderBy(c => c.Span.Length))
        {
            var own = nodes.Select(_ => new SyntaxAnnotation()).ToList();
            for (var i = 0; i < nodes.Count; i++)
            {
                (marks.TryGetValue(nodes[i], out var list) ? list : marks[nodes[i]] = new List<SyntaxAnnotation>()).Add(own[i]);
            }

            order.Add((facts, own));
        }

        document = document.WithSyntaxRoot(root.ReplaceNodes(marks.Keys, (original, node) => node.WithAdditionalAnnotations(marks[original])));
        foreach (var (facts, own) in order)
        {
            document = await FixOneAsync(document, facts, current => Marked(current, own), cancellationToken).ConfigureAwait(false);
        }

        return document;
    }

    /// <summary>The marked nodes in the code as it is now, or null where a rewrite replaced one.</summary>
    private static List<SyntaxNode>? Marked(SyntaxNode root, List<SyntaxAnnotation> marks)
    {
        var nodes = new List<SyntaxNode>(marks.Count);
        foreach (var mark in marks)
        {
            if (root.GetAnnotatedNodes(mark).FirstOrDefault() is not { } node)
            {
                return null;
            }

            nodes.Add(node);
        }

        return nodes;
    }

    /// <summary>No fix is offered for a method a caller calls without using its task (CS4014 once it is async).</summary>
    protected override async Task<bool> CanFixSiteAsync(Document document, Diagnostic diagnostic, CancellationToken cancellationToken)
    {
        var model = await document.GetSemanticModelAsync(cancellationToken).ConfigureAwait(false);
        var root = await document.GetSyntaxRootAsync(cancellationToken).ConfigureAwait(false);
        return model is null || root is null
            || ChainFacts.Of(diagnostic)?.Find(root) is not { } nodes
            || FunctionSymbol(model, nodes[ChainFacts.FunctionPart], cancellationToken) is not { } function
            || !await HasDiscardingCallAsync(document, function, cancellationToken).ConfigureAwait(false);
    }

    /// <summary>The method or local function made async; null for a lambda, which has no callers by name.</summary>
    private static IMethodSymbol? FunctionSymbol(SemanticModel model, SyntaxNode function, CancellationToken cancellationToken) =>
        function is MethodDeclarationSyntax or LocalFunctionStatementSyntax
            ? model.GetDeclaredSymbol(function, cancellationToken) as IMethodSymbol
            : null;

    private static async Task<Document> FixOneAsync(
        Document document,
        ChainFacts facts,
        Func<SyntaxNode, List<SyntaxNode>?> find,
        CancellationToken cancellationToken)
    {
        var root = await document.GetSyntaxRootAsync(cancellationToken).ConfigureAwait(false);
        var model = await document.GetSemanticModelAsync(cancellationToken).ConfigureAwait(false);
        if (root is null || model is null || find(root) is not { } nodes)
        {
            return document;
        }

        var functionSyntax = nodes[ChainFacts.FunctionPart];
        var site = nodes[ChainFacts.SitePart];
        if (FunctionSymbol(model, functionSyntax, cancellationToken) is { } function
            && await HasDiscardingCallAsync(document, function, cancellationToken).ConfigureAwait(false))
        {
            return document;
        }

        var names = new LocalNames(functionSyntax.FirstAncestorOrSelf<MemberDeclarationSyntax>() ?? functionSyntax, model, site.SpanStart);
        var statements = AwaitStatements(facts, nodes, model, names, SyntaxGenerator.GetGenerator(document), cancellationToken);
        if (!facts.ReturnsValue && site is ReturnStatementSyntax returned && !EndsTheBody(returned, functionSyntax))
        {
            // The return left the function; the awaits alone would run on into the code after it.
            statements.Add(ReturnStatement());
        }

        var endOfLine = NewLines.Of(root);
        var rewritten = ReplaceBody(functionSyntax, site, statements, endOfLine);
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

    /// <summary>
    /// <c>var result = await A(); var result2 = await B(result); return await C(result2);</c>. A link returning
    /// <c>Task.FromResult(value)</c> gives the value itself, as TPL0014 would write its await; the first await (of the
    /// antecedent) always stays, so the method keeps one.
    /// </summary>
    private static List<StatementSyntax> AwaitStatements(
        ChainFacts facts,
        List<SyntaxNode> nodes,
        SemanticModel model,
        LocalNames names,
        SyntaxGenerator generator,
        CancellationToken cancellationToken)
    {
        var statements = new List<StatementSyntax>();
        var awaited = (ExpressionSyntax)nodes[ChainFacts.AntecedentPart];
        IInvocationOperation? completed = null;
        var next = ChainFacts.FirstLinkPart;
        foreach (var (readCount, fromResult) in facts.Links)
        {
            var returned = (ExpressionSyntax)nodes[next];
            var reads = nodes.GetRange(next + 1, readCount);
            next += 1 + readCount;
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

            completed = fromResult ? model.GetOperation(nodes[next - 1 - readCount], cancellationToken) as IInvocationOperation : null;
            awaited = returned;
        }

        if (facts.ReturnsValue)
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

    /// <summary>What the analyzer found for one chain (<see cref="ContinueWithChain.FixParts"/>), read back from its diagnostic.</summary>
    private sealed class ChainFacts
    {
        public const int AntecedentPart = 0;
        public const int FunctionPart = 1;
        public const int SitePart = 2;
        public const int FirstLinkPart = 3;

        private ChainFacts(ImmutableArray<TextSpan> parts, List<(int Reads, bool FromResult)> links, bool returnsValue)
        {
            Parts = parts;
            Links = links;
            ReturnsValue = returnsValue;
        }

        public ImmutableArray<TextSpan> Parts { get; }

        /// <summary>Per link, first to last: how many <c>.Result</c> reads it has and whether it returns <c>Task.FromResult</c>.</summary>
        public List<(int Reads, bool FromResult)> Links { get; }

        public bool ReturnsValue { get; }

        public static ChainFacts? Of(Diagnostic diagnostic)
        {
            if (!diagnostic.Properties.TryGetValue(ContinueWithChain.LinksKey, out var written) || string.IsNullOrEmpty(written))
            {
                return null;
            }

            var links = new List<(int Reads, bool FromResult)>();
            foreach (var link in written!.Split(','))
            {
                var fromResult = link.EndsWith("f", StringComparison.Ordinal);
                if (!int.TryParse(fromResult ? link.Substring(0, link.Length - 1) : link, NumberStyles.None, CultureInfo.InvariantCulture, out var reads))
                {
                    return null;
                }

                links.Add((reads, fromResult));
            }

            var parts = FixSites.PartsOf(diagnostic);
            return parts.Length == FirstLinkPart + links.Sum(l => 1 + l.Reads)
                ? new ChainFacts(parts, links, diagnostic.Properties.ContainsKey(ContinueWithChain.ReturnsValueKey))
                : null;
        }

        /// <summary>The parts' nodes in <paramref name="root"/>, the text they were found in; null where one is not there.</summary>
        public List<SyntaxNode>? Find(SyntaxNode root)
        {
            var nodes = new List<SyntaxNode>(Parts.Length);
            for (var i = 0; i < Parts.Length; i++)
            {
                SyntaxNode? node = i switch
                {
                    FunctionPart => FixSites.Part<MethodDeclarationSyntax>(root, Parts[i])
                        ?? FixSites.Part<LocalFunctionStatementSyntax>(root, Parts[i])
                        ?? (SyntaxNode?)FixSites.Part<AnonymousFunctionExpressionSyntax>(root, Parts[i]),
                    SitePart => FixSites.Part<ReturnStatementSyntax>(root, Parts[i]) ?? (SyntaxNode?)FixSites.Part<ExpressionSyntax>(root, Parts[i]),
                    _ => FixSites.Part<ExpressionSyntax>(root, Parts[i]),
                };
                if (node is null)
                {
                    return null;
                }

                nodes.Add(node);
            }

            return nodes;
        }
    }

    /// <summary>Names for the awaited values (<c>result</c>, <c>result2</c>, …) that clash with nothing the member writes or can see.</summary>
    private sealed class LocalNames
    {
        private readonly SyntaxNode _scope;
        private readonly SemanticModel _model;
        private readonly int _position;
        private readonly HashSet<string> _given = new(StringComparer.Ordinal);

        public LocalNames(SyntaxNode scope, SemanticModel model, int position)
        {
            _scope = scope;
            _model = model;
            _position = position;
        }

        public string Next()
        {
            var name = FieldNaming.FreeName(_model, _scope, _position, "result", _given.Contains);
            _given.Add(name);
            return name;
        }
    }
}
