using System.Threading;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp;
using Microsoft.CodeAnalysis.CSharp.Syntax;
using Microsoft.CodeAnalysis.Editing;
using Microsoft.CodeAnalysis.Operations;
using Microsoft.CodeAnalysis.Text;
using TplPractices.Analyzers.Internals;
using static Microsoft.CodeAnalysis.CSharp.SyntaxFactory;

namespace TplPractices.Analyzers.CodeFixes.Internals;

/// <summary>
/// The state form of a bound method group (<see cref="MethodGroupCapture"/>), for TPL0001 and TPL0006:
/// <c>StartNew(Run)</c> becomes <c>StartNew(static state => ((C)state!).Run(), this)</c>, in the syntax of the oldest
/// language version among the file's targets.
/// </summary>
internal static class MethodGroupStateRewrite
{
    /// <summary>The call with the group replaced and its receiver passed as the state, or null where the site no longer qualifies.</summary>
    public static (SyntaxNode Call, SyntaxNode Replacement)? Rewrite(DocumentEditor editor, TextSpan span, LanguageVersion version, CancellationToken cancellationToken)
    {
        var model = editor.SemanticModel;
        if (editor.OriginalRoot.FindNode(span, getInnermostNodeForTie: true) is not ExpressionSyntax group
            || group.Parent is not ArgumentSyntax { Parent: ArgumentListSyntax { Parent: ExpressionSyntax call } arguments } argument
            || model.GetOperation(argument, cancellationToken) is not IArgumentOperation operation
            || MethodGroupCapture.Of(operation) is not { HasExactFix: true } bound
            || bound.Receiver.Type is not { } receiverType
            || (group is MemberAccessExpressionSyntax member ? member.Name : group as SimpleNameSyntax) is not { } name)
        {
            return null;
        }

        // A lambda parameter may not reuse a local's or parameter's name before C# 8; "state" is also the usual name.
        var parameter = "state";
        for (var i = 1; model.LookupSymbols(group.SpanStart, name: parameter).Length > 0; i++)
        {
            parameter = "state" + i;
        }

        var text = (version >= LanguageVersion.CSharp9 ? "static " : string.Empty)
            + parameter + " => ((" + receiverType.ToMinimalDisplayString(model, group.SpanStart) + ")" + parameter
            + (version >= LanguageVersion.CSharp8 ? "!" : string.Empty) + ")." + name.WithoutTrivia() + "()";
        var lambda = ParseExpression(text).WithTriviaFrom(group);
        var index = arguments.Arguments.IndexOf(argument);
        var list = StateRewrite.Rebuild(arguments, (i, a) => i == index ? a.WithExpression(lambda) : a, index + 1, [Argument(ThisExpression())]);
        return (call, call.ReplaceNode(arguments, list));
    }
}
