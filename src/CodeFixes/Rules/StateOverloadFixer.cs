using System.Collections.Generic;
using System.Linq;
using System.Runtime.CompilerServices;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CodeFixes;
using Microsoft.CodeAnalysis.CSharp;
using Microsoft.CodeAnalysis.CSharp.Syntax;
using Microsoft.CodeAnalysis.Formatting;
using Microsoft.CodeAnalysis.Operations;
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
/// drops the fix, while a site in an <c>#if</c> branch only the other targets compile is fixed.
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

    protected override string Title(string kind) => "Use the overload that passes the captured values as a state";

    private protected override object? Resolve(Compilation compilation) => StateOverload.Context.TryCreate(compilation);

    /// <summary>The site each capture <see cref="Analyze"/> returned belongs to, so that the rewrite reads the site once.</summary>
    private static readonly ConditionalWeakTable<StateCapture, StateOverload.Site> Sites = new();

    private protected override StateCapture? Analyze(IOperation call, string kind, object symbols, int maxStateValues)
    {
        if (StateOverload.Analyze(call, (StateOverload.Context)symbols, maxStateValues) is not { } site)
        {
            return null;
        }

        _ = Sites.GetValue(site.Reported, _ => site);
        return site.Reported;
    }

    /// <summary>A group bound to <c>this</c>: the overload's typed state carries it, where the overload takes its state.</summary>
    private protected override GroupState? GroupStateOf(IArgumentOperation group, object symbols)
    {
        if (group.Parent is not IInvocationOperation invocation
            || StateOverload.BoundGroupOf(invocation, (StateOverload.Context)symbols) is not { Match: var match })
        {
            return null;
        }

        return new GroupState(
            match.Callbacks[0].Position,
            typed: true,
            invocation.Arguments.Count(a => a.Syntax is ArgumentSyntax && a.Parameter?.Ordinal < match.StateOrdinal));
    }

    private protected override SyntaxNode Rewrite(SyntaxNode call, ArgumentListSyntax arguments, StateRewrite rewrite, object symbols)
    {
        // The reported capture passed max_state_values, and every callback carries the same values.
        var bound = StateOverload.Arguments(rewrite.Capture.Call);
        if (!Sites.TryGetValue(rewrite.Capture, out var site))
        {
            return call;
        }

        var lambdas = new Dictionary<SyntaxNode, ExpressionSyntax>();
        foreach (var capture in site.Callbacks)
        {
            lambdas[capture!.Lambda.Syntax] = new StateRewrite(rewrite.Generator, capture, rewrite.Version).Lambda();
        }

        // A dummy state is filled where it stands. Otherwise the values go in the state's place, counted by the arguments
        // written before it (the call leaves none of them out, or there is no fix); a call that names arguments gets them
        // last, named (the analyzer checked that the overload keeps every name).
        var dummy = site.FillsDummy ? bound.FirstOrDefault(a => a.Parameter?.Ordinal == site.Match.StateOrdinal)?.Syntax : null;
        var named = arguments.Arguments.Any(a => a.NameColon is not null);
        var index = site.FillsDummy || named
            ? arguments.Arguments.Count
            : bound.Count(a => a.Syntax is ArgumentSyntax && a.Parameter?.Ordinal < site.Match.StateOrdinal);
        var inserted = site.FillsDummy ? System.Array.Empty<ArgumentSyntax>()
            : named && rewrite.Capture.Shape.NamedState is { } name ? new[] { Argument(NameColon(IdentifierName(StateRewrite.EscapedName(name))), default, rewrite.State()) }
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
        return site.FillsDummy && site.Match.Typed ? WithoutTypeArguments(rebuilt) : rebuilt;
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
