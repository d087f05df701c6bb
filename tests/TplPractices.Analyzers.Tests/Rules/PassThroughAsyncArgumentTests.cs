using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp;
using Microsoft.CodeAnalysis.Testing;
using TplPractices.Analyzers.Tests.Verifiers;
using Verify = TplPractices.Analyzers.Tests.Verifiers.CSharpCodeFixVerifier<
    TplPractices.Analyzers.Rules.PassThroughAsyncAnalyzer,
    TplPractices.Analyzers.CodeFixes.Rules.PassThroughAsyncFixer>;

namespace TplPractices.Analyzers.Tests.Rules;

/// <summary>
/// TPL0016's arguments that cannot throw beyond reads and arithmetic: a choice (<c>?:</c>, <c>??</c>), a numeric
/// cast, a division by a constant other than 0 and -1, strings joined or interpolated of strings, an array of such
/// values, a <c>TimeSpan</c> of constants. Evaluated before the call either way, none can move an exception out of the
/// task.
/// </summary>
public sealed class PassThroughAsyncArgumentTests
{
    private const string Before = /* lang=c#-test */ """
        using System;
        using System.Threading.Tasks;

        public class Service
        {
            private async Task<string> Show(object value) { await Task.Yield(); return value is Array array ? string.Join("|", (int[])array) : value.ToString()!; }

            public async Task<string> Choice(bool wide, int n) => {|#0:await|} Show(wide ? n * 2 : n);

            public async Task<string> Fallback(string? name) => {|#1:await|} Show(name ?? "none");

            public async Task<string> Narrowed(long n) => {|#2:await|} Show((int)n);

            public async Task<string> Halved(int n) => {|#3:await|} Show(n / 2 + n % 3);

            public async Task<string> Joined(string name) => {|#4:await|} Show("id:" + name);

            public async Task<string> Interpolated(string name, char mark) => {|#5:await|} Show($"<{name}{mark}>");

            public async Task<string> Pair(int a, int b) => {|#6:await|} Show(new[] { a, b });

            public async Task<string> Span() => {|#7:await|} Show(TimeSpan.FromSeconds(90));
        }

        public static class Api
        {
            public static async Task<string> Run(int x)
            {
                var s = new Service();
                return string.Join(",", await s.Choice(x > 1, x), await s.Fallback(null), await s.Narrowed(x + 4_294_967_296L),
                    await s.Halved(x), await s.Joined("a"), await s.Interpolated("b", '!'), await s.Pair(x, -x), await s.Span());
            }
        }
        """;

    private static readonly string After = TestMarkup.Strip(Before)
        .Replace("public async Task<string> Choice", "public Task<string> Choice", StringComparison.Ordinal)
        .Replace("public async Task<string> Fallback", "public Task<string> Fallback", StringComparison.Ordinal)
        .Replace("public async Task<string> Narrowed", "public Task<string> Narrowed", StringComparison.Ordinal)
        .Replace("public async Task<string> Halved", "public Task<string> Halved", StringComparison.Ordinal)
        .Replace("public async Task<string> Joined", "public Task<string> Joined", StringComparison.Ordinal)
        .Replace("public async Task<string> Interpolated", "public Task<string> Interpolated", StringComparison.Ordinal)
        .Replace("public async Task<string> Pair", "public Task<string> Pair", StringComparison.Ordinal)
        .Replace("public async Task<string> Span", "public Task<string> Span", StringComparison.Ordinal)
        .Replace("=> await Show(", "=> Show(", StringComparison.Ordinal);

    private static readonly string[] Names = ["Choice", "Fallback", "Narrowed", "Halved", "Joined", "Interpolated", "Pair", "Span"];

    [Fact]
    public async Task ArgumentsThatCannotThrow_AreFixed()
    {
        var test = new Verify.Test { TestCode = Before, FixedCode = After };
        for (var i = 0; i < Names.Length; i++)
        {
            test.ExpectedDiagnostics.Add(Verify.Diagnostic().WithLocation(i).WithArguments($"'{Names[i]}'", "'Show'"));
        }

        await test.RunAsync();
    }

    /// <summary>The same file compiled for netstandard2.0 with C# 7.3 beside net10.0 (no nullable annotations there).</summary>
    [Fact]
    public async Task OnTwoTargets_TheFixBuildsInBoth()
    {
        var test = new Verify.Test
        {
            TestCode = Before.Replace("string? name", "string name", StringComparison.Ordinal).Replace("value.ToString()!", "value.ToString()", StringComparison.Ordinal),
            FixedCode = After.Replace("string? name", "string name", StringComparison.Ordinal).Replace("value.ToString()!", "value.ToString()", StringComparison.Ordinal),
            LinkedTargets = { new LinkedTarget(TestTarget.NetStandard20, LanguageVersion.CSharp7_3, NullableContextOptions.Disable) },
        };
        for (var i = 0; i < Names.Length; i++)
        {
            test.ExpectedDiagnostics.Add(Verify.Diagnostic().WithLocation(i).WithArguments($"'{Names[i]}'", "'Show'"));
        }

        await test.RunAsync();
    }

    [Theory]
    [InlineData(1)]
    [InlineData(7)]
    public async Task FixedCode_ShowsWhatTheOriginalShowed(int x)
    {
        var original = await CodeRunner.RunAsync(TestMarkup.Strip(Before), "Api", "Run", x);
        Assert.StartsWith("returned ", original, StringComparison.Ordinal);
        Assert.Equal(original, await CodeRunner.RunAsync(After, "Api", "Run", x));
    }

    /// <summary>
    /// Not reported: an int formatted into a string (a hole of another type runs its formatting), a string joined with
    /// an object (its ToString), a division by a variable or by -1, a decimal or nullable cast, an unboxing, an array
    /// whose size is a variable (a negative one throws), a format string.
    /// </summary>
    [Fact]
    public async Task ArgumentsThatCanThrow_AreNotReported()
    {
        await Verify.VerifyAnalyzerAsync(/* lang=c#-test */ """
            using System.Threading.Tasks;

            public class Quiet
            {
                private async Task<string> Show(object value) { await Task.Yield(); return value.ToString(); }

                public async Task<string> Hole(int n) => await Show($"n{n}");
                public async Task<string> Joined(object o) => await Show("o" + o);
                public async Task<string> ByVariable(int n, int d) => await Show(n / d);
                public async Task<string> ByMinusOne(int n) => await Show(n / -1);
                public async Task<string> Money(decimal m) => await Show((int)m);
                public async Task<string> Unwrapped(int? n) => await Show((int)n);
                public async Task<string> Unboxed(object o) => await Show((int)o);
                public async Task<string> Sized(int n) => await Show(new int[n]);
                public async Task<string> Formatted(string s) => await Show($"{s,5}");
            }
            """);
    }

    /// <summary>
    /// The values a task factory is given, and a held task with a fallback: <c>Task.FromResult</c> of arithmetic or a
    /// joined string cannot throw either, nor can <c>string.Empty</c> and <c>typeof</c> as arguments, and <c>held ?? Task.FromResult(0)</c> is never null, so the caller awaits the
    /// task it awaited before (AsyncFixer's own inputs await such a fallback).
    /// </summary>
    private const string Factories = /* lang=c#-test */ """
        using System;
        using System.Threading.Tasks;

        public class Cache
        {
            private Task<int>? _pending;

            public Cache(Task<int>? pending) => _pending = pending;

            public async Task<int> Doubled(int n) => [|await|] Task.FromResult(n * 2);

            public async Task<string> Label(string name) => [|await|] Task.FromResult("k:" + name);

            public async Task<int> Current() => [|await|] (_pending ?? Task.FromResult(0));

            private async Task<string> Describe(string prefix, Type type) { await Task.Yield(); return prefix + type.Name; }

            public async Task<string> Described() => [|await|] Describe(string.Empty, typeof(Cache));

            public async Task<int> Either(Task<int>? given, bool flag)
            {
                return [|await|] (given ?? (flag ? Task.FromResult(1) : Task.FromResult(-1)));
            }
        }

        public static class Api
        {
            public static async Task<string> Run(int mode)
            {
                var pending = mode switch
                {
                    0 => null,
                    1 => Task.FromResult(41),
                    _ => Task.FromException<int>(new InvalidOperationException()),
                };
                var cache = new Cache(pending);
                try
                {
                    return string.Join(",", await cache.Doubled(mode), await cache.Label("x"), await cache.Either(null, mode > 0), await cache.Described(), await cache.Current());
                }
                catch (InvalidOperationException)
                {
                    return "faulted";
                }
            }
        }
        """;

    private static string FactoriesFixed() => Factories
        .Replace("public async Task<int> Doubled(int n) => [|await|] ", "public Task<int> Doubled(int n) => ", StringComparison.Ordinal)
        .Replace("public async Task<string> Label(string name) => [|await|] ", "public Task<string> Label(string name) => ", StringComparison.Ordinal)
        .Replace("public async Task<int> Current() => [|await|] (_pending ?? Task.FromResult(0));", "public Task<int> Current() => _pending ?? Task.FromResult(0);", StringComparison.Ordinal)
        .Replace("public async Task<string> Described() => [|await|] ", "public Task<string> Described() => ", StringComparison.Ordinal)
        .Replace("public async Task<int> Either", "public Task<int> Either", StringComparison.Ordinal)
        .Replace("return [|await|] (given ?? (flag ? Task.FromResult(1) : Task.FromResult(-1)));", "return given ?? (flag ? Task.FromResult(1) : Task.FromResult(-1));", StringComparison.Ordinal);

    [Fact]
    public async Task FactoryValuesAndAHeldTaskWithAFallback_AreFixed()
    {
        await new Verify.Test { TestCode = Factories, FixedCode = FactoriesFixed() }.RunAsync();
    }

    [Theory]
    [InlineData(0)]
    [InlineData(1)]
    [InlineData(2)]
    public async Task FactoryValues_FixedCode_DoesWhatTheOriginalDid(int mode)
    {
        var original = await CodeRunner.RunAsync(TestMarkup.Strip(Factories), "Api", "Run", mode);
        Assert.Equal(original, await CodeRunner.RunAsync(FactoriesFixed(), "Api", "Run", mode));
    }

    /// <summary>
    /// Not reported: a fallback made by a plain method that may throw at the call (it divides), a held task read through a call or
    /// a property, and a factory value that can throw (a division by a variable).
    /// </summary>
    [Fact]
    public async Task FallbacksAndValuesThatCanThrow_AreNotReported()
    {
        await Verify.VerifyAnalyzerAsync(/* lang=c#-test */ """
            using System.Threading.Tasks;

            public class Quiet
            {
                private Task<int> _held = Task.FromResult(1);

                private Task<int> Made(int n = 0) => Task.FromResult(10 / n);

                public Task<int> Held => _held;

                public async Task<int> ByPlainMethod(Task<int> given) => await (given ?? Made());
                public async Task<int> ThroughCall() => await (Made() ?? Task.FromResult(0));
                public async Task<int> ThroughProperty() => await (Held ?? Task.FromResult(0));
                public async Task<int> Divided(int n, int d) => await Task.FromResult(n / d);
            }
            """);
    }

    /// <summary>
    /// Auto-properties of this instance read as their fields do: as arguments and as tests (Polly's chaos strategies
    /// hand their generator properties on so), and a record's positional property.
    /// </summary>
    private const string Properties = /* lang=c#-test */ """
        using System;
        using System.Threading.Tasks;

        public sealed class Gate
        {
            public Gate(int limit, bool open) { Limit = limit; Open = open; }

            public int Limit { get; }

            public bool Open { get; set; }

            private static async Task<string> CheckAsync(int limit, bool open) { await Task.Yield(); return limit + ":" + open; }

            public async Task<string> Check() => [|await|] CheckAsync(Limit, Open);

            public async Task<string> Guarded()
            {
                if (Open) return [|await|] CheckAsync(Limit, true);
                return await CheckAsync(0, false);
            }
        }

        public record Query(int Page)
        {
            private static async Task<string> RunAsync(int page) { await Task.Yield(); return "page " + page; }

            public async Task<string> Run() => [|await|] RunAsync(Page);
        }

        public static class Api
        {
            public static async Task<string> Run(int limit, bool open) =>
                await new Gate(limit, open).Check() + "," + await new Gate(limit, open).Guarded() + "," + await new Query(limit).Run();
        }
        """;

    private static string PropertiesFixed() => TestMarkup.Strip(Properties)
        .Replace("public async Task<string> Check() => await ", "public Task<string> Check() => ", StringComparison.Ordinal)
        .Replace("public async Task<string> Guarded()", "public Task<string> Guarded()", StringComparison.Ordinal)
        .Replace("if (Open) return await CheckAsync(Limit, true);", "if (Open) return CheckAsync(Limit, true);", StringComparison.Ordinal)
        .Replace("return await CheckAsync(0, false);", "return CheckAsync(0, false);", StringComparison.Ordinal)
        .Replace("public async Task<string> Run() => await ", "public Task<string> Run() => ", StringComparison.Ordinal);

    [Fact]
    public async Task AutoPropertiesOfThisInstance_AreReads()
    {
        await new Verify.Test { TestCode = Properties, FixedCode = PropertiesFixed() }.RunAsync();
    }

    /// <summary>
    /// An instance method of an unsealed type that hands its own auto-property, whose setter only derived types reach,
    /// to a static overload of the same name (found on Rebus's data-bus attachment): the property is a read as any
    /// auto-property of this instance is, and the call still binds to the static overload once the method returns
    /// its task.
    /// </summary>
    [Fact]
    public async Task AnAutoPropertyWithAProtectedSetter_HandedToAStaticOverload_IsARead()
    {
        const string Before = /* lang=c#-test */ """
            using System.IO;
            using System.Threading.Tasks;

            public class Blob
            {
                public Blob(string key) { Key = key; }

                public string Key { get; protected set; }

                public async Task<Stream> Open() => [|await|] Open(Key);

                public static async Task<Stream> Open(string key)
                {
                    await Task.Yield();
                    return new MemoryStream(new byte[key.Length]);
                }
            }
            """;
        var fixedCode = Before.Replace("public async Task<Stream> Open() => [|await|] Open(Key);", "public Task<Stream> Open() => Open(Key);", StringComparison.Ordinal);
        Assert.NotEqual(Before, fixedCode);
        await new Verify.Test { TestCode = Before, FixedCode = fixedCode }.RunAsync();
    }

    [Theory]
    [InlineData(3, true)]
    [InlineData(0, false)]
    public async Task AutoProperties_FixedCode_DoesWhatTheOriginalDid(int limit, bool open)
    {
        var original = await CodeRunner.RunAsync(TestMarkup.Strip(Properties), "Api", "Run", limit, open);
        Assert.StartsWith("returned ", original, StringComparison.Ordinal);
        Assert.Equal(original, await CodeRunner.RunAsync(PropertiesFixed(), "Api", "Run", limit, open));
    }

    /// <summary>
    /// Not reported: a property whose getter has a body (it may throw), a virtual auto-property (an override may), a
    /// static one (its first read runs the type's initializer), and another object's (it may be null).
    /// </summary>
    [Fact]
    public async Task PropertiesThatMayRunCode_AreNotReads()
    {
        await Verify.VerifyAnalyzerAsync(/* lang=c#-test */ """
            using System;
            using System.Threading.Tasks;

            public class Quiet
            {
                private int _count;

                public int Counted => _count > 10 ? throw new InvalidOperationException() : _count;

                public virtual int Overridable { get; set; }

                public static int Shared { get; set; }

                public Quiet? Next { get; set; }

                private async Task<int> LoadAsync(int n) { await Task.Yield(); return n; }

                public async Task<int> ByBody() => await LoadAsync(Counted);
                public async Task<int> ByVirtual() => await LoadAsync(Overridable);
                public async Task<int> ByStatic() => await LoadAsync(Shared);
                public async Task<int> ByOther() => await LoadAsync(Next!.Overridable);
            }
            """);
    }

    /// <summary>
    /// The factory values, the fallback, <c>string.Empty</c>, <c>typeof</c> and auto-properties in a file compiled for
    /// netstandard2.0 at C# 7.3 beside net10.0 (no nullable annotations, no records there): both copies build the fix.
    /// The fallback is not a constant: netstandard2.0 caches none, and there TPL0003 takes <c>Task.FromResult(0)</c>.
    /// </summary>
    [Fact]
    public async Task FactoriesAndProperties_OnNetStandard20AtCSharp73_AreFixed()
    {
        const string Before = """
            using System;
            using System.Threading.Tasks;

            public sealed class Cache
            {
                private readonly Task<int> _pending;

                public Cache(Task<int> pending, int limit) { _pending = pending; Limit = limit; }

                public int Limit { get; }

                private async Task<string> Describe(string prefix, Type type, int limit) { await Task.Yield(); return prefix + type.Name + limit; }

                public async Task<int> Doubled(int n) => [|await|] Task.FromResult(n * 2);

                public async Task<int> Current() => [|await|] (_pending ?? Task.FromResult(Limit));

                public async Task<string> Described() => [|await|] Describe(string.Empty, typeof(Cache), Limit);
            }
            """;
        await new Verify.Test
        {
            TestCode = Before,
            FixedCode = TestMarkup.Strip(Before)
                .Replace("public async Task<int> Doubled(int n) => await ", "public Task<int> Doubled(int n) => ", StringComparison.Ordinal)
                .Replace("public async Task<int> Current() => await (_pending ?? Task.FromResult(Limit));", "public Task<int> Current() => _pending ?? Task.FromResult(Limit);", StringComparison.Ordinal)
                .Replace("public async Task<string> Described() => await ", "public Task<string> Described() => ", StringComparison.Ordinal),
            LinkedTargets = { new LinkedTarget(TestTarget.NetStandard20, LanguageVersion.CSharp7_3, NullableContextOptions.Disable) },
        }.RunAsync();
    }

    /// <summary>
    /// Values made without running code of the project: a struct's default made with <c>new</c> where the struct has
    /// no constructor of its own, an array of constant size, <c>Array.Empty&lt;T&gt;()</c>, and a static readonly field
    /// of the core library (<c>Stream.Null</c>, <c>DateTime.MinValue</c>). A fake client's methods return such values
    /// (FluentFTP's <c>FakeAsyncFtpClient</c>). A class's constructor runs code: kept. The file is compiled for
    /// netstandard2.0 at C# 7.3 beside net10.0, where the core library is netstandard.dll and System.Runtime.
    /// </summary>
    [Fact]
    public async Task DefaultStructsEmptyArraysAndCoreLibraryFields_AreFixed()
    {
        const string Before = """
            using System;
            using System.Collections.Generic;
            using System.IO;
            using System.Threading.Tasks;

            public struct Reply { public int Code; public string Text; }

            public class FakeClient
            {
                public async Task<Reply> GetReply() { return [|await|] Task.FromResult(new Reply()); }
                public async Task<string[]> GetNames() { return [|await|] Task.FromResult(new string[0]); }
                public async Task<int[]> GetSizes() => [|await|] Task.FromResult(Array.Empty<int>());
                public async Task<Stream> OpenRead() { return [|await|] Task.FromResult(Stream.Null); }
                public async Task<DateTime> GetModified() { return [|await|] Task.FromResult(DateTime.MinValue); }

                public async Task<List<int>> GetList() { return await Task.FromResult(new List<int>()); }
            }
            """;
        var fixedLines = Before.Split('\n').Select(line => line.Contains("[|await|] ", StringComparison.Ordinal)
            ? line.Replace("public async ", "public ", StringComparison.Ordinal).Replace("[|await|] ", string.Empty, StringComparison.Ordinal)
            : line);
        await new Verify.Test
        {
            TestCode = Before,
            FixedCode = string.Join("\n", fixedLines),
            LinkedTargets = { new LinkedTarget(TestTarget.NetStandard20, LanguageVersion.CSharp7_3, NullableContextOptions.Disable) },
        }.RunAsync();
    }

    /// <summary>A struct's own parameterless constructor (C# 10) runs code, as a class's does: kept.</summary>
    [Fact]
    public async Task AStructsOwnParameterlessConstructor_IsNotADefault()
    {
        await Verify.VerifyAnalyzerAsync("""
            using System;
            using System.Threading.Tasks;

            public struct Stamped
            {
                public Stamped() { Ticks = Environment.TickCount; }
                public int Ticks;
            }

            public class FakeClient
            {
                public async Task<Stamped> GetStamp() { return await Task.FromResult(new Stamped()); }
            }
            """);
    }
}
