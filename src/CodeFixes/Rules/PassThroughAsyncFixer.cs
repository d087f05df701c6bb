using System.Linq;
using System.Threading;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CodeFixes;
using Microsoft.CodeAnalysis.CSharp;
using Microsoft.CodeAnalysis.CSharp.Syntax;
using Microsoft.CodeAnalysis.Editing;
using Microsoft.CodeAnalysis.Operations;
using Microsoft.CodeAnalysis.Text;
using TplPractices.Analyzers.CodeFixes.Internals;
using TplPractices.Analyzers.Rules;
using static Microsoft.CodeAnalysis.CSharp.SyntaxFactory;

namespace TplPractices.Analyzers.CodeFixes.Rules;

/// <summary>
/// TPL0016: <c>async Task&lt;T&gt; M(x) =&gt; await N(x);</c> → <c>Task&lt;T&gt; M(x) =&gt; N(x);</c>, the block forms alike
/// (<c>await N(x);</c> becomes <c>return N(x);</c>), and a <c>ConfigureAwait(true|false)</c> on the await goes with it.
/// </summary>
[ExportCodeFixProvider(LanguageNames.CSharp, Name = nameof(PassThroughAsyncFixer))]
public sealed class PassThroughAsyncFixer : SiteRuleFixer
{
    public const string EquivalenceKey = DiagnosticIds.PassThroughAsync + "_ReturnTheTask";

    public PassThroughAsyncFixer()
        : base(new PassThroughAsyncAnalyzer(), PassThroughAsync.FixReturnTask, EquivalenceKey, "Return the tasks of pass-through async methods")
    {
    }

    protected override string Title(string kind) => "Remove 'async' and return the task";

    /// <summary>The diagnostic is on the await; the rewrite takes the whole method or local function apart.</summary>
    protected override SyntaxNode? RestructuredNode(SyntaxNode root, Diagnostic diagnostic) =>
        Declaration(root.FindToken(diagnostic.Location.SourceSpan.Start)) ?? base.RestructuredNode(root, diagnostic);

    private static SyntaxNode? Declaration(SyntaxToken awaitKeyword) =>
        awaitKeyword.Parent is AwaitExpressionSyntax await ? PassThroughAsync.WholeBodyOf(await) : null;

    protected override void FixSite(DocumentEditor editor, TextSpan span, string kind, CancellationToken cancellationToken)
    {
        // The analyzer decided that the await is a pass-through: the fixer only finds the call to return.
        if (editor.OriginalRoot.FindToken(span.Start).Parent is not AwaitExpressionSyntax awaitSyntax
            || PassThroughAsync.WholeBodyOf(awaitSyntax) is not { } declaration
            || editor.SemanticModel.GetOperation(awaitSyntax, cancellationToken) is not IAwaitOperation await
            || PassThroughAsync.Awaited(await.Operation) is not { Syntax: ExpressionSyntax call })
        {
            return;
        }

        // The await's trivia go around the call, a comment after 'await' before it (one in a dropped ConfigureAwait is put
        // back by the shared layer).
        var afterKeyword = awaitSyntax.AwaitKeyword.TrailingTrivia.SkipWhile(t => t.IsKind(SyntaxKind.WhitespaceTrivia));
        var returned = call
            .WithLeadingTrivia(awaitSyntax.GetLeadingTrivia().AddRange(afterKeyword).AddRange(call.GetLeadingTrivia()))
            .WithTrailingTrivia(awaitSyntax.GetTrailingTrivia());
        var rewritten = awaitSyntax.Parent is ExpressionStatementSyntax statement
            ? declaration.ReplaceNode(statement, ReturnStatement(returned.WithLeadingTrivia(Space)).WithTriviaFrom(statement))
            : declaration.ReplaceNode(awaitSyntax, returned);
        editor.ReplaceNode(declaration, WithoutAsync(rewritten));
    }

    /// <summary>The declaration without <c>async</c>; what stood before the keyword (indentation, a comment) moves to the next token.</summary>
    private static SyntaxNode WithoutAsync(SyntaxNode declaration)
    {
        var modifiers = PassThroughAsync.ModifiersOf(declaration);
        var index = modifiers.IndexOf(SyntaxKind.AsyncKeyword);
        var keyword = modifiers[index];
        var rest = modifiers.RemoveAt(index);
        if (index < rest.Count)
        {
            rest = rest.Replace(rest[index], rest[index].WithLeadingTrivia(keyword.LeadingTrivia.AddRange(rest[index].LeadingTrivia)));
            return WithModifiers(declaration, rest);
        }

        // 'async' was the last modifier: its leading trivia goes to the return type.
        var withModifiers = WithModifiers(declaration, rest);
        var type = withModifiers is MethodDeclarationSyntax m ? m.ReturnType : ((LocalFunctionStatementSyntax)withModifiers).ReturnType;
        return withModifiers.ReplaceNode(type, type.WithLeadingTrivia(keyword.LeadingTrivia.AddRange(type.GetLeadingTrivia())));
    }

    private static SyntaxNode WithModifiers(SyntaxNode declaration, SyntaxTokenList modifiers) => declaration is MethodDeclarationSyntax method
        ? method.WithModifiers(modifiers)
        : ((LocalFunctionStatementSyntax)declaration).WithModifiers(modifiers);
}
