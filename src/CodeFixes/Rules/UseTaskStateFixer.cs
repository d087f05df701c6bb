using System.Collections.Generic;
using System.Collections.Immutable;
using System.Composition;
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
/// TPL0001: rewrites <c>StartNew(() => Use(x))</c> to <c>StartNew(static state => { var x = (T)state!; Use(x); }, x)</c>,
/// and a continuation's captured antecedent to its antecedent parameter. The body keeps its names.
/// </summary>
[ExportCodeFixProvider(LanguageNames.CSharp, Name = nameof(UseTaskStateFixer)), Shared]
public sealed class UseTaskStateFixer : RuleFixer
{
    public const string EquivalenceKey = DiagnosticIds.UseTaskState + "_UseStateOverload";

    public UseTaskStateFixer()
        : base(new UseTaskStateAnalyzer(), UseTaskStateAnalyzer.FixUseStateOverload, EquivalenceKey, "Pass captured values as task state")
    {
    }

    protected override string Title(string kind) => "Pass the captured values as the task's state";

    /// <summary>
    /// The read-back deconstruction needs C# 7 in every copy (the analyzer checks only its own). Before C# 8 the state
    /// cannot be read back with <c>!</c>, and without it a copy compiled with nullable warnings warns (CS8600, CS8605):
    /// a multi-targeted project that mixes the two gets no fix.
    /// </summary>
    protected override bool CanFix(Document document)
    {
        var oldest = LinkedCopies.OldestLanguageVersion(document);
        return oldest >= LanguageVersion.CSharp7 && (oldest >= LanguageVersion.CSharp8 || !LinkedCopies.AnyWarnsOnNullable(document));
    }

    protected override async Task<Document> FixDocumentAsync(
        Document document,
        ImmutableArray<Diagnostic> diagnostics,
        CancellationToken cancellationToken)
    {
        var editor = await DocumentEditor.CreateAsync(document, cancellationToken).ConfigureAwait(false);
        if (!CanFix(document) || TaskStateCapture.Context.TryCreate(editor.SemanticModel.Compilation) is not { } symbols)
        {
            return document;
        }

        // The file is shared by every target: write what the oldest language version among them accepts.
        var version = LinkedCopies.OldestLanguageVersion(document);
        var maxStateValues = RuleSettings.Read(
            document.Project.AnalyzerOptions.AnalyzerConfigOptionsProvider,
            editor.OriginalRoot.SyntaxTree,
            DiagnosticIds.UseTaskState,
            ImmutableArray.Create(TaskStateCapture.MaxStateValues)).Number(TaskStateCapture.MaxStateValues);

        var rewritten = new List<SyntaxNode>();
        foreach (var (span, _) in FixSites.Of(diagnostics, PortableKind))
        {
            // A lambda inside one rewritten here is left for the next pass: its text is being replaced.
            if (editor.OriginalRoot.FindNode(span, getInnermostNodeForTie: true) is not AnonymousFunctionExpressionSyntax lambdaSyntax
                || lambdaSyntax.FirstAncestorOrSelf<InvocationExpressionSyntax>() is not { } invocationSyntax
                || rewritten.Any(r => r.Span.Contains(invocationSyntax.Span))
                || editor.SemanticModel.GetOperation(invocationSyntax, cancellationToken) is not IInvocationOperation invocation
                || TaskStateCapture.Analyze(invocation, symbols, maxStateValues) is not { NoFixReason: null } capture
                || capture.Lambda.Syntax != lambdaSyntax)
            {
                continue;
            }

            editor.ReplaceNode(invocationSyntax.ArgumentList, new StateRewrite(editor.Generator, capture, version).ArgumentList(invocationSyntax.ArgumentList));
            rewritten.Add(invocationSyntax);
        }

        return editor.GetChangedDocument();
    }

    /// <summary>Builds the new lambda and argument list for one call.</summary>
    private sealed class StateRewrite
    {
        private readonly SyntaxGenerator _generator;
        private readonly TaskStateCapture _capture;
        private readonly AnonymousFunctionExpressionSyntax _lambda;
        private readonly HashSet<string> _names;
        private readonly string _state;
        private readonly string _self;
        private readonly LanguageVersion _version;

        /// <summary>The local each captured variable is read back into: its own name from C# 8, which allows shadowing.</summary>
        private readonly Dictionary<ISymbol, string> _readBack = new(SymbolEqualityComparer.Default);

        public StateRewrite(SyntaxGenerator generator, TaskStateCapture capture, LanguageVersion version)
        {
            _generator = generator;
            _capture = capture;
            _lambda = (AnonymousFunctionExpressionSyntax)capture.Lambda.Syntax;
            _version = version;
            _names = new HashSet<string>(_lambda.DescendantTokens().Where(t => t.IsKind(SyntaxKind.IdentifierToken)).Select(t => t.ValueText));
            if (_version < LanguageVersion.CSharp8)
            {
                // Before C# 8 a lambda's parameters and locals may not reuse a name of the enclosing scope.
                _names.UnionWith(capture.Lambda.SemanticModel!.LookupSymbols(_lambda.SpanStart)
                    .Where(s => s is ILocalSymbol or IParameterSymbol or IRangeVariableSymbol)
                    .Select(s => s.Name));
            }

            _state = Unique("state");
            _self = Unique("self");
            foreach (var symbol in capture.Captured.Where(s => s is not ITypeSymbol))
            {
                // Before C# 8 a lambda's locals may not shadow the method's, so they get new names (myQueue).
                _readBack[symbol] = _version >= LanguageVersion.CSharp8
                    ? EscapedName(symbol.Name)
                    : Unique("my" + char.ToUpperInvariant(symbol.Name[0]) + symbol.Name.Substring(1));
            }
        }

        /// <summary>The call's arguments with the new lambda and the state after it; the other arguments and their line breaks stay.</summary>
        public ArgumentListSyntax ArgumentList(ArgumentListSyntax original)
        {
            var arguments = new List<ArgumentSyntax>
            {
                Argument(NewLambda()).WithTriviaFrom(original.Arguments[0]).WithAdditionalAnnotations(Formatter.Annotation),
            };
            var separators = new List<SyntaxToken>();
            if (_capture.Captured.Length > 0)
            {
                // Spaced here, not by the formatter: every target's copy must come out the same, formatted or not.
                arguments.Add(Argument(StateExpression().NormalizeWhitespace()).WithLeadingTrivia(Space));
                separators.Add(Token(SyntaxKind.CommaToken));
            }

            // The original commas, with their line breaks, keep their places after the state.
            arguments.AddRange(original.Arguments.Skip(1));
            separators.AddRange(original.Arguments.GetSeparators());
            return original.WithArguments(SeparatedList(arguments, separators));
        }

        private ExpressionSyntax NewLambda()
        {
            var lambdaSymbol = _capture.Lambda.Symbol;
            var parameters = new List<ParameterSyntax>();
            string? antecedentName = null;
            if (_capture.Invocation.TargetMethod.Name == "ContinueWith")
            {
                // The antecedent parameter takes the captured task's name when it was unused, so the body reads the same.
                var original = lambdaSymbol.Parameters[0];
                var unused = !_capture.Lambda.Body.Descendants().OfType<IParameterReferenceOperation>()
                    .Any(p => SymbolEqualityComparer.Default.Equals(p.Parameter, original));
                antecedentName = (_capture.Antecedent is not null && unused, _version >= LanguageVersion.CSharp8) switch
                {
                    (true, true) => _capture.Antecedent!.Name,
                    (true, false) => Unique("antecedent"),
                    _ => EscapedName(original.Name),
                };
                parameters.Add(Parameter(Identifier(antecedentName)));
            }

            if (_capture.Captured.Length > 0)
            {
                parameters.Add(Parameter(Identifier(_state)));
            }

            var body = RewriteBody(antecedentName);
            var statements = ReadBackState().ToList();
            // An async lambda that returns Task (not Task<T>) has a body with no value, like a void one.
            var noValue = lambdaSymbol.ReturnsVoid || (lambdaSymbol.IsAsync && lambdaSymbol.ReturnType is INamedTypeSymbol { IsGenericType: false });
            CSharpSyntaxNode newBody = (body, statements.Count) switch
            {
                (ExpressionSyntax expression, 0) => expression,
                (ExpressionSyntax expression, _) => Block(statements.Append(noValue
                    ? ExpressionStatement(expression)
                    : ReturnStatement(expression))),
                (BlockSyntax block, _) => block.WithStatements(List(statements.Concat(block.Statements))),
                _ => (CSharpSyntaxNode)body,
            };

            var modifiers = new List<SyntaxToken>();
            if (_version >= LanguageVersion.CSharp9)
            {
                modifiers.Add(Token(SyntaxKind.StaticKeyword));
            }

            if (lambdaSymbol.IsAsync)
            {
                modifiers.Add(Token(SyntaxKind.AsyncKeyword));
            }

            AnonymousFunctionExpressionSyntax lambda = parameters.Count == 1
                ? SimpleLambdaExpression(parameters[0], newBody)
                : ParenthesizedLambdaExpression(ParameterList(SeparatedList(parameters)), newBody);
            return lambda.WithModifiers(TokenList(modifiers)).WithAdditionalAnnotations(Formatter.Annotation);
        }

        /// <summary>The body with <c>this</c> read through the state local, and the antecedent through its parameter.</summary>
        private CSharpSyntaxNode RewriteBody(string? antecedentName)
        {
            var replacements = new Dictionary<SyntaxNode, SyntaxNode>();
            foreach (var operation in _capture.Lambda.Body.Descendants())
            {
                switch (operation)
                {
                    case IInstanceReferenceOperation { ReferenceKind: InstanceReferenceKind.ContainingTypeInstance, Syntax: ThisExpressionSyntax self }:
                        replacements[self] = IdentifierName(_self).WithTriviaFrom(self);
                        break;
                    case IInstanceReferenceOperation { ReferenceKind: InstanceReferenceKind.ContainingTypeInstance, IsImplicit: true } implicitThis
                        when TaskStateCapture.MemberNameOf(implicitThis) is { } name:
                        replacements[name] = MemberAccessExpression(SyntaxKind.SimpleMemberAccessExpression, IdentifierName(_self), name.WithoutTrivia())
                            .WithTriviaFrom(name);
                        break;
                    case ILocalReferenceOperation or IParameterReferenceOperation
                        when antecedentName is not null && _capture.Antecedent is { } antecedent
                            && SymbolEqualityComparer.Default.Equals(TaskStateCapture.ReferencedSymbol(operation), antecedent)
                            && antecedentName != antecedent.Name:
                        replacements[operation.Syntax] = IdentifierName(antecedentName).WithTriviaFrom(operation.Syntax);
                        break;
                    case ILocalReferenceOperation or IParameterReferenceOperation
                        when TaskStateCapture.ReferencedSymbol(operation) is { } captured && _readBack.TryGetValue(captured, out var local) && local != captured.Name:
                        replacements[operation.Syntax] = IdentifierName(local).WithTriviaFrom(operation.Syntax);
                        break;
                }
            }

            return _lambda.Body.ReplaceNodes(replacements.Keys, (original, _) => replacements[original]);
        }

        /// <summary><c>var x = (T)state!;</c>, or <c>var (x, y) = ((T1, T2))state!;</c> for several captures.</summary>
        private IEnumerable<StatementSyntax> ReadBackState()
        {
            if (_capture.Captured.Length == 0)
            {
                yield break;
            }

            ExpressionSyntax state = IdentifierName(_state);
            if (_version >= LanguageVersion.CSharp8)
            {
                state = PostfixUnaryExpression(SyntaxKind.SuppressNullableWarningExpression, state);
            }

            if (_capture.Captured.Length == 1)
            {
                var only = _capture.Captured[0];
                yield return LocalDeclarationStatement(VariableDeclaration(
                    IdentifierName("var"),
                    SingletonSeparatedList(VariableDeclarator(Identifier(NameOf(only)))
                        .WithInitializer(EqualsValueClause(CastExpression(TypeOf(only), state))))));
                yield break;
            }

            var tupleType = TupleType(SeparatedList(_capture.Captured.Select(s => TupleElement(TypeOf(s)))));
            var designation = ParenthesizedVariableDesignation(SeparatedList<VariableDesignationSyntax>(
                _capture.Captured.Select(s => SingleVariableDesignation(Identifier(NameOf(s))))));
            yield return ExpressionStatement(AssignmentExpression(
                SyntaxKind.SimpleAssignmentExpression,
                DeclarationExpression(IdentifierName("var"), designation),
                CastExpression(tupleType, state)));
        }

        private ExpressionSyntax StateExpression()
        {
            ExpressionSyntax Value(ISymbol symbol) => symbol is ITypeSymbol ? ThisExpression() : IdentifierName(EscapedName(symbol.Name));
            return _capture.Captured.Length == 1
                ? Value(_capture.Captured[0])
                : TupleExpression(SeparatedList(_capture.Captured.Select(s => Argument(Value(s)))));
        }

        private string NameOf(ISymbol symbol) => symbol is ITypeSymbol ? _self : _readBack[symbol];

        /// <summary>The captured variable's type; a <c>var</c> local's inferred <c>T?</c> is read back as <c>T</c>.</summary>
        private TypeSyntax TypeOf(ISymbol symbol)
        {
            var type = TaskStateCapture.TypeOf(symbol)!;
            if (symbol is ILocalSymbol local && IsDeclaredWithVar(local))
            {
                type = type.WithNullableAnnotation(NullableAnnotation.NotAnnotated);
            }

            return ((TypeSyntax)_generator.TypeExpression(type)).WithAdditionalAnnotations(Simplifier.Annotation);
        }

        private static bool IsDeclaredWithVar(ILocalSymbol local) =>
            local.DeclaringSyntaxReferences.FirstOrDefault()?.GetSyntax() switch
            {
                VariableDeclaratorSyntax { Parent: VariableDeclarationSyntax declaration } => declaration.Type.IsVar,
                ForEachStatementSyntax loop => loop.Type.IsVar,
                SingleVariableDesignationSyntax designation => IsVarDesignation(designation),
                _ => false,
            };

        /// <summary><c>var x</c> in a pattern or out argument, or an element of <c>var (x, y) = …</c> (what an earlier fix wrote).</summary>
        private static bool IsVarDesignation(VariableDesignationSyntax designation) => designation.Parent switch
        {
            DeclarationExpressionSyntax declaration => declaration.Type.IsVar,
            ParenthesizedVariableDesignationSyntax outer => IsVarDesignation(outer),
            _ => false,
        };

        private string Unique(string name)
        {
            var candidate = name;
            for (var i = 2; _names.Contains(candidate) || _capture.CapturedNames.Contains(candidate); i++)
            {
                candidate = name + i.ToString(System.Globalization.CultureInfo.InvariantCulture);
            }

            _names.Add(candidate);
            return candidate;
        }

        private static string EscapedName(string name) =>
            SyntaxFacts.GetKeywordKind(name) != SyntaxKind.None ? "@" + name : name;
    }
}
