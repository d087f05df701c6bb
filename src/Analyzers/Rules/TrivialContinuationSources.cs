using System.Globalization;
using System.Linq;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp.Syntax;
using Microsoft.CodeAnalysis.Operations;
using TplPractices.Analyzers.Internals;

namespace TplPractices.Analyzers.Rules;

/// <summary>
/// TPL0011's question of a continuation that completes a TaskCompletionSource: does that source run its own
/// continuations asynchronously? Completing one that does not runs its awaiters inside the completion, so with
/// ExecuteSynchronously they would run on the thread that completes the antecedent (an I/O thread, a timer) instead of
/// a pool thread: a change only the author can judge, so the fix is withheld unless the source's creation is in sight
/// with <c>TaskCreationOptions.RunContinuationsAsynchronously</c>: a local or captured variable, the continuation's
/// state (also as an element of a state tuple, the way TPL0001's fix passes several), or a readonly field that only its
/// initializer sets.
/// </summary>
internal static class TrivialContinuationSources
{
    private const int MaxSteps = 6;

    /// <summary>Whether every source the lambda completes is made with RunContinuationsAsynchronously.</summary>
    public static bool AllRunContinuationsAsynchronously(IAnonymousFunctionOperation lambda, IInvocationOperation call, CompletionSources sources)
    {
        foreach (var operation in lambda.Body.Descendants())
        {
            if (operation is IInvocationOperation { Instance: { } source } completion
                && sources.IsCompletion(completion.TargetMethod)
                && !MadeWithTheFlag(source, lambda, call, sources, MaxSteps))
            {
                return false;
            }
        }

        return true;
    }

    private static bool MadeWithTheFlag(IOperation value, IAnonymousFunctionOperation lambda, IInvocationOperation call, CompletionSources sources, int steps)
    {
        value = Unwrapped(value);
        if (steps == 0)
        {
            return false;
        }

        switch (value)
        {
            case IObjectCreationOperation creation:
                return sources.IsSource(creation.Type) && creation.Arguments.Any(HasTheFlag);
            case IParameterReferenceOperation when IsState(value, lambda):
                // The continuation's state: what the call passes for it.
                return StateArgument(call) is { } state && MadeWithTheFlag(state, lambda, call, sources, steps - 1);
            case ILocalReferenceOperation { Local: var local }:
                return Assigned(local, lambda, call) is { } assigned && MadeWithTheFlag(assigned, lambda, call, sources, steps - 1);
            case IFieldReferenceOperation { Field: { IsReadOnly: true } field }:
                return InitializedWithTheFlag(field);
            default:
                return false;
        }
    }

    /// <summary>The value without conversions, casts or the null-forgiving operator (which has no operation of its own).</summary>
    private static IOperation Unwrapped(IOperation value)
    {
        while (value is IConversionOperation { OperatorMethod: null } conversion)
        {
            value = conversion.Operand;
        }

        return value;
    }

    /// <summary>The lambda's second parameter, which receives the state ContinueWith is given.</summary>
    private static bool IsState(IOperation value, IAnonymousFunctionOperation lambda) =>
        value is IParameterReferenceOperation { Parameter: { Ordinal: 1 } parameter }
        && SymbolEqualityComparer.Default.Equals(parameter.ContainingSymbol, lambda.Symbol);

    private static bool HasTheFlag(IArgumentOperation argument) =>
        argument.Parameter?.Type is { Name: "TaskCreationOptions" }
        && argument.Value.ConstantValue is { HasValue: true, Value: { } options }
        && (System.Convert.ToInt64(options, CultureInfo.InvariantCulture) & CompletionSources.RunContinuationsAsynchronously) != 0;

    private static IOperation? StateArgument(IInvocationOperation call) =>
        call.Arguments.FirstOrDefault(a => a.Parameter is { Name: "state", Type.SpecialType: SpecialType.System_Object })?.Value;

    /// <summary>
    /// The one value a local holds: its initializer, or the element of a deconstructed state tuple it takes
    /// (<c>var (self, done) = ((C, TaskCompletionSource&lt;int&gt;))state!;</c>), where nothing else writes it.
    /// </summary>
    private static IOperation? Assigned(ILocalSymbol local, IAnonymousFunctionOperation lambda, IInvocationOperation call)
    {
        var inLambda = lambda.Syntax.Span.Contains(local.Locations.FirstOrDefault()?.SourceSpan ?? default);
        var scope = inLambda ? lambda.Body : call.Root();
        if (scope is null || StateCapture.IsWrittenAnywhere(local, scope, countDeclaration: false))
        {
            return null;
        }

        if (scope.InitializerOf(local) is { } initializer)
        {
            return initializer;
        }

        foreach (var operation in scope.Descendants())
        {
            if (operation is IDeconstructionAssignmentOperation { Target: IDeclarationExpressionOperation { Expression: ITupleOperation targets }, Value: var tuple }
                && ElementIndex(targets, local) is { } index)
            {
                return IsState(Unwrapped(tuple), lambda) && StateArgument(call) is { } state && Unwrapped(state) is ITupleOperation passed && index < passed.Elements.Length
                    ? passed.Elements[index]
                    : null;
            }
        }

        return null;
    }

    private static int? ElementIndex(ITupleOperation targets, ILocalSymbol local)
    {
        for (var i = 0; i < targets.Elements.Length; i++)
        {
            if (targets.Elements[i] is ILocalReferenceOperation element && SymbolEqualityComparer.Default.Equals(element.Local, local))
            {
                return i;
            }
        }

        return null;
    }

    /// <summary>
    /// <c>TaskCreationOptions.RunContinuationsAsynchronously</c> as written: the continuation options' member of that name
    /// would make the source's state instead (CA2247), so the enum's name must be there.
    /// </summary>
    private static bool IsTheCreationFlag(MemberAccessExpressionSyntax access) =>
        access.Name.Identifier.ValueText == "RunContinuationsAsynchronously"
        && access.Expression is IdentifierNameSyntax { Identifier.ValueText: "TaskCreationOptions" } or MemberAccessExpressionSyntax { Name.Identifier.ValueText: "TaskCreationOptions" };

    /// <summary>A readonly field whose initializer passes the flag and that no constructor sets (read from the text).</summary>
    private static bool InitializedWithTheFlag(IFieldSymbol field) =>
        field.OnlyInitializerOf() is BaseObjectCreationExpressionSyntax { ArgumentList: { } arguments }
        && arguments.Arguments.Any(a => a.Expression.DescendantNodesAndSelf().OfType<MemberAccessExpressionSyntax>().Any(IsTheCreationFlag));
}
