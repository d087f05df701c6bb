using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp.Syntax;
using Microsoft.CodeAnalysis.Operations;

namespace TplPractices.Analyzers.Internals;

/// <summary>
/// A <c>TimeSpan</c> written of constants that <c>Task.Delay</c> accepts on every target: <c>TimeSpan.Zero</c>,
/// <c>Timeout.InfiniteTimeSpan</c>, or <c>TimeSpan.FromSeconds(5)</c> and its siblings with one constant between zero and
/// <c>int.MaxValue</c> milliseconds (the .NET Framework's limit; .NET allows more). Such a delay cannot throw.
/// </summary>
internal static class DelayTimeSpan
{
    public static bool IsAccepted(IOperation value)
    {
        value = value.WithoutImplicitConversions();
        return value switch
        {
            IFieldReferenceOperation { Field: { IsStatic: true, Name: "Zero" } zero } => IsTimeSpan(zero.ContainingType),
            IFieldReferenceOperation { Field: { IsStatic: true, Name: "InfiniteTimeSpan" } infinite } =>
                infinite.ContainingType is { Name: "Timeout", ContainingNamespace.Name: "Threading" },
            IInvocationOperation { TargetMethod: { IsStatic: true } factory } call when IsTimeSpan(factory.ContainingType) => Milliseconds(call) is { } ms && ms >= 0 && ms <= int.MaxValue,
            _ => false,
        };
    }

    /// <summary>
    /// The milliseconds of <c>TimeSpan.FromX(constant)</c>, or of a constant number of milliseconds; null for anything
    /// else.
    /// </summary>
    public static double? MillisecondsOf(IOperation value)
    {
        value = value.WithoutImplicitConversions();
        if (value is IInvocationOperation { TargetMethod: { IsStatic: true } factory } call && IsTimeSpan(factory.ContainingType))
        {
            return Milliseconds(call);
        }

        return value.ConstantValue is { HasValue: true, Value: int or long } constant && TryDouble(constant.Value!, out var number) ? number : null;
    }

    /// <summary>The syntax <see cref="IsAccepted"/> may accept where it calls: <c>TimeSpan.FromX(literal)</c>.</summary>
    public static bool MayBeAccepted(ExpressionSyntax expression) =>
        expression is InvocationExpressionSyntax { Expression: MemberAccessExpressionSyntax { Name.Identifier.ValueText: var name }, ArgumentList.Arguments: { Count: 1 } arguments }
        && UnitOf(name) > 0
        && arguments[0].Expression is LiteralExpressionSyntax or PrefixUnaryExpressionSyntax { Operand: LiteralExpressionSyntax };

    /// <summary>The span's milliseconds, where one argument is written and any others are defaults of zero.</summary>
    private static double? Milliseconds(IInvocationOperation call)
    {
        var unit = UnitOf(call.TargetMethod.Name);
        double? written = null;
        foreach (var argument in call.Arguments)
        {
            if (argument.Value.ConstantValue is not { HasValue: true, Value: { } constant } || !TryDouble(constant, out var number))
            {
                return null;
            }

            if (argument.ArgumentKind == ArgumentKind.DefaultValue)
            {
                if (number != 0)
                {
                    return null;
                }
            }
            else if (written is null && argument.Parameter?.Ordinal == 0)
            {
                written = number;
            }
            else
            {
                return null;
            }
        }

        return unit > 0 && written is { } value && !double.IsNaN(value) ? value * unit : null;
    }

    private static double UnitOf(string name) => name switch
    {
        "FromDays" => 86_400_000d,
        "FromHours" => 3_600_000d,
        "FromMinutes" => 60_000d,
        "FromSeconds" => 1_000d,
        "FromMilliseconds" => 1d,
        "FromTicks" => 0.0001d,
        _ => 0d,
    };

    private static bool TryDouble(object constant, out double number)
    {
        switch (constant)
        {
            case int i: number = i; return true;
            case long l: number = l; return true;
            case double d: number = d; return true;
            case float f: number = f; return true;
            case short s: number = s; return true;
            case byte b: number = b; return true;
            default: number = 0; return false;
        }
    }

    private static bool IsTimeSpan(INamedTypeSymbol? type) =>
        type is { Name: "TimeSpan", ContainingNamespace: { Name: "System", ContainingNamespace.IsGlobalNamespace: true } };
}
