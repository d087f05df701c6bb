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
        // list is written anew in StartNew's order.
        var list = arguments.Arguments.Count == 1
            ? StateRewrite.Rebuild(arguments, (_, written) => Argument(rewrite.Lambda().WithTriviaFrom(written.Expression)), 1, added)
                .WithCloseParenToken(arguments.CloseParenToken.WithTrailingTrivia()) // the call's own, which the result takes
            : ArgumentList(SeparatedList(
                added.Prepend(Argument(rewrite.Lambda())),
                // Spaced here, not by the formatter: every target's copy must come out the same, formatted or not.
                Enumerable.Repeat(Token(SyntaxKind.CommaToken).WithTrailingTrivia(Space), 4)));
        ExpressionSyntax result = InvocationExpression(
            MemberAccessExpression(SyntaxKind.SimpleMemberAccessExpression, MemberAccess(task, "Factory"), startNew),
            list);
        if (unwrap)
        {
            result = InvocationExpression(MemberAccess(result, "Unwrap"));
        }

        return result.WithTriviaFrom(call);
    }

    private static ExpressionSyntax MemberAccess(ExpressionSyntax target, string name) =>
        MemberAccessExpression(SyntaxKind.SimpleMemberAccessExpression, target, IdentifierName(name));

    private static ExpressionSyntax Type(SyntaxGenerator generator, Compilation compilation, string metadataName) =>
        TypeOf(generator, compilation.GetTypeByMetadataName(metadataName)!);

    private static TypeSyntax TypeOf(SyntaxGenerator generator, ITypeSymbol type) => (TypeSyntax)ImportedType.Of(generator, type);
}
