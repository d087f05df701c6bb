using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp;
using Microsoft.CodeAnalysis.Operations;
using TplPractices.Analyzers.Internals;

namespace TplPractices.Analyzers.Rules;

/// <summary>
/// TPL0018: a second ContinueWith on the same task instance. A task keeps its first continuation in a field; the
/// second turns that field into a list, which it allocates and locks on (the whitepaper's Tables 4–5). Reported on
/// the later call when an earlier one in the same function continues the same local, parameter or field, and nothing
/// writes that variable between the two.
/// </summary>
internal static class SecondContinuation
{
    /// <summary>The earlier ContinueWith on the same task, or null.</summary>
    public static IInvocationOperation? EarlierContinuationOf(IInvocationOperation call, TrivialContinuation.Context context)
    {
        if (!IsContinueWith(call, context)
            || call.Instance is not { } receiver
            || Variable(receiver) is not { } variable
            || (call.EnclosingFunction() ?? call.Root()) is not { } function
            // The earlier call's name lies before this call in the text: a search of the text is far cheaper than the
            // walk below, which most calls (the only ContinueWith in their function) would make for nothing.
            || !function.Syntax.HasTokenNamedBefore(call.Syntax.SpanStart, "ContinueWith", SyntaxKind.IdentifierToken))
        {
            return null;
        }

        IInvocationOperation? earlier = null;
        foreach (var operation in function.Descendants())
        {
            if (operation.Syntax.SpanStart >= call.Syntax.SpanStart)
            {
                continue;
            }

            if (operation is IInvocationOperation { Instance: { } other } candidate
                && candidate != call
                && IsContinueWith(candidate, context)
                && SymbolEqualityComparer.Default.Equals(Variable(other), variable)
                && (candidate.EnclosingFunction() ?? candidate.Root()) == function
                && ControlPaths.MayBothRun(candidate, call)
                && (earlier is null || candidate.Syntax.SpanStart > earlier.Syntax.SpanStart))
            {
                earlier = candidate;
            }
        }

        return earlier is not null && !IsWrittenBetween(variable, function, earlier, call) && CanMerge(earlier, call) ? earlier : null;
    }

    /// <summary>
    /// One continuation could do both only where both run on the same scheduler under the same token: a merge could not
    /// keep two schedulers or two tokens.
    /// </summary>
    private static bool CanMerge(IInvocationOperation earlier, IInvocationOperation later) =>
        ArgumentText(earlier, "TaskScheduler") == ArgumentText(later, "TaskScheduler")
        && ArgumentText(earlier, "CancellationToken") == ArgumentText(later, "CancellationToken");

    private static string? ArgumentText(IInvocationOperation call, string typeName)
    {
        foreach (var argument in call.Arguments)
        {
            if (argument.Parameter?.Type.Name == typeName && argument.ArgumentKind != ArgumentKind.DefaultValue)
            {
                return argument.Value.Syntax.ToString();
            }
        }

        return null;
    }

    private static bool IsContinueWith(IInvocationOperation call, TrivialContinuation.Context context) =>
        call.TargetMethod.Name == "ContinueWith" && context.IsTaskType(call.TargetMethod.ContainingType.OriginalDefinition);

    /// <summary>A local, a parameter, or a field of this object or a static one: a task that stays the same between the calls.</summary>
    private static ISymbol? Variable(IOperation receiver) => receiver.WithoutImplicitConversions() switch
    {
        // t?.ContinueWith(…): the receiver is the conditional access's own operand.
        IConditionalAccessInstanceOperation instance => ConditionalOperand(instance) is { } operand ? Variable(operand) : null,
        ILocalReferenceOperation local => local.Local,
        IParameterReferenceOperation parameter => parameter.Parameter,
        IFieldReferenceOperation { Instance: null or IInstanceReferenceOperation } field => field.Field,
        _ => null,
    };

    private static IOperation? ConditionalOperand(IConditionalAccessInstanceOperation instance)
    {
        for (var current = instance.Parent; current is not null; current = current.Parent)
        {
            // The nearest one: in a?.b?.ContinueWith(…) the receiver is the inner access's operand.
            if (current is IConditionalAccessOperation access)
            {
                return access.Operation;
            }
        }

        return null;
    }

    /// <summary>A write of the variable from the earlier call to the later one, or anywhere in a loop around them.</summary>
    private static bool IsWrittenBetween(ISymbol variable, IOperation function, IOperation earlier, IOperation later)
    {
        foreach (var operation in function.Descendants())
        {
            if (operation.Kind is OperationKind.LocalReference or OperationKind.ParameterReference or OperationKind.FieldReference
                && SymbolEqualityComparer.Default.Equals(Variable(operation), variable)
                && StateCapture.IsWrite(operation)
                && ((operation.Syntax.SpanStart > earlier.Syntax.SpanStart && operation.Syntax.SpanStart < later.Syntax.SpanStart)
                    || InALoopAround(later, function, operation.Syntax.SpanStart)))
            {
                return true;
            }
        }

        return false;
    }

    private static bool InALoopAround(IOperation operation, IOperation function, int position)
    {
        for (var current = operation.Parent; current is not null && current != function; current = current.Parent)
        {
            if (current is ILoopOperation loop && loop.Syntax.Span.Contains(position))
            {
                return true;
            }
        }

        return false;
    }
}
