using System.Collections.Immutable;
using System.Linq;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp;
using Microsoft.CodeAnalysis.CSharp.Syntax;
using Microsoft.CodeAnalysis.Editing;
using Microsoft.CodeAnalysis.Formatting;
using Microsoft.CodeAnalysis.Operations;
using TplPractices.Analyzers.Internals;

namespace TplPractices.Analyzers.CodeFixes.Internals;

/// <summary>
/// Adds one flag of an options enum to a call (TPL0011's ExecuteSynchronously, TPL0013's RunContinuationsAsynchronously):
/// OR-ed into the options argument the call passes, replacing a constant zero, or as a new last argument, which the
/// caller has checked binds to the overload that takes the options after the call's own parameters. A call with a
/// token or scheduler but no options moves to its four-part sibling (<see cref="FullTaskCall"/>), the scheduler it
/// used (<c>TaskScheduler.Current</c>) written out where it passed none.
/// </summary>
internal static class OptionsFlag
{
    /// <param name="editor">The document's editor.</param>
    /// <param name="call">An invocation or object creation.</param>
    /// <param name="arguments">Its arguments, as bound.</param>
    /// <param name="optionsType">The options enum.</param>
    /// <param name="flag">The flag's member name.</param>
    /// <param name="parameterName">The options parameter's name, written where the call names its other arguments.</param>
    public static void Add(DocumentEditor editor, ExpressionSyntax call, ImmutableArray<IArgumentOperation> arguments, ITypeSymbol optionsType, string flag, string parameterName)
    {
        var value = editor.Generator.MemberAccessExpression(ImportedType.Of(editor.Generator, optionsType), flag);
        if (arguments.FirstOrDefault(a => SymbolEqualityComparer.Default.Equals(a.Parameter?.Type, optionsType)) is { } options)
        {
            // The expression as written: with its '!' (options!), which the operation's own syntax leaves out.
            var passed = options.Written()?.Expression ?? (ExpressionSyntax)options.Value.Syntax;
            var replacement = options.Value.ConstantValue is { HasValue: true, Value: 0 }
                ? value
                : editor.Generator.BitwiseOrExpression(passed.WithoutTrivia(), value);
            editor.ReplaceNode(passed, replacement.WithTriviaFrom(passed).WithAdditionalAnnotations(Formatter.Annotation));
            return;
        }

        // A ContinueWith that passes a token or scheduler without options: its four-part sibling, with this flag.
        if (call is InvocationExpressionSyntax continueWith
            && arguments.FirstOrDefault()?.Parameter?.ContainingSymbol is IMethodSymbol method
            && FullTaskCall.TakesTokenOrScheduler(method, editor.SemanticModel.Compilation)
            && FullTaskCall.SiblingOf(method, editor.SemanticModel.Compilation) is { } full)
        {
            FullTaskCall.Rewrite(editor, continueWith, arguments, full, parameter =>
                SymbolEqualityComparer.Default.Equals(parameter.Type, optionsType) ? value
                : parameter.Ordinal == full.Parameters.Length - 1 ? editor.Generator.MemberAccessExpression(ImportedType.Of(editor.Generator, parameter.Type), "Current")
                : null);
            return;
        }

        var list = ArgumentsOf(call) ?? SyntaxFactory.ArgumentList();
        var argument = SyntaxFactory.Argument((ExpressionSyntax)value);
        if (list.Arguments.Any(a => a.NameColon is not null))
        {
            argument = argument.WithNameColon(SyntaxFactory.NameColon(parameterName));
        }

        // Only the argument list is formatted: formatting the whole call would also move a call that runs over several
        // lines onto a line of its own (`{ t.ContinueWith(` in a one-line body), as no other fix of the call does.
        // Appended as the state fixes append theirs: a line break after the last argument goes after the flag.
        var withFlag = StateRewrite.Rebuild(list, (_, a) => a, list.Arguments.Count, [argument]).WithAdditionalAnnotations(Formatter.Annotation);
        SyntaxNode changed = call switch
        {
            InvocationExpressionSyntax invocation => invocation.WithArgumentList(withFlag),
            ObjectCreationExpressionSyntax creation => creation.WithArgumentList(withFlag),
            ImplicitObjectCreationExpressionSyntax creation => creation.WithArgumentList(withFlag),
            _ => call,
        };
        editor.ReplaceNode(call, changed);
    }

    private static ArgumentListSyntax? ArgumentsOf(ExpressionSyntax call) => call switch
    {
        InvocationExpressionSyntax invocation => invocation.ArgumentList,
        BaseObjectCreationExpressionSyntax creation => creation.ArgumentList,
        _ => null,
    };
}
