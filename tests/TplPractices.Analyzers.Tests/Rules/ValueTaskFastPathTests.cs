using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp;
using Microsoft.CodeAnalysis.Testing;
using TplPractices.Analyzers.Rules;
using TplPractices.Analyzers.Tests.Verifiers;
using Verify = TplPractices.Analyzers.Tests.Verifiers.CSharpCodeFixVerifier<
    TplPractices.Analyzers.Rules.ValueTaskFastPathAnalyzer,
    TplPractices.Analyzers.CodeFixes.Rules.ValueTaskFastPathFixer>;

namespace TplPractices.Analyzers.Tests.Rules;

/// <summary>TPL0008: which async methods are reported, and each reason one is not.</summary>
public sealed class ValueTaskFastPathTests
{
    /// <summary>A class with one private method, <c>Get</c>, whose declaration and callers the cases replace.</summary>
    private static string Class(string method, string callers) => $$"""
        using System;
        using System.Collections.Generic;
        using System.Threading.Tasks;

        class C
        {
            private readonly Dictionary<int, string> _cache = new();

            {{method}}

            {{callers}}
        }
        """;

    private const string Method = """private async Task<string> Get(int key) { if (_cache.TryGetValue(key, out var hit)) return hit; await Task.Yield(); return "x"; }""";

    private const string Awaits = """public async Task<string> Use() => await Get(1) + await Get(2).ConfigureAwait(false);""";

    [Fact]
    public async Task FastPaths_AreReportedAndFixed()
    {
        var test = new Verify.Test { TestCode = ValueTaskFastPathCases.Before, FixedCode = ValueTaskFastPathCases.After };
        test.ExpectedDiagnostics.Add(Verify.Diagnostic().WithLocation(0).WithMessage("'PriceAsync' can complete without awaiting, and each such call allocates a Task<decimal>; every caller awaits it, so return ValueTask<decimal>"));
        test.ExpectedDiagnostics.Add(Verify.Diagnostic().WithLocation(1).WithArguments("Lookup", "string"));
        test.ExpectedDiagnostics.Add(Verify.Diagnostic().WithLocation(2).WithArguments("SizeAsync", "long"));
        test.CompilerDiagnostics = CompilerDiagnostics.None;
        await test.RunAsync();
    }

    /// <summary>
    /// Fast paths the rule must keep finding from the returns: a local copied from a field before an awaited lock in
    /// try/finally (with ConfigureAwait, a second check under the lock, an assignment in the test, a using of an awaited
    /// lock, inside the try), and a generic method returning a cast of an out variable; and the same returns written
    /// after the load, which an `if`, a `switch` or a `try` lets the cache hit pass by.
    /// </summary>
    [Theory]
    [InlineData("private async Task<string> Get(int key) { var current = _current; if (current != null) [|return current;|] await _lock.WaitAsync().ConfigureAwait(false); try { return _current = key.ToString(); } finally { _lock.Release(); } }")]
    [InlineData("private async Task<string> Get(int key) { var current = _current; if (current is not null) { [|return current;|] } await _lock.WaitAsync().ConfigureAwait(false); try { current = _current; if (current != null) return current; await Task.Yield(); return _current = key.ToString(); } finally { _lock.Release(); } }")]
    [InlineData("private async Task<string> Get(int key) { string? current; if ((current = _current) != null) [|return current;|] using (await Lock().ConfigureAwait(false)) { return _current = key.ToString(); } }")]
    [InlineData("private async Task<string> Get(int key) { try { if (_current is { } current) [|return current;|] await _lock.WaitAsync(); return _current ??= key.ToString(); } finally { _lock.Release(); } }")]
    [InlineData("private async Task<string> Get<T>(int key) { if (_values.TryGetValue(key, out var value)) [|return (string)value;|] await Task.Yield(); return \"\"; }")]
    [InlineData("private async Task<T> Get<T>(int key) { if (_values.TryGetValue(key, out object? value)) { [|return (T)value!;|] } await Task.Yield(); return default!; }")]
    [InlineData("private async Task<T?> Get<T>(int key) where T : class { if (_values.TryGetValue(key, out var value)) [|return value as T;|] await Task.Yield(); return null; }")]
    [InlineData("private async Task<T> Get<T>(int key) { if (TryGet(key, out T? value)) [|return value!;|] await Task.Yield(); return default!; }")]
    [InlineData("private async Task<string> Get(int key) { var current = _current; if (current == null) { await _lock.WaitAsync().ConfigureAwait(false); try { current = _current ??= key.ToString(); } finally { _lock.Release(); } } [|return current;|] }")]
    [InlineData("private async Task<T> Get<T>(int key) { if (!_values.TryGetValue(key, out var value)) { value = await Load(key); _values[key] = value; } [|return (T)value;|] }")]
    [InlineData("private async Task<string> Get(int key) { string? current = _current; if (current is null) { try { current = (string)await Load(key); } catch (InvalidCastException) { current = \"\"; } } [|return current;|] }")]
    [InlineData("private async Task<string> Get(int key) { switch (key) { case 0: await Task.Yield(); break; } [|return key.ToString();|] }")]
    public async Task FastPathSpellings_AroundLocksCastsAndOutVariables_AreReported(string method)
    {
        var name = method.Contains("Get<T>", StringComparison.Ordinal) ? "Get<string>" : "Get";
        await Verify.VerifyAnalyzerAsync($$"""
            using System;
            using System.Collections.Generic;
            using System.Threading;
            using System.Threading.Tasks;

            class C
            {
                private readonly SemaphoreSlim _lock = new SemaphoreSlim(1, 1);
                private readonly Dictionary<int, object> _values = new();
                private string? _current;
                private Task<IDisposable> Lock() => Task.FromResult<IDisposable>(null!);
                private bool TryGet<T>(int key, out T? value) { value = default; return false; }
                private Task<object> Load(int key) => Task.FromResult<object>(key);

                {{method}}

                public async Task<string?> Use() => await {{name}}(1) + await {{name}}(2);
            }
            """);
    }

    [Fact]
    public async Task Rule_IsASuggestionWithAHelpLink()
    {
        Assert.Equal(DiagnosticSeverity.Info, ValueTaskFastPathAnalyzer.Rule.DefaultSeverity);
        Assert.True(ValueTaskFastPathAnalyzer.Rule.IsEnabledByDefault);
        Assert.EndsWith("/docs/rules/TPL0008.md", ValueTaskFastPathAnalyzer.Rule.HelpLinkUri, StringComparison.Ordinal);
        await Verify.VerifyAnalyzerAsync(Class(Method.Replace("return hit;", "[|return hit;|]", StringComparison.Ordinal), Awaits));
    }

    /// <summary>Each way a caller can use the task other than awaiting it once, at once.</summary>
    [Theory]
    [InlineData("public Task<string> Stored() => Get(1);")]
    [InlineData("public async Task<string> Local() { var task = Get(1); return await task; }")]
    [InlineData("public Task<string[]> All() => Task.WhenAll(Get(1), Get(2));")]
    [InlineData("public Task<Task<string>> Any() => Task.WhenAny(Get(1));")]
    [InlineData("public string Blocking() => Get(1).Result;")]
    [InlineData("public string Waiting() => Get(1).GetAwaiter().GetResult();")]
    [InlineData("public Func<int, Task<string>> Group() => Get;")]
    [InlineData("public Task<string> Continued() => Get(1).ContinueWith(t => t.Result);")]
    [InlineData("public async Task<string?> Conditional(C? other) => await (other?.Get(1) ?? Task.FromResult<string>(\"\"));")]
    [InlineData("public async Task<string> Options() => await Get(1).ConfigureAwait(ConfigureAwaitOptions.None);")]
    [InlineData("public Task<string> Lambda() { Func<Task<string>> f = () => Get(1); return f(); }")]
    [InlineData("public Task<string> Escaped() => \\u0047et(1);")]
    [InlineData("public Task<string> EscapedInside() => G\\u0065t(1);")]
    [InlineData("public Task<string> Verbatim() => @Get(1);")]
    public async Task AnyOtherUse_ReportsNothing(string otherUse)
    {
        await Verify.VerifyAnalyzerAsync(Class(Method, Awaits + "\n    " + otherUse));
    }

    /// <summary>The callers are found by searching the text: the name in a comment, a string or a longer name is no use.</summary>
    /// <summary>
    /// A caller in an #if branch this build does not compile may keep the task in the builds that do: not reported in
    /// either configuration, as the fix is withheld in both. Named only in a comment, the method is still reported.
    /// </summary>
    [Theory]
    [InlineData(false)]
    [InlineData(true)]
    public async Task CallerInAnInactiveBranch_ReportsNothingInAnyConfiguration(bool debug)
    {
        var test = new Verify.Test
        {
            TestCode = Class(Method, Awaits + "\n#if DEBUG\n    public Task<string> Kept() => Get(3);\n#endif\n"),
        };
        if (debug)
        {
            test.PreprocessorSymbols.Add("DEBUG");
        }

        await test.RunAsync();
        await Verify.VerifyAnalyzerAsync(Class(Method.Replace("return hit;", "[|return hit;|]", StringComparison.Ordinal), Awaits + "\n#if DEBUG\n    // Get is logged here\n#endif\n"));
    }

    [Fact]
    public async Task NameInCommentsStringsAndLongerNames_IsNoUse()
    {
        var others = """
            // Get(1) is kept elsewhere: Task<string> t = Get(1);
            public string Text => "Get(1)" + $"{nameof(Use)} Get(2)";
            private Task<string> Getter(int key) => Task.FromResult("");
            public Task<string> Kept() => Getter(1);
            """;
        await Verify.VerifyAnalyzerAsync(Class(Method.Replace("return hit;", "[|return hit;|]", StringComparison.Ordinal), Awaits + "\n" + others));
    }

    [Fact]
    public async Task NeverCalled_ReportsNothing()
    {
        await Verify.VerifyAnalyzerAsync(Class(Method, ""));
    }

    /// <summary>Anything another assembly could call, or a signature something else fixed.</summary>
    [Theory]
    [InlineData("public async Task<string> Get(int key)")]
    [InlineData("protected async Task<string> Get(int key)")]
    [InlineData("protected internal async Task<string> Get(int key)")]
    [InlineData("[System.Runtime.CompilerServices.AsyncMethodBuilder(typeof(System.Runtime.CompilerServices.AsyncTaskMethodBuilder<string>))] private async Task<string> Get(int key)")]
    public async Task VisibleOrCustomized_ReportsNothing(string declaration)
    {
        var method = Method.Replace("private async Task<string> Get(int key)", declaration, StringComparison.Ordinal);
        await Verify.VerifyAnalyzerAsync(Class(method, Awaits).Replace("class C", "public class C", StringComparison.Ordinal));
    }

    /// <summary>Only this assembly can call an internal method, so every call is in the compilation: in any file.</summary>
    [Theory]
    [InlineData("internal")]
    [InlineData("private protected")]
    public async Task AssemblyOnlyMethod_CalledFromOtherTypes_IsReportedAndFixed(string accessibility)
    {
        var source = $$"""
            using System.Collections.Generic;
            using System.Threading.Tasks;

            public class Store
            {
                private readonly Dictionary<int, string> _cache = new();

                {{accessibility}} async Task<string> Get(int key) { if (_cache.TryGetValue(key, out var hit)) [|return hit;|] await Task.Yield(); return "x"; }
            }
            """;
        const string User = """
            using System.Threading.Tasks;

            class User : Store
            {
                public async Task<string> Use(User other) => await other.Get(1) + await Get(2).ConfigureAwait(false);
            }
            """;
        var test = new Verify.Test
        {
            TestState = { Sources = { ("Store.cs", source), ("User.cs", User) } },
            FixedState = { Sources = { ("Store.cs", source.Replace("async Task<string> Get", "async ValueTask<string> Get", StringComparison.Ordinal).Replace("[|return hit;|]", "return hit;", StringComparison.Ordinal)), ("User.cs", User) } },
        };
        await test.RunAsync();
    }

    /// <summary>A use in another type's file that keeps the task, in ordinary or generated code, keeps the method as it is.</summary>
    [Theory]
    [InlineData("User.cs")]
    [InlineData("User.g.cs")]
    public async Task InternalMethod_KeptByAnotherType_ReportsNothing(string file)
    {
        var run = new AnalyzerRun(new ValueTaskFastPathAnalyzer())
        {
            Sources =
            {
                ("Store.cs", Class(Method.Replace("private async", "internal async", StringComparison.Ordinal), Awaits)),
                (file, "using System.Threading.Tasks;\nclass User { Task<string> Keep(C c) => c.Get(1); }"),
            },
        };
        Assert.Empty(await run.DiagnosticsAsync());
        Assert.Empty(await run.OpenFileDiagnosticsAsync("Store.cs"));
    }

    /// <summary>InternalsVisibleTo lets another assembly call it, where the rule cannot see the calls.</summary>
    [Fact]
    public async Task InternalMethod_WithInternalsVisibleTo_ReportsNothing()
    {
        var method = Method.Replace("private async", "internal async", StringComparison.Ordinal);
        var test = new Verify.Test
        {
            TestState = { Sources = { ("C.cs", Class(method, Awaits)), ("Assembly.cs", "[assembly: System.Runtime.CompilerServices.InternalsVisibleTo(\"Tests\")]") } },
        };
        await test.RunAsync();
    }

    /// <summary>The open file's answer for an internal method is the build's: both read every file's syntax.</summary>
    [Fact]
    public async Task InternalMethod_OpenFile_ReportsAsTheBuildDoes()
    {
        var run = new AnalyzerRun(new ValueTaskFastPathAnalyzer())
        {
            Sources =
            {
                ("Store.cs", Class(Method.Replace("private async", "internal async", StringComparison.Ordinal), "")),
                ("User.cs", "using System.Threading.Tasks;\nclass User { async Task<string> Use(C c) => await c.Get(1); }"),
            },
        };
        var live = await run.OpenFileDiagnosticsAsync("Store.cs");
        Assert.Equal(["TPL0008"], live.Select(d => d.Id));
        Assert.Equal((await run.DiagnosticsAsync()).Select(d => d.Location.GetLineSpan()), live.Select(d => d.Location.GetLineSpan()));
    }

    [Fact]
    public async Task InterfaceImplementationAndEntryPoint_ReportNothing()
    {
        const string Code = """
            using System.Threading.Tasks;

            interface ISource { Task<string> Get(int key); }

            class Source : ISource
            {
                async Task<string> ISource.Get(int key) { if (key > 0) return "x" + key; await Task.Yield(); return ""; }

                async Task<string> Use() => await ((ISource)this).Get(1);
            }

            static class Program
            {
                private static async Task<int> Main(string[] args) { if (args.Length == 0) return 42; await Task.Yield(); return 7; }
            }
            """;
        await new Verify.Test { TestCode = Code, TestState = { OutputKind = OutputKind.ConsoleApplication } }.RunAsync();
    }

    /// <summary>
    /// Fast paths written as one expression: the await-free branch of a returned ?: or ?? completes synchronously
    /// (a buffered read, a cached configuration). So does a return before an await that only a finally runs later.
    /// </summary>
    [Theory]
    [InlineData("private async Task<string> Get(int key) => [|_pos < _buffer.Length ? _buffer[_pos++] : await Fill(key)|];")]
    [InlineData("private async Task<string> Get(int key) { [|return _config ?? (_config = await Fill(key));|] }")]
    [InlineData("private async Task<string> Get(int key) => [|key > 0 ? (_config ?? await Fill(key)) : await Fill(-key)|];")]
    public async Task FastPathsWrittenAsOneExpression_AreReported(string method)
    {
        const string Helpers = """
            private string[] _buffer = new string[4];
            private int _pos;
            private string? _config;
            private static Task<string> Fill(int key) => Task.FromResult("v");
            """;
        await Verify.VerifyAnalyzerAsync(Class(method + "\n" + Helpers, Awaits));
    }

    /// <summary>
    /// A return taken only when an argument is null or empty is a guard: every real call goes on to the await, where
    /// ValueTask&lt;T&gt; costs more than Task&lt;T&gt;. An await in a finally around the return runs on the way out,
    /// as <c>await using</c> does, so the return does not complete synchronously.
    /// </summary>
    [Theory]
    [InlineData("private async Task<string> Get(string? uri) { if (uri is null) return \"\"; return await Load(uri); }")]
    [InlineData("private async Task<string> Get(string? uri) { if (string.IsNullOrEmpty(uri)) { return \"none\"; } return await Load(uri); }")]
    [InlineData("private async Task<string> Get(string? uri) => uri == null || uri.Length == 0 ? \"none\" : await Load(uri);")]
    [InlineData("private async Task<string> Get(string? uri) { try { return \"x\" + uri; } finally { await Task.Yield(); } }")]
    [InlineData("private async Task<string> Get(string? uri) => uri ?? await Load(\"\");")]
    [InlineData("private async Task<string> Get(string? uri) { if (uri != null) { uri = await Load(uri); } return uri ?? \"\"; }")]
    public async Task ArgumentGuards_AndReturnsAFinallyAwaitsAfter_ReportNothing(string method)
    {
        const string Helpers = """private static Task<string> Load(string uri) => Task.FromResult(uri);""";
        await Verify.VerifyAnalyzerAsync(Class(method + "\n" + Helpers, "public async Task<string> Use() => await Get(\"a\") + \"!\";"));
    }

    /// <summary>No synchronous return, or only results the runtime caches for an async method anyway.</summary>
    [Theory]
    [InlineData("private async Task<string> Get(int key) { await Task.Yield(); if (key > 0) return \"x\"; return \"y\"; }")]
    [InlineData("private async Task<string> Get(int key) { return await Load(key); }")]
    [InlineData("private async Task<string> Get(int key) => await Load(key);")]
    [InlineData("private async Task<string> Get(int key) { await using var d = new D(); if (key > 0) return \"x\"; return \"y\"; }")]
    [InlineData("private async Task<string> Get(int key) { await foreach (var s in Many()) { return s; } return \"\"; }")]
    [InlineData("private async Task<string?> Get(int key) { if (key > 0) return null; await Task.Yield(); return \"y\"; }")]
    [InlineData("private async Task<string> Get(int key) { var all = \"\"; foreach (var k in new[] { key }) all += await Load(k); return all; }")]
    [InlineData("private async Task<string> Get(int key) { string v; if (key > 0) { v = await Load(key); } else { v = await Load(-key); } return v; }")]
    [InlineData("private async Task<string> Get(int key) { if (key > 0) throw new ArgumentException(); else await Task.Yield(); return \"y\"; }")]
    [InlineData("private async Task<string> Get(int key) { try { if (key > 0) await Task.Yield(); } finally { await Task.Yield(); } return \"y\"; }")]
    [InlineData("private async Task<string> Get(int key) { while (key > 0) { await Task.Yield(); key--; } return key.ToString(); }")]
    public async Task NoUncachedFastPath_ReportsNothing(string method)
    {
        const string Helpers = """
            private static Task<string> Load(int key) => Task.FromResult("v");
            private static async IAsyncEnumerable<string> Many() { await Task.Yield(); yield return ""; }
            private sealed class D : IAsyncDisposable { public ValueTask DisposeAsync() => default; }
            """;
        await Verify.VerifyAnalyzerAsync(Class(method + "\n" + Helpers, "public async Task<string?> Use() => await Get(1) + \"!\";"));
    }

    /// <summary>The async method builder caches these on every runtime, .NET Framework 4.5 included.</summary>
    [Theory]
    [InlineData("bool", "key > 0", TestTarget.Net100)]
    [InlineData("bool", "true", TestTarget.NetStandard20WithValueTask)]
    [InlineData("int", "8", TestTarget.NetStandard20WithValueTask)]
    [InlineData("int", "-1", TestTarget.Net100)]
    [InlineData("long", "0", TestTarget.NetStandard20WithValueTask)]
    [InlineData("double", "0.0", TestTarget.Net100)]
    [InlineData("Guid", "default", TestTarget.Net80)]
    public async Task CachedResults_ReportNothing(string type, string value, TestTarget target)
    {
        var method = $"private async Task<{type}> Get(int key) {{ if (key > 0) return {value}; await Task.Yield(); return default; }}";
        await new Verify.Test { Target = target, TestCode = Class(method, $"public async Task<{type}> Use() {{ var result = await Get(1); return result; }}") }.RunAsync();
    }

    [Theory]
    [InlineData("int", "9", TestTarget.Net100)]
    [InlineData("double", "0.0", TestTarget.NetStandard20WithValueTask)]
    [InlineData("Guid", "default", TestTarget.NetStandard20WithValueTask)]
    [InlineData("int", "key", TestTarget.Net100)]
    [InlineData("long?", "0", TestTarget.Net100)]
    public async Task UncachedResults_AreReported(string type, string value, TestTarget target)
    {
        var method = $"private async Task<{type}> Get(int key) {{ if (key > 0) [|return {value};|] await Task.Yield(); return default; }}";
        await new Verify.Test
        {
            Target = target,
            LanguageVersion = target == TestTarget.Net100 ? LanguageVersion.CSharp12 : LanguageVersion.CSharp7_3,
            NullableContext = target == TestTarget.Net100 ? NullableContextOptions.Enable : NullableContextOptions.Disable,
            TestCode = Class(method, $"public async Task<string> Use() {{ var result = await Get(1); return result.ToString(); }}").Replace("new();", "new Dictionary<int, string>();", StringComparison.Ordinal),
            CompilerDiagnostics = CompilerDiagnostics.None,
        }.RunAsync();
    }

    /// <summary>An await in a lambda or local function does not end the method's synchronous part.</summary>
    [Fact]
    public async Task AwaitInsideALambdaOrLocalFunction_DoesNotCount()
    {
        const string Method = """
            private async Task<string> Get(int key)
            {
                Func<Task> later = async () => await Task.Yield();
                async Task Local() => await Task.Yield();
                if (key > 0) [|return "x" + key;|]
                await later();
                await Local();
                return "";
            }
            """;
        await Verify.VerifyAnalyzerAsync(Class(Method, Awaits));
    }

    /// <summary>netstandard2.0 and .NET Framework have no ValueTask&lt;T&gt; without System.Threading.Tasks.Extensions; C# 6 cannot return one from an async method.</summary>
    [Theory]
    [InlineData(TestTarget.NetStandard20, LanguageVersion.CSharp7_3)]
    [InlineData(TestTarget.Net472, LanguageVersion.CSharp7_3)]
    [InlineData(TestTarget.NetStandard20WithValueTask, LanguageVersion.CSharp6)]
    public async Task NoValueTask_ReportsNothing(TestTarget target, LanguageVersion version)
    {
        const string Code = """
            using System.Threading.Tasks;

            class C
            {
                private async Task<string> Get(int key) { if (key > 0) return "x" + key; await Task.Yield(); return ""; }

                public async Task<string> Use() { return await Get(1); }
            }
            """;
        await new Verify.Test { Target = target, LanguageVersion = version, NullableContext = NullableContextOptions.Disable, TestCode = Code }.RunAsync();
    }

    [Fact]
    public async Task CallFromNestedType_IsSeen()
    {
        const string Code = """
            using System.Threading.Tasks;

            class Outer
            {
                private static async Task<string> Get(string s) { if (s.Length > 0) return s; await Task.Yield(); return ""; }

                public static async Task<string> Direct() => await Get("a") + "!";

                class Inner
                {
                    public Task<string> Stored() => Get("b");

                    private static async Task<string> Own(string s) { if (s.Length > 0) [|return s;|] await Task.Yield(); return ""; }

                    public static async Task<string> UseOwn() => await Own("c") + "!";
                }
            }
            """;
        await Verify.VerifyAnalyzerAsync(Code);
    }

    [Fact]
    public async Task TopLevelStatements_LocalFunction()
    {
        var test = new Verify.Test
        {
            TestCode = """
                using System.Threading.Tasks;

                System.Console.WriteLine(await Get("x"));

                async Task<string> Get(string s) { if (s.Length > 0) [|return s;|] await Task.Yield(); return ""; }
                """,
            FixedCode = """
                using System.Threading.Tasks;

                System.Console.WriteLine(await Get("x"));

                async ValueTask<string> Get(string s) { if (s.Length > 0) return s; await Task.Yield(); return ""; }
                """,
        };
        test.TestState.OutputKind = OutputKind.ConsoleApplication;
        await test.RunAsync();
    }

    [Fact]
    public async Task LocalFunctionInALambda_IsReported()
    {
        const string Code = """
            using System;
            using System.Threading.Tasks;

            class C
            {
                public Func<int, Task<string>> Make() => async key =>
                {
                    async Task<string> Get(int k) { if (k > 0) [|return "x" + k;|] await Task.Yield(); return ""; }
                    return await Get(key) + "!";
                };
            }
            """;
        await Verify.VerifyAnalyzerAsync(Code);
    }

    private const string PartOne = """
        using System.Threading.Tasks;

        partial class Store
        {
            private async Task<string> Get(string s) { if (s.Length > 0) return s; await Task.Yield(); return ""; }

            public async Task<string> Direct() => await Get("a") + "!";
        }
        """;

    private const string StoringPart = """
        using System.Threading.Tasks;

        partial class Store
        {
            public Task<string> Stored() => Get("b");
        }
        """;

    /// <summary>What VS shows live for an open file is what the build reports: the type's calls are collected per type.</summary>
    [Fact]
    public async Task OpenFile_ReportsAsTheBuildDoes()
    {
        var run = new AnalyzerRun(new ValueTaskFastPathAnalyzer()) { Sources = { ("One.cs", PartOne) } };
        var live = await run.OpenFileDiagnosticsAsync("One.cs");
        Assert.Equal(["TPL0008"], live.Select(d => d.Id));
        Assert.Equal((await run.DiagnosticsAsync()).Select(d => d.Location.GetLineSpan()), live.Select(d => d.Location.GetLineSpan()));
    }

    [Fact]
    public async Task OpenFile_SeesTheCallsInTheTypesOtherFiles()
    {
        var run = new AnalyzerRun(new ValueTaskFastPathAnalyzer()) { Sources = { ("One.cs", PartOne), ("Two.cs", StoringPart) } };
        Assert.Empty(await run.DiagnosticsAsync());
        Assert.Empty(await run.OpenFileDiagnosticsAsync("One.cs"));
        Assert.Empty(await run.OpenFileDiagnosticsAsync("Two.cs"));
    }

    /// <summary>A generated partial's calls count, although nothing is reported in generated code.</summary>
    [Theory]
    [InlineData("Two.g.cs", "")]
    [InlineData("Two.cs", "// <auto-generated/>\n")]
    public async Task CallInGeneratedCode_IsSeen(string name, string header)
    {
        var run = new AnalyzerRun(new ValueTaskFastPathAnalyzer()) { Sources = { ("One.cs", PartOne), (name, header + StoringPart) } };
        Assert.Empty(await run.DiagnosticsAsync());
    }

    [Fact]
    public async Task CandidateInGeneratedCode_IsNotReported()
    {
        var run = new AnalyzerRun(new ValueTaskFastPathAnalyzer()) { Sources = { ("One.g.cs", PartOne) } };
        Assert.Empty(await run.DiagnosticsAsync());
    }

    [Fact]
    public async Task ScopeOptions_Apply()
    {
        var run = new AnalyzerRun(new ValueTaskFastPathAnalyzer())
        {
            Sources = { ("One.cs", "namespace Legacy {\n" + PartOne + "\n}") },
            EditorConfig = "root = true\n[*.cs]\ntpl_practices.TPL0008.excluded_namespaces = Legacy\n",
        };
        Assert.Empty(await run.DiagnosticsAsync());
    }
}
