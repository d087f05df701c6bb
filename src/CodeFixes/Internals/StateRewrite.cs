using System.Collections.Generic;
using System.Linq;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp;
using Microsoft.CodeAnalysis.CSharp.Syntax;
using Microsoft.CodeAnalysis.Editing;
using Microsoft.CodeAnalysis.Formatting;
using Microsoft.CodeAnalysis.Operations;
using Microsoft.CodeAnalysis.Simplification;
using TplPractices.Analyzers.Internals;
using static Microsoft.CodeAnalysis.CSharp.SyntaxFactory;

namespace TplPractices.Analyzers.CodeFixes.Internals;

/// <summary>
/// Builds the new lambda and argument list for one call whose capturing lambda receives its values as a state
/// instead, in the form its <see cref="StateShape"/> names. Shared by the fixes of TPL0001, TPL0006, TPL0007 and TPL0015.
/// </summary>
internal sealed class StateRewrite
{
    private readonly SyntaxGenerator _generator;
    private readonly StateCapture _capture;
    private readonly AnonymousFunctionExpressionSyntax _lambda;
    private readonly HashSet<string> _names;
    private readonly string _state;
    private readonly string _self;
    private readonly LanguageVersion _version;
    private readonly List<string> _parameterNames;

    /// <summary>The local each captured variable is read back into: its own name from C# 8, which allows shadowing.</summary>
    private readonly Dictionary<ISymbol, string> _readBack = new(SymbolEqualityComparer.Default);

    /// <summary>
    /// The rewrite of one lambda in <paramref name="version"/>'s syntax, writing <c>!</c> only where
    /// <paramref name="forgivesNull"/> says the code gets nullable warnings (<see cref="LinkedCopies.WarnsOnNullableAt"/>).
    /// </summary>
    public StateRewrite(SyntaxGenerator generator, StateCapture capture, LanguageVersion version, bool forgivesNull)
    {
        _generator = generator;
        _capture = capture;
        _lambda = (AnonymousFunctionExpressionSyntax)capture.Lambda.Syntax;
        _version = version;
        ForgivesNull = forgivesNull;
        _names = new HashSet<string>(_lambda.DescendantTokens().Where(t => t.IsKind(SyntaxKind.IdentifierToken)).Select(t => t.ValueText));
        if (_version < LanguageVersion.CSharp8)
        {
            // Before C# 8 a lambda's parameters and locals may not reuse a name of the enclosing scope.
            _names.UnionWith(capture.Lambda.SemanticModel!.LookupSymbols(_lambda.SpanStart)
                .Where(s => s is ILocalSymbol or IParameterSymbol or IRangeVariableSymbol)
                .Select(s => s.Name));
        }

        if (capture.Shape.ReplacesParameter && capture.Lambda.Symbol.Parameters.Length > capture.Shape.StateParameter)
        {
            // The parameter that becomes the state is unused (or there would be no fix): its name is free again.
            var replaced = capture.Lambda.Symbol.Parameters[capture.Shape.StateParameter].Name;
            if (_lambda.DescendantTokens().Count(t => t.ValueText == replaced) == 1)
            {
                _names.Remove(replaced);
            }
        }

        _state = Unique("state");
        _self = Unique("self");

        // delegate { … } declares no parameters: the compiler's names (<p0>) cannot be written, and the body uses none.
        // From C# 9 two or more parameters named _ are discards, so they need no numbers (_, _2).
        _parameterNames = _lambda is AnonymousMethodExpressionSyntax { ParameterList: null }
            ? capture.Lambda.Symbol.Parameters.Length >= 2 && _version >= LanguageVersion.CSharp9
                ? capture.Lambda.Symbol.Parameters.Select(_ => "_").ToList()
                : capture.Lambda.Symbol.Parameters.Select(_ => Unique("_")).ToList()
            : capture.Lambda.Symbol.Parameters.Select(p => EscapedName(p.Name)).ToList();
        foreach (var symbol in capture.Captured.Where(s => s is not ITypeSymbol))
        {
            // Before C# 8 a lambda's locals may not shadow the method's, so they get new names (myQueue).
            _readBack[symbol] = _version >= LanguageVersion.CSharp8
                ? EscapedName(symbol.Name)
                : Unique("my" + char.ToUpperInvariant(symbol.Name[0]) + symbol.Name.Substring(1));
        }
    }

    /// <summary>
    /// The call's arguments with the new lambda, and the values in the null state argument or after the lambda
    /// (with <c>preferLocal: false</c> for the generic ThreadPool overload); the other arguments and their line
    /// breaks stay.
    /// </summary>
    public ArgumentListSyntax ArgumentList(ArgumentListSyntax original)
    {
        var lambdaIndex = IndexOf(original, _lambda);
        var stateIndex = _capture.Shape.FillsArgument ? IndexOf(original, StateArgumentSyntax()) : -1;
        var inserted = new List<ArgumentSyntax>();
        if (lambdaIndex >= 0 && !_capture.Shape.FillsArgument && _capture.Captured.Length > 0)
        {
            inserted.Add(Argument(State()));
            if (_capture.Shape.Typed)
            {
                inserted.Add(Argument(NameColon("preferLocal"), default, LiteralExpression(SyntaxKind.FalseLiteralExpression)));
            }
        }

        return Rebuild(
            original,
            (i, argument) => i == lambdaIndex
                ? argument.WithExpression(Lambda().WithTriviaFrom(argument.Expression)).WithAdditionalAnnotations(Formatter.Annotation)
                : i == stateIndex
                    ? argument.WithExpression(State().WithTriviaFrom(argument.Expression))
                    : argument,
            lambdaIndex + 1,
            inserted);
    }

    /// <summary>
    /// <paramref name="original"/>'s arguments, each through <paramref name="replace"/>, with <paramref name="inserted"/>
    /// placed before the argument at <paramref name="index"/> (last, at the count). Spaced here, not by the formatter:
    /// every target's copy must come out the same, formatted or not; the original separators and line breaks stay.
    /// </summary>
    public static ArgumentListSyntax Rebuild(
        ArgumentListSyntax original, System.Func<int, ArgumentSyntax, ArgumentSyntax> replace, int index, IReadOnlyList<ArgumentSyntax> inserted)
    {
        var items = new List<SyntaxNodeOrToken>();
        var separators = original.Arguments.GetSeparators().ToList();
        var count = original.Arguments.Count;
        if (index == 0)
        {
            foreach (var argument in inserted)
            {
                items.Add(argument.WithoutTrivia());
                items.Add(Token(TriviaList(), SyntaxKind.CommaToken, TriviaList(Space)));
            }

            if (count == 0 && items.Count > 0)
            {
                items.RemoveAt(items.Count - 1);
            }
        }

        for (var i = 0; i < count; i++)
        {
            var replaced = replace(i, original.Arguments[i]);
            if (i == index - 1 && inserted.Count > 0)
            {
                // A line break after the argument (a line comment that ends it, a ')' on a line of its own) goes after
                // the arguments inserted behind it, or they would begin the next line.
                var trailing = replaced.GetTrailingTrivia();
                var breaks = trailing.Any(t => t.IsKind(SyntaxKind.EndOfLineTrivia));
                items.Add(breaks ? replaced.WithoutTrailingTrivia() : replaced);
                // A comment after the argument's comma speaks of that argument (`work(),  // why`): the comma and its
                // comment stay right after it, the inserted arguments begin the next line, indented as the next
                // argument is, and a new comma ends their line.
                var commented = i < separators.Count && separators[i].TrailingTrivia.Any(t => t.IsKind(SyntaxKind.SingleLineCommentTrivia));
                for (var j = 0; j < inserted.Count; j++)
                {
                    var argument = inserted[j].WithoutTrivia().WithLeadingTrivia(Space);
                    if (commented && j == 0)
                    {
                        items.Add(separators[i]);
                        items.Add(argument.WithLeadingTrivia(IndentationOf(original.Arguments[i + 1])));
                        continue;
                    }

                    items.Add(Token(SyntaxKind.CommaToken));
                    items.Add(breaks && j == inserted.Count - 1 ? argument.WithTrailingTrivia(trailing) : argument);
                }

                if (commented)
                {
                    items.Add(Token(TriviaList(), SyntaxKind.CommaToken, TriviaList(separators[i].TrailingTrivia.Last(t => t.IsKind(SyntaxKind.EndOfLineTrivia)))));
                    continue;
                }
            }
            else
            {
                items.Add(replaced);
            }

            if (i < separators.Count)
            {
                items.Add(separators[i]);
            }
        }

        return original.WithArguments(SeparatedList<ArgumentSyntax>(items));
    }

    /// <summary>The whitespace that begins the argument's line (not a comment above it, which would be written twice).</summary>
    public static SyntaxTriviaList IndentationOf(ArgumentSyntax argument) =>
        TriviaList(argument.GetLeadingTrivia().Reverse().TakeWhile(t => t.IsKind(SyntaxKind.WhitespaceTrivia)).Reverse());

    /// <summary>The document's generator, for a rewrite that builds its own call (TPL0007).</summary>
    public SyntaxGenerator Generator => _generator;

    public StateCapture Capture => _capture;

    /// <summary>The C# version the rewrite writes for: the oldest of the file's copies.</summary>
    public LanguageVersion Version => _version;

    /// <summary>Whether an object state is read back with <c>!</c>: only where the code gets nullable warnings.</summary>
    public bool ForgivesNull { get; }

    /// <summary>
    /// The values, spaced here rather than by the formatter so every target's copy comes out the same: one variable,
    /// <c>this</c>, or a tuple of them.
    /// </summary>
    public ExpressionSyntax State()
    {
        ExpressionSyntax Value(ISymbol symbol) => symbol is ITypeSymbol ? ThisExpression() : IdentifierName(EscapedName(symbol.Name));
        return (_capture.Captured.Length == 1
            ? Value(_capture.Captured[0])
            : TupleExpression(SeparatedList(_capture.Captured.Select(s => Argument(Value(s)))))).NormalizeWhitespace();
    }

    private static int IndexOf(ArgumentListSyntax list, SyntaxNode? node)
    {
        for (var i = 0; node is not null && i < list.Arguments.Count; i++)
        {
            if (list.Arguments[i].Span.Contains(node.Span))
            {
                return i;
            }
        }

        return -1;
    }

    private SyntaxNode? StateArgumentSyntax() =>
        _capture.Call.Call() is var (_, arguments) ? arguments.FirstOrDefault(a => a.Parameter?.Name == "state")?.Syntax : null;

    /// <summary>The new lambda: the state parameter in its place, the values read back first, <c>static</c> from C# 9.</summary>
    public ExpressionSyntax Lambda()
    {
        var lambdaSymbol = _capture.Lambda.Symbol;
        var parameters = _parameterNames.Select(name => Parameter(Identifier(name))).ToList();
        string? antecedentName = null;
        if (_capture.Shape.HasAntecedent && lambdaSymbol.Parameters.Length > 0)
        {
            // The antecedent parameter (a continuation's task, a dictionary factory's key) takes the captured variable's
            // name when it was unused, so the body reads the same; before C# 8 a new name.
            var original = lambdaSymbol.Parameters[0];
            var unused = !_capture.Lambda.Body.Descendants().OfType<IParameterReferenceOperation>()
                .Any(p => SymbolEqualityComparer.Default.Equals(p.Parameter, original));
            antecedentName = (_capture.Antecedent is not null && unused, _version >= LanguageVersion.CSharp8) switch
            {
                (true, true) => _capture.Antecedent!.Name,
                (true, false) => Unique(StateCapture.TypeOf(_capture.Antecedent!) is { Name: "Task" } ? "antecedent" : _capture.Antecedent!.Name + "Key"),
                _ => _parameterNames[0],
            };
            parameters[0] = Parameter(Identifier(antecedentName));
        }

        if (_capture.Captured.Length > 0)
        {
            var state = Parameter(Identifier(!ReadsAnyValue ? UnreadStateName() : StateIsTheValue ? NameOf(_capture.Captured[0]) : _state));
            if (_capture.Shape.ReplacesParameter && _capture.Shape.StateParameter < parameters.Count)
            {
                parameters[_capture.Shape.StateParameter] = state;
            }
            else
            {
                parameters.Insert(System.Math.Min(_capture.Shape.StateParameter, parameters.Count), state);
            }
        }

        var body = RewriteBody(antecedentName);
        var statements = ReadBackState().ToList();
        // An async lambda that returns Task (not Task<T>) has a body with no value, like a void one.
        var noValue = lambdaSymbol.ReturnsVoid || (lambdaSymbol.IsAsync && lambdaSymbol.ReturnType is INamedTypeSymbol { IsGenericType: false });
        // The old lambda's outer trivia goes on the new one (the caller's WithTriviaFrom): a part kept from its edge
        // leaves that trivia behind, or a comment there would be written twice.
        CSharpSyntaxNode newBody = (body, statements.Count) switch
        {
            (ExpressionSyntax expression, 0) => expression,
            (ExpressionSyntax expression, _) => Block(statements.Append(noValue
                ? ExpressionStatement(expression.WithoutTrailingTrivia())
                : ReturnStatement(expression.WithoutTrailingTrivia()))),
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

        // A lambda's attributes ([DebuggerStepThrough]) and explicit return type (C# 10) stay; both need parentheses.
        var written = _lambda as ParenthesizedLambdaExpressionSyntax;
        AnonymousFunctionExpressionSyntax lambda = parameters.Count == 1 && written is not { AttributeLists.Count: > 0 } and not { ReturnType: not null }
            ? SimpleLambdaExpression(parameters[0], newBody)
            : ParenthesizedLambdaExpression(ParameterList(SeparatedList(parameters)), newBody)
                .WithAttributeLists(written?.AttributeLists ?? default)
                .WithReturnType(written is { AttributeLists.Count: 0, Modifiers.Count: 0 } ? written.ReturnType?.WithoutLeadingTrivia() : written?.ReturnType);
        return lambda.WithModifiers(TokenList(modifiers)).WithAdditionalAnnotations(Formatter.Annotation);
    }

    /// <summary>
    /// Where the overload takes a value as a factory of the state (TPL0015's <c>AddOrUpdate(key, value, …)</c>), the
    /// factory that hands the variable <paramref name="name"/> back from the state: <c>static (_, value) =&gt; value</c>
    /// where the state is that value, <c>static (_, state) =&gt; state.Item1</c> where it is one of several; null where the
    /// state does not carry it.
    /// </summary>
    public ExpressionSyntax? ValueFactory(string name)
    {
        var index = _capture.Captured.Select(s => s is ITypeSymbol ? null : s.Name).ToList().IndexOf(name);
        if (index < 0)
        {
            return null;
        }

        var state = StateIsTheValue ? NameOf(_capture.Captured[0]) : _state;
        ExpressionSyntax body = StateIsTheValue
            ? IdentifierName(state)
            : MemberAccessExpression(SyntaxKind.SimpleMemberAccessExpression, IdentifierName(state), IdentifierName("Item" + (index + 1).ToString(System.Globalization.CultureInfo.InvariantCulture)));
        // The key is never read: from C# 9 (where the lambda is static) "_" beside the state names nothing in the body,
        // even where the update's own parameters took "_" first.
        var key = _version >= LanguageVersion.CSharp9 && state != "_" ? "_" : Unique("_");
        var lambda = ParenthesizedLambdaExpression(
            ParameterList(SeparatedList(new[] { Parameter(Identifier(key)), Parameter(Identifier(state)) })),
            body);
        return (_version >= LanguageVersion.CSharp9 ? lambda.WithModifiers(TokenList(Token(SyntaxKind.StaticKeyword))) : lambda)
            .WithAdditionalAnnotations(Formatter.Annotation);
    }

    /// <summary>
    /// Where the overload takes a constant value as a factory of the state (TPL0015's <c>AddOrUpdate(key, 1, …)</c>):
    /// <c>static (_, _) =&gt; 1</c>, the constant as written; two discards from C# 9, unused names before.
    /// </summary>
    public ExpressionSyntax ConstantFactory(ExpressionSyntax constant)
    {
        var first = _version >= LanguageVersion.CSharp9 ? "_" : Unique("_");
        var second = _version >= LanguageVersion.CSharp9 ? "_" : Unique("_");
        var lambda = ParenthesizedLambdaExpression(
            ParameterList(SeparatedList(new[] { Parameter(Identifier(first)), Parameter(Identifier(second)) })),
            constant.WithoutTrivia());
        return (_version >= LanguageVersion.CSharp9 ? lambda.WithModifiers(TokenList(Token(SyntaxKind.StaticKeyword))) : lambda)
            .WithAdditionalAnnotations(Formatter.Annotation);
    }

    /// <summary>The body with <c>this</c> read through the state local, and the antecedent through its parameter.</summary>
    private CSharpSyntaxNode RewriteBody(string? antecedentName)
    {
        var replacements = new Dictionary<SyntaxNode, SyntaxNode>();
        // Reads of a member of a value the lambda reaches from outside (`_options.Factory`, `options.Factory`) keep the
        // null state they had where it was written only with a `!` too: written after the other replacements inside them.
        var forgiven = new HashSet<SyntaxNode>();
        foreach (var operation in _capture.Lambda.Body.Descendants())
        {
            // A name in nameof is text, not a read: `nameof(Load)` needs no `self.` (and there may be no `self`), and
            // `nameof(id)` must not become `nameof(myId)`, another string. It stays as written, and still compiles.
            if (StateCapture.IsInNameOf(operation))
            {
                continue;
            }

            if (IsOuterMemberRead(operation) && WasKnownNonNull(operation))
            {
                forgiven.Add(operation.Syntax);
            }

            switch (operation)
            {
                case IInstanceReferenceOperation { ReferenceKind: InstanceReferenceKind.ContainingTypeInstance, Syntax: ThisExpressionSyntax self } explicitThis
                    when WasKnownNonNull(explicitThis.Parent) && self.Parent is MemberAccessExpressionSyntax member && member.Expression == self:
                    replacements[member] = Forgiven(member.WithExpression(IdentifierName(_self).WithTriviaFrom(self)));
                    break;
                case IInstanceReferenceOperation { ReferenceKind: InstanceReferenceKind.ContainingTypeInstance, Syntax: ThisExpressionSyntax self }:
                    replacements[self] = IdentifierName(_self).WithTriviaFrom(self);
                    break;
                case IInstanceReferenceOperation { ReferenceKind: InstanceReferenceKind.ContainingTypeInstance, IsImplicit: true } implicitThis
                    when StateCapture.MemberNameOf(implicitThis) is { } name:
                    ExpressionSyntax read = MemberAccessExpression(SyntaxKind.SimpleMemberAccessExpression, IdentifierName(_self), name.WithoutTrivia())
                        .WithTriviaFrom(name);
                    replacements[name] = WasKnownNonNull(implicitThis.Parent) ? Forgiven(read) : read;
                    break;
                case ILocalReferenceOperation or IParameterReferenceOperation
                    when antecedentName is not null && _capture.Antecedent is { } antecedent
                        && SymbolEqualityComparer.Default.Equals(StateCapture.ReferencedSymbol(operation), antecedent)
                        && antecedentName != antecedent.Name:
                    replacements[operation.Syntax] = IdentifierName(antecedentName).WithTriviaFrom(operation.Syntax);
                    break;
                case ILocalReferenceOperation or IParameterReferenceOperation
                    when StateCapture.ReferencedSymbol(operation) is { } captured && _readBack.TryGetValue(captured, out var local) && local != captured.Name:
                    replacements[operation.Syntax] = IdentifierName(local).WithTriviaFrom(operation.Syntax);
                    break;
            }
        }

        return _lambda.Body.ReplaceNodes(
            replacements.Keys.Union(forgiven),
            (original, rewritten) => forgiven.Contains(original) ? Forgiven((ExpressionSyntax)rewritten) : replacements[original]);
    }

    /// <summary>
    /// A field or property read through another (<c>_options.Factory</c>, <c>self.Options.Factory</c>) or through a captured
    /// variable (<c>options.Factory</c>): a member of the value the state now carries, whose null state in the lambda came
    /// from the code around it. A member read on <c>this</c> itself is the cases' own (<see cref="WasKnownNonNull"/> there).
    /// </summary>
    private bool IsOuterMemberRead(IOperation operation)
    {
        if (operation is not (IFieldReferenceOperation or IPropertyReferenceOperation))
        {
            return false;
        }

        var receiver = ((IMemberReferenceOperation)operation).Instance;
        while (receiver is IFieldReferenceOperation or IPropertyReferenceOperation)
        {
            receiver = ((IMemberReferenceOperation)receiver).Instance;
            if (receiver is IInstanceReferenceOperation { ReferenceKind: InstanceReferenceKind.ContainingTypeInstance })
            {
                return true;
            }
        }

        return receiver is ILocalReferenceOperation or IParameterReferenceOperation
            && StateCapture.ReferencedSymbol(receiver) is { } variable
            && _capture.Captured.Contains(variable, SymbolEqualityComparer.Default);
    }

    /// <summary>
    /// Whether a read of a nullable member of this instance was known non-null in the lambda: the compiler reads a lambda
    /// with the null states of where it is written (<c>_cts = new …(); Task.Run(() =&gt; Use(_cts.Token))</c>), while a
    /// read through the state local starts from the declared maybe-null and would warn. Not where the read tests for
    /// null itself (<c>?.</c>, <c>??</c>) or has its <c>!</c> already, which cannot warn. Only where the code gets nullable warnings.
    /// </summary>
    private bool WasKnownNonNull(IOperation? read) =>
        ForgivesNull
        && read is IFieldReferenceOperation { Field.NullableAnnotation: NullableAnnotation.Annotated } or IPropertyReferenceOperation { Property.NullableAnnotation: NullableAnnotation.Annotated }
        && read.Type is { IsReferenceType: true }
        && IsOnlyRead(read)
        && IsKnownNonNull(read) == true;

    /// <summary>
    /// The compiler's null state of a read in the original lambda: true for non-null, false for maybe-null, and null for
    /// a read written with <c>!</c>, which warns in neither form and so says nothing either way.
    /// </summary>
    private static bool? IsKnownNonNull(IOperation read) =>
        read.Syntax.Parent.IsKind(SyntaxKind.SuppressNullableWarningExpression)
            ? null
            : read.SemanticModel?.GetTypeInfo(read.Syntax).Nullability.FlowState == NullableFlowState.NotNull;

    private static bool IsOnlyRead(IOperation read) => read.Parent switch
    {
        IAssignmentOperation assignment => assignment.Value == read,
        IArgumentOperation argument => argument.Parameter?.RefKind is null or RefKind.None or RefKind.In,
        IConditionalAccessOperation access => access.Operation != read,
        ICoalesceOperation coalesce => coalesce.Value != read,
        _ => true,
    };

    /// <summary>The read with <c>!</c>: the compiler's own knowledge at the lambda, written out; nothing changes at run time.</summary>
    private static ExpressionSyntax Forgiven(ExpressionSyntax read) =>
        PostfixUnaryExpression(SyntaxKind.SuppressNullableWarningExpression, read.WithoutTrailingTrivia()).WithTrailingTrivia(read.GetTrailingTrivia());

    /// <summary>
    /// <c>var x = (T)state!;</c>, or <c>var (x, y) = ((T1, T2))state!;</c> for several captures; without the cast for a
    /// generic <c>TState</c>, which arrives with the values' own type.
    /// </summary>
    private IEnumerable<StatementSyntax> ReadBackState()
    {
        if (_capture.Captured.Length == 0 || StateIsTheValue || !ReadsAnyValue)
        {
            yield break;
        }

        var single = _capture.Captured.Length == 1;
        ExpressionSyntax state = IdentifierName(_state);
        if (!_capture.Shape.Typed)
        {
            if (ForgivesNull)
            {
                state = PostfixUnaryExpression(SyntaxKind.SuppressNullableWarningExpression, state);
            }

            state = CastExpression(
                single ? TypeOf(_capture.Captured[0]) : TupleType(SeparatedList(_capture.Captured.Select(s => TupleElement(TypeOf(s))))),
                state);
        }

        yield return single
            ? LocalDeclarationStatement(VariableDeclaration(
                IdentifierName("var"),
                SingletonSeparatedList(VariableDeclarator(Identifier(NameOf(_capture.Captured[0]))).WithInitializer(EqualsValueClause(state)))))
            : ExpressionStatement(AssignmentExpression(
                SyntaxKind.SimpleAssignmentExpression,
                DeclarationExpression(IdentifierName("var"), ParenthesizedVariableDesignation(SeparatedList<VariableDesignationSyntax>(
                    _capture.Captured.Select(s => IsRead(s) ? SingleVariableDesignation(Identifier(NameOf(s))) : (VariableDesignationSyntax)DiscardDesignation())))),
                state));
    }

    /// <summary>
    /// Whether the lambda reads the state's value: a value the state carries for another factory (TPL0015's
    /// <c>AddOrUpdate</c> value) is not read back, but discarded (<c>var (_, step) = state;</c>).
    /// </summary>
    private bool IsRead(ISymbol symbol) =>
        symbol is ITypeSymbol
            ? _capture.Lambda.Body.Descendants().Any(o => o is IInstanceReferenceOperation { ReferenceKind: InstanceReferenceKind.ContainingTypeInstance })
            : _capture.Lambda.Body.Descendants().Any(o => SymbolEqualityComparer.Default.Equals(StateCapture.ReferencedSymbol(o), symbol));

    /// <summary>
    /// The name of a state this callback does not read (one state serves every callback of TPL0015's <c>AddOrUpdate</c>):
    /// a discard from C# 9 where the body names no <c>_</c>, an unused name before.
    /// </summary>
    private string UnreadStateName() =>
        _version >= LanguageVersion.CSharp9 && !_lambda.Body.DescendantTokens().Any(t => t.IsKind(SyntaxKind.IdentifierToken) && t.ValueText == "_")
            ? "_"
            : Unique("_");

    private bool ReadsAnyValue => _capture.Captured.Any(IsRead);

    /// <summary>A typed state carrying one value arrives as that value: the parameter takes its name, and nothing is read back.</summary>
    private bool StateIsTheValue => _capture.Shape.Typed && _capture.Captured.Length == 1;

    private string NameOf(ISymbol symbol) => symbol is ITypeSymbol ? _self : _readBack[symbol];

    /// <summary>The captured variable's type; a <c>var</c> local's inferred <c>T?</c> is read back as <c>T</c>.</summary>
    private TypeSyntax TypeOf(ISymbol symbol)
    {
        var type = StateCapture.TypeOf(symbol)!;
        if ((symbol is ILocalSymbol local && IsDeclaredWithVar(local)) || IsKnownNonNullWherever(symbol, type))
        {
            type = type.WithNullableAnnotation(NullableAnnotation.NotAnnotated);
        }

        return ((TypeSyntax)_generator.TypeExpression(type)).WithAdditionalAnnotations(Simplifier.Annotation);
    }

    /// <summary>
    /// Whether a captured nullable reference was known non-null at every read in the lambda (a local tested for null
    /// before it): read back as <c>T</c>, it stays so; as <c>T?</c> it would warn where the original did not.
    /// </summary>
    private bool IsKnownNonNullWherever(ISymbol symbol, ITypeSymbol type)
    {
        if (type is not { IsReferenceType: true, NullableAnnotation: NullableAnnotation.Annotated })
        {
            return false;
        }

        var states = _capture.Lambda.Body.Descendants()
            .Where(o => SymbolEqualityComparer.Default.Equals(StateCapture.ReferencedSymbol(o), symbol))
            .Select(IsKnownNonNull)
            .OfType<bool>()
            .ToList();
        return states.Count > 0 && states.All(known => known);
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

    /// <summary>The name as an identifier: <c>@</c> before a keyword.</summary>
    public static string EscapedName(string name) =>
        SyntaxFacts.GetKeywordKind(name) != SyntaxKind.None ? "@" + name : name;
}
