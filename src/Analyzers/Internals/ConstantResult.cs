using System;
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

        result = default;
        return false;
    }

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
