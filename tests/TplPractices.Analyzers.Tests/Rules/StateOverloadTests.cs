using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp;
using Microsoft.CodeAnalysis.Testing;
using TplPractices.Analyzers.Rules;
using TplPractices.Analyzers.CodeFixes.Rules;
using TplPractices.Analyzers.Tests.Verifiers;
using Verify = TplPractices.Analyzers.Tests.Verifiers.CSharpCodeFixVerifier<
    TplPractices.Analyzers.Rules.StateOverloadAnalyzer,
    TplPractices.Analyzers.CodeFixes.Rules.StateOverloadFixer>;

namespace TplPractices.Analyzers.Tests.Rules;

/// <summary>TPL0015: state overloads found by shape, what is reported, fixed, and left alone, per target.</summary>
public sealed class StateOverloadTests
{
    private static string Class(string members) => $$"""
        using System;
        using System.Collections.Concurrent;
        using System.Threading;

        class C
        {
            private readonly ConcurrentDictionary<string, int> _cache = new ConcurrentDictionary<string, int>();
            private int _scale = 2;

            static int Load(string key, int factor) => key.Length * factor;
        {{members}}
        }
        """;

    [Fact]
    public async Task ConcurrentDictionary_GetsItsTArgOverloads()
    {
        var before = Class("""
                int One(string key, int factor) => _cache.GetOrAdd(key, {|#0:k => Load(k, factor)|});
                int Two(string key, int factor, int extra) => _cache.GetOrAdd(key, {|#1:k => Load(k, factor) + extra|});
                int Both(string key, int factor) => _cache.AddOrUpdate(key, {|#2:k => Load(k, factor)|}, (k, old) => old + factor);
                int Self(string key) => _cache.GetOrAdd(key, {|#3:k => Load(k, _scale)|});
            """);
        var after = Class("""
                int One(string key, int factor) => _cache.GetOrAdd(key, static (k, factor) => Load(k, factor), factor);
                int Two(string key, int factor, int extra) => _cache.GetOrAdd(key, static (k, state) =>
                {
                    var (factor, extra) = state;
                    return Load(k, factor) + extra;
                }, (factor, extra));
                int Both(string key, int factor) => _cache.AddOrUpdate(key, static (k, factor) => Load(k, factor), static (k, old, factor) => old + factor, factor);
                int Self(string key) => _cache.GetOrAdd(key, static (k, self) => Load(k, self._scale), this);
            """);
        var test = new Verify.Test { TestCode = before, FixedCode = after };
        test.ExpectedDiagnostics.Add(Verify.Diagnostic().WithLocation(0).WithMessage("The callback captures 'factor', so each call allocates a closure and a delegate; the overload with a state parameter can pass it instead"));
        test.ExpectedDiagnostics.Add(Verify.Diagnostic().WithLocation(1).WithArguments("'factor' and 'extra'", "a closure and a delegate", "the overload with a state parameter can pass them instead"));
        test.ExpectedDiagnostics.Add(Verify.Diagnostic().WithLocation(2).WithArguments("'factor'", "a closure and a delegate", "the overload with a state parameter can pass it instead"));
        test.ExpectedDiagnostics.Add(Verify.Diagnostic().WithLocation(3).WithArguments("'this'", "a delegate", "the overload with a state parameter can pass it instead"));
        await test.RunAsync();
    }

    /// <summary>
    /// A local function given as the factory, named as the type's one method of that name: the state form
    /// <c>static (k, self) =&gt; self.Make(k)</c> would compile and call the type's method instead. Not reported.
    /// </summary>
    [Fact]
    public async Task ALocalFunctionNamedAsAMethod_IsNotRewrittenIntoTheMethod()
    {
        const string Source = /* lang=c#-test */ """
            using System.Collections.Concurrent;

            class C
            {
                private readonly ConcurrentDictionary<int, int> _cache = new ConcurrentDictionary<int, int>();
                private int _offset;

                int Make(int k) => k;

                int Get(int key)
                {
                    return _cache.GetOrAdd(key, Make);
                    int Make(int k) => k + _offset;
                }
            }
            """;
        await Verify.VerifyCodeFixAsync(Source, Source);
    }

    /// <summary>
    /// A method of this class given as the callback is a delegate bound to 'this', allocated on every call: the typed
    /// state carries 'this', and the new lambda calls the method. Only where that call binds to the same method.
    /// </summary>
    [Fact]
    public async Task MethodGroupsBoundToThis_PassThisAsTheState()
    {
        var before = Class("""
                int Open(string key) => key.Length * _scale;
                int Get(string key) => _cache.GetOrAdd(key, {|#0:Open|});
                int Qualified(string key) => _cache.GetOrAdd(key, {|#1:this.Open|});
                int Update(string key) => _cache.AddOrUpdate(key, Open, (k, old) => old + 1); // two callbacks: left alone
            """);
        var after = Class("""
                int Open(string key) => key.Length * _scale;
                int Get(string key) => _cache.GetOrAdd(key, static (key, self) => self.Open(key), this);
                int Qualified(string key) => _cache.GetOrAdd(key, static (key, self) => self.Open(key), this);
                int Update(string key) => _cache.AddOrUpdate(key, Open, (k, old) => old + 1); // two callbacks: left alone
            """);
        var test = new Verify.Test { TestCode = before, FixedCode = after };
        test.ExpectedDiagnostics.Add(Verify.Diagnostic().WithLocation(0).WithMessage("The callback captures 'this', so each call allocates a delegate; the overload with a state parameter can pass it instead"));
        test.ExpectedDiagnostics.Add(Verify.Diagnostic().WithLocation(1).WithArguments("'this'", "a delegate", "the overload with a state parameter can pass it instead"));
        await test.RunAsync();
    }

    /// <summary>
    /// A periodic callback API of the user's own, as actor frameworks have for their timers: a method group of this
    /// instance given with target-typed options (<c>new() { … }</c>), beside a generic sibling that takes the state
    /// before the options. The state goes between the callback and the options, and the options keep binding as
    /// written (found on Orleans' rebalancer, whose fixed copy built with warnings as errors). The sibling is an
    /// interface's, which an implementation (a test double set up for the first) may answer otherwise: one site at a
    /// time, never in Fix All (the mixed case: StateOverloadDummyStateTests).
    /// </summary>
    [Fact]
    public async Task AMethodGroupBesideTargetTypedOptions_TakesTheStateBeforeThem()
    {
        const string Api = """
            using System;
            using System.Threading;
            using System.Threading.Tasks;

            public sealed class TickOptions
            {
                public TimeSpan Due { get; init; }
                public TimeSpan Period { get; init; }
            }

            public interface ITicks
            {
                IDisposable Every(Func<CancellationToken, Task> tick, TickOptions options);
                IDisposable Every<TState>(Func<TState, CancellationToken, Task> tick, TState state, TickOptions options);
            }

            public sealed class Monitor(ITicks ticks)
            {
                private int _reports;

                private Task Report(CancellationToken token)
                {
                    _reports++;
                    return Task.CompletedTask;
                }

            """;
        var testCode = Api + """
                public IDisposable Start() => ticks.Every({|#0:Report|}, new()
                {
                    Due = TimeSpan.Zero,
                    Period = TimeSpan.FromSeconds(30),
                });
            }
            """;
        var test = new Verify.Test
        {
            TestCode = testCode,
            CodeFixTestBehaviors = CodeFixTestBehaviors.SkipFixAllCheck,
            FixedCode = Api + """
                    public IDisposable Start() => ticks.Every(static (self, token) => self.Report(token), this, new()
                    {
                        Due = TimeSpan.Zero,
                        Period = TimeSpan.FromSeconds(30),
                    });
                }
                """,
            CodeActionEquivalenceKey = StateOverloadFixer.EquivalenceKey + "_OneSite",
            CodeActionVerifier = (action, verifier) => verifier.True(action.Title.EndsWith("(relies on every implementation of 'ITicks.Every' passing the state on)", StringComparison.Ordinal), action.Title),
        };
        test.ExpectedDiagnostics.Add(Verify.Diagnostic().WithLocation(0).WithArguments("'this'", "a delegate", "the overload with a state parameter can pass it instead"));
        await test.RunAsync();
    }

    /// <summary>
    /// A group bound to another receiver that cannot be null (a readonly field only its initializer sets with new, a
    /// local made with new that nothing writes again) is a delegate allocated on every call as well: the typed state
    /// carries that receiver, as TPL0001 and TPL0006 pass it for their groups. One that may be null is not reported: the
    /// delegate would throw at the call, the lambda in the callback.
    /// </summary>
    [Fact]
    public async Task MethodGroupsBoundToReceiversThatCannotBeNull_PassTheReceiverAsTheState()
    {
        const string Code = """
            using System.Collections.Concurrent;

            class Loader
            {
                public int Load(string name) => name.Length;
            }

            class C
            {
                private readonly ConcurrentDictionary<string, int> _cache = new ConcurrentDictionary<string, int>();
                private readonly Loader _loader = new Loader();
                private readonly Loader _given;

                C(Loader given) { _given = given; }

                int Field(string key) => _cache.GetOrAdd(key, {|#0:_loader.Load|});
                int Qualified(string key) => _cache.GetOrAdd(key, {|#1:this._loader.Load|});
                int Local(string key)
                {
                    var loader = new Loader();
                    return _cache.GetOrAdd(key, {|#2:loader.Load|});
                }

                int Given(string key) => _cache.GetOrAdd(key, _given.Load);
                int Parameter(string key, Loader other) => _cache.GetOrAdd(key, other.Load);
            }
            """;
        var test = new Verify.Test
        {
            TestCode = Code,
            FixedCode = Code
                .Replace("{|#0:_loader.Load|}", "static (name, self) => self.Load(name), _loader", StringComparison.Ordinal)
                .Replace("{|#1:this._loader.Load|}", "static (name, self) => self.Load(name), this._loader", StringComparison.Ordinal)
                .Replace("{|#2:loader.Load|}", "static (name, self) => self.Load(name), loader", StringComparison.Ordinal),
        };
        test.ExpectedDiagnostics.Add(Verify.Diagnostic().WithLocation(0).WithArguments("'_loader'", "a delegate", "the overload with a state parameter can pass it instead"));
        test.ExpectedDiagnostics.Add(Verify.Diagnostic().WithLocation(1).WithArguments("'this._loader'", "a delegate", "the overload with a state parameter can pass it instead"));
        test.ExpectedDiagnostics.Add(Verify.Diagnostic().WithLocation(2).WithArguments("'loader'", "a delegate", "the overload with a state parameter can pass it instead"));
        await test.RunAsync();
    }

    /// <summary>Where the lambda's call could bind elsewhere, or the group is not bound to this class's 'this'.</summary>
    [Fact]
    public async Task MethodGroupsTheLambdaCouldNotCallTheSame_AreNotReported()
    {
        await Verify.VerifyAnalyzerAsync("""
            using System;
            using System.Collections.Concurrent;

            class Base
            {
                protected virtual int Make(string key) => key.Length;
            }

            class C : Base
            {
                private readonly ConcurrentDictionary<string, int> _cache = new ConcurrentDictionary<string, int>();
                private Other _other = new Other();

                int Open(string key) => key.Length;
                int Open(object key) => 0;                                       // an overload: the lambda might call it
                int Generic<T>(T key) => 0;
                static int Static(string key) => key.Length;
                protected override int Make(string key) => key.Length + 1;

                void M(string key, Func<string, int> given)
                {
                    _cache.GetOrAdd(key, Open);
                    _cache.GetOrAdd(key, Generic);                                  // generic: inference could differ
                    _cache.GetOrAdd(key, Static);                                   // static: no allocation per call
                    _cache.GetOrAdd(key, base.Make);                                // the lambda would call the override
                    _cache.GetOrAdd(key, _other.Open);                              // a writable field: may be null
                    _cache.GetOrAdd(key, given);                                    // a delegate already
                }
            }

            class Other
            {
                public int Open(string key) => key.Length;
            }

            struct S
            {
                private ConcurrentDictionary<string, int> _cache;
                int Open(string key) => key.Length;
                int Get(string key) => _cache.GetOrAdd(key, Open);                  // a struct's copy: the state would copy again
            }
            """);
    }

    /// <summary>Before C# 8 a lambda parameter may not reuse the method's parameter name; C# 7.3 has no static lambdas.</summary>
    [Fact]
    public async Task MethodGroupsBoundToThis_OnCSharp73_TakeFreeNames()
    {
        var before = Class("""
                int Open(string key) => key.Length * _scale;
                int Get(string key) => _cache.GetOrAdd(key, [|Open|]);
            """);
        var after = Class("""
                int Open(string key) => key.Length * _scale;
                int Get(string key) => _cache.GetOrAdd(key, (key1, self) => self.Open(key1), this);
            """);
        await new Verify.Test
        {
            LanguageVersion = LanguageVersion.CSharp7_3,
            NullableContext = NullableContextOptions.Disable,
            TestCode = before,
            FixedCode = after,
        }.RunAsync();
    }

    /// <summary>
    /// A constructor with a state sibling is found by the same shape. Constructors cannot be generic, so the sibling
    /// takes an <c>object</c> named as a state, read back with a cast; target-typed <c>new(…)</c> too. The file writes
    /// two statements on one line (Typed), so the new blocks may be one line too (the shared layout layer's rule).
    /// </summary>
    [Fact]
    public async Task ConstructorsWithAStateSibling_GetIt()
    {
        const string Types = """
            using System;

            public sealed class Job
            {
                public Job(Func<int> work) => Work = work;
                public Job(Func<object?, int> work, object? state) => Work = () => work(state);
                public Func<int> Work { get; }
            }

            """;
        var before = Types + """
            class C
            {
                Job Make(int size) => new Job({|#0:() => size * 2|});
                Job Typed(int size) { Job job = new({|#1:() => size + 1|}); return job; }
                Job Quiet() => new Job(() => 42);
            }
            """;
        var after = Types + """
            class C
            {
                Job Make(int size) => new Job(static state => { var size = (int)state!; return size * 2; }, size);
                Job Typed(int size) { Job job = new(static state => { var size = (int)state!; return size + 1; }, size); return job; }
                Job Quiet() => new Job(() => 42);
            }
            """;
        var test = new Verify.Test { TestCode = before, FixedCode = after };
        test.ExpectedDiagnostics.Add(Verify.Diagnostic().WithLocation(0).WithArguments("'size'", "a closure and a delegate", "the overload with a state parameter can pass it instead"));
        test.ExpectedDiagnostics.Add(Verify.Diagnostic().WithLocation(1).WithArguments("'size'", "a closure and a delegate", "the overload with a state parameter can pass it instead"));
        await test.RunAsync();
    }

    /// <summary>
    /// <c>AddOrUpdate(key, value, (k, old) =&gt; …)</c>: the state overload takes the value as a factory of the state
    /// (<c>addValueFactory</c>). Where the value is the one variable the update captures, the state is that value and
    /// the factory hands it back; where the value is a constant, the factory returns it and the state holds the
    /// captures; where the value is computed (<c>value * 2</c>), it is reported without a fix.
    /// Nothing is reported where the update captures nothing, nor for a method group of this instance. The factory's
    /// key is <c>_</c> even where the update's parameters are discards (found in CAP, whose fix read <c>_2</c>).
    /// </summary>
    [Fact]
    public async Task AddOrUpdateOfAValue_IsFixedWhereTheValueIsTheCapture()
    {
        var before = Class("""
                int Replace(string key, int value) => _cache.AddOrUpdate(key, value, {|#0:(k, old) => value|});
                int Add(string key, int amount) => _cache.AddOrUpdate(key, amount, {|#1:(k, old) => old + amount|});
                int Bump(string key, int value, int step) => _cache.AddOrUpdate(key, value * 2, {|#2:(k, old) => old + step|});
                int Count(string key) => _cache.AddOrUpdate(key, 1, (k, old) => old + 1);
                int Grouped(string key, int value) => _cache.AddOrUpdate(key, value, Scaled);
                int Scaled(string key, int old) => old * _scale;
                int Step(string key, int step) => _cache.AddOrUpdate(key, 1, {|#3:(k, old) => old + step|});
                int Named(string key, int step) => _cache.AddOrUpdate(key, Start, {|#4:(k, old) => old + step|});
                const int Start = 10;
                int Discards(string key, int value) => _cache.AddOrUpdate(key, value, {|#5:(_, _) => value|});
            """);
        var after = Class("""
                int Replace(string key, int value) => _cache.AddOrUpdate(key, static (_, value) => value, static (k, old, value) => value, value);
                int Add(string key, int amount) => _cache.AddOrUpdate(key, static (_, amount) => amount, static (k, old, amount) => old + amount, amount);
                int Bump(string key, int value, int step) => _cache.AddOrUpdate(key, value * 2, {|#2:(k, old) => old + step|});
                int Count(string key) => _cache.AddOrUpdate(key, 1, (k, old) => old + 1);
                int Grouped(string key, int value) => _cache.AddOrUpdate(key, value, Scaled);
                int Scaled(string key, int old) => old * _scale;
                int Step(string key, int step) => _cache.AddOrUpdate(key, static (_, _) => 1, static (k, old, step) => old + step, step);
                int Named(string key, int step) => _cache.AddOrUpdate(key, static (_, _) => Start, static (k, old, step) => old + step, step);
                const int Start = 10;
                int Discards(string key, int value) => _cache.AddOrUpdate(key, static (_, value) => value, static (_, _, value) => value, value);
            """);
        var test = new Verify.Test { TestCode = before, FixedCode = after, FixedState = { MarkupHandling = MarkupMode.Allow } };
        test.ExpectedDiagnostics.Add(Verify.Diagnostic().WithLocation(5).WithArguments("'value'", "a closure and a delegate", "the overload with a state parameter can pass it instead"));
        test.ExpectedDiagnostics.Add(Verify.Diagnostic().WithLocation(3).WithArguments("'step'", "a closure and a delegate", "the overload with a state parameter can pass it instead"));
        test.ExpectedDiagnostics.Add(Verify.Diagnostic().WithLocation(4).WithArguments("'step'", "a closure and a delegate", "the overload with a state parameter can pass it instead"));
        test.ExpectedDiagnostics.Add(Verify.Diagnostic().WithLocation(0).WithArguments("'value'", "a closure and a delegate", "the overload with a state parameter can pass it instead"));
        test.ExpectedDiagnostics.Add(Verify.Diagnostic().WithLocation(1).WithArguments("'amount'", "a closure and a delegate", "the overload with a state parameter can pass it instead"));
        test.ExpectedDiagnostics.Add(Verify.Diagnostic().WithLocation(2).WithArguments("'step'", "a closure and a delegate", "the overload with a state parameter can pass it instead"));
        test.FixedState.ExpectedDiagnostics.Add(Verify.Diagnostic().WithLocation(2).WithArguments("'step'", "a closure and a delegate", "the overload with a state parameter can pass it instead"));
        await test.RunAsync();
    }

    /// <summary>
    /// A variable value the update does not read (a registry's <c>AddOrUpdate(key, addPolicy, (k, e) =&gt;
    /// update(k, e))</c>): the state carries it first, beside the captures, the add factory hands it back and the update
    /// discards it. Read at the call either way, so the added value is the same. One the update reads too takes its place
    /// among the captures. A value that is no variable (<c>a + 1</c>) is still reported without a fix.
    /// </summary>
    [Fact]
    public async Task AddOrUpdateOfAVariable_TheStateCarriesItBesideTheCaptures()
    {
        var before = Class("""
                int Bump(string key, int value, int step) => _cache.AddOrUpdate(key, value, {|#0:(k, old) => old + step|});
                int Both(string key, int value, int step) => _cache.AddOrUpdate(key, value, {|#1:(k, old) => old + step * value|});
                int Scaled(string key, int value) => _cache.AddOrUpdate(key, value, {|#2:(k, old) => old * _scale|});
                int Computed(string key, int value) => _cache.AddOrUpdate(key, value + 1, {|#3:(k, old) => old + value|});
            """);
        var after = Class("""
                int Bump(string key, int value, int step) => _cache.AddOrUpdate(key, static (_, state) => state.Item1, static (k, old, state) =>
                {
                    var (_, step) = state;
                    return old + step;
                }, (value, step));
                int Both(string key, int value, int step) => _cache.AddOrUpdate(key, static (_, state) => state.Item2, static (k, old, state) =>
                {
                    var (step, value) = state;
                    return old + step * value;
                }, (step, value));
                int Scaled(string key, int value) => _cache.AddOrUpdate(key, static (_, state) => state.Item1, static (k, old, state) =>
                {
                    var (_, self) = state;
                    return old * self._scale;
                }, (value, this));
                int Computed(string key, int value) => _cache.AddOrUpdate(key, value + 1, {|#3:(k, old) => old + value|});
            """);
        var test = new Verify.Test { TestCode = before, FixedCode = after, FixedState = { MarkupHandling = MarkupMode.Allow } };
        test.ExpectedDiagnostics.Add(Verify.Diagnostic().WithLocation(0).WithArguments("'step'", "a closure and a delegate", "the overload with a state parameter can pass it instead"));
        test.ExpectedDiagnostics.Add(Verify.Diagnostic().WithLocation(1).WithArguments("'step' and 'value'", "a closure and a delegate", "the overload with a state parameter can pass them instead"));
        test.ExpectedDiagnostics.Add(Verify.Diagnostic().WithLocation(2).WithArguments("'this'", "a delegate", "the overload with a state parameter can pass it instead"));
        test.ExpectedDiagnostics.Add(Verify.Diagnostic().WithLocation(3).WithArguments("'value'", "a closure and a delegate", "the overload with a state parameter can pass it instead"));
        test.FixedState.ExpectedDiagnostics.Add(Verify.Diagnostic().WithLocation(3).WithArguments("'value'", "a closure and a delegate", "the overload with a state parameter can pass it instead"));
        await test.RunAsync();
    }

    /// <summary>C# 7.3 lets no lambda parameter shadow the method's: the value's factory and the update share the renamed state.</summary>
    [Fact]
    public async Task AddOrUpdateOfAValue_AtCSharp73_RenamesTheState()
    {
        var before = Class("""
                int Add(string key, int amount) => _cache.AddOrUpdate(key, amount, {|#0:(k, old) => old + amount|});
                int Step(string key, int step) => _cache.AddOrUpdate(key, 1, {|#1:(k, old) => old + step|});
                int Bump(string key, int value, int step) => _cache.AddOrUpdate(key, value, {|#2:(k, old) => old + step|});
            """);
        var after = Class("""
                int Add(string key, int amount) => _cache.AddOrUpdate(key, (_, myAmount) => myAmount, (k, old, myAmount) => old + myAmount, amount);
                int Step(string key, int step) => _cache.AddOrUpdate(key, (_, _2) => 1, (k, old, myStep) => old + myStep, step);
                int Bump(string key, int value, int step) => _cache.AddOrUpdate(key, (_, state) => state.Item1, (k, old, state) =>
                {
                    var (_, myStep) = state;
                    return old + myStep;
                }, (value, step));
            """);
        var test = new Verify.Test { TestCode = before, FixedCode = after, LanguageVersion = LanguageVersion.CSharp7_3, NullableContext = NullableContextOptions.Disable };
        test.ExpectedDiagnostics.Add(Verify.Diagnostic().WithLocation(0).WithArguments("'amount'", "a closure and a delegate", "the overload with a state parameter can pass it instead"));
        test.ExpectedDiagnostics.Add(Verify.Diagnostic().WithLocation(1).WithArguments("'step'", "a closure and a delegate", "the overload with a state parameter can pass it instead"));
        test.ExpectedDiagnostics.Add(Verify.Diagnostic().WithLocation(2).WithArguments("'step'", "a closure and a delegate", "the overload with a state parameter can pass it instead"));
        await test.RunAsync();
    }

    private const string AddOrUpdateRun = """
        using System.Collections.Concurrent;

        public static class Api
        {
            private static readonly ConcurrentDictionary<string, int> Totals = new ConcurrentDictionary<string, int>();

            private static int Add(string key, int amount) => Totals.AddOrUpdate(key, amount, (k, old) => old + amount);

            private static int Step(string key, int step) => Totals.AddOrUpdate(key, 100, (k, old) => old + step);

            private static int Bump(string key, int value, int step) => Totals.AddOrUpdate(key, value, (k, old) => old + step);

            public static string Run(int x) => Add("a", x) + "," + Add("a", x + 1) + "," + Add("b", 7) + "," + Totals["a"] + "," + Step("c", x) + "," + Step("c", x)
                + "," + Bump("d", 40, x) + "," + Bump("d", 40, x);
        }
        """;

    /// <summary>The value form's fix adds the same value on an absent key and updates the same way on a present one.</summary>
    [Fact]
    public async Task AddOrUpdateOfAValue_Fixed_DoesWhatTheOriginalDid()
    {
        await AssertFixedRunsAlike(
            AddOrUpdateRun,
            "returned 5,11,7,11,100,105,40,45",
            ("Totals.AddOrUpdate(key, amount, (k, old) => old + amount)",
                "Totals.AddOrUpdate(key, static (_, amount) => amount, static (k, old, amount) => old + amount, amount)"),
            ("Totals.AddOrUpdate(key, 100, (k, old) => old + step)",
                "Totals.AddOrUpdate(key, static (_, _) => 100, static (k, old, step) => old + step, step)"),
            ("Totals.AddOrUpdate(key, value, (k, old) => old + step)",
                "Totals.AddOrUpdate(key, static (_, state) => state.Item1, static (k, old, state) => { var (_, step) = state; return old + step; }, (value, step))"));
    }

    /// <summary>Runs <paramref name="run"/> and its text with each call replaced by its fix: both return <paramref name="expected"/>.</summary>
    private static async Task AssertFixedRunsAlike(string run, string expected, params (string Before, string After)[] fixes)
    {
        var fixedRun = fixes.Aggregate(run, (text, fix) => text.Replace(fix.Before, fix.After, StringComparison.Ordinal));
        Assert.All(fixes, fix => Assert.DoesNotContain(fix.Before, fixedRun, StringComparison.Ordinal));
        Assert.Equal(expected, await CodeRunner.RunAsync(run, "Api", "Run", 5));
        Assert.Equal(expected, await CodeRunner.RunAsync(fixedRun, "Api", "Run", 5));
    }

    /// <summary>Anonymous methods name no parameters: from C# 9 the ones the body cannot use are discards, not _ and _2.</summary>
    [Fact]
    public async Task AnonymousMethods_GetDiscardParameters()
    {
        var before = Class("""
                int Both(string key, int factor) => _cache.AddOrUpdate(key, {|#0:delegate { return factor; }|}, delegate { return factor + 1; });
            """);
        var after = Class("""
                int Both(string key, int factor) => _cache.AddOrUpdate(
                    key,
                    static (_, factor) => { return factor; },
                    static (_, _, factor) => { return factor + 1; },
                    factor);
            """);
        var test = new Verify.Test { TestCode = before, FixedCode = after };
        test.ExpectedDiagnostics.Add(Verify.Diagnostic().WithLocation(0).WithArguments("'factor'", "a closure and a delegate", "the overload with a state parameter can pass it instead"));
        await test.RunAsync();
    }

    /// <summary>
    /// Any API of the same shape (a TState or object state, a generic method, an extension, the state mid-list) and the
    /// BCL's; whole programs, so the gauntlet runs them before and after the fix too.
    /// </summary>
    private const string UserApisBefore = /* lang=c#-test */ """
        using System;
        using System.Collections.Concurrent;
        using System.Threading;

        public static class Pool
        {
            public static int Run(Func<int> work) => work();
            public static int Run<TState>(Func<TState, int> work, TState state) => work(state);

            public static T Map<T>(string key, Func<string, T> make) => make(key);
            public static T Map<T, TArg>(string key, Func<string, TArg, T> make, TArg arg) => make(key, arg);

            public static void Post(Action<int> callback, CancellationToken token) => callback(1);
            public static void Post(Action<int, object?> callback, object? state, CancellationToken token) => callback(1, state);

            public static string Each(this string text, Func<char, string> map) => map(text[0]);
            public static string Each<TState>(this string text, Func<char, TState, string> map, TState state) => map(text[0], state);
        }

        public static class Api
        {
            public static string Use(int x, string name)
            {
                var a = Pool.Run({|#0:() => x + 1|});
                var b = Pool.Map("k", {|#1:k => k + name|});
                var posted = 0;
                Pool.Post({|#2:i => Console.WriteLine(i + x)|}, CancellationToken.None);
                var d = "abc".Each({|#3:ch => ch + name|});
                return a + b + posted + d;
            }

            public static string Cache(int x, string name)
            {
                var cache = new ConcurrentDictionary<string, string>();
                var first = cache.GetOrAdd(name, {|#4:k => k + x|});
                var second = cache.AddOrUpdate(name, {|#5:k => k + x|}, (k, old) => old + x);
                return first + "/" + second + "/" + cache.Count;
            }
        }
        """;

    private static readonly string UserApisAfter = UserApisBefore
        .Replace("{|#0:() => x + 1|}", "static x => x + 1, x", StringComparison.Ordinal)
        .Replace("{|#1:k => k + name|}", "static (k, name) => k + name, name", StringComparison.Ordinal)
        .Replace(
            "Pool.Post({|#2:i => Console.WriteLine(i + x)|}, CancellationToken.None);",
            "Pool.Post(\n            static (i, state) =>\n            {\n                var x = (int)state!;\n                Console.WriteLine(i + x);\n            },\n            x,\n            CancellationToken.None);",
            StringComparison.Ordinal)
        .Replace("{|#3:ch => ch + name|}", "static (ch, name) => ch + name, name", StringComparison.Ordinal)
        .Replace("{|#4:k => k + x|});", "static (k, x) => k + x, x);", StringComparison.Ordinal)
        .Replace("{|#5:k => k + x|}, (k, old) => old + x)", "static (k, x) => k + x, static (k, old, x) => old + x, x)", StringComparison.Ordinal);

    [Fact]
    public async Task UserApisOfTheSameShape_AreFound()
    {
        var test = new Verify.Test { TestCode = UserApisBefore, FixedCode = UserApisAfter };
        for (var i = 0; i < 6; i++)
        {
            test.ExpectedDiagnostics.Add(Verify.Diagnostic().WithLocation(i).WithArguments(i is 1 or 3 ? "'name'" : "'x'", "a closure and a delegate", "the overload with a state parameter can pass it instead"));
        }

        await test.RunAsync();
    }

    [Theory]
    [InlineData("Use")]
    [InlineData("Cache")]
    public async Task FixedCode_ReturnsWhatTheOriginalReturned(string method)
    {
        var original = await CodeRunner.RunAsync(TestMarkup.Strip(UserApisBefore), "Api", method, 4, "n");
        Assert.Equal(original, await CodeRunner.RunAsync(UserApisAfter, "Api", method, 4, "n"));
        Assert.StartsWith("returned", original, StringComparison.Ordinal);
    }

    /// <summary>
    /// A state overload of the project that never reads its state (a helper that calls <c>callback(null)</c>) would hand
    /// the rewritten lambda null for its values: the capture carries them, and nothing is reported. The same class as
    /// TPL0006's synchronization context that ignores its state; one that passes the state on is reported.
    /// </summary>
    [Fact]
    public async Task AnOverloadOfTheProjectThatIgnoresItsState_IsNotReported()
    {
        await Verify.VerifyAnalyzerAsync(Class("""
                static void Log(object? value) => Console.WriteLine(value);
                static void Drop(Action<object?> callback, object? state) => callback(null);
                static void Pass(Action<object?> callback, object? state) => callback(state);
                static void Sibling(Action callback) => callback();
                static void Sibling(Action<object?> callback, object? state)
                {
                    callback(null);
                }

                static void DropTyped<T>(Action<T> callback, T state) => callback(default!);

                void M(int x)
                {
                    Drop(_ => Log(x), null);
                    Sibling(() => Log(x));
                    DropTyped<int>(_ => Log(x), 0);
                    Pass({|TPL0015:_ => Log(x)|}, null);
                }
            """));
    }

    [Fact]
    public async Task OverloadsOfOtherShapes_AndOtherRulesApis_AreNotReported()
    {
        await Verify.VerifyAnalyzerAsync("""
            using System;
            using System.Linq;
            using System.Collections.Generic;
            using System.Threading;
            using System.Threading.Tasks;

            public static class Other
            {
                public static void Tag(Action callback) => callback();
                public static void Tag(Action<object> callback, object tag) => callback(tag);          // an object that is no state

                public static void Typed(Action callback) => callback();
                public static void Typed<T>(Action<T> callback, T state) where T : struct => callback(state); // a constraint

                public static void Hidden(Action callback) => callback();
                private static void Hidden<T>(Action<T> callback, T state) => callback(state);              // not accessible

                public static void Old(Action callback) => callback();
                [Obsolete] public static void Old<T>(Action<T> callback, T state) => callback(state);       // obsolete
            }

            class C
            {
                void M(IEnumerable<int> items, int x, CancellationToken token, Action<int> log)
                {
                    _ = items.Select(i => i + x);                   // Select's other overload takes an index, not a state
                    Other.Tag(() => log(x));
                    Other.Typed(() => log(x));
                    Other.Hidden(() => log(x));
                    Other.Old(() => log(x));
                    _ = Task.Run(() => log(x));                     // TPL0007's
                    _ = Task.Factory.StartNew(() => log(x));        // TPL0001's
                    token.Register(() => log(x));                   // TPL0006's
                    ThreadPool.QueueUserWorkItem(_ => log(x));      // TPL0006's
                }
            }
            """);
    }

    [Fact]
    public async Task NothingToCarry_OrValuesTheClosureShares_AreNotReported()
    {
        await Verify.VerifyAnalyzerAsync(Class("""
                int Static(string key) => _cache.GetOrAdd(key, static k => Load(k, 1));
                int NoCapture(string key) => _cache.GetOrAdd(key, k => Load(k, 1));
                int Group(string key) => _cache.GetOrAdd(key, Make);
                int Already(string key, int factor) => _cache.GetOrAdd(key, static (k, f) => Load(k, f), factor);
                int Counts(string key, int x) => _cache.AddOrUpdate(key, _ => 1, (_, old) => old + 1);
                int Later(string key) { var factor = 1; var n = _cache.GetOrAdd(key, k => Load(k, factor)); factor++; return n + factor; }
                static int Make(string key) => key.Length;
            """));
    }

    /// <summary>
    /// Both callbacks receive the one state: it carries every value either captures, each reads back its own and discards
    /// the rest, and a callback that captures nothing takes the state unread (a discard from C# 9).
    /// </summary>
    [Fact]
    public async Task CallbacksWantingDifferentValues_ShareOneState()
    {
        var before = Class("""
                int Different(string key, int a, int b) => _cache.AddOrUpdate(key, {|#0:k => Load(k, a)|}, (k, old) => old + b);
                int UpdateAlone(string key, int a) => _cache.AddOrUpdate(key, k => k.Length, {|#1:(k, old) => old + a|});
                int AddAlone(string key, int a) => _cache.AddOrUpdate(key, {|#2:_ => a|}, (_, old) => old + 1);
                int WithThis(string key, int a) => _cache.AddOrUpdate(key, {|#3:k => Load(k, _scale)|}, (k, old) => old - a);
                int NamesUnderscore(string key, int a) => _cache.AddOrUpdate(key, _ => _.Length, {|#4:(k, old) => old + a|});
            """);
        var after = Class("""
                int Different(string key, int a, int b) => _cache.AddOrUpdate(
                    key,
                    static (k, state) =>
                    {
                        var (a, _) = state;
                        return Load(k, a);
                    },
                    static (k, old, state) =>
                    {
                        var (_, b) = state;
                        return old + b;
                    },
                    (a, b));
                int UpdateAlone(string key, int a) => _cache.AddOrUpdate(key, static (k, _) => k.Length, static (k, old, a) => old + a, a);
                int AddAlone(string key, int a) => _cache.AddOrUpdate(key, static (_, a) => a, static (_, old, _) => old + 1, a);
                int WithThis(string key, int a) => _cache.AddOrUpdate(
                    key,
                    static (k, state) =>
                    {
                        var (self, _) = state;
                        return Load(k, self._scale);
                    },
                    static (k, old, state) =>
                    {
                        var (_, a) = state;
                        return old - a;
                    },
                    (this, a));
                int NamesUnderscore(string key, int a) => _cache.AddOrUpdate(key, static (_, _2) => _.Length, static (k, old, a) => old + a, a);
            """);
        var test = new Verify.Test { TestCode = before, FixedCode = after };
        test.ExpectedDiagnostics.Add(Verify.Diagnostic().WithLocation(0).WithArguments("'a'", "a closure and a delegate", "the overload with a state parameter can pass it instead"));
        test.ExpectedDiagnostics.Add(Verify.Diagnostic().WithLocation(1).WithArguments("'a'", "a closure and a delegate", "the overload with a state parameter can pass it instead"));
        test.ExpectedDiagnostics.Add(Verify.Diagnostic().WithLocation(2).WithArguments("'a'", "a closure and a delegate", "the overload with a state parameter can pass it instead"));
        test.ExpectedDiagnostics.Add(Verify.Diagnostic().WithLocation(3).WithArguments("'this'", "a delegate", "the overload with a state parameter can pass it instead"));
        test.ExpectedDiagnostics.Add(Verify.Diagnostic().WithLocation(4).WithArguments("'a'", "a closure and a delegate", "the overload with a state parameter can pass it instead"));
        await test.RunAsync();
    }

    /// <summary>Before C# 9 a callback that reads no value names the state with a name nothing uses; before C# 8 the values it reads are renamed.</summary>
    [Theory]
    [InlineData(LanguageVersion.CSharp7_3, "myA")]
    [InlineData(LanguageVersion.CSharp8, "a")]
    public async Task CallbacksWantingDifferentValues_OnOlderLanguageVersions_TakeFreeNames(LanguageVersion version, string a)
    {
        var before = Class("""
                int UpdateAlone(string key, int a) => _cache.AddOrUpdate(key, _ => 0, {|#0:(k, old) => old + a|});
            """);
        var after = Class($$"""
                int UpdateAlone(string key, int a) => _cache.AddOrUpdate(key, (_, _2) => 0, (k, old, {{a}}) => old + {{a}}, a);
            """);
        var test = new Verify.Test { TestCode = before, FixedCode = after, LanguageVersion = version, NullableContext = NullableContextOptions.Disable };
        test.ExpectedDiagnostics.Add(Verify.Diagnostic().WithLocation(0).WithArguments("'a'", "a closure and a delegate", "the overload with a state parameter can pass it instead"));
        await test.RunAsync();
    }

    /// <summary>A method group among the callbacks cannot read a state: reported, without a fix.</summary>
    [Fact]
    public async Task ACallbackThatIsAMethodGroup_LeavesTheCallWithoutAFix()
    {
        var code = Class("""
                int Group(string key, int a) => _cache.AddOrUpdate(key, [|k => Load(k, a)|], Merge);
                int Local(string key, int a)
                {
                    int Bump(int old) => old + a;
                    return _cache.AddOrUpdate(key, [|k => Load(k, a)|], (k, old) => Bump(old));
                }
                static int Merge(string key, int old) => old;
            """);
        await Verify.VerifyCodeFixAsync(code, code);
    }

    private const string SharedStateRun = """
        using System.Collections.Concurrent;

        public static class Api
        {
            private static readonly ConcurrentDictionary<string, int> Totals = new ConcurrentDictionary<string, int>();

            private static int Different(string key, int a, int b) => Totals.AddOrUpdate(key, k => k.Length * a, (k, old) => old + b);

            private static int UpdateAlone(string key, int a) => Totals.AddOrUpdate(key, k => k.Length, (k, old) => old * a);

            public static string Run(int x) => Different("ab", x, 3) + "," + Different("ab", x, 4) + "," + UpdateAlone("abc", x) + "," + UpdateAlone("abc", x);
        }
        """;

    /// <summary>The shared state's fix adds and updates as the original did.</summary>
    [Fact]
    public async Task CallbacksWantingDifferentValues_Fixed_DoWhatTheOriginalDid()
    {
        await AssertFixedRunsAlike(
            SharedStateRun,
            "returned 10,14,3,15",
            ("Totals.AddOrUpdate(key, k => k.Length * a, (k, old) => old + b)",
                "Totals.AddOrUpdate(key, static (k, state) => { var (a, _) = state; return k.Length * a; }, static (k, old, state) => { var (_, b) = state; return old + b; }, (a, b))"),
            ("Totals.AddOrUpdate(key, k => k.Length, (k, old) => old * a)",
                "Totals.AddOrUpdate(key, static (k, _) => k.Length, static (k, old, a) => old * a, a)"));
    }

    /// <summary>
    /// An executor calls <c>action(context, state)</c>: which <c>object</c> reaches which parameter is its convention, not
    /// its signature. Moving a call that already passes one state to the two-state overload put the new value where the
    /// callback read the old one (InvalidCastException on the executor's thread). Where two parameters share the
    /// state's type, the call is reported without a fix.
    /// </summary>
    [Fact]
    public async Task StatesOfOneTypeWhoseOrderIsAConvention_AreReportedWithoutAFix()
    {
        var code = """
            using System;

            public sealed class Executor
            {
                public void Execute(Action action) => action();
                public void Execute(Action<object> action, object state) => action(state);
                public void Execute(Action<object, object> action, object context, object state) => action(context, state);

                public static void Map(Func<object, int> map) => map(1);
                public static void Map(Func<object, object, int> map, object state) => map(1, state);
            }

            public sealed class Client
            {
                private readonly Executor _executor = new Executor();
                private int _count;

                public void Send(string message)
                {
                    _executor.Execute([|m => Handle((string)m, _count)|], message);
                    Executor.Map([|o => o.GetHashCode() + _count|]);
                }

                private static void Handle(string message, int count) { }
            }
            """;
        await Verify.VerifyCodeFixAsync(code, code);
    }

    /// <summary>A method group or member named in <c>nameof</c> reads nothing: the lambda captures nothing.</summary>
    [Fact]
    public async Task NamesInNameOf_AreNotCaptures()
    {
        await Verify.VerifyAnalyzerAsync(Class("""
                int Named(string key) => _cache.GetOrAdd(key, k => Load(k + nameof(Named) + nameof(_scale) + nameof(_cache), 1));
            """));
    }

    /// <summary>
    /// The state overload takes the state after an optional parameter the call leaves out: it would have to be written
    /// too. Reported, not fixed.
    /// </summary>
    [Fact]
    public async Task StateAfterAnOmittedOptional_IsReportedWithoutAFix()
    {
        var code = """
            using System;

            public static class Api
            {
                public static int Run(Func<int> work, int retries = 1) => work() * retries;
                public static int Run<TState>(Func<TState, int> work, int retries, TState state) => work(state) * retries;

                public static int Use(int x) => Run([|() => x|]);
            }
            """;
        await Verify.VerifyCodeFixAsync(code, code);
    }

    /// <summary>netstandard2.0 has no GetOrAdd&lt;TArg&gt;; .NET Framework 4.7.2 added it: the shape decides, not a version list.</summary>
    [Fact]
    public async Task ReportedWhereTheTargetHasTheOverload()
    {
        const string Members = """
                int One(string key, int factor) => _cache.GetOrAdd(key, k => Load(k, factor));
            """;
        await Verify.VerifyAnalyzerAsync(Class(Members), TestTarget.NetStandard20);
        await Verify.VerifyAnalyzerAsync(Class(Members.Replace("k => Load(k, factor)", "[|k => Load(k, factor)|]", StringComparison.Ordinal)), TestTarget.Net472);
    }

    /// <summary>netstandard2.0's ConcurrentDictionary has no GetOrAdd&lt;TArg&gt;: a file it shares gets no fix.</summary>
    [Fact]
    public async Task MultiTargetedWithATargetWithoutTheOverload_HasNoFix()
    {
        var code = Class("""
                int One(string key, int factor) => _cache.GetOrAdd(key, [|k => Load(k, factor)|]);
            """);
        await new Verify.Test
        {
            TestCode = code,
            FixedState = { Sources = { code }, MarkupHandling = MarkupMode.Allow },
            LinkedTargets = { new LinkedTarget(TestTarget.NetStandard20, LanguageVersion.CSharp7_3, NullableContextOptions.Disable) },
        }.RunAsync();
    }

    /// <summary>A site in an #if branch that only net10.0 compiles is fixed; the same call outside it is not.</summary>
    [Fact]
    public async Task MultiTargeted_ASiteOnlyTheModernTargetCompiles_IsFixed()
    {
        const string Before = """
            using System.Collections.Concurrent;

            class C
            {
                private readonly ConcurrentDictionary<string, int> _cache = new ConcurrentDictionary<string, int>();

                int Shared(string key, int factor) => _cache.GetOrAdd(key, [|k => k.Length * factor|]);
            #if NET
                int Modern(string key, int factor) => _cache.GetOrAdd(key, [|k => k.Length * factor|]);
            #endif
            }
            """;
        var after = Before.Replace(
            "int Modern(string key, int factor) => _cache.GetOrAdd(key, [|k => k.Length * factor|]);",
            "int Modern(string key, int factor) => _cache.GetOrAdd(key, static (k, factor) => k.Length * factor, factor);",
            StringComparison.Ordinal);
        await new Verify.Test
        {
            TestCode = Before,
            FixedState = { Sources = { after }, MarkupHandling = MarkupMode.Allow },
            // The shared site stays reported: Fix All may make a second pass that leaves it alone (a negative count is a bound).
            NumberOfFixAllIterations = -2,
            PreprocessorSymbols = { "NET" },
            LinkedTargets = { new LinkedTarget(TestTarget.NetStandard20, LanguageVersion.CSharp12, NullableContextOptions.Enable, []) },
        }.RunAsync();
    }

    /// <summary>
    /// The method group and constructor fixes in a netstandard2.0 (C# 7.3) + net10.0 (nullable) library: a group in the
    /// shared code gets no fix (netstandard2.0 has no GetOrAdd&lt;TArg&gt;), one in an #if branch only net10.0 compiles
    /// is fixed; the constructor's non-nullable object state reads back without '!' in both copies, so it is fixed.
    /// </summary>
    [Fact]
    public async Task MultiTargeted_GroupsAndConstructors_AreFixedOnlyWhereEveryCopyCompiles()
    {
        const string Before = """
            using System;
            using System.Collections.Concurrent;

            class Job
            {
                public Job(Func<int> work) { work(); }
                public Job(Func<object, int> work, object state) { work(state); }
            }

            class Loader
            {
                public int Load(string name) => name.Length;
            }

            class C
            {
                private readonly ConcurrentDictionary<string, int> _cache = new ConcurrentDictionary<string, int>();
                private readonly Loader _loader = new Loader();

                int Open(string key) => key.Length;
                int Shared(string key) => _cache.GetOrAdd(key, [|Open|]);
                Job Make(int size) => new Job([|() => size|]);
            #if NET
                int Modern(string key) => _cache.GetOrAdd(key, [|Open|]);
                int ModernField(string key) => _cache.GetOrAdd(key, [|_loader.Load|]);
            #endif
            }
            """;
        // The file's oldest language is C# 7.3: no static lambda, and names that shadow nothing.
        var after = Before
            .Replace(
                "int Modern(string key) => _cache.GetOrAdd(key, [|Open|]);",
                "int Modern(string key) => _cache.GetOrAdd(key, (key1, self) => self.Open(key1), this);",
                StringComparison.Ordinal)
            .Replace(
                "int ModernField(string key) => _cache.GetOrAdd(key, [|_loader.Load|]);",
                "int ModernField(string key) => _cache.GetOrAdd(key, (name, self) => self.Load(name), _loader);",
                StringComparison.Ordinal)
            .Replace(
                "Job Make(int size) => new Job([|() => size|]);",
                "Job Make(int size) => new Job(state =>\n    {\n        var mySize = (int)state;\n        return mySize;\n    }, size);",
                StringComparison.Ordinal);
        await new Verify.Test
        {
            TestCode = Before,
            FixedState = { Sources = { after }, MarkupHandling = MarkupMode.Allow },
            NumberOfFixAllIterations = -2,
            PreprocessorSymbols = { "NET" },
            LinkedTargets = { new LinkedTarget(TestTarget.NetStandard20, LanguageVersion.CSharp7_3, NullableContextOptions.Disable, []) },
        }.RunAsync();
    }

    /// <summary>
    /// Two targets that both have the overload, one on C# 7.3, the other with nullable warnings: no static lambda,
    /// parameters renamed, and no '!' needed, since a typed state is read back without a cast.
    /// </summary>
    [Fact]
    public async Task MultiTargetedWhereEveryTargetHasIt_OnCSharp73_IsFixed()
    {
        var before = Class("""
                int Two(string key, int factor, int extra) => _cache.GetOrAdd(key, [|k => Load(k, factor) + extra|]);
                int One(string key, int factor) => _cache.GetOrAdd(key, [|k => Load(k, factor)|]);
            """);
        var after = Class("""
                int Two(string key, int factor, int extra) => _cache.GetOrAdd(key, (k, state) =>
                {
                    var (myFactor, myExtra) = state;
                    return Load(k, myFactor) + myExtra;
                }, (factor, extra));
                int One(string key, int factor) => _cache.GetOrAdd(key, (k, myFactor) => Load(k, myFactor), factor);
            """);
        await new Verify.Test
        {
            LanguageVersion = LanguageVersion.CSharp7_3,
            NullableContext = NullableContextOptions.Disable,
            TestCode = before,
            FixedCode = after,
            LinkedTargets = { new LinkedTarget(TestTarget.Net80, LanguageVersion.CSharp12, NullableContextOptions.Enable) },
        }.RunAsync();
    }

    /// <summary>
    /// The shared state of callbacks that want different values, in a file netstandard2.0 compiles at C# 7.3 beside
    /// net10.0 with nullable warnings: written for the older copy (no <c>static</c>, no discard parameters), it compiles
    /// in both, and a user API with a generic state is on both targets.
    /// </summary>
    [Fact]
    public async Task CallbacksWantingDifferentValues_MultiTargetedOnCSharp73_AreFixed()
    {
        const string Api = """

            static class Retry
            {
                public static T Run<T>(System.Func<T> attempt, System.Func<System.Exception, bool> retryOn) => attempt();
                public static T Run<T, TState>(System.Func<TState, T> attempt, System.Func<System.Exception, TState, bool> retryOn, TState state) => attempt(state);
            }
            """;
        var before = """
            class C
            {
                int Get(int limit, int key) => Retry.Run([|() => key * 2|], e => limit > 0);
                int Alone(int limit) => Retry.Run(() => 1, [|e => limit > 0|]);
            }
            """ + Api;
        var after = """
            class C
            {
                int Get(int limit, int key) => Retry.Run(
                    state =>
                    {
                        var (myKey, _) = state;
                        return myKey * 2;
                    },
                    (e, state) =>
                    {
                        var (_, myLimit) = state;
                        return myLimit > 0;
                    },
                    (key, limit));
                int Alone(int limit) => Retry.Run(_ => 1, (e, myLimit) => myLimit > 0, limit);
            }
            """ + Api;
        await new Verify.Test
        {
            TestCode = before,
            FixedCode = after,
            LinkedTargets = { new LinkedTarget(TestTarget.NetStandard20, LanguageVersion.CSharp7_3, NullableContextOptions.Disable) },
        }.RunAsync();
    }

    [Fact]
    public async Task NestedLambdasAndTopLevelStatements_AreFixed()
    {
        var before = Class("""
                Func<string, int> Make(int factor) => key => _cache.GetOrAdd(key, [|k => Load(k, factor)|]);
                int Local(string key, int factor) { return Get(); int Get() => _cache.GetOrAdd(key, [|k => Load(k, factor)|]); }
            """);
        var after = Class("""
                Func<string, int> Make(int factor) => key => _cache.GetOrAdd(key, static (k, factor) => Load(k, factor), factor);
                int Local(string key, int factor) { return Get(); int Get() => _cache.GetOrAdd(key, static (k, factor) => Load(k, factor), factor); }
            """);
        await Verify.VerifyCodeFixAsync(before, after);

        const string TopLevel = """
            using System;
            using System.Collections.Concurrent;

            var cache = new ConcurrentDictionary<string, int>();
            var factor = args.Length + 2;
            Console.WriteLine(cache.GetOrAdd("a", [|k => k.Length * factor|]));
            """;
        await new Verify.Test
        {
            TestCode = TopLevel,
            FixedCode = TopLevel.Replace("[|k => k.Length * factor|]", "static (k, factor) => k.Length * factor, factor", StringComparison.Ordinal),
            TestState = { OutputKind = OutputKind.ConsoleApplication },
        }.RunAsync();
    }

    [Fact]
    public async Task FixAll_FixesEverySiteOfTheDocument()
    {
        var before = Class("""
                int A(string key, int f) => _cache.GetOrAdd(key, [|k => Load(k, f)|]);
                int B(string key, int f) => _cache.GetOrAdd(key, [|delegate (string k) { return Load(k, f); }|]);
                int D(string key, int f) => _cache.AddOrUpdate(key, [|k => f|], (k, old) => old * f);
            """);
        var after = Class("""
                int A(string key, int f) => _cache.GetOrAdd(key, static (k, f) => Load(k, f), f);
                int B(string key, int f) => _cache.GetOrAdd(key, static (k, f) => { return Load(k, f); }, f);
                int D(string key, int f) => _cache.AddOrUpdate(key, static (k, f) => f, static (k, old, f) => old * f, f);
            """);
        await new Verify.Test { TestCode = before, FixedCode = after, NumberOfFixAllIterations = 1 }.RunAsync();
    }

    /// <summary>The immutable collections' ImmutableInterlocked.Update and GetOrAdd take a ref and a TArg: found by shape.</summary>
    [Fact]
    public async Task ImmutableInterlocked_RefParametersKeepTheirPlace()
    {
        const string Before = """
            using System.Collections.Immutable;
            using System.Threading;

            class C
            {
                private ImmutableList<int> _items = ImmutableList<int>.Empty;

                bool Add(int item) => ImmutableInterlocked.Update(ref _items, [|list => list.Add(item)|]);
            }
            """;
        await Verify.VerifyCodeFixAsync(Before, Before.Replace("[|list => list.Add(item)|]", "static (list, item) => list.Add(item), item", StringComparison.Ordinal));
    }

    [Fact]
    public async Task GeneratedCode_DoesNotReport()
    {
        await Verify.VerifyAnalyzerAsync("// <auto-generated/>\n" + Class("""
                int One(string key, int factor) => _cache.GetOrAdd(key, k => Load(k, factor));
            """));
    }

    [Theory]
    [InlineData("System.Collections.Concurrent.ConcurrentDictionary<string, int> d, int f", "d.GetOrAdd(\"k\", k => f")]
    [InlineData("System.Collections.Concurrent.ConcurrentDictionary<string, int> d, int f", "d.GetOrAdd(\"k\", k => f, )")]
    [InlineData("System.Collections.Concurrent.ConcurrentDictionary<string, int> d, int f", "d.AddOrUpdate(\"k\", k => f, (k, o) => )")]
    [InlineData("System.Collections.Concurrent.ConcurrentDictionary<string, int> d", "d.GetOrAdd(\"k\", k => missing)")]
    [InlineData("int f", "Unknown.GetOrAdd(\"k\", k => f)")]
    public async Task IncompleteCode_NeitherThrowsNorReports(string parameters, string statement)
    {
        Assert.Equal(0, await HalfTypedCode.CountDiagnosticsAsync(new StateOverloadAnalyzer(), parameters, statement));
    }
}
