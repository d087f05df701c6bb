using System.Reflection;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp;
using TplPractices.Analyzers.Internals;
using TplPractices.Analyzers.Tests.Verifiers;

namespace TplPractices.Analyzers.Tests.Rules;

/// <summary>
/// TPL0003 depends on knowing which Task.FromResult values the runtime caches. These tests hold that
/// knowledge against the runtime the tests run on (.NET 10) and against the reference sets of each target.
/// </summary>
public sealed class TaskResultCacheTests
{
    public static TheoryData<string, object?, bool> Samples => new()
    {
        { "bool", true, true },
        { "bool", false, true },
        { "int", -2, false },
        { "int", -1, true },
        { "int", 0, true },
        { "int", 8, true },
        { "int", 9, false },
        { "int", 42, false },
        { "long", 0L, true },
        { "long", 1L, false },
        { "uint", 0u, true },
        { "ulong", 0ul, true },
        { "short", (short)0, true },
        { "ushort", (ushort)0, true },
        { "byte", (byte)0, true },
        { "byte", (byte)1, false },
        { "sbyte", (sbyte)0, true },
        { "char", '\0', true },
        { "char", 'a', false },
        { "nint", (nint)0, true },
        { "nuint", (nuint)0, true },
        { "System.Guid", default(Guid), true },
        { "System.DayOfWeek", DayOfWeek.Sunday, true },
        { "System.DayOfWeek", DayOfWeek.Monday, false },
        { "double", 0.0, true },
        { "double", -0.0, false },
        { "double", 1.0, false },
        { "float", 0f, true },
        { "decimal", 0m, true },
        { "decimal", 0.0m, false },
        { "string", null, true },
        { "string", "", false },
        { "object", null, true },
        { "int?", null, true },
    };

    /// <summary>The tests run on .NET 10, so the running runtime must match the Net8 tier exactly.</summary>
    [Theory]
    [MemberData(nameof(Samples))]
    public void RunningRuntime_CachesExactlyWhatTheNet8TierAssumes(string type, object? value, bool expectedCached)
    {
        Assert.Equal(expectedCached, ReturnsSameTaskTwice(type, value));
        Assert.Equal(expectedCached, TaskResultCache.IsCachedByRuntime(Resolve(type), ConstantFor(type, value), TaskCacheLevel.Net8));
    }

    /// <summary>
    /// .NET 6 and 7 cached only null, bools, ints -1..8 and zero of the integral primitives (dotnet/runtime#43894);
    /// no .NET 6 runtime is installed here, so this pins the tier to that source.
    /// </summary>
    [Theory]
    [InlineData("long", 0L, true)]
    [InlineData("char", '\0', true)]
    [InlineData("int", 8, true)]
    [InlineData("string", null, true)]
    [InlineData("double", 0.0, false)]
    [InlineData("decimal", 0, false)]
    [InlineData("int", 9, false)]
    public void Net6Tier_CachesOnlyIntegralZeros(string type, object? value, bool expectedCached)
    {
        var constant = ConstantFor(type, type == "decimal" ? 0m : value);
        Assert.Equal(expectedCached, TaskResultCache.IsCachedByRuntime(Resolve(type), constant, TaskCacheLevel.Net6));
        Assert.False(TaskResultCache.IsCachedByRuntime(Resolve(type), constant, TaskCacheLevel.None));
    }

    [Theory]
    [InlineData(TestTarget.Net100, nameof(TaskCacheLevel.Net8))]
    [InlineData(TestTarget.Net80, nameof(TaskCacheLevel.Net8))]
    [InlineData(TestTarget.NetStandard20, nameof(TaskCacheLevel.None))]
    [InlineData(TestTarget.Net472, nameof(TaskCacheLevel.None))]
    public void TargetDetection_UsesTheCoreLibraryOfTheReferences(TestTarget target, string expected)
    {
        var compilation = CSharpCompilation.Create("probe", references: target.References());
        var task = compilation.GetTypeByMetadataName("System.Threading.Tasks.Task")!;
        Assert.Equal(expected, TaskResultCache.LevelOf(task).ToString());
    }

    [Theory]
    [InlineData("System.Runtime", 5, nameof(TaskCacheLevel.None))]
    [InlineData("System.Runtime", 6, nameof(TaskCacheLevel.Net6))]
    [InlineData("System.Runtime", 7, nameof(TaskCacheLevel.Net6))]
    [InlineData("System.Runtime", 8, nameof(TaskCacheLevel.Net8))]
    [InlineData("System.Runtime", 10, nameof(TaskCacheLevel.Net8))]
    [InlineData("System.Private.CoreLib", 9, nameof(TaskCacheLevel.Net8))]
    [InlineData("netstandard", 2, nameof(TaskCacheLevel.None))]
    [InlineData("mscorlib", 4, nameof(TaskCacheLevel.None))]
    public void TargetDetection_ByCoreLibraryVersion(string name, int major, string expected)
    {
        Assert.Equal(expected, TaskResultCache.LevelOf(new AssemblyIdentity(name, new Version(major, 0, 0, 0))).ToString());
    }

    private static bool ReturnsSameTaskTwice(string type, object? value)
    {
        var clrType = type switch
        {
            "bool" => typeof(bool), "int" => typeof(int), "long" => typeof(long), "uint" => typeof(uint),
            "ulong" => typeof(ulong), "short" => typeof(short), "ushort" => typeof(ushort), "byte" => typeof(byte),
            "sbyte" => typeof(sbyte), "char" => typeof(char), "nint" => typeof(nint), "nuint" => typeof(nuint),
            "double" => typeof(double), "float" => typeof(float), "decimal" => typeof(decimal),
            "string" => typeof(string), "object" => typeof(object), "int?" => typeof(int?),
            "System.Guid" => typeof(Guid), "System.DayOfWeek" => typeof(DayOfWeek),
            _ => throw new ArgumentOutOfRangeException(nameof(type)),
        };
        var fromResult = typeof(Task).GetMethod(nameof(Task.FromResult))!.MakeGenericMethod(clrType);
        return ReferenceEquals(fromResult.Invoke(null, [value]), fromResult.Invoke(null, [value]));
    }

    private static ITypeSymbol Resolve(string type)
    {
        var tree = CSharpSyntaxTree.ParseText($"class C {{ {type} F; }}");
        var compilation = CSharpCompilation.Create("probe", [tree], TestTarget.Net80.References());
        return compilation.GetTypeByMetadataName("C")!.GetMembers("F").OfType<IFieldSymbol>().Single().Type;
    }

    private static ConstantResult ConstantFor(string type, object? value)
    {
        // Bind the literal as the analyzer sees it: the body of a member returning the result type.
        var literal = value switch
        {
            null => "null",
            bool b => b ? "true" : "false",
            char c => c == '\0' ? "'\\0'" : $"'{c}'",
            string s => $"\"{s}\"",
            nint n => $"(nint){n}",
            nuint n => $"(nuint){n}",
            Guid => "default(System.Guid)",
            DayOfWeek d => $"System.DayOfWeek.{d}",
            decimal m => m.ToString(System.Globalization.CultureInfo.InvariantCulture) + "m",
            double d => d.ToString("R", System.Globalization.CultureInfo.InvariantCulture) + "d",
            float f => f.ToString("R", System.Globalization.CultureInfo.InvariantCulture) + "f",
            IFormattable f => f.ToString(null, System.Globalization.CultureInfo.InvariantCulture),
            _ => throw new ArgumentOutOfRangeException(nameof(value)),
        };
        var tree = CSharpSyntaxTree.ParseText($"class C {{ {type} M() => {literal}; }}");
        var compilation = CSharpCompilation.Create("probe", [tree], TestTarget.Net80.References());
        var body = tree.GetRoot().DescendantNodes().OfType<Microsoft.CodeAnalysis.CSharp.Syntax.ArrowExpressionClauseSyntax>().Single();
        var operation = compilation.GetSemanticModel(tree).GetOperation(body.Expression)!;
        Assert.True(ConstantResult.TryGet(operation.Parent is Microsoft.CodeAnalysis.Operations.IConversionOperation { IsImplicit: true } conversion ? conversion : operation, out var result));
        return result;
    }
}
