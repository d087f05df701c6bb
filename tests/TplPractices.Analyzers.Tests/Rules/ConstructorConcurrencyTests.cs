using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp;
using Microsoft.CodeAnalysis.Testing;
using TplPractices.Analyzers.Rules;
using TplPractices.Analyzers.Tests.Verifiers;
using Verify = TplPractices.Analyzers.Tests.Verifiers.CSharpCodeFixVerifier<
    TplPractices.Analyzers.Rules.ConstructorConcurrencyAnalyzer,
    TplPractices.Analyzers.CodeFixes.Rules.ConstructorConcurrencyFixer>;

namespace TplPractices.Analyzers.Tests.Rules;

/// <summary>TPL0010: concurrency measures on the object's own fields before its constructor lets it escape.</summary>
public sealed class ConstructorConcurrencyTests
{
    private static string Class(string members) => $$"""
        using System;
        using System.Collections.Generic;
        using System.Threading;
        using System.Threading.Tasks;

        class C
        {
        {{members}}
        }
        """;

    [Fact]
    public async Task EachMeasure_IsReportedAndMadePlain()
    {
        var before = Class("""
                private readonly object _gate = new object();
                private readonly List<int> _items = new List<int>();
                private int _count;
                private long _total;
                private bool _ready;
                private string? _name;

                public C(int seed)
                {
                    {|#0:lock|} (_gate)
                    {
                        _items.Add(seed);
                    }

                    {|#1:Interlocked.Increment(ref _count)|};
                    var next = {|#2:Interlocked.Add(ref _total, seed)|};
                    {|#3:Interlocked.Exchange(ref _name, "c")|};
                    {|#4:Volatile.Write(ref _ready, true)|};
                    Console.WriteLine(next + _items.Count);
                }

                public override string ToString() => _name + _ready;
            """);
        var after = Class("""
                private readonly object _gate = new object();
                private readonly List<int> _items = new List<int>();
                private int _count;
                private long _total;
                private bool _ready;
                private string? _name;

                public C(int seed)
                {
                    _items.Add(seed);

                    _count++;
                    var next = (_total += seed);
                    _name = "c";
                    _ready = true;
                    Console.WriteLine(next + _items.Count);
                }

                public override string ToString() => _name + _ready;
            """);
        var test = new Verify.Test { TestCode = before, FixedCode = after };
        test.ExpectedDiagnostics.Add(Verify.Diagnostic().WithLocation(0).WithMessage("'lock' on '_gate' runs before this object can be seen by another thread; the protection costs without protecting"));
        test.ExpectedDiagnostics.Add(Verify.Diagnostic().WithLocation(1).WithArguments("'Interlocked.Increment'", "_count"));
        test.ExpectedDiagnostics.Add(Verify.Diagnostic().WithLocation(2).WithArguments("'Interlocked.Add'", "_total"));
        test.ExpectedDiagnostics.Add(Verify.Diagnostic().WithLocation(3).WithArguments("'Interlocked.Exchange'", "_name"));
        test.ExpectedDiagnostics.Add(Verify.Diagnostic().WithLocation(4).WithArguments("'Volatile.Write'", "_ready"));
        await test.RunAsync();
    }

    /// <summary>A field another member also protects keeps the protection's partner: reported, no fix.</summary>
    [Fact]
    public async Task FieldUsedElsewhere_OrNoPlainForm_HasNoFix()
    {
        var code = Class("""
                private readonly object _gate = new object();
                private int _count;
                private List<int>? _items;

                public C()
                {
                    [|lock|] (_gate) { _count = 1; }
                    [|LazyInitializer.EnsureInitialized(ref _items)|];
                    [|Interlocked.CompareExchange(ref _count, 2, 1)|];
                }

                public void Add(int item) { lock (_gate) { _count++; } }
            """);
        await Verify.VerifyCodeFixAsync(code, code);
    }

    /// <summary>Reads elsewhere leave the fix; a write elsewhere takes it away.</summary>
    [Fact]
    public async Task ReadsElsewhere_KeepTheFix_WritesElsewhere_DoNot()
    {
        var before = Class("""
                private int _reads;
                private int _writes;

                public C()
                {
                    [|Interlocked.Increment(ref _reads)|];
                    [|Interlocked.Increment(ref _writes)|];
                }

                public int Reads => _reads;
                public void Reset() => this._writes = 0;
            """);
        var after = before.Replace("[|Interlocked.Increment(ref _reads)|]", "_reads++", StringComparison.Ordinal);
        await new Verify.Test { TestCode = before, FixedCode = after, FixedState = { MarkupHandling = MarkupMode.Allow } }.RunAsync();
    }

    /// <summary>
    /// A write elsewhere whose line follows a comment (or an inactive <c>#if</c> branch) naming the field is still a
    /// write: the fix stays away. The name search once skipped the write after such a comment.
    /// </summary>
    [Fact]
    public async Task AWriteAfterACommentNamingTheField_StillTakesTheFixAway()
    {
        var before = Class("""
                private int _writes;
                private int _resets;

                public C()
                {
                    [|Interlocked.Increment(ref _writes)|];
                    [|Interlocked.Increment(ref _resets)|];
                }

                public void Reset()
                {
                    // _writes starts again from zero
                    _writes = 0;
            #if NEVER
                    _resets = 1;
            #else
                    _resets = 0;
            #endif
                }
            """);
        await new Verify.Test { TestCode = before, FixedCode = before }.RunAsync();
    }

    [Fact]
    public async Task PrivateHelper_IsFollowedOneLevel_AndReportedAtTheCall()
    {
        var code = Class("""
                private List<int>? _items;

                public C(bool add)
                {
                    if (add) {|#0:AddItem(0)|};
                }

                public void Add(int item) => AddItem(item);

                private void AddItem(int item)
                {
                    var list = LazyInitializer.EnsureInitialized(ref _items);
                    lock (list) list.Add(item);
                }
            """);
        var test = new Verify.Test { TestCode = code, FixedCode = code };
        test.ExpectedDiagnostics.Add(Verify.Diagnostic().WithLocation(0).WithArguments("'LazyInitializer.EnsureInitialized' in 'AddItem'", "_items"));
        await test.RunAsync();
    }

    /// <summary>
    /// A helper with several measures is one report at the call, naming the first: a compare-and-swap loop that reads
    /// its field with Volatile.Read, then swaps it with Interlocked.CompareExchange, gave two diagnostics on one call.
    /// </summary>
    [Fact]
    public async Task HelperWithSeveralMeasures_IsOneReportAtTheCall()
    {
        var code = Class("""
                private object _current = new object();

                public C()
                {
                    {|#0:Swap(null)|};
                }

                private void Swap(object? next)
                {
                    while (true)
                    {
                        var seen = Volatile.Read(ref _current);
                        if (ReferenceEquals(seen, next) || ReferenceEquals(Interlocked.CompareExchange(ref _current, next ?? new object(), seen), seen))
                        {
                            return;
                        }
                    }
                }
            """);
        var test = new Verify.Test { TestCode = code, FixedCode = code };
        test.ExpectedDiagnostics.Add(Verify.Diagnostic().WithLocation(0).WithArguments("'Volatile.Read' in 'Swap'", "_current"));
        await test.RunAsync();
    }

    /// <summary>
    /// The whitepaper's own example: the constructor calls a public AddItem that locks. Its body is followed like a
    /// private helper's and reported at the call, without a fix: other threads call AddItem and need its lock.
    /// </summary>
    [Fact]
    public async Task PublicHelperThatLocks_IsReportedAtTheCall_WithoutAFix()
    {
        var code = Class("""
                private readonly object _gate = new object();
                private int _count;

                public C(int[] seed)
                {
                    foreach (var item in seed) {|#0:AddItem(item)|};
                }

                public void AddItem(int item)
                {
                    lock (_gate) { _count += item; }
                }
            """);
        var test = new Verify.Test { TestCode = code, FixedCode = code };
        test.ExpectedDiagnostics.Add(Verify.Diagnostic().WithLocation(0).WithArguments("'lock' in 'AddItem'", "_gate"));
        await test.RunAsync();
    }

    /// <summary>Once 'this' may have reached other code, nothing after it is reported.</summary>
    [Theory]
    [InlineData("Registry.Add(this);")]
    [InlineData("Registry.Last = this;")]
    [InlineData("Action a = () => Console.WriteLine(_count);")]
    [InlineData("Func<int> f = Get;")]
    [InlineData("Changed += (s, e) => { };")]
    [InlineData("Virtual();")]
    [InlineData("Public();")]
    [InlineData("Task.Run(static () => { });")]
    [InlineData("new Thread(static () => { }).Start();")]
    [InlineData("Leak();")]
    [InlineData("var self = this;")]
    [InlineData("Local(); void Local() { }")]
    [InlineData("Console.WriteLine(Computed);")]
    public async Task AfterAnEscape_NothingIsReported(string escape)
    {
        var code = Class($$"""
                private int _count;

                public C()
                {
                    {{escape}}
                    Interlocked.Increment(ref _count);
                }

                public event EventHandler? Changed;
                public int Computed => _count;
                private int Get() => _count;
                protected virtual void Virtual() { }
                public void Public() => Registry.Add(this);
                private void Leak() => Registry.Add(this);
            """) + """

            static class Registry
            {
                public static object? Last;
                public static void Add(object o) => Last = o;
            }
            """;
        await Verify.VerifyAnalyzerAsync(code);
    }

    [Fact]
    public async Task EscapeInALoop_CountsFromTheLoopsStart()
    {
        var code = Class("""
                private int _count;

                public C(int n)
                {
                    for (var i = 0; i < n; i++)
                    {
                        Interlocked.Increment(ref _count);
                        Registry.Add(this);
                    }
                }
            """) + "\nstatic class Registry { public static void Add(object o) { } }\n";
        await Verify.VerifyAnalyzerAsync(code);
    }

    [Fact]
    public async Task BeforeAnEscape_IsReported_AndALockAroundTheEscapeIsNot()
    {
        var code = Class("""
                private readonly object _gate = new object();
                private int _count;

                public C()
                {
                    [|Interlocked.Increment(ref _count)|];
                    lock (_gate) { Registry.Add(this); }
                    Interlocked.Increment(ref _count);
                }
            """) + "\nstatic class Registry { public static void Add(object o) { } }\n";
        await Verify.VerifyAnalyzerAsync(code);
    }

    /// <summary>The base constructor, or a chained one, may already have published 'this'; so may a field of another object, or a static field.</summary>
    [Fact]
    public async Task OutOfScope_IsNotReported()
    {
        const string Code = """
            using System.Threading;

            class Base { }

            class Derived : Base
            {
                private int _count;
                public Derived() { Interlocked.Increment(ref _count); }
            }

            class Chained
            {
                private int _count;
                public Chained(int x) { }
                public Chained() : this(1) { Interlocked.Increment(ref _count); }
            }

            class Others
            {
                private static int s_count;
                private int _count;
                public Others(Others other)
                {
                    Interlocked.Increment(ref s_count);
                    Interlocked.Increment(ref other._count);
                    lock (this) { _count = 1; }
                }

                static Others() { Interlocked.Increment(ref s_count); }
            }
            """;
        await Verify.VerifyAnalyzerAsync(Code);
    }

    /// <summary>
    /// A lock object the caller passes in (a shared SyncRoot), a process-wide gate, or one the type hands out serializes
    /// the constructor against other objects: the lock protects something, and removing it would be a data race.
    /// Only a lock object this instance created and keeps to itself is reported.
    /// </summary>
    [Fact]
    public async Task LocksThatOthersCanTake_AreNotReported()
    {
        const string Code = """
            using System.Collections.Generic;

            class Shared
            {
                private readonly object _gate;
                private readonly List<int> _items = new List<int>();
                public Shared(object syncRoot) { _gate = syncRoot; lock (_gate) { _items.Add(1); } }
            }

            class Global
            {
                private static readonly object s_gate = new object();
                private readonly object _gate = s_gate;
                private int _count;
                public Global() { lock (_gate) { _count = 1; } }
                public int Count { get { lock (_gate) { return _count; } } }
            }

            class HandedOut
            {
                private readonly object _gate = new object();
                private int _count;
                public HandedOut() { lock (_gate) { _count = 1; } }
                public object SyncRoot => _gate;
                public int Count { get { lock (_gate) { return _count; } } }
            }

            class Visible
            {
                internal readonly object Gate = new object();
                private int _count;
                public Visible() { lock (Gate) { _count = 1; } }
                public int Count { get { lock (Gate) { return _count; } } }
            }

            class Own
            {
                private readonly object _gate = new();
                private readonly List<int> _items;
                public Own() { _items = new List<int>(); [|lock|] (this._gate) { _items.Add(1); } [|lock|] (_items) { _items.Add(2); } }
                public int Count { get { lock (_gate) { return _items.Count; } } }
            }
            """;
        await Verify.VerifyAnalyzerAsync(Code);
    }

    [Fact]
    public async Task Struct_AndExpressionBodiedConstructor()
    {
        const string Before = """
            using System.Threading;

            struct Counter
            {
                private int _count;
                public Counter(int start) => [|Interlocked.Exchange(ref _count, start)|];
                public int Count => _count;
            }

            class Flag
            {
                private bool _set;
                public Flag() => [|Volatile.Write(ref _set, true)|];
                public bool IsSet => _set;
            }
            """;
        const string After = """
            using System.Threading;

            struct Counter
            {
                private int _count;
                public Counter(int start) => _count = start;
                public int Count => _count;
            }

            class Flag
            {
                private bool _set;
                public Flag() => _set = true;
                public bool IsSet => _set;
            }
            """;
        await Verify.VerifyCodeFixAsync(Before, After);
    }

    /// <summary>
    /// A private field that nothing reads: passed by ref it is used, assigned it draws CS0414, an error under
    /// TreatWarningsAsErrors. Reported, without a fix.
    /// </summary>
    [Fact]
    public async Task FieldNeverRead_IsReportedWithoutTheAssignmentFix()
    {
        const string Code = """
            using System.Threading;

            class Flag
            {
                private bool _set;
                private int _count;
                public Flag()
                {
                    [|Volatile.Write(ref _set, true)|];
                    [|Interlocked.Exchange(ref _count, 1)|];
                }
            }
            """;
        await new Verify.Test
        {
            TestCode = Code,
            FixedCode = Code,
            CompilerDiagnostics = Microsoft.CodeAnalysis.Testing.CompilerDiagnostics.Warnings,
        }.RunAsync();
    }

    [Fact]
    public async Task LockBodyWithLocals_StaysABlock_AndFixAllCoversEveryConstructor()
    {
        const string Before = """
            using System.Threading;

            class A
            {
                private readonly object _gate = new object();
                private int _value;

                public A(int x)
                {
                    [|lock|] (_gate)
                    {
                        var doubled = x * 2;
                        _value = doubled;
                    }

                    var doubledAgain = _value;
                }
            }

            class B
            {
                private int _hits;
                public B() { [|Interlocked.Decrement(ref _hits)|]; }
            }
            """;
        const string After = """
            using System.Threading;

            class A
            {
                private readonly object _gate = new object();
                private int _value;

                public A(int x)
                {
                    {
                        var doubled = x * 2;
                        _value = doubled;
                    }

                    var doubledAgain = _value;
                }
            }

            class B
            {
                private int _hits;
                public B() { _hits--; }
            }
            """;
        await Verify.VerifyCodeFixAsync(Before, After);
    }

    [Fact]
    public async Task OnCSharp73NetStandard_TheFixCompiles()
    {
        const string Before = """
            using System.Threading;

            class C
            {
                private int _count;
                public C() { [|Interlocked.Increment(ref _count)|]; }
            }
            """;
        await new Verify.Test
        {
            SharedByNetStandardAndNet10 = true,
            TestCode = Before,
            FixedCode = Before.Replace("[|Interlocked.Increment(ref _count)|]", "_count++", StringComparison.Ordinal),
        }.RunAsync();
    }

    [Fact]
    public void Rule_IsASuggestion()
    {
        Assert.Equal(DiagnosticSeverity.Info, ConstructorConcurrencyAnalyzer.Rule.DefaultSeverity);
    }

    /// <summary>
    /// Two targets share the file: the fix built without trivia (<c>_count+=start</c>) used to be spaced in one copy
    /// only, and the workspace merged the copies with conflict markers. Every copy gets one text; a lock body holding
    /// an #if keeps its lock (taking it apart would drop the other target's branch); comments in a lock body survive.
    /// </summary>
    [Fact]
    public async Task MultiTargeted_OneTextInEveryCopy_IfInALockHasNoFix_CommentsSurvive()
    {
        const string Before = """
            using System.Threading;

            class C
            {
                private readonly object _gate = new object();
                private int _count;
                private int _other;

                public C(int start)
                {
                    [|Interlocked.Add(ref _count, start)|];
                    [|lock|] (_gate)
                    {
                        // before
                        _other = start; // after
                    }

                    [|lock|] (_gate)
                    {
            #if NET
                        _other++;
            #else
                        _other--;
            #endif
                    }
                }

                public int Sum => _count + _other;
            }
            """;
        const string After = """
            using System.Threading;

            class C
            {
                private readonly object _gate = new object();
                private int _count;
                private int _other;

                public C(int start)
                {
                    _count += start;
                    // before
                    _other = start; // after

                    [|lock|] (_gate)
                    {
            #if NET
                        _other++;
            #else
                        _other--;
            #endif
                    }
                }

                public int Sum => _count + _other;
            }
            """;
        await new Verify.Test
        {
            TestCode = Before,
            FixedCode = After,
            FixedState = { MarkupHandling = MarkupMode.Allow },
            LinkedTargets = { new LinkedTarget(TestTarget.NetStandard20, LanguageVersion.CSharp7_3, NullableContextOptions.Disable) },
        }.RunAsync();
    }
}
