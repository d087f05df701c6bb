using System.Linq;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CodeFixes;
using Microsoft.CodeAnalysis.CSharp;
using Microsoft.CodeAnalysis.CSharp.Syntax;
using Microsoft.CodeAnalysis.Editing;
using Microsoft.CodeAnalysis.Operations;
using Microsoft.CodeAnalysis.Simplification;
using TplPractices.Analyzers.CodeFixes.Internals;
using TplPractices.Analyzers.Internals;
using TplPractices.Analyzers.Rules;
using static Microsoft.CodeAnalysis.CSharp.SyntaxFactory;

namespace TplPractices.Analyzers.CodeFixes.Rules;

/// <summary>
/// TPL0007: <c>Task.Run(() => Use(x), token)</c> → <c>Task.Factory.StartNew(static state => { … }, x, token,
/// TaskCreationOptions.DenyChildAttach, TaskScheduler.Default)</c>, what Task.Run does, with <c>.Unwrap()</c> where the
/// delegate returns a task and the result type kept where it was written.
/// </summary>
[ExportCodeFixProvider(LanguageNames.CSharp, Name = nameof(TaskRunStateFixer))]
public sealed class TaskRunStateFixer : StateRuleFixer
{
    public const string EquivalenceKey = DiagnosticIds.TaskRunState + "_StartNewWithState";

    public TaskRunStateFixer()
        : base(new TaskRunStateAnalyzer(), TaskRunStateAnalyzer.FixStartNew, EquivalenceKey, "Use StartNew with state instead of Task.Run")
    {
    }

    protected override string Title(string kind) => "Use Task.Factory.StartNew with the captured values as state";

    private protected override SyntaxNode? Rewrite(SyntaxNode call, ArgumentListSyntax arguments, StateRewrite rewrite, Diagnostic reported)
    {
        var unwrap = reported.Properties.ContainsKey(TaskRunState.UnwrapKey);
        var invocation = (IInvocationOperation)rewrite.Capture.Call;
        var compilation = invocation.SemanticModel!.Compilation;
        var generator = rewrite.Generator;
        var task = Type(generator, compilation, WellKnownTypeNames.Task);
        var token = invocation.Arguments.FirstOrDefault(a => a.Parameter?.Ordinal == 1)?.Written() is { } written
            ? written.Expression
            : MemberAccess(Type(generator, compilation, WellKnownTypeNames.CancellationToken), "None");
        SimpleNameSyntax startNew = IdentifierName("StartNew");
        var name = ((InvocationExpressionSyntax)call).Expression switch
        {
            MemberAccessExpressionSyntax { Name: GenericNameSyntax generic } => generic,
            GenericNameSyntax generic => generic,
            _ => null,
        };
        if (name is { TypeArgumentList.Arguments.Count: 1 })
        {
            var typeArgument = name.TypeArgumentList.Arguments[0].WithoutTrivia();
            // Task.Run<T> written out: StartNew's TResult is the delegate's own return type, T or Task<T>, spelled as
            // written (a type built from the symbol would carry the inferred nullability: StartNew<Task<int>?>, CS8620).
            var returned = unwrap
                ? (TypeSyntax)generator.WithTypeArguments(task, typeArgument).WithAdditionalAnnotations(Simplifier.Annotation, Simplifier.AddImportsAnnotation)
                : typeArgument;
            startNew = GenericName(Identifier("StartNew"), TypeArgumentList(SingletonSeparatedList<TypeSyntax>(returned)));
        }

        var added = new[]
        {
            Argument(rewrite.State()),
            Argument(token.WithoutTrivia()),
            Argument(MemberAccess(Type(generator, compilation, WellKnownTypeNames.TaskCreationOptions), "DenyChildAttach")),
            Argument(MemberAccess(Type(generator, compilation, WellKnownTypeNames.TaskScheduler), "Default")),
        };
        // The lambda alone: the shared rebuild keeps the author's parentheses, and a line break after the lambda (a ')'
        // on a line of its own) goes after the added arguments. With a token, written anywhere and maybe named, the
        // list is written anew.
        var list = arguments.Arguments.Count == 1
            ? StateRewrite.Rebuild(arguments, (_, written) => Argument(rewrite.Lambda().WithTriviaFrom(written.Expression)), 1, added)
                .WithCloseParenToken(arguments.CloseParenToken.WithTrailingTrivia()) // the call's own, which the result takes
            : WrittenAnew(arguments, Argument(rewrite.Lambda()), added, call.SyntaxTree.GetRoot());
        ExpressionSyntax result = InvocationExpression(
            MemberAccessExpression(SyntaxKind.SimpleMemberAccessExpression, MemberAccess(task, "Factory"), startNew),
            list);
        if (unwrap)
        {
            result = InvocationExpression(MemberAccess(result, "Unwrap"));
        }

        return result.WithTriviaFrom(call);
    }

    /// <summary>
    /// The list with a token, written anew in StartNew's order and spaced here, not by the formatter: every target's copy
    /// must come out the same, formatted or not. A comment the author wrote after the lambda's comma speaks of the
    /// lambda: it stays beside it, and each argument goes on a line of its own, indented as the token was.
    /// </summary>
    private static ArgumentListSyntax WrittenAnew(ArgumentListSyntax arguments, ArgumentSyntax lambda, ArgumentSyntax[] added, SyntaxNode root)
    {
        var commas = Enumerable.Repeat(Token(SyntaxKind.CommaToken).WithTrailingTrivia(Space), added.Length).ToArray();
        if (CommentedComma(arguments) is not { } kept)
        {
            return ArgumentList(SeparatedList(added.Prepend(lambda), commas));
        }

        var lineBreak = NewLines.FixedOf(root);
        var indentation = StateRewrite.IndentationOf(arguments.Arguments[1]);
        commas = commas.Select((_, i) => i == 0 ? kept : Token(SyntaxKind.CommaToken).WithTrailingTrivia(lineBreak)).ToArray();
        return ArgumentList(SeparatedList(added.Prepend(lambda).Select(a => a.WithLeadingTrivia(indentation)), commas))
            .WithOpenParenToken(Token(SyntaxKind.OpenParenToken).WithTrailingTrivia(lineBreak));
    }

    /// <summary>
    /// The comma after <c>Task.Run</c>'s lambda where a comment follows it on its line (<c>() =&gt;</c> … <c>work(),  //
    /// why</c>): the comment speaks of the lambda, and stays beside it rather than going above the statement. Null where
    /// the lambda is not written first or no comment follows its comma.
    /// </summary>
    private static SyntaxToken? CommentedComma(ArgumentListSyntax arguments) =>
        arguments.Arguments is { Count: > 1 } written && written[0] is { NameColon: null, Expression: AnonymousFunctionExpressionSyntax }
        && written.GetSeparator(0).TrailingTrivia.Any(t => t.IsKind(SyntaxKind.SingleLineCommentTrivia))
            ? written.GetSeparator(0)
            : null;

    private static ExpressionSyntax MemberAccess(ExpressionSyntax target, string name) =>
        MemberAccessExpression(SyntaxKind.SimpleMemberAccessExpression, target, IdentifierName(name));

    private static ExpressionSyntax Type(SyntaxGenerator generator, Compilation compilation, string metadataName) =>
        TypeOf(generator, compilation.GetTypeByMetadataName(metadataName)!);

    private static TypeSyntax TypeOf(SyntaxGenerator generator, ITypeSymbol type) => (TypeSyntax)ImportedType.Of(generator, type);
}
