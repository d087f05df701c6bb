using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp;
using Microsoft.CodeAnalysis.Testing;
using TplPractices.Analyzers.Tests.Verifiers;
using Verify = TplPractices.Analyzers.Tests.Verifiers.CSharpCodeFixVerifier<
    TplPractices.Analyzers.Rules.ValueTaskFastPathAnalyzer,
    TplPractices.Analyzers.CodeFixes.Rules.ValueTaskFastPathFixer>;

namespace TplPractices.Analyzers.Tests.Rules;

/// <summary>TPL0008's fix: each spelling of the return type, partial methods, older targets and multi-targeted projects.</summary>
public sealed class ValueTaskFastPathFixTests
{
    private const string Body = """{ if (key > 0) [|return "x" + key;|] await Task.Yield(); return ""; }""";

    private static string Class(string returnType, string usings = "using System.Threading.Tasks;") => $$"""
        {{usings}}

        class C
        {
            private async {{returnType}} Get(int key) {{Body}}

            public async System.Threading.Tasks.Task<string> Use() => await Get(1) + "!";
        }
        """;

    [Theory]
    [InlineData("Task<string>", "ValueTask<string>")]
    [InlineData("System.Threading.Tasks.Task<string>", "System.Threading.Tasks.ValueTask<string>")]
    [InlineData("global::System.Threading.Tasks.Task<string>", "global::System.Threading.Tasks.ValueTask<string>")]
    public async Task ReturnType_KeepsItsSpelling(string before, string after)
    {
        await Verify.VerifyCodeFixAsync(Class(before), Class(after).Replace("[|return \"x\" + key;|]", "return \"x\" + key;", StringComparison.Ordinal));
    }

    [Fact]
    public async Task Alias_BecomesTheValueTaskName()
    {
        const string Usings = "using System.Threading.Tasks;\nusing TextTask = System.Threading.Tasks.Task<string>;";
        await Verify.VerifyCodeFixAsync(
            Class("TextTask", Usings),
            Class("ValueTask<string>", Usings).Replace("[|return \"x\" + key;|]", "return \"x\" + key;", StringComparison.Ordinal));
    }

    [Fact]
    public async Task WithoutTheNamespaceImported_TheTypeIsImported()
    {
        await Verify.VerifyCodeFixAsync(
            Class("System.Threading.Tasks.Task<string>", "using System;").Replace("await Task.Yield()", "await System.Threading.Tasks.Task.Yield()", StringComparison.Ordinal),
            Class("System.Threading.Tasks.ValueTask<string>", "using System;").Replace("[|return \"x\" + key;|]", "return \"x\" + key;", StringComparison.Ordinal).Replace("await Task.Yield()", "await System.Threading.Tasks.Task.Yield()", StringComparison.Ordinal));
    }

    /// <summary>
    /// The fix edits only the return type: an #if in the body (Windows-only lines in the GitHub Actions runner) does not
    /// keep it out, since every build's body returns the same T and the callers, which decide the fix, are outside it.
    /// An #if around the return type itself does.
    /// </summary>
    [Fact]
    public async Task AnIfInTheBody_DoesNotKeepTheFixOut()
    {
        const string Before = """
            using System.Threading.Tasks;

            class C
            {
                private async Task<string> Get(int key)
                {
                    if (key > 0) [|return "x" + key;|]
            #if OS_WINDOWS
                    await Task.Delay(1);
            #endif
                    await Task.Yield();
                    return "";
                }

                private async
            #if DEBUG
                    Task<string>
            #else
                    Task<string>
            #endif
                    Other(int key) { if (key > 0) [|return "y";|] await Task.Yield(); return ""; }

                public async Task<string> Use() => await Get(1) + await Other(2) + "!";
            }
            """;
        var after = Before.Replace("private async Task<string> Get(int key)", "private async ValueTask<string> Get(int key)", StringComparison.Ordinal)
            .Replace("[|return \"x\" + key;|]", "return \"x\" + key;", StringComparison.Ordinal);
        var test = new Verify.Test { TestCode = Before, FixedState = { Sources = { after }, MarkupHandling = MarkupMode.Allow } };
        await test.RunAsync();
    }

    [Fact]
    public async Task GenericMethod_KeepsItsTypeParameter()
    {
        const string Before = """
            using System.Threading.Tasks;

            class C
            {
                private static async Task<T> First<T>(T[] items) { if (items.Length > 0) [|return items[0];|] await Task.Yield(); return default!; }

                public static async Task<int> Use(int[] items) => await First(items) + await First<int>(items);
            }
            """;
        await Verify.VerifyCodeFixAsync(Before, Before.Replace("async Task<T> First", "async ValueTask<T> First", StringComparison.Ordinal).Replace("[|return items[0];|]", "return items[0];", StringComparison.Ordinal));
    }

    /// <summary>A cache hit that passes by the load written before the return: the generic cast of an out variable.</summary>
    [Fact]
    public async Task ReturnAfterTheLoadTheHitSkips_IsFixed()
    {
        const string Before = """
            using System.Collections.Generic;
            using System.Threading.Tasks;

            class C
            {
                private readonly Dictionary<string, object> _cache = new Dictionary<string, object>();

                private async Task<T> Get<T>(string key)
                {
                    if (!_cache.TryGetValue(key, out var value))
                    {
                        value = await Task.Run(() => (object)key.Length);
                        _cache[key] = value;
                    }

                    [|return (T)value;|]
                }

                public async Task<int> Use() => await Get<int>("a") + await Get<int>("bb").ConfigureAwait(false);
            }
            """;
        await Verify.VerifyCodeFixAsync(Before, Before.Replace("async Task<T> Get", "async ValueTask<T> Get", StringComparison.Ordinal).Replace("[|return (T)value;|]", "return (T)value;", StringComparison.Ordinal));
    }

    [Fact]
    public async Task PartialMethod_BothPartsChange()
    {
        const string Before = """
            using System.Threading.Tasks;

            partial class C
            {
                private partial Task<string> Get(int key);

                public async Task<string> Use() => await Get(1) + "!";
            }

            partial class C
            {
                private partial async Task<string> Get(int key) { if (key > 0) [|return "x" + key;|] await Task.Yield(); return ""; }
            }
            """;
        var after = Before.Replace("partial Task<string> Get", "partial ValueTask<string> Get", StringComparison.Ordinal)
            .Replace("async Task<string> Get", "async ValueTask<string> Get", StringComparison.Ordinal).Replace("[|return \"x\" + key;|]", "return \"x\" + key;", StringComparison.Ordinal);
        await Verify.VerifyCodeFixAsync(Before, after);
    }

    /// <summary>The fix edits one file: the other part would keep Task&lt;T&gt; and the build would break.</summary>
    [Fact]
    public async Task PartialMethodInTwoFiles_IsReportedWithoutFix()
    {
        const string Definition = """
            using System.Threading.Tasks;

            partial class C
            {
                private partial Task<string> Get(int key);

                public async Task<string> Use() => await Get(1) + "!";
            }
            """;
        const string Implementation = """
            using System.Threading.Tasks;

            partial class C
            {
                private partial async Task<string> Get(int key) { if (key > 0) [|return "x" + key;|] await Task.Yield(); return ""; }
            }
            """;
        var test = new Verify.Test { TestState = { Sources = { Definition, Implementation } }, FixedState = { Sources = { Definition, Implementation }, MarkupHandling = MarkupMode.Allow } };
        await test.RunAsync();
    }

    /// <summary>A netstandard2.0 library on C# 7.3, nullable off, with System.Threading.Tasks.Extensions.</summary>
    [Fact]
    public async Task NetStandardWithTheExtensionsPackage_OnCSharp73()
    {
        var before = Class("Task<string>");
        await new Verify.Test
        {
            Target = TestTarget.NetStandard20WithValueTask,
            LanguageVersion = LanguageVersion.CSharp7_3,
            NullableContext = NullableContextOptions.Disable,
            TestCode = before,
            FixedCode = Class("ValueTask<string>").Replace("[|return \"x\" + key;|]", "return \"x\" + key;", StringComparison.Ordinal),
        }.RunAsync();
    }

    /// <summary>net10.0 plus netstandard2.0 with the package, nullable warnings on in both: one fix for both copies.</summary>
    [Fact]
    public async Task MultiTargeted_WhereEveryTargetHasValueTask_IsFixed()
    {
        var test = new Verify.Test
        {
            TestCode = Class("Task<string>"),
            FixedCode = Class("ValueTask<string>").Replace("[|return \"x\" + key;|]", "return \"x\" + key;", StringComparison.Ordinal),
            LinkedTargets = { new LinkedTarget(TestTarget.NetStandard20WithValueTask, LanguageVersion.CSharp7_3, NullableContextOptions.Disable) },
        };
        await test.RunAsync();
    }

    /// <summary>netstandard2.0 without the package has no ValueTask&lt;T&gt;: the shared file keeps Task&lt;T&gt;.</summary>
    [Fact]
    public async Task MultiTargeted_WhereOneTargetLacksValueTask_HasNoFix()
    {
        var code = Class("Task<string>");
        var test = new Verify.Test
        {
            TestCode = code,
            FixedState = { Sources = { code }, MarkupHandling = MarkupMode.Allow },
            LinkedTargets = { new LinkedTarget(TestTarget.NetStandard20, LanguageVersion.CSharp7_3, NullableContextOptions.Disable) },
        };
        await test.RunAsync();
    }

    /// <summary>A caller in an #if branch of the other target stores the task: neither target reports (the branch is code in one, inactive text naming the method in the other).</summary>
    [Fact]
    public async Task MultiTargeted_CallerInAnIfBranchStoresTheTask_ReportsNothingOnAnyTarget()
    {
        const string Code = """
            using System.Threading.Tasks;

            class C
            {
                private async Task<string> Get(int key) { if (key > 0) return "x" + key; await Task.Yield(); return ""; }

                public async Task<string> Use() => await Get(1) + "!";

            #if NETSTANDARD2_0
                public Task<string> Legacy() => Get(2);
            #endif
            }
            """;
        var test = new Verify.Test
        {
            TestCode = Code,
            FixedState = { Sources = { Code }, MarkupHandling = MarkupMode.Allow },
            LinkedTargets = { new LinkedTarget(TestTarget.NetStandard20WithValueTask, LanguageVersion.CSharp7_3, NullableContextOptions.Disable, ["NETSTANDARD2_0"]) },
        };
        await test.RunAsync();
    }

    [Fact]
    public async Task FixAll_ChangesEveryMethodInEveryFile()
    {
        const string First = """
            using System.Threading.Tasks;

            class A
            {
                private async Task<string> Get(int key) { if (key > 0) [|return "a" + key;|] await Task.Yield(); return ""; }

                private async Task<long> Size(long n) { if (n > 0) [|return n;|] await Task.Yield(); return -n; }

                public async Task<string> Use() => await Get(1) + await Size(2);
            }
            """;
        const string Second = """
            using System.Threading.Tasks;

            class B
            {
                public async Task<string> Use()
                {
                    async Task<string> Local(int key) { if (key > 0) [|return "b" + key;|] await Task.Yield(); return ""; }
                    return await Local(1) + "!";
                }
            }
            """;
        var test = new Verify.Test
        {
            TestState = { Sources = { First, Second } },
            FixedState =
            {
                Sources =
                {
                    First.Replace("Task<string> Get", "ValueTask<string> Get", StringComparison.Ordinal).Replace("Task<long> Size", "ValueTask<long> Size", StringComparison.Ordinal).Replace("[|return \"a\" + key;|]", "return \"a\" + key;", StringComparison.Ordinal).Replace("[|return n;|]", "return n;", StringComparison.Ordinal),
                    Second.Replace("Task<string> Local", "ValueTask<string> Local", StringComparison.Ordinal).Replace("[|return \"b\" + key;|]", "return \"b\" + key;", StringComparison.Ordinal),
                },
            },
        };
        await test.RunAsync();
    }
}
