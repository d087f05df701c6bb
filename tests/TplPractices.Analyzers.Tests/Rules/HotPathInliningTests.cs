using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp;
using Microsoft.CodeAnalysis.Testing;
using TplPractices.Analyzers.Rules;
using TplPractices.Analyzers.Tests.Verifiers;
using Verify = TplPractices.Analyzers.Tests.Verifiers.CSharpCodeFixVerifier<
    TplPractices.Analyzers.Rules.HotPathInliningAnalyzer,
    TplPractices.Analyzers.CodeFixes.Rules.HotPathInliningFixer>;

namespace TplPractices.Analyzers.Tests.Rules;

/// <summary>TPL0012: a marked hot method whose fast path is followed by code the JIT will not inline; the fix moves that code out.</summary>
public sealed class HotPathInliningTests
{
    /// <summary>Members marked [HotPath] are the hot paths, as a user names them (the fuzz and typing tests use it too).</summary>
    public const string HotPathConfig = "root = true\n[*.cs]\ntpl_practices.required_attributes = HotPath\n";

    private const string Lock = "takes a lock";
    private const string Catch = "catches exceptions";

    private static Verify.Test Test(string before, string? after = null, TestTarget target = TestTarget.NetStandard20, string config = HotPathConfig)
    {
        var test = new Verify.Test { TestCode = before, FixedCode = after ?? before, Target = target };
        test.TestState.AnalyzerConfigFiles.Add(("/.editorconfig", config));
        test.FixedState.AnalyzerConfigFiles.Add(("/.editorconfig", config));
        test.FixedState.MarkupHandling = MarkupMode.Allow;
        return test;
    }

    // The tests target netstandard2.0, which may run on a runtime before .NET 10: there a lock keeps a method out too.

    /// <summary>The whitepaper's object holder: one object stored with a compare-exchange, a list under a lock after.</summary>
    [Fact]
    public async Task ObjectHolder_TheLockMovesOut()
    {
        const string Before = """
            using System;
            using System.Collections.Generic;
            using System.Runtime.CompilerServices;
            using System.Threading;

            class Holder
            {
                private object? _held;

                [HotPath]
                public void {|#0:Add|}(object item)
                {
                    // The first object is stored as it is.
                    if (_held == null && Interlocked.CompareExchange(ref _held, item, null) == null)
                    {
                        return;
                    }

                    // From here on there is more than one.
                    var current = _held;
                    if (current is not List<object>)
                    {
                        Interlocked.CompareExchange(ref _held, new List<object> { current! }, current);
                    }

                    var list = (List<object>)_held!;
                    lock (list)
                    {
                        list.Add(item);
                    }
                }
            }
            
            sealed class HotPathAttribute : Attribute { }
            """;
        const string After = """
            using System;
            using System.Collections.Generic;
            using System.Runtime.CompilerServices;
            using System.Threading;

            class Holder
            {
                private object? _held;

                [HotPath]
                public void Add(object item)
                {
                    // The first object is stored as it is.
                    if (_held == null && Interlocked.CompareExchange(ref _held, item, null) == null)
                    {
                        return;
                    }

                    AddSlow(item);
                }

                [MethodImpl(MethodImplOptions.NoInlining)]
                private void AddSlow(object item)
                {
                    // From here on there is more than one.
                    var current = _held;
                    if (current is not List<object>)
                    {
                        Interlocked.CompareExchange(ref _held, new List<object> { current! }, current);
                    }

                    var list = (List<object>)_held!;
                    lock (list)
                    {
                        list.Add(item);
                    }
                }
            }
            
            sealed class HotPathAttribute : Attribute { }
            """;
        var test = Test(Before, After);
        test.ExpectedDiagnostics.Add(Verify.Diagnostic().WithLocation(0).WithArguments("Add", Lock));
        await test.RunAsync();
    }

    [Fact]
    public async Task CatchAndSize_AreReasons_AndAValueIsReturned()
    {
        const string Before = """
            using System;
            using System.Collections.Generic;
            using System.Runtime.CompilerServices;
            using System.Threading;

            class Parser
            {
                private readonly Dictionary<string, int> _cache = new();
                private int _a, _b, _c, _d;

                [HotPath]
                public int {|#0:Parse|}(string text)
                {
                    if (_cache.TryGetValue(text, out var known)) return known;
                    try { return _cache[text] = int.Parse(text); }
                    catch (FormatException) { return -1; }
                }

                [HotPath]
                public static int {|#1:Mix|}(int x, int unused)
                {
                    if (x > 0) return x;
                    var c = new Parser();
                    c._a = c._b * 3 + c._c; c._b = c._c * 5 + c._d; c._c = c._d * 7 + c._a; c._d = c._a * 11 + c._b;
                    c._a = c._b * 13 + c._c; c._b = c._c * 17 + c._d; c._c = c._d * 19 + c._a; c._d = c._a * 23 + c._b;
                    return c._a - x;
                }
            }
            
            sealed class HotPathAttribute : Attribute { }
            """;
        const string After = """
            using System;
            using System.Collections.Generic;
            using System.Runtime.CompilerServices;
            using System.Threading;

            class Parser
            {
                private readonly Dictionary<string, int> _cache = new();
                private int _a, _b, _c, _d;

                [HotPath]
                public int Parse(string text)
                {
                    if (_cache.TryGetValue(text, out var known)) return known;
                    return ParseSlow(text);
                }

                [MethodImpl(MethodImplOptions.NoInlining)]
                private int ParseSlow(string text)
                {
                    try { return _cache[text] = int.Parse(text); }
                    catch (FormatException) { return -1; }
                }

                [HotPath]
                public static int Mix(int x, int unused)
                {
                    if (x > 0) return x;
                    return MixSlow(x);
                }

                [MethodImpl(MethodImplOptions.NoInlining)]
                private static int MixSlow(int x)
                {
                    var c = new Parser();
                    c._a = c._b * 3 + c._c; c._b = c._c * 5 + c._d; c._c = c._d * 7 + c._a; c._d = c._a * 11 + c._b;
                    c._a = c._b * 13 + c._c; c._b = c._c * 17 + c._d; c._c = c._d * 19 + c._a; c._d = c._a * 23 + c._b;
                    return c._a - x;
                }
            }
            
            sealed class HotPathAttribute : Attribute { }
            """;
        var test = Test(Before, After);
        test.ExpectedDiagnostics.Add(Verify.Diagnostic().WithLocation(0).WithArguments("Parse", Catch));
        test.ExpectedDiagnostics.Add(Verify.Diagnostic().WithLocation(1).WithArguments("Mix", "compiles to over 100 bytes of IL (at least 189)"));
        await test.RunAsync();
    }

    /// <summary>
    /// A project that omits a default accessibility (<c>dotnet_style_require_accessibility_modifiers = omit_if_default</c>,
    /// which IDE0040 enforces) gets a slow path without <c>private</c>, as TPL0003's new fields are written.
    /// </summary>
    [Fact]
    public async Task AProjectThatOmitsPrivate_GetsASlowPathWithoutIt()
    {
        const string Shape = """
            using System;
            using System.Collections.Generic;
            using System.Runtime.CompilerServices;

            class Parser
            {
                readonly Dictionary<string, int> _cache = new();

                [HotPath]
                public int {|#0:Parse|}(string text)
                {
                    if (_cache.TryGetValue(text, out var known)) return known;
                    SLOW
                }
            }

            sealed class HotPathAttribute : Attribute { }
            """;
        const string Slow = "try { return _cache[text] = int.Parse(text); }\n        catch (FormatException) { return -1; }";
        var after = Shape.Replace("{|#0:Parse|}", "Parse", StringComparison.Ordinal).Replace("SLOW", "return ParseSlow(text);\n    }\n\n    [MethodImpl(MethodImplOptions.NoInlining)]\n    int ParseSlow(string text)\n    {\n        " + Slow, StringComparison.Ordinal);
        var test = Test(Shape.Replace("SLOW", Slow, StringComparison.Ordinal), after, config: HotPathConfig + "dotnet_style_require_accessibility_modifiers = omit_if_default\n");
        test.ExpectedDiagnostics.Add(Verify.Diagnostic().WithLocation(0).WithArguments("Parse", Catch));
        await test.RunAsync();
    }

    /// <summary>
    /// A loop, a lock or a finally keeps the method out on every target: .NET 10 inlines such a method only where dynamic
    /// PGO finds the call hot, and even there the split measured faster (docs/rules/TPL0012.md); NativeAOT,
    /// ReadyToRun code and runtimes before .NET 10 have no such profile. So net10.0 is told as netstandard2.0 is.
    /// </summary>
    [Theory]
    [InlineData(TestTarget.NetStandard20)]
    [InlineData(TestTarget.Net100)]
    public async Task LoopsLocksAndFinally_AreReasonsOnEveryTarget(TestTarget target)
    {
        const string Code = """
            using System;
            using System.Collections.Generic;
            using System.Runtime.CompilerServices;
            using System.Threading;

            class Sums
            {
                private readonly int[] _items = new int[8];
                private int _total = -1;

                [HotPath]
                public int {|#0:Total|}()
                {
                    if (_total >= 0) return _total;
                    var sum = 0;
                    foreach (var item in _items) sum += item;
                    return _total = sum;
                }

                [HotPath]
                public void {|#1:Reset|}(IDisposable scope)
                {
                    if (_total < 0) return;
                    using (scope) { _total = -1; }
                }

                [HotPath]
                public int {|#2:Locked|}()
                {
                    if (_total >= 0) return _total;
                    lock (_items) { return _total = 0; }
                }
            }
            
            sealed class HotPathAttribute : Attribute { }
            """;
        var older = Test(Code, Code
            .Replace("{|#0:Total|}()\n    {\n        if (_total >= 0) return _total;\n", "Total()\n    {\n        if (_total >= 0) return _total;\n        return TotalSlow();\n    }\n\n    [MethodImpl(MethodImplOptions.NoInlining)]\n    private int TotalSlow()\n    {\n", StringComparison.Ordinal)
            .Replace("{|#1:Reset|}(IDisposable scope)\n    {\n        if (_total < 0) return;\n", "Reset(IDisposable scope)\n    {\n        if (_total < 0) return;\n        ResetSlow(scope);\n    }\n\n    [MethodImpl(MethodImplOptions.NoInlining)]\n    private void ResetSlow(IDisposable scope)\n    {\n", StringComparison.Ordinal)
            .Replace("{|#2:Locked|}()\n    {\n        if (_total >= 0) return _total;\n", "Locked()\n    {\n        if (_total >= 0) return _total;\n        return LockedSlow();\n    }\n\n    [MethodImpl(MethodImplOptions.NoInlining)]\n    private int LockedSlow()\n    {\n", StringComparison.Ordinal), target);
        if (target == TestTarget.NetStandard20)
        {
            older.LanguageVersion = LanguageVersion.CSharp7_3;
            older.NullableContext = NullableContextOptions.Disable;
        }

        older.ExpectedDiagnostics.Add(Verify.Diagnostic().WithLocation(0).WithArguments("Total", "loops"));
        older.ExpectedDiagnostics.Add(Verify.Diagnostic().WithLocation(1).WithArguments("Reset", "has a finally block (try/finally, using)"));
        older.ExpectedDiagnostics.Add(Verify.Diagnostic().WithLocation(2).WithArguments("Locked", Lock));
        await older.RunAsync();
    }

    [Fact]
    public async Task WhatIsNotAHotPathOrCannotBeInlined_IsNotReported()
    {
        const string Code = """
            using System;
            using System.Collections.Generic;
            using System.Runtime.CompilerServices;
            using System.Threading;

            using System.Threading.Tasks;

            class C
            {
                private readonly object _gate = new();
                private int _value;

                // Not marked: not a hot path the user named.
                public int Unmarked(int x) { if (x > 0) return x; lock (_gate) { return _value; } }

                // Inlined or not, as the user decided.
                [HotPath, MethodImpl(MethodImplOptions.AggressiveInlining)]
                public int Decided(int x) { if (x > 0) return x; lock (_gate) { return _value; } }

                // A virtual call is inlined only once devirtualized; an async method never.
                [HotPath] public virtual int Virtual(int x) { if (x > 0) return x; lock (_gate) { return _value; } }
                [HotPath] public async Task<int> Async(int x) { if (x > 0) return x; await Task.Yield(); lock (_gate) { return _value; } }

                // No fast path first, or one that is itself not small.
                [HotPath] public int NoFastPath(int x) { lock (_gate) { return _value + x; } }
                [HotPath] public int LoopingFastPath(int[] xs) { if (xs.Length > 0) { foreach (var x in xs) _value += x; return _value; } lock (_gate) { return _value; } }
                [HotPath] public int WithElse(int x) { if (x > 0) return x; else { lock (_gate) { return _value; } } }

                // Nothing after the fast path that keeps the method out.
                [HotPath] public int Small(int x) { if (x > 0) return x; _value++; return -x; }

                // Expression-bodied: no statements to split.
                [HotPath] public int Expression(int x) => x > 0 ? x : _value;

                [HotPath]
                public int Local(int x)
                {
                    return Inner(x);
                    int Inner(int y) { if (y > 0) return y; lock (_gate) { return _value; } }
                }
            }
            
            sealed class HotPathAttribute : Attribute { }
            """;
        await Test(Code).RunAsync();
    }

    [Fact]
    public async Task WithoutRequiredAttributes_NothingIsReported()
    {
        const string Code = """
            using System;
            using System.Collections.Generic;
            using System.Runtime.CompilerServices;
            using System.Threading;

            class C
            {
                private readonly object _gate = new();
                private int _value;

                [HotPath] public int Get(int x) { if (x > 0) return x; lock (_gate) { return _value; } }
            }
            
            sealed class HotPathAttribute : Attribute { }
            """;
        await new Verify.Test { TestCode = Code, FixedCode = Code }.RunAsync();
    }

    /// <summary>
    /// With no attribute named in any file the rule can report nothing, so it registers nothing: a build that raises
    /// the other opt-in rules, and so runs the analyzer that carries this one, pays nothing for it. One file naming an
    /// attribute, for this rule or for every rule, is enough to register it; another rule's key or an empty list is not.
    /// </summary>
    [Theory]
    [InlineData(null, false)]
    [InlineData("root = true\n[*.cs]\ntpl_practices.TPL0011.required_attributes = HotPath\n", false)]
    [InlineData("root = true\n[*.cs]\ntpl_practices.required_attributes = ,\n", false)]
    [InlineData("root = true\n[*.cs]\ntpl_practices.required_attributes = HotPath\n", true)]
    [InlineData("root = true\n[B.cs]\ntpl_practices.TPL0012.required_attributes = HotPath\n", true)]
    public async Task WithNoAttributeNamedAnywhere_TheRuleRegistersNothing(string? editorConfig, bool registers)
    {
        var run = new AnalyzerRun(new HotPathInliningAnalyzer()) { Sources = { ("A.cs", "class A { }"), ("B.cs", "class B { }") }, EditorConfig = editorConfig };
        var (project, _) = await run.AnalyzeAsync();
        var compilation = await project.GetCompilationAsync();

        Assert.Equal(registers, HotPathInliningAnalyzer.Operations.CallbackFor(compilation!, project.AnalyzerOptions) is not null);
    }

    /// <summary>Where the moved code could not be given what it uses as it had it, the method is reported without a fix.</summary>
    [Fact]
    public async Task WhatCannotMove_IsReportedWithoutAFix()
    {
        const string Code = """
            using System;
            using System.Collections.Generic;
            using System.Runtime.CompilerServices;
            using System.Threading;

            class C
            {
                private readonly object _gate = new();
                private int _value;

                [HotPath] public int [|ByRef|](ref int x) { if (x > 0) return x; lock (_gate) { x = _value; return x; } }
                [HotPath] public int [|PatternVariable|](object o) { if (!(o is int n)) return 0; lock (_gate) { return _value += n; } }
                [HotPath] public int [|FastLocal|](int x) { if (x > 0) { var y = x * 2; return y; } lock (_gate) { goto done; } done: return _value; }
                [HotPath] public int [|CallsALocalFunctionOfTheRest|](int x) { if (Check(x)) return x; lock (_gate) { return _value; } bool Check(int v) => v > 0; }
                [HotPath] public ref readonly int [|RefReadonly|](int[] items, int i) { if (i == 0) return ref _value; lock (_gate) { return ref items[i]; } }
                [HotPath] public ref int [|Ref|](int[] items, int i) { if (i == 0) return ref _value; try { return ref items[i]; } catch (IndexOutOfRangeException) { return ref _value; } }
                // Moved into RenewSlow, Log would be told "RenewSlow": the caller information would change.
                [HotPath] public int [|Renew|](int x) { if (x > 0) return x; lock (_gate) { Log(); return _value; } }

                private static void Log([CallerMemberName] string member = "") { }
            }
            
            sealed class HotPathAttribute : Attribute { }
            """;
        await Test(Code).RunAsync();
    }

    /// <summary>
    /// A member of a C# 14 extension block compiles to a static method of the enclosing class, which the JIT inlines
    /// like any: checked, and reported without a fix (its receiver is the block's parameter).
    /// </summary>
    [Fact]
    public async Task ExtensionBlockMember_IsReportedWithoutAFix()
    {
        const string Code = """
            using System;

            static class Texts
            {
                extension(string text)
                {
                    [HotPath]
                    public int [|Score|]()
                    {
                        if (text.Length == 0) return 0;
                        try { return int.Parse(text); } catch (FormatException) { return -1; }
                    }
                }
            }

            sealed class HotPathAttribute : Attribute { }
            """;
        var test = Test(Code, target: TestTarget.Net100);
        test.LanguageVersion = LanguageVersion.Preview;
        await test.RunAsync();
    }

    /// <summary>Type parameters and their constraints, static, a struct's readonly member and names already taken.</summary>
    [Fact]
    public async Task GenericStaticReadonlyAndTakenNames_CompileAfterTheFix()
    {
        const string Before = """
            using System;
            using System.Collections.Generic;
            using System.Runtime.CompilerServices;
            using System.Threading;

            struct Table<TKey> where TKey : notnull
            {
                private readonly Dictionary<TKey, string> _names;
                private readonly object _gate;

                public Table(object gate) { _names = new Dictionary<TKey, string>(); _gate = gate; }

                [HotPath]
                public readonly string [|Name|](TKey key)
                {
                    if (_names.TryGetValue(key, out var name)) return name;
                    try { lock (_gate) { return _names[key] = key.ToString() ?? ""; } } catch (InvalidOperationException) { throw; }
                }

                private static int NameSlow() => 0;
            }

            static class Cache
            {
                private static readonly object Gate = new();

                [HotPath]
                public static T [|Get|]<T>(this T? value, Func<T> make) where T : class
                {
                    if (value != null) return value;
                    try { lock (Gate) { return make(); } } catch (InvalidOperationException) { throw; }
                }
            }
            
            sealed class HotPathAttribute : Attribute { }
            """;
        const string After = """
            using System;
            using System.Collections.Generic;
            using System.Runtime.CompilerServices;
            using System.Threading;

            struct Table<TKey> where TKey : notnull
            {
                private readonly Dictionary<TKey, string> _names;
                private readonly object _gate;

                public Table(object gate) { _names = new Dictionary<TKey, string>(); _gate = gate; }

                [HotPath]
                public readonly string Name(TKey key)
                {
                    if (_names.TryGetValue(key, out var name)) return name;
                    return NameSlow2(key);
                }

                [MethodImpl(MethodImplOptions.NoInlining)]
                private readonly string NameSlow2(TKey key)
                {
                    try { lock (_gate) { return _names[key] = key.ToString() ?? ""; } } catch (InvalidOperationException) { throw; }
                }

                private static int NameSlow() => 0;
            }

            static class Cache
            {
                private static readonly object Gate = new();

                [HotPath]
                public static T Get<T>(this T? value, Func<T> make) where T : class
                {
                    if (value != null) return value;
                    return GetSlow<T>(make);
                }

                [MethodImpl(MethodImplOptions.NoInlining)]
                private static T GetSlow<T>(Func<T> make) where T : class
                {
                    try { lock (Gate) { return make(); } } catch (InvalidOperationException) { throw; }
                }
            }
            
            sealed class HotPathAttribute : Attribute { }
            """;
        await Test(Before, After).RunAsync();
    }

    /// <summary>
    /// Comments inside the signature the slow method copies (its types, its constraints) stay once, on the method the
    /// author wrote: the copy is written without them.
    /// </summary>
    [Fact]
    public async Task CommentsInTheCopiedSignature_AreWrittenOnce()
    {
        const string Before = """
            using System;
            using System.Runtime.CompilerServices;

            static class Lazy
            {
                [HotPath]
                public static T /* made */ [|Get|]<T>(this T? value, Func</* the maker */ T> make) where T : class // not a struct
                {
                    if (value != null) return value;
                    try { return make(); } catch (InvalidOperationException e) when (e.Data.Count > 0) { throw new ArgumentException(e.Message, e); }
                }
            }

            sealed class HotPathAttribute : Attribute { }
            """;
        const string After = """
            using System;
            using System.Runtime.CompilerServices;

            static class Lazy
            {
                [HotPath]
                public static T /* made */ Get<T>(this T? value, Func</* the maker */ T> make) where T : class // not a struct
                {
                    if (value != null) return value;
                    return GetSlow<T>(make);
                }

                [MethodImpl(MethodImplOptions.NoInlining)]
                private static T GetSlow<T>(Func<T> make) where T : class
                {
                    try { return make(); } catch (InvalidOperationException e) when (e.Data.Count > 0) { throw new ArgumentException(e.Message, e); }
                }
            }

            sealed class HotPathAttribute : Attribute { }
            """;
        await Test(Before, After).RunAsync();
    }

    /// <summary>
    /// A parameter the fast path proved not null is passed as not null; a field it proved not null cannot be, so the
    /// moved code would warn: that method is reported, and the fix leaves it alone.
    /// </summary>
    [Fact]
    public async Task WhatTheFastPathProvedNotNull_StaysProvedOrTheFixStepsBack()
    {
        const string Before = """
            using System;
            using System.Collections.Generic;
            using System.Runtime.CompilerServices;
            using System.Threading;

            class C
            {
                private readonly object _gate = new();
                private string? _name;

                [HotPath]
                public int [|Length|](string? text)
                {
                    if (text is null) return 0;
                    try { lock (_gate) { return text.Length; } } catch (InvalidOperationException) { throw; }
                }

                [HotPath]
                public int [|NameLength|]()
                {
                    if (_name is null) return 0;
                    try { lock (_gate) { return _name.Length; } } catch (InvalidOperationException) { throw; }
                }
            }
            
            sealed class HotPathAttribute : Attribute { }
            """;
        const string After = """
            using System;
            using System.Collections.Generic;
            using System.Runtime.CompilerServices;
            using System.Threading;

            class C
            {
                private readonly object _gate = new();
                private string? _name;

                [HotPath]
                public int Length(string? text)
                {
                    if (text is null) return 0;
                    return LengthSlow(text);
                }

                [MethodImpl(MethodImplOptions.NoInlining)]
                private int LengthSlow(string text)
                {
                    try { lock (_gate) { return text.Length; } } catch (InvalidOperationException) { throw; }
                }

                [HotPath]
                public int [|NameLength|]()
                {
                    if (_name is null) return 0;
                    try { lock (_gate) { return _name.Length; } } catch (InvalidOperationException) { throw; }
                }
            }
            
            sealed class HotPathAttribute : Attribute { }
            """;
        await Test(Before, After).RunAsync();
    }

    [Fact]
    public async Task FixAll_MovesEverySlowPathOfTheDocument()
    {
        const string Before = """
            using System;
            using System.Collections.Generic;
            using System.Runtime.CompilerServices;
            using System.Threading;

            class C
            {
                private readonly object _gate = new();
                private int _value;

                [HotPath] public int [|Get|](int x) { if (x > 0) return x; try { lock (_gate) { return _value; } } catch (InvalidOperationException) { throw; } }
                [HotPath] public int [|Get|](long x) { if (x > 0) return 1; try { lock (_gate) { return _value; } } catch (InvalidOperationException) { throw; } }
            }
            
            sealed class HotPathAttribute : Attribute { }
            """;
        const string After = """
            using System;
            using System.Collections.Generic;
            using System.Runtime.CompilerServices;
            using System.Threading;

            class C
            {
                private readonly object _gate = new();
                private int _value;

                [HotPath] public int Get(int x)
                {
                    if (x > 0) return x;
                    return GetSlow();
                }

                [MethodImpl(MethodImplOptions.NoInlining)]
                private int GetSlow()
                {
                    try { lock (_gate) { return _value; } } catch (InvalidOperationException) { throw; }
                }

                [HotPath] public int Get(long x)
                {
                    if (x > 0) return 1;
                    return GetSlow2();
                }

                [MethodImpl(MethodImplOptions.NoInlining)]
                private int GetSlow2()
                {
                    try { lock (_gate) { return _value; } } catch (InvalidOperationException) { throw; }
                }
            }
            
            sealed class HotPathAttribute : Attribute { }
            """;
        var test = Test(Before, After);
        test.NumberOfFixAllIterations = 1;
        await test.RunAsync();
    }

    /// <summary>A netstandard2.0 library on C# 7.3 with a net10.0 copy of the file: the fix compiles in both.</summary>
    [Fact]
    public async Task OnCSharp73NetStandard_AndMultiTargeted_TheFixCompiles()
    {
        const string Before = """
            using System;
            using System.Collections.Generic;

            class Registry
            {
                private readonly Dictionary<string, object> _items = new Dictionary<string, object>();

                [HotPath]
                public object [|Find|](string key)
                {
                    if (_items.TryGetValue(key, out var found)) return found;
                    try { lock (_items) { return _items[key] = new object(); } } catch (InvalidOperationException) { throw; }
                }
            }

            sealed class HotPathAttribute : Attribute { }
            """;
        var test = Test(Before, Before.Replace("using System.Collections.Generic;\n", "using System.Collections.Generic;\nusing System.Runtime.CompilerServices;\n", StringComparison.Ordinal).Replace("[|Find|](string key)\n    {\n        if (_items.TryGetValue(key, out var found)) return found;\n", "Find(string key)\n    {\n        if (_items.TryGetValue(key, out var found)) return found;\n        return FindSlow(key);\n    }\n\n    [MethodImpl(MethodImplOptions.NoInlining)]\n    private object FindSlow(string key)\n    {\n", StringComparison.Ordinal), TestTarget.NetStandard20);
        test.SharedByNetStandardAndNet10 = true;
        await test.RunAsync();
    }

    /// <summary>A lambda in the moved code keeps capturing what it captured: the parameter, now the slow path's, and this.</summary>
    [Fact]
    public async Task LambdasInTheMovedCode_CaptureTheSame()
    {
        const string Before = """
            using System;
            using System.Collections.Generic;

            class Subscribers
            {
                private readonly List<Action> _actions = new List<Action>();
                private int _count;

                [HotPath]
                public int [|Add|](int weight)
                {
                    if (weight == 0) return _count;
                    try { _actions.Add(() => _count += weight); return _actions.Count; }
                    catch (InvalidOperationException) { return -1; }
                }
            }

            sealed class HotPathAttribute : Attribute { }
            """;
        const string After = """
            using System;
            using System.Collections.Generic;
            using System.Runtime.CompilerServices;

            class Subscribers
            {
                private readonly List<Action> _actions = new List<Action>();
                private int _count;

                [HotPath]
                public int Add(int weight)
                {
                    if (weight == 0) return _count;
                    return AddSlow(weight);
                }

                [MethodImpl(MethodImplOptions.NoInlining)]
                private int AddSlow(int weight)
                {
                    try { _actions.Add(() => _count += weight); return _actions.Count; }
                    catch (InvalidOperationException) { return -1; }
                }
            }

            sealed class HotPathAttribute : Attribute { }
            """;
        await Test(Before, After, TestTarget.Net100).RunAsync();
    }

    /// <summary>A function of the top-level statements is a local function: not reported. A type after them is.</summary>
    [Fact]
    public async Task TopLevelStatements_TypesAfterThemAreReported()
    {
        const string Before = """
            using System;

            Console.WriteLine(Twice(2) + new Counter().Next(1));

            [HotPath]
            static int Twice(int x) { if (x > 0) return 2 * x; lock (Counter.Gate) { return 0; } }

            class Counter
            {
                public static readonly object Gate = new object();
                private int _count;

                [HotPath]
                public int [|Next|](int by)
                {
                    if (by == 1) return ++_count;
                    try { lock (Gate) { return _count += by; } } catch (InvalidOperationException) { throw; }
                }
            }

            sealed class HotPathAttribute : Attribute { }
            """;
        const string After = """
            using System;
            using System.Runtime.CompilerServices;

            Console.WriteLine(Twice(2) + new Counter().Next(1));

            [HotPath]
            static int Twice(int x) { if (x > 0) return 2 * x; lock (Counter.Gate) { return 0; } }

            class Counter
            {
                public static readonly object Gate = new object();
                private int _count;

                [HotPath]
                public int Next(int by)
                {
                    if (by == 1) return ++_count;
                    return NextSlow(by);
                }

                [MethodImpl(MethodImplOptions.NoInlining)]
                private int NextSlow(int by)
                {
                    try { lock (Gate) { return _count += by; } } catch (InvalidOperationException) { throw; }
                }
            }

            sealed class HotPathAttribute : Attribute { }
            """;
        var test = Test(Before, After);
        test.TestState.OutputKind = OutputKind.ConsoleApplication;
        await test.RunAsync();
    }

    [Fact]
    public void Rule_IsASuggestion()
    {
        Assert.Equal(DiagnosticSeverity.Info, HotPathInliningAnalyzer.Rule.DefaultSeverity);
    }
}
