using System.Reflection;
using System.Runtime.Loader;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp;

namespace TplPractices.Analyzers.Tests.Verifiers;

/// <summary>
/// Compiles a test source against the .NET 10 reference assemblies (the runtime the tests run on), loads it into
/// a collectible context and calls a static method, so a test can check that original and fixed code behave the same.
/// It is compiled as a release build, so what a test measures (allocations, say) is what users ship.
/// </summary>
public static class CodeRunner
{
    /// <summary>
    /// Calls <c>typeName.methodName(arguments)</c>, awaiting a returned task. Returns what happened as text:
    /// "returned VALUE", or "threw EXCEPTION-TYPE".
    /// </summary>
    public static async Task<string> RunAsync(string source, string typeName, string methodName, params object?[] arguments)
    {
        var compilation = CSharpCompilation.Create(
            "Run" + Guid.NewGuid().ToString("N"),
            [CSharpSyntaxTree.ParseText(source, new CSharpParseOptions(LanguageVersion.CSharp12))],
            TestTarget.Net100.References(),
            new CSharpCompilationOptions(OutputKind.DynamicallyLinkedLibrary, nullableContextOptions: NullableContextOptions.Enable, optimizationLevel: OptimizationLevel.Release));
        using var image = new MemoryStream();
        var emitted = compilation.Emit(image);
        Assert.True(emitted.Success, string.Join(Environment.NewLine, emitted.Diagnostics));

        var context = new AssemblyLoadContext("run", isCollectible: true);
        try
        {
            image.Position = 0;
            var method = context.LoadFromStream(image).GetType(typeName, throwOnError: true)!
                .GetMethod(methodName, BindingFlags.Public | BindingFlags.Static)!;
            try
            {
                var result = method.Invoke(null, arguments);
                if (result is Task task)
                {
                    await task;
                    result = task.GetType().GetProperty("Result")?.GetValue(task) is { } value && task.GetType().IsGenericType ? value : "(task)";
                }

                return "returned " + result;
            }
            catch (TargetInvocationException e) when (e.InnerException is { } inner)
            {
                return "threw " + inner.GetType().Name;
            }
            catch (Exception e)
            {
                return "threw " + e.GetType().Name;
            }
        }
        finally
        {
            context.Unload();
        }
    }
}
