using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.Operations;

namespace TplPractices.Analyzers.Internals;

/// <summary>
/// A value the code already computes once and keeps: it is stored into a field or property only while that member is
/// empty (<c>_f ??= v</c>, <c>_f = _f ?? v</c>, <c>if (_f == null) _f = v;</c>), or returned by the factory of
/// <c>Lazy&lt;T&gt;</c> or <c>LazyInitializer.EnsureInitialized</c>. Caching it again would add a second cache.
/// </summary>
internal static class LazyStore
{
    public static bool IsCachedOnce(IOperation value)
    {
        var current = Wrapped(value);
        switch (current.Parent)
        {
            case ICoalesceAssignmentOperation coalesceAssignment when coalesceAssignment.Value == current:
                return IsMember(coalesceAssignment.Target);
            case ICoalesceOperation coalesce when coalesce.WhenNull == current:
                return Wrapped(coalesce).Parent is ISimpleAssignmentOperation store
                    && SameMember(store.Target, coalesce.Value);
            case ISimpleAssignmentOperation assignment when assignment.Value == current:
                return IsMember(assignment.Target) && IsGuardedByEmptyTest(assignment);
            case IReturnOperation { Parent: IBlockOperation { Parent: IAnonymousFunctionOperation lambda } }:
                return IsLazyFactory(lambda);
            default:
                return false;
        }
    }

    /// <summary>The operation with the conversions and parentheses around it (<c>(Task&lt;int&gt;)(v)</c> for <c>v</c>).</summary>
    private static IOperation Wrapped(IOperation operation)
    {
        while (operation.Parent is IConversionOperation or IParenthesizedOperation)
        {
            operation = operation.Parent;
        }

        return operation;
    }

    private static bool IsMember(IOperation target) => target is IFieldReferenceOperation or IPropertyReferenceOperation;

    private static ISymbol? MemberOf(IOperation operation) => operation.WithoutImplicitConversions() switch
    {
        IFieldReferenceOperation field when field.Instance is null or IInstanceReferenceOperation => field.Field,
        IPropertyReferenceOperation property when property.Instance is null or IInstanceReferenceOperation => property.Property,
        _ => null,
    };

    private static bool SameMember(IOperation a, IOperation b) =>
        MemberOf(a) is { } member && SymbolEqualityComparer.Default.Equals(member, MemberOf(b));

    /// <summary>The assignment is the whole branch of an <c>if</c> that tests the same member against null.</summary>
    private static bool IsGuardedByEmptyTest(ISimpleAssignmentOperation assignment)
    {
        IOperation? branch = assignment.Parent is IExpressionStatementOperation statement ? statement : null;
        if (branch?.Parent is IBlockOperation block && block.Operations.Length == 1)
        {
            branch = block;
        }

        return branch?.Parent is IConditionalOperation conditional
            && conditional.WhenTrue == branch
            && IsNullTestOf(conditional.Condition, assignment.Target);
    }

    private static bool IsNullTestOf(IOperation condition, IOperation member) => condition.WithoutImplicitConversions() switch
    {
        IBinaryOperation { OperatorKind: BinaryOperatorKind.Equals } binary =>
            (IsNull(binary.RightOperand) && SameMember(binary.LeftOperand, member))
            || (IsNull(binary.LeftOperand) && SameMember(binary.RightOperand, member)),
        IIsPatternOperation { Pattern: IConstantPatternOperation constant } pattern =>
            IsNull(constant.Value) && SameMember(pattern.Value, member),
        _ => false,
    };

    private static bool IsNull(IOperation operation) =>
        operation.WithoutImplicitConversions() is { ConstantValue: { HasValue: true, Value: null } } or IDefaultValueOperation;

    /// <summary>The lambda is the factory of a <c>Lazy&lt;T&gt;</c> or of <c>LazyInitializer.EnsureInitialized</c>.</summary>
    private static bool IsLazyFactory(IAnonymousFunctionOperation lambda)
    {
        var argument = Wrapped(lambda.Parent is IDelegateCreationOperation creation ? creation : lambda).Parent as IArgumentOperation;
        return argument?.Parent switch
        {
            IObjectCreationOperation { Type: INamedTypeSymbol { Name: "Lazy", ContainingNamespace.Name: "System" } } => true,
            IInvocationOperation { TargetMethod: { Name: "EnsureInitialized", ContainingType.Name: "LazyInitializer" } } => true,
            _ => false,
        };
    }
}
