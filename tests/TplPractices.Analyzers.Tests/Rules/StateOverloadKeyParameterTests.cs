using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp;
using Microsoft.CodeAnalysis.Testing;
using TplPractices.Analyzers.Tests.Verifiers;
using Verify = TplPractices.Analyzers.Tests.Verifiers.CSharpCodeFixVerifier<
    TplPractices.Analyzers.Rules.StateOverloadAnalyzer,
    TplPractices.Analyzers.CodeFixes.Rules.StateOverloadFixer>;

namespace TplPractices.Analyzers.Tests.Rules;

/// <summary>
/// TPL0015 on a ConcurrentDictionary factory that captures only the key the call passes (a type cache's
/// <c>GetOrAdd(type, _ =&gt; Create(type))</c>, ten sites in one messaging library): the dictionary hands the factory that
/// very key (so do <c>ImmutableInterlocked</c> and <c>ConditionalWeakTable</c>), so the fix reads it from the factory's parameter. That needs no state overload, so it is reported and fixed
/// on every target, netstandard2.0 at C# 7.3 included, where the state rewrite has no overload to call.
/// </summary>
public sealed class StateOverloadKeyParameterTests
{
    private const string Advice = "the dictionary hands the callback that key: read its parameter instead";

    private const string Cache = /* lang=c#-test */ """
        using System;
        using System.Collections.Concurrent;

        public static class Api
        {
            private static readonly ConcurrentDictionary<Type, string> Names = new ConcurrentDictionary<Type, string>();
            private static readonly ConcurrentDictionary<string, int> Counts = new ConcurrentDictionary<string, int>();
            private static readonly ConcurrentDictionary<Type, Lazy<string>> Lazies = new ConcurrentDictionary<Type, Lazy<string>>();
            private static int _made;

            private static string Describe(Type type, string label)
            {
                _made++;
                return label + ":" + type.Name;
            }

            public static string Name(Type type) => Names.GetOrAdd(type, {|#0:_ => Describe(type, nameof(type))|});

            public static string Named(Type type) => Names.GetOrAdd(type, {|#1:t => Describe(type, t.Namespace ?? nameof(type))|});

            public static int Count(string name) => Counts.AddOrUpdate(name, {|#2:_ => name.Length|}, (_, old) => old + name.Length);

            public static int Long(string name) => Counts.GetOrAdd(
                name,
                {|#3:n => name.Length + 1|});

            public static Lazy<string> Later(Type type) => Lazies.GetOrAdd(type, {|#4:_ => new Lazy<string>(() => Describe(type, "later"))|});

            public static string Run(int x) => Name(typeof(int)) + "," + Name(typeof(int)) + "," + Named(typeof(string)) + "," + Count("ab") + "," + Count("ab")
                + "," + Count("abc" + x) + "," + Long("long") + "," + Later(typeof(long)).Value + "," + _made;
        }
        """;

    private static readonly string CacheFixed = Cache
        .Replace("{|#0:_ => Describe(type, nameof(type))|}", "static type => Describe(type, nameof(type))", StringComparison.Ordinal)
        .Replace("{|#1:t => Describe(type, t.Namespace ?? nameof(type))|}", "static t => Describe(t, t.Namespace ?? nameof(type))", StringComparison.Ordinal)
        .Replace("{|#2:_ => name.Length|}, (_, old) => old + name.Length", "static name => name.Length, static (name, old) => old + name.Length", StringComparison.Ordinal)
        .Replace("{|#3:n => name.Length + 1|}", "static n => n.Length + 1", StringComparison.Ordinal)
        .Replace("{|#4:_ => new Lazy<string>(() => Describe(type, \"later\"))|}", "static type => new Lazy<string>(() => Describe(type, \"later\"))", StringComparison.Ordinal);

    [Fact]
    public async Task KeyCaptured_ReadsTheFactorysParameter()
    {
        var test = new Verify.Test { TestCode = Cache, FixedCode = CacheFixed };
        test.ExpectedDiagnostics.Add(Verify.Diagnostic().WithLocation(0).WithMessage("The callback captures 'type', so each call allocates a closure and a delegate; " + Advice));
        test.ExpectedDiagnostics.Add(Verify.Diagnostic().WithLocation(1).WithArguments("'type'", "a closure and a delegate", Advice));
        test.ExpectedDiagnostics.Add(Verify.Diagnostic().WithLocation(2).WithArguments("'name'", "a closure and a delegate", Advice));
        test.ExpectedDiagnostics.Add(Verify.Diagnostic().WithLocation(3).WithArguments("'name'", "a closure and a delegate", Advice));
        test.ExpectedDiagnostics.Add(Verify.Diagnostic().WithLocation(4).WithArguments("'type'", "a closure and a delegate", Advice));
        await test.RunAsync();
    }

    [Fact]
    public async Task FixedKeyCapture_ReturnsTheSame()
    {
        Assert.DoesNotContain("{|", CacheFixed, StringComparison.Ordinal);
        const string Expected = "returned type:Int32,type:Int32,System:String,2,4,4,5,later:Int64,3";
        Assert.Equal(Expected, await CodeRunner.RunAsync(TestMarkup.Strip(Cache), "Api", "Run", 5));
        Assert.Equal(Expected, await CodeRunner.RunAsync(CacheFixed, "Api", "Run", 5));
    }

    /// <summary>
    /// The other BCL methods that hand their factory the key of the call: <c>ImmutableInterlocked.GetOrAdd</c> and
    /// <c>AddOrUpdate</c> (the key after the <c>ref</c> location) and <c>ConditionalWeakTable.GetValue</c>, which has no
    /// state overload at all; and their <c>GetOrAdd</c> with the key beside another capture.
    /// </summary>
    [Fact]
    public async Task OtherKeyedApis_ReadTheirParameter()
    {
        const string Before = /* lang=c#-test */ """
            using System.Collections.Immutable;
            using System.Runtime.CompilerServices;

            class C
            {
                private ImmutableDictionary<string, int> _lengths = ImmutableDictionary<string, int>.Empty;
                private readonly ConditionalWeakTable<string, object> _boxes = new ConditionalWeakTable<string, object>();

                int Length(string name) => ImmutableInterlocked.GetOrAdd(ref _lengths, name, {|#0:_ => name.Length|});
                int Grow(string name) => ImmutableInterlocked.AddOrUpdate(ref _lengths, name, {|#1:_ => name.Length|}, (_, old) => old + name.Length);
                object Box(string name) => _boxes.GetValue(name, {|#2:_ => name.ToUpperInvariant()|});
                int Longer(string name, int extra) => ImmutableInterlocked.GetOrAdd(ref _lengths, name, {|#3:_ => name.Length + extra|});
                object Suffixed(string name, string suffix) => _boxes.GetOrAdd(name, {|#4:_ => name + suffix|});
            }
            """;
        const string After = /* lang=c#-test */ """
            using System.Collections.Immutable;
            using System.Runtime.CompilerServices;

            class C
            {
                private ImmutableDictionary<string, int> _lengths = ImmutableDictionary<string, int>.Empty;
                private readonly ConditionalWeakTable<string, object> _boxes = new ConditionalWeakTable<string, object>();

                int Length(string name) => ImmutableInterlocked.GetOrAdd(ref _lengths, name, static name => name.Length);
                int Grow(string name) => ImmutableInterlocked.AddOrUpdate(ref _lengths, name, static name => name.Length, static (name, old) => old + name.Length);
                object Box(string name) => _boxes.GetValue(name, static name => name.ToUpperInvariant());
                int Longer(string name, int extra) => ImmutableInterlocked.GetOrAdd(ref _lengths, name, static (name, extra) => name.Length + extra, extra);
                object Suffixed(string name, string suffix) => _boxes.GetOrAdd(name, static (name, suffix) => name + suffix, suffix);
            }
            """;
        var test = new Verify.Test { TestCode = Before, FixedCode = After };
        for (var i = 0; i < 3; i++)
        {
            test.ExpectedDiagnostics.Add(Verify.Diagnostic().WithLocation(i).WithArguments("'name'", "a closure and a delegate", Advice));
        }

        // The key beside another capture: their TArg overloads carry the other value, the key comes from the parameter.
        test.ExpectedDiagnostics.Add(Verify.Diagnostic().WithLocation(3).WithArguments("'name' and 'extra'", "a closure and a delegate", "the overload with a state parameter can pass them instead"));
        test.ExpectedDiagnostics.Add(Verify.Diagnostic().WithLocation(4).WithArguments("'name' and 'suffix'", "a closure and a delegate", "the overload with a state parameter can pass them instead"));

        await test.RunAsync();
    }

    /// <summary>
    /// Top-level statements: the key is a local of the program. A key the program writes in another lambda is not
    /// reported (the factory could see the write).
    /// </summary>
    [Fact]
    public async Task TopLevelStatements_KeyCaptured_Fixed()
    {
        const string Before = /* lang=c#-test */ """
            using System;
            using System.Collections.Concurrent;

            var key = 1;
            var moved = 2;
            var cache = new ConcurrentDictionary<int, string>();
            Console.WriteLine(cache.GetOrAdd(key, {|#0:k => $"{key}"|}));
            Action move = () => moved = 3;
            Console.WriteLine(cache.GetOrAdd(moved, _ => $"{moved}"));
            """;
        var test = new Verify.Test
        {
            TestState = { OutputKind = OutputKind.ConsoleApplication },
            TestCode = Before,
            FixedState = { OutputKind = OutputKind.ConsoleApplication, Sources = { Before.Replace("{|#0:k => $\"{key}\"|}", "static k => $\"{k}\"", StringComparison.Ordinal) } },
        };
        test.ExpectedDiagnostics.Add(Verify.Diagnostic().WithLocation(0).WithArguments("'key'", "a closure and a delegate", Advice));
        await test.RunAsync();
    }

    /// <summary>
    /// A netstandard2.0 library at C# 7.3 beside net10.0: fixed in the shared file. Before C# 8 a lambda's parameter may
    /// not hide the variable, so a <c>_</c> takes a free name; the lambda is static only from C# 9.
    /// </summary>
    [Fact]
    public async Task BesideNetStandard20AtCSharp73_FixedWithAFreeName()
    {
        const string Before = /* lang=c#-test */ """
            using System;
            using System.Collections.Concurrent;

            class C
            {
                private readonly ConcurrentDictionary<Type, object> _cache = new ConcurrentDictionary<Type, object>();

                public object Get(Type type) => _cache.GetOrAdd(type, [|_ => Activator.CreateInstance(type)|]);

                public object Named(Type type) => _cache.GetOrAdd(type, [|t => Activator.CreateInstance(type)|]);
            }
            """;
        const string After = /* lang=c#-test */ """
            using System;
            using System.Collections.Concurrent;

            class C
            {
                private readonly ConcurrentDictionary<Type, object> _cache = new ConcurrentDictionary<Type, object>();

                public object Get(Type type) => _cache.GetOrAdd(type, typeKey => Activator.CreateInstance(typeKey));

                public object Named(Type type) => _cache.GetOrAdd(type, t => Activator.CreateInstance(t));
            }
            """;
        await new Verify.Test
        {
            TestCode = Before,
            FixedCode = After,
            LinkedTargets = { new LinkedTarget(TestTarget.NetStandard20, LanguageVersion.CSharp7_3, NullableContextOptions.Disable) },
        }.RunAsync();
    }

    /// <summary>
    /// A factory that captures its key and more, at C# 7.3 on .NET Framework 4.7.2 (which has <c>GetOrAdd&lt;TArg&gt;</c>):
    /// the state carries the rest, and the key comes from the first parameter. Before C# 8 a lambda may not hide the
    /// variables, so both take new names.
    /// </summary>
    [Fact]
    public async Task KeyAndMore_AtCSharp73_KeyFromAFreshlyNamedParameter()
    {
        const string Code = /* lang=c#-test */ """
            using System.Collections.Concurrent;

            class C
            {
                private readonly ConcurrentDictionary<string, int> _cache = new ConcurrentDictionary<string, int>();

                int More(string key, int factor) => _cache.GetOrAdd(key, [|_ => key.Length * factor|]);
            }
            """;
        await new Verify.Test
        {
            TestCode = Code,
            FixedCode = Code.Replace("[|_ => key.Length * factor|])", "(keyKey, myFactor) => keyKey.Length * myFactor, factor)", StringComparison.Ordinal),
            Target = TestTarget.Net472,
            LanguageVersion = LanguageVersion.CSharp7_3,
            NullableContext = NullableContextOptions.Disable,
        }.RunAsync();
    }

    /// <summary>
    /// Left to the state rewrite or not reported: a key converted to the dictionary's key type (the parameter has the
    /// other type), a field as the key (read through <c>this</c> again when the factory runs: the state rewrite), a key the factory writes, a mutable struct key
    /// (a method called on the parameter's copy would not change the variable), a factory that captures more than the
    /// key (the state carries the rest, the key still comes from the parameter), and a method group.
    /// </summary>
    [Fact]
    public async Task OtherCaptures_KeepTheStateRewriteOrNoReport()
    {
        const string Code = /* lang=c#-test */ """
            using System;
            using System.Collections.Concurrent;

            struct Counter { public int Value; public int Next() => ++Value; }

            class C
            {
                private readonly ConcurrentDictionary<object, int> _boxed = new ConcurrentDictionary<object, int>();
                private readonly ConcurrentDictionary<string, int> _cache = new ConcurrentDictionary<string, int>();
                private readonly ConcurrentDictionary<Counter, int> _counters = new ConcurrentDictionary<Counter, int>();
                private string _current = "";

                int Converted(string key) => _boxed.GetOrAdd(key, {|#0:_ => key.Length|});
                int Field() => _cache.GetOrAdd(_current, {|#3:_ => _current.Length|});
                int Written(string key) => _cache.GetOrAdd(key, _ => (key = key.Trim()).Length);
                int Mutable(Counter counter) => _counters.GetOrAdd(counter, _ => counter.Next());
                int More(string key, int factor) => _cache.GetOrAdd(key, {|#1:_ => key.Length * factor|});
                int Group(string key) => _cache.GetOrAdd(key, {|#2:Measure|});
                int Measure(string key) => key.Length;
            }
            """;
        var test = new Verify.Test { TestCode = Code, FixedCode = Code.Replace("{|#0:", "", StringComparison.Ordinal).Replace("{|#1:", "", StringComparison.Ordinal).Replace("{|#2:", "", StringComparison.Ordinal).Replace("{|#3:", "", StringComparison.Ordinal).Replace("|}", "", StringComparison.Ordinal)
            .Replace("_cache.GetOrAdd(_current, _ => _current.Length)", "_cache.GetOrAdd(_current, static (_, self) => self._current.Length, this)", StringComparison.Ordinal)
            .Replace("_boxed.GetOrAdd(key, _ => key.Length)", "_boxed.GetOrAdd(key, static (_, key) => key.Length, key)", StringComparison.Ordinal)
            .Replace("_cache.GetOrAdd(key, _ => key.Length * factor)", "_cache.GetOrAdd(key, static (key, factor) => key.Length * factor, factor)", StringComparison.Ordinal)
            .Replace("_cache.GetOrAdd(key, Measure)", "_cache.GetOrAdd(key, static (key, self) => self.Measure(key), this)", StringComparison.Ordinal) };
        test.ExpectedDiagnostics.Add(Verify.Diagnostic().WithLocation(0).WithArguments("'key'", "a closure and a delegate", "the overload with a state parameter can pass it instead"));
        test.ExpectedDiagnostics.Add(Verify.Diagnostic().WithLocation(1).WithArguments("'key' and 'factor'", "a closure and a delegate", "the overload with a state parameter can pass them instead"));
        test.ExpectedDiagnostics.Add(Verify.Diagnostic().WithLocation(2).WithArguments("'this'", "a delegate", "the overload with a state parameter can pass it instead"));
        test.ExpectedDiagnostics.Add(Verify.Diagnostic().WithLocation(3).WithArguments("'this'", "a delegate", "the overload with a state parameter can pass it instead"));
        await test.RunAsync();
    }

    /// <summary>
    /// A factory whose body declares its parameter's name again (a nested lambda's own <c>k</c>): a key read inside
    /// that lambda rewritten to <c>k</c> would read the inner value and still compile. The key stays a captured value,
    /// carried by the state, and the fixed code returns what it did. The state rewrite was written before: the key
    /// read became the inner <c>k</c>, 7 instead of 12.
    /// </summary>
    [Fact]
    public async Task ParameterNameDeclaredInTheBody_KeyStaysInTheState()
    {
        const string Code = /* lang=c#-test */ """
            using System.Collections.Concurrent;
            using System.Linq;

            public static class Api
            {
                private static readonly ConcurrentDictionary<string, int> Alone = new ConcurrentDictionary<string, int>();
                private static readonly ConcurrentDictionary<string, int> More = new ConcurrentDictionary<string, int>();

                public static string Run(int factor)
                {
                    var key = "a,bb";
                    var alone = Alone.GetOrAdd(key, {|#0:k => k.Length + key.Split(',').Sum(k => key.Length)|});
                    var more = More.GetOrAdd(key, {|#1:k => k.Length * factor + key.Split(',').Sum(k => key.Length)|});
                    return alone + "," + more;
                }
            }
            """;
        var fixedCode = TestMarkup.Strip(Code)
            .Replace(
                "Alone.GetOrAdd(key, k => k.Length + key.Split(',').Sum(k => key.Length));",
                "Alone.GetOrAdd(key, static (k, key) => k.Length + key.Split(',').Sum(k => key.Length), key);",
                StringComparison.Ordinal)
            .Replace(
                "More.GetOrAdd(key, k => k.Length * factor + key.Split(',').Sum(k => key.Length));",
                """
                More.GetOrAdd(key, static (k, state) =>
                        {
                            var (factor, key) = state;
                            return k.Length * factor + key.Split(',').Sum(k => key.Length);
                        }, (factor, key));
                """,
                StringComparison.Ordinal);
        var test = new Verify.Test { TestCode = Code, FixedCode = fixedCode };
        test.ExpectedDiagnostics.Add(Verify.Diagnostic().WithLocation(0).WithArguments("'key'", "a closure and a delegate", "the overload with a state parameter can pass it instead"));
        test.ExpectedDiagnostics.Add(Verify.Diagnostic().WithLocation(1).WithArguments("'factor' and 'key'", "a closure and a delegate", "the overload with a state parameter can pass them instead"));
        await test.RunAsync();

        Assert.Equal("returned 12,20", await CodeRunner.RunAsync(TestMarkup.Strip(Code), "Api", "Run", 3));
        Assert.Equal("returned 12,20", await CodeRunner.RunAsync(fixedCode, "Api", "Run", 3));
    }

    /// <summary>
    /// The same factory on netstandard2.0, whose dictionary has no state overload: only reading the parameter could
    /// fix it, and that parameter's name is taken inside, so nothing is reported.
    /// </summary>
    [Fact]
    public async Task ParameterNameDeclaredInTheBody_OnNetStandard20_NotReported()
    {
        await new Verify.Test
        {
            TestCode = /* lang=c#-test */ """
                using System.Collections.Concurrent;
                using System.Linq;

                class C
                {
                    private readonly ConcurrentDictionary<string, int> _cache = new ConcurrentDictionary<string, int>();

                    int Get(string key) => _cache.GetOrAdd(key, k => k.Length + key.Split(',').Sum(k => key.Length));
                }
                """,
            Target = TestTarget.NetStandard20,
            LanguageVersion = LanguageVersion.CSharp8,
            NullableContext = NullableContextOptions.Disable,
        }.RunAsync();
    }

    /// <summary>
    /// The key beside another capture, run: the fixed factory reads the key from its first parameter and the factor from
    /// the state, and the dictionary returns what it did, calling each factory as often.
    /// </summary>
    [Fact]
    public async Task KeyAndMore_FixedCode_ReturnsTheSame()
    {
        const string Code = /* lang=c#-test */ """
            using System.Collections.Concurrent;

            public static class Api
            {
                private static readonly ConcurrentDictionary<string, int> Cache = new ConcurrentDictionary<string, int>();
                private static int _made;

                private static int Scaled(string key, int factor) => Cache.GetOrAdd(key, [|_ => { _made++; return key.Length * factor; }|]);

                public static string Run(int factor) => Scaled("ab", factor) + "," + Scaled("ab", factor + 1) + "," + Scaled("abc", factor) + "," + _made;
            }
            """;
        var fixedCode = TestMarkup.Strip(Code).Replace(
            "Cache.GetOrAdd(key, _ => { _made++; return key.Length * factor; });",
            "Cache.GetOrAdd(key, static (key, factor) => { _made++; return key.Length * factor; }, factor);",
            StringComparison.Ordinal);
        await new Verify.Test { TestCode = Code, FixedCode = fixedCode }.RunAsync();
        Assert.Equal("returned 6,6,9,2", await CodeRunner.RunAsync(TestMarkup.Strip(Code), "Api", "Run", 3));
        Assert.Equal("returned 6,6,9,2", await CodeRunner.RunAsync(fixedCode, "Api", "Run", 3));
    }
}
