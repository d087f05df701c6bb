using System.Collections.Generic;
using System.Linq;
using System.Threading;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp;
using Microsoft.CodeAnalysis.CSharp.Syntax;
using Microsoft.CodeAnalysis.Editing;
using Microsoft.CodeAnalysis.Formatting;
using Microsoft.CodeAnalysis.Operations;
using Microsoft.CodeAnalysis.Text;
using TplPractices.Analyzers.Internals;
using static Microsoft.CodeAnalysis.CSharp.SyntaxFactory;

namespace TplPractices.Analyzers.CodeFixes.Internals;

/// <summary>
/// Where a bound group's receiver goes as a state: its place among the new lambda's parameters, whether the state
/// has the receiver's own type (no cast), and the index among the written arguments where the state argument goes
/// (null: right after the group).
/// </summary>
internal sealed class GroupState
{
    public GroupState(int position, bool typed, int? argumentIndex)
    {
        Position = position;
        Typed = typed;
        ArgumentIndex = argumentIndex;
    }

    /// <summary>TPL0001 and TPL0006: a delegate without parameters gains an object state, passed after it.</summary>
    public static readonly GroupState ObjectAfterTheGroup = new(0, typed: false, argumentIndex: null);

    public int Position { get; }

    public bool Typed { get; }

    public int? ArgumentIndex { get; }
}

/// <summary>
/// The state form of a bound method group (<see cref="MethodGroupCapture"/>): <c>StartNew(Run)</c> becomes
/// <c>StartNew(static state => ((C)state!).Run(), this)</c> (TPL0001, TPL0006), and <c>GetOrAdd(key, Open)</c>
/// becomes <c>GetOrAdd(key, static (key, self) => self.Open(key), this)</c> (TPL0015), in the syntax of the oldest
/// language version among the file's targets.
/// </summary>
internal static class MethodGroupStateRewrite
{
    /// <summary>
    /// The call with the group replaced and its receiver passed as <paramref name="state"/>, as the analyzer found it
    /// (only a receiver that cannot be null is reported with a fix); null where the code there is no longer a bound group.
    /// An object state is read with <c>!</c> only where <paramref name="forgivesNull"/> says the code gets nullable warnings.
    /// </summary>
    public static (SyntaxNode Call, SyntaxNode Replacement)? Rewrite(
        DocumentEditor editor,
        TextSpan span,
        LanguageVersion version,
        bool forgivesNull,
        GroupState state,
        CancellationToken cancellationToken)
    {
        var model = editor.SemanticModel;
        if (editor.OriginalRoot.FindNode(span, getInnermostNodeForTie: true) is not ExpressionSyntax group
            || group.Parent is not ArgumentSyntax { Parent: ArgumentListSyntax { Parent: ExpressionSyntax call } arguments } argument
            || model.GetOperation(argument, cancellationToken) is not IArgumentOperation operation
            || operation.Value.WithoutImplicitConversions() is not IDelegateCreationOperation { Target: IMethodReferenceOperation { Method: var method, Instance: { Type: { } receiverType } instance } }
            || (group is MemberAccessExpressionSyntax member ? member.Name : group as SimpleNameSyntax) is not { } name)
        {
            return null;
        }

        // A lambda parameter may not reuse a local's or parameter's name before C# 8. The object state keeps its old,
        // stricter test (no symbol of its name in scope); the typed one, like the lambda fixes', is "self".
        var taken = new HashSet<string>();
        bool InScope(string name) => state.Typed
            ? version < LanguageVersion.CSharp8 && model.LookupSymbols(group.SpanStart, name: name).Any(s => s is ILocalSymbol or IParameterSymbol or IRangeVariableSymbol)
            : model.LookupSymbols(group.SpanStart, name: name).Length > 0;
        string Free(string wanted)
        {
            var candidate = wanted;
            for (var i = 1; taken.Contains(candidate) || InScope(candidate); i++)
            {
                candidate = wanted + i;
            }

            taken.Add(candidate);
            return SyntaxFacts.GetKeywordKind(candidate) == SyntaxKind.None ? candidate : "@" + candidate;
        }

        var stateName = Free(state.Typed ? "self" : "state");
        var passed = method.Parameters.Select(p => Free(p.Name)).ToList();
        var parameters = new List<string>(passed);
        parameters.Insert(state.Position, stateName);
        var receiver = state.Typed
            ? stateName
            : "((" + receiverType.ToMinimalDisplayString(model, group.SpanStart) + ")" + stateName + (forgivesNull ? "!" : string.Empty) + ")";
        var text = (version >= LanguageVersion.CSharp9 ? "static " : string.Empty)
            + (parameters.Count == 1 ? parameters[0] : "(" + string.Join(", ", parameters) + ")")
            + " => " + receiver + "." + name.WithoutTrivia() + "(" + string.Join(", ", passed) + ")";
        // Spaced by the formatter, as the lambdas of the other state fixes are: the file's settings (a space after a cast) hold.
        var lambda = ParseExpression(text).WithTriviaFrom(group).WithAdditionalAnnotations(Formatter.Annotation);
        var index = arguments.Arguments.IndexOf(argument);
        // The receiver as written (a local, or a field of this), or this where the group names the method alone.
        var passedReceiver = instance is IInstanceReferenceOperation || group is not MemberAccessExpressionSyntax { Expression: var written }
            ? ThisExpression()
            : written.WithoutTrivia();
        var list = StateRewrite.Rebuild(arguments, (i, a) => i == index ? a.WithExpression(lambda) : a, state.ArgumentIndex ?? index + 1, [Argument(passedReceiver)]);
        return (call, call.ReplaceNode(arguments, list));
    }
}
