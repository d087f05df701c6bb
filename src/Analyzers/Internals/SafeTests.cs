using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.Operations;

namespace TplPractices.Analyzers.Internals;

/// <summary>
/// Expressions whose evaluation cannot throw and runs no user code: reads of parameters, locals, constants,
/// <c>this</c> and its fields, and tests of them (built-in comparisons, string equality, <c>!</c>, <c>&amp;&amp;</c>,
/// <c>||</c>, <c>is</c> with type, constant and relational patterns), and unchecked arithmetic of them (<c>n + 1</c>).
/// Moving such an expression out of an
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

    /// <summary>A condition or value that cannot throw: a read, a built-in test of reads, or unchecked arithmetic of reads.</summary>
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
                IBinaryOperation arithmetic => Arithmetic(arithmetic),
                IUnaryOperation sign => Sign(sign),
                _ => false,
            };
    }

    /// <summary>
    /// The compiler's own unchecked <c>+ - * &amp; | ^ &lt;&lt; &gt;&gt;</c> on integers or floating point numbers, of reads,
    /// signs (<see cref="Sign"/>) or such arithmetic: it wraps instead of throwing. Not division (by zero), decimal (always checked), strings
    /// (concatenation calls ToString), nor a <c>checked</c> context or project (<c>IsChecked</c>).
    /// </summary>
    private static bool Arithmetic(IBinaryOperation operation) =>
        operation is { OperatorMethod: null, IsChecked: false }
        && operation.OperatorKind is BinaryOperatorKind.Add or BinaryOperatorKind.Subtract or BinaryOperatorKind.Multiply or BinaryOperatorKind.And
            or BinaryOperatorKind.Or or BinaryOperatorKind.ExclusiveOr or BinaryOperatorKind.LeftShift or BinaryOperatorKind.RightShift
        && IsPlainNumber(operation.Type)
        && Operand(operation.LeftOperand)
        && Operand(operation.RightOperand);

    /// <summary>The compiler's own unchecked <c>-x</c>, <c>+x</c> or <c>~x</c> of a number: <c>-int.MinValue</c> wraps.</summary>
    private static bool Sign(IUnaryOperation operation) =>
        operation is { OperatorMethod: null, IsChecked: false, OperatorKind: UnaryOperatorKind.Minus or UnaryOperatorKind.Plus or UnaryOperatorKind.BitwiseNegation }
        && IsPlainNumber(operation.Type)
        && Operand(operation.Operand);

    private static bool Operand(IOperation operand)
    {
        operand = WithoutPlainConversions(operand);
        return Read(operand) || operand is IBinaryOperation inner && Arithmetic(inner) || operand is IUnaryOperation sign && Sign(sign);
    }

    private static bool IsPlainNumber(ITypeSymbol? type) => type?.SpecialType is SpecialType.System_Int32 or SpecialType.System_UInt32
        or SpecialType.System_Int64 or SpecialType.System_UInt64 or SpecialType.System_Int16 or SpecialType.System_UInt16
        or SpecialType.System_Byte or SpecialType.System_SByte or SpecialType.System_Char or SpecialType.System_Double or SpecialType.System_Single;

    /// <summary>Patterns that test a type or compare with a constant: none reads a property or calls a Deconstruct.</summary>
    public static bool Pattern(IPatternOperation pattern) => pattern switch
    {
        IConstantPatternOperation or ITypePatternOperation or IDeclarationPatternOperation or IDiscardPatternOperation or IRelationalPatternOperation => true,
        INegatedPatternOperation negated => Pattern(negated.Pattern),
        IBinaryPatternOperation both => Pattern(both.LeftPattern) && Pattern(both.RightPattern),
        IRecursivePatternOperation { PropertySubpatterns.IsEmpty: true, DeconstructionSubpatterns.IsEmpty: true, DeconstructSymbol: null } => true,
        _ => false,
    };

    /// <summary>
    /// A switch expression that cannot throw of itself: it switches on a read, its arms test with <see cref="Pattern"/>s
    /// and <see cref="Condition"/>s, its last arm is a discard without a guard (no value falls out into a
    /// SwitchExpressionException), and <paramref name="arm"/> accepts every arm's value.
    /// </summary>
    public static bool SwitchExpression(ISwitchExpressionOperation choice, System.Func<IOperation, bool> arm)
    {
        var arms = choice.Arms;
        if (!Read(choice.Value) || arms.IsEmpty || arms[arms.Length - 1] is not { Pattern: IDiscardPatternOperation, Guard: null })
        {
            return false;
        }

        foreach (var each in arms)
        {
            if (!Pattern(each.Pattern) || each.Guard is { } guard && !Condition(guard) || !arm(each.Value.WithoutImplicitConversions()))
            {
                return false;
            }
        }

        return true;
    }

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
