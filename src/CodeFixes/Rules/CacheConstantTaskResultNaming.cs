using System.Collections.Generic;
using System.Globalization;
using System.Linq;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp.Syntax;
using Microsoft.CodeAnalysis.Operations;
using TplPractices.Analyzers.CodeFixes.Internals;
using TplPractices.Analyzers.Internals;

namespace TplPractices.Analyzers.CodeFixes.Rules;

/// <summary>TPL0003: identity and name of a cached task, from its result type and constant value.</summary>
internal static class CachedTaskKey
{
    /// <summary>Equal for two FromResult calls that produce interchangeable tasks.</summary>
    public static string Of(IInvocationOperation fromResult, ConstantResult constant)
    {
        var value = constant.Value switch
        {
            null => constant.IsDefault ? "default" : "null",
            string s => "\"" + s + "\"",
            double d => d.ToString("R", CultureInfo.InvariantCulture),
            float f => f.ToString("R", CultureInfo.InvariantCulture),
            var other => System.Convert.ToString(other, CultureInfo.InvariantCulture),
        };
        var valueType = constant.Value?.GetType().Name ?? string.Empty;
        return fromResult.TargetMethod.TypeArguments[0].WithNullableAnnotation(NullableAnnotation.None).ToDisplayString()
            + "|" + valueType + "|" + value;
    }

    /// <summary>Words for the field name: the result type, the value, then "Task" (s_int42Task, s_stringNullTask).</summary>
    public static IReadOnlyList<string> NameWords(ITypeSymbol resultType, IOperation argument, ConstantResult constant)
    {
        var words = new List<string> { TypeWord(resultType) };
        var unwrapped = argument.WithoutImplicitConversions();
        if (unwrapped is IFieldReferenceOperation { Field.IsConst: true } named)
        {
            words.Add(named.Field.Name);
        }
        else if (EnumMember(argument.Type, constant.Value) is { } member)
        {
            words.Add(member.Name);
        }
        else if (FlagsOf(argument, constant.Value) is { } flags)
        {
            words.AddRange(flags.Select(f => f.Name));
        }
        else
        {
            words.AddRange(ValueWords(resultType, constant));
        }

        words.Add("Task");
        return words;
    }

    /// <summary>The enum member with this value, if the type is an enum and one has it.</summary>
    public static IFieldSymbol? EnumMember(ITypeSymbol? type, object? value) =>
        type is { TypeKind: TypeKind.Enum }
            ? type.GetMembers().OfType<IFieldSymbol>().FirstOrDefault(f => f.HasConstantValue && Equals(f.ConstantValue, value))
            : null;

    /// <summary>
    /// The enum members a constant argument combines: as written (<see cref="WrittenFlags"/>), else as its bits make it
    /// up (<see cref="FlagMembers"/>); null where neither tells.
    /// </summary>
    public static IReadOnlyList<IFieldSymbol>? FlagsOf(IOperation argument, object? value) =>
        WrittenFlags(argument) ?? FlagMembers(argument.Type, value);

    /// <summary>
    /// The members of a <c>[Flags]</c> enum whose bits make up the value exactly (<c>ImageUpdate | MetadataImport</c>),
    /// lowest first, as <c>Enum.ToString</c> names them; null where they do not.
    /// </summary>
    private static IReadOnlyList<IFieldSymbol>? FlagMembers(ITypeSymbol? type, object? value)
    {
        if (type is not { TypeKind: TypeKind.Enum }
            || !type.GetAttributes().Any(a => a.AttributeClass is { Name: "FlagsAttribute", ContainingNamespace.Name: "System" })
            || value is null)
        {
            return null;
        }

        var remaining = Bits(value);
        var members = new List<(IFieldSymbol Field, ulong Bits)>();
        foreach (var (field, bits) in type.GetMembers().OfType<IFieldSymbol>()
            .Where(f => f.HasConstantValue && f.ConstantValue is not null)
            .Select(f => (f, Bits(f.ConstantValue!)))
            .Where(m => m.Item2 != 0)
            .OrderByDescending(m => m.Item2))
        {
            if ((remaining & bits) == bits)
            {
                members.Add((field, bits));
                remaining &= ~bits;
            }
        }

        return remaining == 0 && members.Count > 1 ? members.OrderBy(m => m.Bits).Select(m => m.Field).ToList() : null;
    }

    /// <summary>
    /// The enum members a value is written as, in the author's order: <c>A | B</c>, directly or as a local constant's
    /// initializer; null for any other spelling.
    /// </summary>
    private static IReadOnlyList<IFieldSymbol>? WrittenFlags(IOperation value)
    {
        value = value.WithoutImplicitConversions();
        switch (value)
        {
            case IFieldReferenceOperation { Field: { IsConst: true, ContainingType.TypeKind: TypeKind.Enum } member }:
                return new[] { member };
            case IBinaryOperation { OperatorKind: BinaryOperatorKind.Or } either
                when WrittenFlags(either.LeftOperand) is { } left && WrittenFlags(either.RightOperand) is { } right:
                return left.Concat(right).ToList();
            case ILocalReferenceOperation when LocalConstantInitializer(value) is { } initializer:
                return WrittenFlags(initializer);
            default:
                return null;
        }
    }

    /// <summary>The initializer of the local constant <paramref name="read"/> reads, bound.</summary>
    private static IOperation? LocalConstantInitializer(IOperation read)
    {
        if (read is not ILocalReferenceOperation { Local: { IsConst: true } local, SemanticModel: { } model }
            || local.DeclaringSyntaxReferences.FirstOrDefault()?.GetSyntax() is not VariableDeclaratorSyntax { Initializer.Value: { } value }
            || value.SyntaxTree != model.SyntaxTree)
        {
            return null;
        }

        return model.GetOperation(value);
    }

    /// <summary>An enum constant's bits, whatever its underlying type.</summary>
    private static ulong Bits(object value) => value switch
    {
        sbyte v => (byte)v,
        short v => (ushort)v,
        int v => (uint)v,
        long v => (ulong)v,
        byte v => v,
        ushort v => v,
        uint v => v,
        ulong v => v,
        _ => 0,
    };

    private static IEnumerable<string> ValueWords(ITypeSymbol resultType, ConstantResult constant)
    {
        switch (constant.Value)
        {
            case null:
                var isNullable = resultType.IsReferenceType
                    || resultType.OriginalDefinition.SpecialType == SpecialType.System_Nullable_T;
                return new[] { isNullable ? "Null" : "Default" };
            case bool b:
                return new[] { b ? "True" : "False" };
            case string s:
                var words = FieldNaming.WordsOf(s, maxWords: 3).ToList();
                return s.Length == 0 ? new[] { "Empty" } : words.Count == 0 ? new[] { "Text" } : words;
            case char c:
                return new[] { char.IsLetterOrDigit(c) && c < 128 ? c.ToString() : "U" + ((int)c).ToString("X4", CultureInfo.InvariantCulture) };
            case double d when double.IsNaN(d):
            case float f when float.IsNaN(f):
                return new[] { "NaN" };
            case double d when double.IsInfinity(d):
                return new[] { d > 0 ? "PositiveInfinity" : "NegativeInfinity" };
            case float f when float.IsInfinity(f):
                return new[] { f > 0 ? "PositiveInfinity" : "NegativeInfinity" };
            case var number:
                var text = System.Convert.ToString(number, CultureInfo.InvariantCulture) ?? string.Empty;
                return text is "0" ? new[] { "Zero" } : new[] { text.Replace("-", "Minus").Replace(".", "Point").Replace("+", string.Empty) };
        }
    }

    private static string TypeWord(ITypeSymbol type) => type switch
    {
        IArrayTypeSymbol array => TypeWord(array.ElementType) + "Array",
        INamedTypeSymbol { OriginalDefinition.SpecialType: SpecialType.System_Nullable_T } nullable =>
            "Nullable" + Capitalized(TypeWord(nullable.TypeArguments[0])),
        _ => type.SpecialType switch
        {
            SpecialType.System_Boolean => "bool",
            SpecialType.System_Char => "char",
            SpecialType.System_SByte => "sbyte",
            SpecialType.System_Byte => "byte",
            SpecialType.System_Int16 => "short",
            SpecialType.System_UInt16 => "ushort",
            SpecialType.System_Int32 => "int",
            SpecialType.System_UInt32 => "uint",
            SpecialType.System_Int64 => "long",
            SpecialType.System_UInt64 => "ulong",
            SpecialType.System_Single => "float",
            SpecialType.System_Double => "double",
            SpecialType.System_Decimal => "decimal",
            SpecialType.System_String => "string",
            SpecialType.System_Object => "object",
            SpecialType.System_IntPtr => "nint",
            SpecialType.System_UIntPtr => "nuint",
            _ => InterfaceNoun(type),
        },
    };

    /// <summary>An interface's name without its <c>I</c> prefix (<c>IUser</c> gives <c>User</c>, as in <c>s_userNullTask</c>).</summary>
    private static string InterfaceNoun(ITypeSymbol type) =>
        type.TypeKind == TypeKind.Interface && type.Name.Length > 2 && type.Name[0] == 'I' && char.IsUpper(type.Name[1]) && char.IsLower(type.Name[2])
            ? type.Name.Substring(1)
            : type.Name;

    private static string Capitalized(string word) => word.Length == 0 ? word : char.ToUpperInvariant(word[0]) + word.Substring(1);
}
