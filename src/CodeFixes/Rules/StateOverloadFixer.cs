using System.Collections.Generic;
using System.Linq;
using System.Globalization;
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
using static Microsoft.CodeAnalysis.CSharp.SyntaxFactory;

namespace TplPractices.Analyzers.CodeFixes.Rules;

/// <summary>
/// TPL0015: <c>cache.GetOrAdd(key, k => Load(k, options))</c> → <c>cache.GetOrAdd(key, static (k, options) => Load(k,
/// options), options)</c>: every callback the overload hands the state gets it, and the values go where the overload
/// takes them. A target whose type lacks the overload (netstandard2.0's ConcurrentDictionary) reports nothing, and in a
/// file it shares the rewrite would not compile there: the shared layer compiles every copy that holds the site and
/// drops the fix, while a site in an <c>#if</c> branch only the other targets compile is fixed. A factory that captures
/// only its key reads it from its parameter instead (<see cref="StateOverloadKeyRewrite"/>), on every target.
/// </summary>
[ExportCodeFixProvider(LanguageNames.CSharp, Name = nameof(StateOverloadFixer))]
public sealed class StateOverloadFixer : StateRuleFixer
{
    public const string EquivalenceKey = DiagnosticIds.StateOverload + "_UseStateOverload";

    public StateOverloadFixer()
        : base(new StateOverloadAnalyzer(), StateOverload.FixStateOverload, EquivalenceKey, "Use the overloads that pass a state")
    {
    }

    /// <summary>
    /// C# 7 for the read-back deconstruction. A typed state needs no '!', so C# 7.3 beside nullable warnings is fine; for
    /// an object state there the compiled copies refuse the rewrite (CS8600), and the fix is not offered.
    /// </summary>
    protected override bool CanFix(Document document) => LinkedCopies.OldestLanguageVersion(document) >= LanguageVersion.CSharp7;

    /// <summary>Whether a target that shares the file lacks the overload only the compiled copies tell: tried before offered.</summary>
    protected override bool TriesBeforeOffering => true;

    protected override string Title(string kind) => kind == StateOverload.FixKeyParameter
        ? "Read the key from the factory's parameter"
        : "Use the overload that passes the captured values as a state";

    private protected override bool IsOtherKind(string kind) => kind == StateOverload.FixKeyParameter;

    private protected override (SyntaxNode Node, SyntaxNode Replacement)? RewriteOther(DocumentEditor editor, TextSpan span, Diagnostic reported, LanguageVersion version, CancellationToken cancellationToken) =>
        StateOverloadKeyRewrite.Rewrite(editor, span, reported, version, cancellationToken);

    private protected override SyntaxNode? Rewrite(SyntaxNode call, ArgumentListSyntax arguments, StateRewrite rewrite, Diagnostic reported)
    {
        // The analyzer gave the state's ordinal, and the other callbacks (every one receives the same values) as parts
        // with their state positions.
        var properties = reported.Properties;
        var positions = properties.TryGetValue(StateOverload.CallbackPositionsKey, out var text) && text is { Length: > 0 } ? text.Split(' ') : [];
        var parts = FixSites.PartsOf(reported);
        if (!properties.TryGetValue(StateOverload.StateOrdinalKey, out var ordinalText)
            || !int.TryParse(ordinalText, NumberStyles.None, CultureInfo.InvariantCulture, out var stateOrdinal)
            || positions.Length != parts.Length)
        {
            return null;
        }

        var capture = rewrite.Capture;
        var lambdas = new Dictionary<SyntaxNode, ExpressionSyntax> { [capture.Lambda.Syntax] = rewrite.Lambda() };
        for (var i = 0; i < parts.Length; i++)
        {
            if (FixSites.Part<AnonymousFunctionExpressionSyntax>(call.SyntaxTree.GetRoot(), parts[i]) is not { } syntax
                || LambdaIn(capture.Call, syntax) is not { } lambda
                || !int.TryParse(positions[i], NumberStyles.None, CultureInfo.InvariantCulture, out var position)
                || StateFacts.Read(capture.Call, lambda, properties, position) is not { } other)
            {
                return null;
            }

            lambdas[syntax] = new StateRewrite(rewrite.Generator, other, rewrite.Version, rewrite.ForgivesNull).Lambda();
        }

        // A value the overload takes as a factory: the analyzer found it is a variable the state carries, which the
        // factory hands back, or a constant, which the factory returns as written.
        var bound = StateOverload.Arguments(capture.Call);
        if (properties.TryGetValue(StateOverload.ValueFactoryKey, out var factoryText))
        {
            if (!int.TryParse(factoryText, NumberStyles.None, CultureInfo.InvariantCulture, out var factoryOrdinal)
                || bound.FirstOrDefault(a => a.Parameter?.Ordinal == factoryOrdinal)?.Syntax is not ArgumentSyntax { Expression: var value })
            {
                return null;
            }

            var factory = properties.ContainsKey(StateOverload.ConstantValueKey) ? rewrite.ConstantFactory(value)
                : value.WithoutParentheses() is IdentifierNameSyntax { Identifier.ValueText: var valueName } ? rewrite.ValueFactory(valueName)
                : null;
            if (factory is null)
            {
                return null;
            }

            lambdas[value.WithoutParentheses()] = factory;
        }

        // A dummy state is filled where it stands. Otherwise the values go in the state's place, counted by the arguments
        // written before it (the call leaves none of them out, or there is no fix); a call that names arguments gets them
        // last, named (the analyzer checked that the overload keeps every name).
        var fillsDummy = capture.Shape.FillsArgument;
        var dummy = fillsDummy ? bound.FirstOrDefault(a => a.Parameter?.Ordinal == stateOrdinal)?.Syntax : null;
        var named = arguments.Arguments.Any(a => a.NameColon is not null);
        var index = fillsDummy || named
            ? arguments.Arguments.Count
            : bound.Count(a => a.Written() is not null && a.Parameter?.Ordinal < stateOrdinal);
        var inserted = fillsDummy ? System.Array.Empty<ArgumentSyntax>()
            : named && capture.Shape.NamedState is { } name ? new[] { Argument(NameColon(IdentifierName(StateRewrite.EscapedName(name))), default, rewrite.State()) }
            : new[] { Argument(rewrite.State()) };
        var rebuilt = call.ReplaceNode(arguments, StateRewrite.Rebuild(
            arguments,
            (_, argument) => lambdas.TryGetValue(argument.Expression.WithoutParentheses(), out var lambda)
                ? argument.WithExpression(lambda.WithTriviaFrom(argument.Expression)).WithAdditionalAnnotations(Formatter.Annotation)
                : argument == dummy ? argument.WithExpression(rewrite.State().WithTriviaFrom(argument.Expression)) : argument,
            index,
            inserted));

        // A type argument written for the dummy's type is dropped, so that the state's type is inferred from the values
        // (the analyzer left no fix where other type arguments are written).
        return fillsDummy && capture.Shape.Typed ? WithoutTypeArguments(rebuilt) : rebuilt;
    }

    /// <summary><c>Create&lt;object?&gt;(…)</c> → <c>Create(…)</c>.</summary>
    private static SyntaxNode WithoutTypeArguments(SyntaxNode call) => call switch
    {
        InvocationExpressionSyntax { Expression: GenericNameSyntax name } invocation =>
            invocation.WithExpression(IdentifierName(name.Identifier).WithTriviaFrom(name)),
        InvocationExpressionSyntax { Expression: MemberAccessExpressionSyntax { Name: GenericNameSyntax name } access } invocation =>
            invocation.WithExpression(access.WithName(IdentifierName(name.Identifier).WithTriviaFrom(name))),
        _ => call,
    };
}
