using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.Operations;

namespace TplPractices.Analyzers.Internals;

/// <summary>
/// Expressions whose evaluation cannot throw and runs no user code: reads of parameters, locals, constants,
/// <c>this</c> and its fields, and tests of them (built-in comparisons, string equality, <c>!</c>, <c>&amp;&amp;</c>,
/// <c>||</c>, <c>is</c> with type, constant and relational patterns). Moving such an expression out of an
/// <c>async</c> method cannot move an exception out of its task.
/// </summary>
internal static class SafeTests
{
    /// <summary>
    /// A value read without running code: a parameter, local, constant, default, <c>this</c> or one of its fields (a static
    /// field's first read may run its type's initializer), <c>CancellationToken.None</c>, a params array of those.
    /// </summary>
    public static bool Read(IOperation value)
    {
        value = WithoutPlainConversions(value);
        return value.ConstantValue.HasValue
            || value switch
            {
                IParameterReferenceOperation or ILocalReferenceOperation or IDefaultValueOperation or IInstanceReferenceOperation => true,
                IFieldReferenceOperation { Field.IsStatic: false, Instance: IInstanceReferenceOperation { ReferenceKind: InstanceReferenceKind.ContainingTypeInstance } } => true,
                IPropertyReferenceOperation => IsUncancelableToken(value),
                IArrayCreationOperation { IsImplicit: true, Initializer: { } initializer } => AllRead(initializer),
                _ => false,
            };
    }

    /// <summary><c>CancellationToken.None</c> or <c>default</c>: a token that can never be canceled.</summary>
    public static bool IsUncancelableToken(IOperation token)
    {
        token = WithoutPlainConversions(token);
        return token is IDefaultValueOperation
            || token is IPropertyReferenceOperation { Property: { Name: "None", IsStatic: true } none } && IsCancellationToken(none.ContainingType);
    }

    /// <summary>A condition that cannot throw: a read, or a built-in test of reads.</summary>
    public static bool Condition(IOperation condition)
    {
        condition = WithoutPlainConversions(condition);
        return Read(condition)
            || condition switch
            {
                IUnaryOperation { OperatorKind: UnaryOperatorKind.Not, OperatorMethod: null } not => Condition(not.Operand),
                IBinaryOperation { OperatorKind: BinaryOperatorKind.ConditionalAnd or BinaryOperatorKind.ConditionalOr, OperatorMethod: null } logical =>
                    Condition(logical.LeftOperand) && Condition(logical.RightOperand),
                IBinaryOperation { OperatorKind: var kind } comparison when IsComparison(kind) && BuiltInOrString(comparison) =>
                    Read(comparison.LeftOperand) && Read(comparison.RightOperand),
                IIsPatternOperation test => Read(test.Value) && Pattern(test.Pattern),
                IIsTypeOperation test => Read(test.ValueOperand),
                _ => false,
            };
    }

    /// <summary>Patterns that test a type or compare with a constant: none reads a property or calls a Deconstruct.</summary>
    public static bool Pattern(IPatternOperation pattern) => pattern switch
    {
        IConstantPatternOperation or ITypePatternOperation or IDeclarationPatternOperation or IDiscardPatternOperation or IRelationalPatternOperation => true,
        INegatedPatternOperation negated => Pattern(negated.Pattern),
        IBinaryPatternOperation both => Pattern(both.LeftPattern) && Pattern(both.RightPattern),
        IRecursivePatternOperation { PropertySubpatterns.IsEmpty: true, DeconstructionSubpatterns.IsEmpty: true, DeconstructSymbol: null } => true,
        _ => false,
    };

    /// <summary>By name, part by part: a display string would be built (and allocated) at every token argument.</summary>
    private static bool IsCancellationToken(INamedTypeSymbol type) =>
        type is { Name: "CancellationToken", ContainingNamespace: { Name: "Threading", ContainingNamespace: { Name: "System", ContainingNamespace.IsGlobalNamespace: true } } };

    private static bool AllRead(IArrayInitializerOperation initializer)
    {
        foreach (var element in initializer.ElementValues)
        {
            if (!Read(element))
            {
                return false;
            }
        }

        return true;
    }

    private static bool IsComparison(BinaryOperatorKind kind) => kind is BinaryOperatorKind.Equals or BinaryOperatorKind.NotEquals
        or BinaryOperatorKind.LessThan or BinaryOperatorKind.LessThanOrEqual or BinaryOperatorKind.GreaterThan or BinaryOperatorKind.GreaterThanOrEqual;

    /// <summary>The compiler's own operator, or string's equality, which compares without throwing.</summary>
    private static bool BuiltInOrString(IBinaryOperation comparison) =>
        comparison.OperatorMethod is not { } method || method.ContainingType.SpecialType == SpecialType.System_String;

    /// <summary>Implicit conversions the compiler builds in (boxing, nullable, reference), never a user's operator.</summary>
    private static IOperation WithoutPlainConversions(IOperation value)
    {
        while (value is IConversionOperation { IsImplicit: true, Conversion.IsUserDefined: false } conversion)
        {
            value = conversion.Operand;
        }

        return value;
    }
}
