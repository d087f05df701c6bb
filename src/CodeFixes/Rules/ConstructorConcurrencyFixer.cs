using System.Linq;
using System.Threading;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CodeFixes;
using Microsoft.CodeAnalysis.CSharp;
using Microsoft.CodeAnalysis.CSharp.Syntax;
using Microsoft.CodeAnalysis.Editing;
using Microsoft.CodeAnalysis.Formatting;
using Microsoft.CodeAnalysis.Operations;
using Microsoft.CodeAnalysis.Text;
using TplPractices.Analyzers.CodeFixes.Internals;
using TplPractices.Analyzers.Internals;
using TplPractices.Analyzers.Rules;
using static Microsoft.CodeAnalysis.CSharp.SyntaxFactory;

namespace TplPractices.Analyzers.CodeFixes.Rules;

/// <summary>
/// TPL0010: the plain operation instead of the protected one, in the constructor itself: a lock becomes its body,
/// <c>Interlocked.Increment(ref _f)</c> becomes <c>_f++</c> (<c>++_f</c> where the value is used), Add becomes
/// <c>+=</c>, a discarded Exchange and Volatile.Write an assignment, Volatile.Read the field.
/// </summary>
[ExportCodeFixProvider(LanguageNames.CSharp, Name = nameof(ConstructorConcurrencyFixer))]
public sealed class ConstructorConcurrencyFixer : SiteRuleFixer
{
    public const string EquivalenceKey = DiagnosticIds.ConstructorConcurrency + "_PlainOperation";

    public ConstructorConcurrencyFixer()
        : base(new ConstructorConcurrencyAnalyzer(), ConstructorConcurrencyAnalyzer.FixPlainOperation, EquivalenceKey, "Use the plain operations on the constructor path")
    {
    }

    protected override string Title(string kind) => "Use the plain operation (nothing can contend in the constructor)";

    protected override void FixSite(DocumentEditor editor, TextSpan span, string kind, CancellationToken cancellationToken)
    {
        var node = editor.OriginalRoot.FindNode(span, getInnermostNodeForTie: true);
        if (node.FirstAncestorOrSelf<LockStatementSyntax>() is { } lockStatement && lockStatement.LockKeyword.Span == span)
        {
            Unlock(editor, lockStatement);
        }
        else if (node.FirstAncestorOrSelf<InvocationExpressionSyntax>() is { } invocation
            && editor.SemanticModel.GetOperation(invocation, cancellationToken) is IInvocationOperation call
            && Plain(call) is { } plain)
        {
            editor.ReplaceNode(invocation, plain.WithTriviaFrom(invocation));
        }
    }

    /// <summary>The lock's statements in its place; kept as a block where they declare names that could clash.</summary>
    private static void Unlock(DocumentEditor editor, LockStatementSyntax lockStatement)
    {
        var body = lockStatement.Statement;
        if (lockStatement.Parent is BlockSyntax && body is BlockSyntax block && !block.Statements.Any(s => s.DeclaresVariables() || s is LocalDeclarationStatementSyntax or LocalFunctionStatementSyntax))
        {
            var statements = block.Statements.Select(s => s.WithAdditionalAnnotations(Formatter.Annotation)).ToList();
            if (statements.Count == 0)
            {
                editor.RemoveNode(lockStatement);
                return;
            }

            // The statements keep their own comments; the formatter re-indents them.
            statements[0] = statements[0].WithLeadingTrivia(lockStatement.GetLeadingTrivia().AddRange(statements[0].GetLeadingTrivia()));
            editor.InsertBefore(lockStatement, statements);
            editor.RemoveNode(lockStatement, SyntaxRemoveOptions.KeepNoTrivia);
            return;
        }

        editor.ReplaceNode(lockStatement, body.WithTriviaFrom(lockStatement).WithAdditionalAnnotations(Formatter.Annotation));
    }

    private static ExpressionSyntax? Plain(IInvocationOperation call)
    {
        var field = (ExpressionSyntax)call.Arguments[0].Value.Syntax;
        var value = call.Arguments.Length > 1 ? (ExpressionSyntax)call.Arguments[1].Value.Syntax : null;
        var discarded = call.Parent is IExpressionStatementOperation;
        return (call.TargetMethod.ContainingType.Name, call.TargetMethod.Name) switch
        {
            ("Interlocked", "Increment") => discarded ? PostfixUnaryExpression(SyntaxKind.PostIncrementExpression, field) : PrefixUnaryExpression(SyntaxKind.PreIncrementExpression, field),
            ("Interlocked", "Decrement") => discarded ? PostfixUnaryExpression(SyntaxKind.PostDecrementExpression, field) : PrefixUnaryExpression(SyntaxKind.PreDecrementExpression, field),
            ("Interlocked", "Add") when value is not null => Parenthesize(AssignmentExpression(SyntaxKind.AddAssignmentExpression, field, value), discarded),
            ("Interlocked", "Exchange") or ("Volatile", "Write") when value is not null => Parenthesize(AssignmentExpression(SyntaxKind.SimpleAssignmentExpression, field, value), discarded),
            ("Volatile", "Read") => field,
            _ => null,
        };
    }

    private static ExpressionSyntax Parenthesize(ExpressionSyntax expression, bool discarded) =>
        discarded ? expression : ParenthesizedExpression(expression);
}
