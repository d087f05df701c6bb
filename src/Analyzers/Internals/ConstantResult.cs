using System;
using System.Linq;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.Operations;

namespace TplPractices.Analyzers.Internals;

/// <summary>A value known at compile time: a constant, <c>null</c>, or <c>default(T)</c> of any type.</summary>
internal readonly struct ConstantResult
{
    private ConstantResult(object? value, bool isDefault)
    {
        Value = value;
        IsDefault = isDefault;
    }

    /// <summary>The constant value; null for <c>null</c> and for a non-constant <c>default(T)</c>.</summary>
    public object? Value { get; }

    /// <summary>True when the value is all zero bits: null, false, 0, +0.0, 0m without scale, or default(struct).</summary>
    public bool IsDefault { get; }

    public static bool TryGet(IOperation value, out ConstantResult result)
    {
        if (value.ConstantValue.HasValue)
        {
            var constant = value.ConstantValue.Value;
            result = new ConstantResult(constant, constant is null || IsZero(constant));
            return true;
        }

        // default(SomeStruct) and null converted to a Nullable<T> have no ConstantValue, yet never change.
        var unwrapped = value.WithoutImplicitConversions();
        if (unwrapped is IDefaultValueOperation
            || unwrapped.ConstantValue is { HasValue: true, Value: null })
        {
            result = new ConstantResult(null, isDefault: true);
            return true;
        }

        // A constant boxed or made nullable (Task.FromResult<object>(0), Task.FromResult<long?>(0)) is no constant
        // to the compiler, yet never changes; neither does string.Empty. None of them is all zero bits.
        if (unwrapped.ConstantValue is { HasValue: true, Value: { } converted } && OnlyBoxedOrWrapped(value))
        {
            result = new ConstantResult(converted, isDefault: false);
            return true;
        }

        if (unwrapped is IFieldReferenceOperation { Field: { Name: "Empty", IsStatic: true, ContainingType.SpecialType: SpecialType.System_String } })
        {
            result = new ConstantResult(string.Empty, isDefault: false);
            return true;
        }

        result = default;
        return false;
    }

    /// <summary>True when every conversion from the constant to the value is built in and ends in an object or a nullable.</summary>
    private static bool OnlyBoxedOrWrapped(IOperation value) =>
        value is IConversionOperation { Type: { } target }
        && (target.IsReferenceType || target.OriginalDefinition.SpecialType == SpecialType.System_Nullable_T)
        && !value.DescendantsAndSelf().OfType<IConversionOperation>().Any(c => c.Conversion.IsUserDefined);

    private static bool IsZero(object constant) => constant switch
    {
        bool b => !b,
        char c => c == '\0',
        sbyte n => n == 0,
        byte n => n == 0,
        short n => n == 0,
        ushort n => n == 0,
        int n => n == 0,
        uint n => n == 0,
        long n => n == 0,
        ulong n => n == 0,
        float f => BitConverter.DoubleToInt64Bits(f) == 0,
        double d => BitConverter.DoubleToInt64Bits(d) == 0,
        decimal m => Array.TrueForAll(decimal.GetBits(m), part => part == 0),
        _ => false,
    };
}
