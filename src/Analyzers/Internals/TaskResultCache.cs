using Microsoft.CodeAnalysis;

namespace TplPractices.Analyzers.Internals;

/// <summary>How much of <c>Task.FromResult</c>'s output the target runtime serves from a cache.</summary>
internal enum TaskCacheLevel
{
    /// <summary>.NET Framework, netstandard (which may run there) and .NET Core before 6: always a new task.</summary>
    None,

    /// <summary>.NET 6 and 7 (dotnet/runtime#43894): null, both bools, ints -1..8, zero of the integral primitives.</summary>
    Net6,

    /// <summary>
    /// .NET 8 and later (dotnet/runtime#76349 and #87541): also the all-zero value of any value type without
    /// references whose size is 1, 2, 4, 8 or 16 bytes (0.0, 0m, default(Guid), default(DateTime), enums).
    /// </summary>
    Net8,
}

/// <summary>
/// What <c>Task.FromResult</c> returns from the runtime's cache instead of allocating, per target.
/// TaskResultCacheTests checks the newest tier against the runtime the tests run on.
/// </summary>
internal static class TaskResultCache
{
    public const int InclusiveMinInt32 = -1;
    public const int InclusiveMaxInt32 = 8;

    /// <summary>
    /// The level of the core library that defines <paramref name="taskType"/>: decided from the reference the
    /// compilation binds to, never guessed. netstandard and mscorlib report their own names, so they get None.
    /// </summary>
    public static TaskCacheLevel LevelOf(INamedTypeSymbol taskType) => LevelOf(taskType.ContainingAssembly.Identity);

    public static TaskCacheLevel LevelOf(AssemblyIdentity identity)
    {
        if (identity.Name is not ("System.Runtime" or "System.Private.CoreLib"))
        {
            return TaskCacheLevel.None;
        }

        return identity.Version.Major switch
        {
            >= 8 => TaskCacheLevel.Net8,
            >= 6 => TaskCacheLevel.Net6,
            _ => TaskCacheLevel.None,
        };
    }

    public static bool IsCachedByRuntime(ITypeSymbol resultType, ConstantResult value, TaskCacheLevel level)
    {
        if (level == TaskCacheLevel.None)
        {
            return false;
        }

        if (resultType.IsReferenceType || resultType.OriginalDefinition.SpecialType == SpecialType.System_Nullable_T)
        {
            return value.Value is null;
        }

        switch (resultType.SpecialType)
        {
            case SpecialType.System_Boolean:
                return true;
            case SpecialType.System_Int32 when value.Value is int n && n >= InclusiveMinInt32 && n <= InclusiveMaxInt32:
                return true;
        }

        if (!value.IsDefault)
        {
            return false;
        }

        return level == TaskCacheLevel.Net6
            ? IsNet6CachedPrimitive(resultType.SpecialType)
            : MayBeCachedZeroOnNet8(resultType);
    }

    private static bool IsNet6CachedPrimitive(SpecialType type) => type is SpecialType.System_Char
        or SpecialType.System_SByte or SpecialType.System_Byte or SpecialType.System_Int16
        or SpecialType.System_UInt16 or SpecialType.System_UInt32 or SpecialType.System_Int64
        or SpecialType.System_UInt64 or SpecialType.System_IntPtr or SpecialType.System_UIntPtr;

    /// <summary>
    /// True when the runtime caches this type's zero, or may: a struct whose size we cannot know (user
    /// layout, padding) counts as cached, so the rule stays silent rather than guess. A struct with a
    /// reference field is never cached.
    /// </summary>
    private static bool MayBeCachedZeroOnNet8(ITypeSymbol type)
    {
        if (KnownSize(type) is { } size)
        {
            return size is 1 or 2 or 4 or 8 or 16;
        }

        return !ContainsReferences(type, depth: 0);
    }

    private static int? KnownSize(ITypeSymbol type)
    {
        if (type is INamedTypeSymbol { TypeKind: TypeKind.Enum, EnumUnderlyingType: { } underlying })
        {
            type = underlying;
        }

        switch (type.SpecialType)
        {
            case SpecialType.System_Boolean or SpecialType.System_SByte or SpecialType.System_Byte:
                return 1;
            case SpecialType.System_Char or SpecialType.System_Int16 or SpecialType.System_UInt16:
                return 2;
            case SpecialType.System_Int32 or SpecialType.System_UInt32 or SpecialType.System_Single:
                return 4;
            case SpecialType.System_Int64 or SpecialType.System_UInt64 or SpecialType.System_Double
                or SpecialType.System_IntPtr or SpecialType.System_UIntPtr or SpecialType.System_DateTime:
                return 8;
            case SpecialType.System_Decimal:
                return 16;
        }

        if (type.ContainingNamespace is not { Name: "System", ContainingNamespace.IsGlobalNamespace: true })
        {
            return null;
        }

        return type.MetadataName switch
        {
            "Half" => 2,
            "DateOnly" => 4,
            "TimeSpan" or "TimeOnly" => 8,
            "Guid" or "DateTimeOffset" or "Int128" or "UInt128" => 16,
            _ => null,
        };
    }

    private static bool ContainsReferences(ITypeSymbol type, int depth)
    {
        if (type.IsReferenceType)
        {
            return true;
        }

        // Type parameters and very deep nesting: unknown, so assume no references (the silent answer).
        if (type is not INamedTypeSymbol { IsValueType: true } named || depth > 8)
        {
            return false;
        }

        foreach (var member in named.GetMembers())
        {
            if (member is IFieldSymbol { IsStatic: false, IsConst: false } field
                && ContainsReferences(field.Type, depth + 1))
            {
                return true;
            }
        }

        return false;
    }
}
