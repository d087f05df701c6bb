using System.Linq;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp;
using Microsoft.CodeAnalysis.CSharp.Syntax;
using Microsoft.CodeAnalysis.Operations;

namespace TplPractices.Analyzers.Internals;

/// <summary>
/// Expressions whose evaluation cannot throw and runs no user code: reads of parameters, locals, constants,
/// <c>this</c> and its fields, and tests of them (built-in comparisons, string equality, <c>!</c>, <c>&amp;&amp;</c>,
/// <c>||</c>, <c>is</c> with type, constant and relational patterns), unchecked arithmetic of them (<c>n + 1</c>,
/// <c>n / 2</c>), choices (<c>?:</c>, <c>??</c>), numeric casts, strings joined of strings, and arrays of them.
/// Moving such an expression out of an
/// <c>async</c> method cannot move an exception out of its task.
/// </summary>
internal static class SafeTests
{
    /// <summary>
    /// A value read without running code: a parameter, local, constant, default, <c>this</c> or one of its fields (a static
    /// field's first read may run its type's initializer) or auto-properties, <c>CancellationToken.None</c>, <c>string.Empty</c>,
    /// <c>typeof(T)</c>, a params array of those.
    /// </summary>
    public static bool Read(IOperation value)
    {
        value = WithoutPlainConversions(value);
        return value.ConstantValue.HasValue
            || value switch
            {
                IParameterReferenceOperation or ILocalReferenceOperation or IDefaultValueOperation or IInstanceReferenceOperation => true,
                IFieldReferenceOperation { Field.IsStatic: false, Instance: IInstanceReferenceOperation { ReferenceKind: InstanceReferenceKind.ContainingTypeInstance } } => true,
                IPropertyReferenceOperation { Instance: IInstanceReferenceOperation { ReferenceKind: InstanceReferenceKind.ContainingTypeInstance }, Property: var property } =>
                    !property.IsStatic && property.IsAutoProperty(),
                IPropertyReferenceOperation => IsUncancelableToken(value),

                // typeof loads a token; string.Empty is a field the runtime sets before any code runs.
                ITypeOfOperation => true,
                IFieldReferenceOperation { Field: { Name: "Empty", IsStatic: true, ContainingType.SpecialType: SpecialType.System_String } } => true,
                IArrayCreationOperation { IsImplicit: true, Initializer: { } initializer } => AllRead(initializer),
                _ => false,
            };
    }

    /// <summary><c>CancellationToken.None</c> or <c>default</c>: a token that can never be canceled.</summary>
    public static bool IsUncancelableToken(IOperation token)
    {
        token = WithoutPlainConversions(token);
        return token is IDefaultValueOperation
            || token is IPropertyReferenceOperation { Property: { Name: "None", IsStatic: true } none } && none.ContainingType.IsSystemThreadingType("CancellationToken");
    }

    /// <summary>
    /// A condition or value that cannot throw: a read, a built-in test of reads (<c>string.IsNullOrEmpty(s)</c> and
    /// <c>n.HasValue</c> among them), or unchecked arithmetic of reads.
    /// </summary>
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
                    Compared(comparison.LeftOperand) && Compared(comparison.RightOperand),
                IIsPatternOperation test => Read(test.Value) && Pattern(test.Pattern),
                IIsTypeOperation test => Read(test.ValueOperand),
                IBinaryOperation { OperatorKind: BinaryOperatorKind.Add, Type.SpecialType: SpecialType.System_String } concatenation =>
                    IsString(concatenation.LeftOperand) && IsString(concatenation.RightOperand)
                    && Condition(concatenation.LeftOperand) && Condition(concatenation.RightOperand),
                IBinaryOperation arithmetic => Arithmetic(arithmetic),
                IUnaryOperation sign => Sign(sign),
                IConditionalOperation { WhenFalse: { } whenFalse, Type: not null } choice => Condition(choice.Condition) && Condition(choice.WhenTrue) && Condition(whenFalse),
                ICoalesceOperation coalesce => Read(coalesce.Value) && Condition(coalesce.WhenNull),
                IConversionOperation conversion => IsPlainConversion(conversion) && Condition(conversion.Operand),
                IInterpolatedStringOperation interpolated => Interpolation(interpolated),
                IArrayCreationOperation { Initializer: { } initializer } array => ConstantSizes(array) && AllConditions(initializer),
                IArrayCreationOperation { Initializer: null } empty => ConstantSizes(empty),

                // new S() of a struct without a constructor of its own is its default value; no code runs.
                IObjectCreationOperation { Type.IsValueType: true, Constructor: null or { IsImplicitlyDeclared: true }, Arguments.IsEmpty: true, Initializer: null } => true,

                // Array.Empty<T>() hands out the runtime's cached array, and a static readonly field of the core library
                // (Stream.Null, DateTime.MinValue, Guid.Empty) is set by a type initializer that does not fail.
                IInvocationOperation { TargetMethod: { Name: "Empty", IsStatic: true, Arity: 1, ContainingType.SpecialType: SpecialType.System_Array }, Arguments.IsEmpty: true } => true,
                IFieldReferenceOperation { Field: { IsStatic: true, IsReadOnly: true } field } =>
                    SymbolEqualityComparer.Default.Equals(field.ContainingAssembly, condition.SemanticModel?.Compilation.ObjectType.ContainingAssembly),

                // string.IsNullOrEmpty(s) and IsNullOrWhiteSpace(s) take null and test; n.HasValue reads a flag.
                IInvocationOperation { TargetMethod: { Name: "IsNullOrEmpty" or "IsNullOrWhiteSpace", IsStatic: true, ContainingType.SpecialType: SpecialType.System_String }, Arguments.Length: 1 } test =>
                    Read(test.Arguments[0].Value),
                IPropertyReferenceOperation { Property: { Name: "HasValue", ContainingType.OriginalDefinition.SpecialType: SpecialType.System_Nullable_T }, Instance: { } nullable } =>
                    Read(nullable),
                IPropertyReferenceOperation or IConditionalAccessOperation => Length(condition),
                _ => false,
            };
    }

    /// <summary>An operand of a built-in comparison: a read, or a length (<see cref="Length"/>).</summary>
    private static bool Compared(IOperation operand) => Read(operand) || Length(WithoutPlainConversions(operand));

    /// <summary>
    /// The <c>Length</c> of a string or one-dimension array that cannot be null, which reads a field and cannot throw:
    /// of a variable a pattern declared that matches no null (<c>o is string s &amp;&amp; s.Length &gt; 0</c>, a
    /// <c>case string s:</c> or <c>string s =&gt;</c> arm) and that nothing writes, or under a null test (<c>s?.Length</c>
    /// of a read). Not of a parameter or field, which a caller's <c>null!</c> may leave null.
    /// </summary>
    private static bool Length(IOperation value) => value switch
    {
        IConditionalAccessOperation { WhenNotNull: IPropertyReferenceOperation { Instance: IConditionalAccessInstanceOperation } length } test =>
            Read(test.Operation) && IsLength(length.Property, test.Operation.Type),
        IPropertyReferenceOperation { Instance: ILocalReferenceOperation { Local: var local } instance } length =>
            IsLength(length.Property, local.Type) && MatchedNonNull(local) && !StateCapture.IsWrittenAnywhere(local, instance.Root()),
        _ => false,
    };

    /// <summary><c>string.Length</c>, or <c>Array.Length</c> read on a one-dimension array (a larger one's count can overflow).</summary>
    private static bool IsLength(IPropertySymbol property, ITypeSymbol? receiver) =>
        property is { Name: "Length", IsStatic: false }
        && (property.ContainingType.SpecialType == SpecialType.System_String
            || property.ContainingType.SpecialType == SpecialType.System_Array && receiver is IArrayTypeSymbol { IsSZArray: true });

    /// <summary>A local a type or property pattern declared (<c>is string s</c>, <c>is { } s</c>): set only where it matched, never null. Not <c>var s</c>.</summary>
    private static bool MatchedNonNull(ILocalSymbol local) =>
        local.DeclaringSyntaxReferences.Length == 1
        && local.DeclaringSyntaxReferences[0].GetSyntax() is SingleVariableDesignationSyntax { Parent: DeclarationPatternSyntax or RecursivePatternSyntax };

    /// <summary>
    /// An explicit conversion between numbers or enums in an unchecked context: it truncates or wraps instead of throwing.
    /// Not to or from decimal (always checked), nor a nullable's unwrapping (null throws), a cast of a reference (a wrong
    /// type throws) or a user-defined operator.
    /// </summary>
    private static bool IsPlainConversion(IConversionOperation conversion) =>
        conversion is { OperatorMethod: null, IsTryCast: false, IsChecked: false }
        && (conversion.Conversion.IsNumeric || IsEnumOrNumber(conversion.Type) && IsEnumOrNumber(conversion.Operand.Type) && !conversion.Conversion.IsUserDefined)
        && !conversion.Conversion.IsNullable
        && conversion.Type?.SpecialType != SpecialType.System_Decimal
        && conversion.Operand.Type?.SpecialType != SpecialType.System_Decimal;

    /// <summary>An interpolated string whose holes are strings or chars that cannot throw, without alignment or format (a format can be wrong).</summary>
    private static bool Interpolation(IInterpolatedStringOperation interpolated)
    {
        foreach (var part in interpolated.Parts)
        {
            if (part is IInterpolationOperation { Alignment: null, FormatString: null, Expression: var hole }
                ? !(IsString(hole) || hole.Type?.SpecialType == SpecialType.System_Char) || !Condition(hole)
                : part is not IInterpolatedStringTextOperation)
            {
                return false;
            }
        }

        return true;
    }

    private static bool IsEnumOrNumber(ITypeSymbol? type) => type?.TypeKind == TypeKind.Enum || IsPlainNumber(type);

    private static bool IsString(IOperation value) => WithoutPlainConversions(value).Type?.SpecialType == SpecialType.System_String;

    private static bool ConstantSizes(IArrayCreationOperation array)
    {
        foreach (var size in array.DimensionSizes)
        {
            if (size.ConstantValue is not { HasValue: true, Value: int and >= 0 })
            {
                return false;
            }
        }

        return true;
    }

    private static bool AllConditions(IArrayInitializerOperation initializer)
    {
        foreach (var element in initializer.ElementValues)
        {
            if (element is IArrayInitializerOperation nested ? !AllConditions(nested) : !Condition(element))
            {
                return false;
            }
        }

        return true;
    }

    /// <summary>
    /// The compiler's own unchecked <c>+ - * &amp; | ^ &lt;&lt; &gt;&gt;</c> on integers or floating point numbers, of reads,
    /// signs (<see cref="Sign"/>) or such arithmetic: it wraps instead of throwing. Not division (by zero), decimal (always checked), strings
    /// (concatenation calls ToString), nor a <c>checked</c> context or project (<c>IsChecked</c>).
    /// </summary>
    private static bool Arithmetic(IBinaryOperation operation) =>
        operation is { OperatorMethod: null, IsChecked: false }
        && (operation.OperatorKind is BinaryOperatorKind.Add or BinaryOperatorKind.Subtract or BinaryOperatorKind.Multiply or BinaryOperatorKind.And
                or BinaryOperatorKind.Or or BinaryOperatorKind.ExclusiveOr or BinaryOperatorKind.LeftShift or BinaryOperatorKind.RightShift
            || operation.OperatorKind is BinaryOperatorKind.Divide or BinaryOperatorKind.Remainder && SafeDivisor(operation))
        && IsPlainNumber(operation.Type)
        && Operand(operation.LeftOperand)
        && Operand(operation.RightOperand);

    /// <summary>
    /// A division that cannot throw: of floating point numbers, or of integers by a constant other than 0 (divides by zero)
    /// and -1 (<c>int.MinValue / -1</c> overflows even unchecked).
    /// </summary>
    private static bool SafeDivisor(IBinaryOperation division) =>
        division.Type?.SpecialType is SpecialType.System_Double or SpecialType.System_Single
        || WithoutPlainConversions(division.RightOperand).ConstantValue is { HasValue: true, Value: { } divisor }
            && divisor is int or long or uint or ulong or short or ushort or byte or sbyte or char
            && System.Convert.ToDecimal(divisor, System.Globalization.CultureInfo.InvariantCulture) is not 0m and not -1m;

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

    /// <summary>
    /// Patterns that test a type or compare with a constant: none calls a Deconstruct or reads a property but the
    /// <c>Length</c> of the string or array it has tested for null (<c>{ Length: &gt; 0 }</c>).
    /// </summary>
    public static bool Pattern(IPatternOperation pattern) => pattern switch
    {
        IConstantPatternOperation or ITypePatternOperation or IDeclarationPatternOperation or IDiscardPatternOperation or IRelationalPatternOperation => true,
        INegatedPatternOperation negated => Pattern(negated.Pattern),
        IBinaryPatternOperation both => Pattern(both.LeftPattern) && Pattern(both.RightPattern),
        IRecursivePatternOperation { DeconstructionSubpatterns.IsEmpty: true, DeconstructSymbol: null } recursive =>
            recursive.PropertySubpatterns.All(p => p.Member is IPropertyReferenceOperation { Instance: IInstanceReferenceOperation { ReferenceKind: InstanceReferenceKind.PatternInput } } length
                && IsLength(length.Property, recursive.NarrowedType)
                && Pattern(p.Pattern)),
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
