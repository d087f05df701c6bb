using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp;
using Microsoft.CodeAnalysis.Testing;
using TplPractices.Analyzers.Tests.Verifiers;
using Verify = TplPractices.Analyzers.Tests.Verifiers.CSharpCodeFixVerifier<
    TplPractices.Analyzers.Rules.PassThroughAsyncAnalyzer,
    TplPractices.Analyzers.CodeFixes.Rules.PassThroughAsyncFixer>;

namespace TplPractices.Analyzers.Tests.Rules;

/// <summary>
/// TPL0016's wider reach, each shape still one whose rewrite cannot move an exception out of a task: locals declared
/// ahead of the paths whose initializers run no code; a task held in a local made by a call that cannot throw and read
/// only by the await; lambdas and this instance's method groups as arguments; <c>Task.Delay</c> of a <c>TimeSpan</c> of
/// constants; a <c>Task&lt;T&gt;</c> where the function returns <c>Task</c>. (<c>Task.FromResult</c> of a constant the
/// runtime caches: PassThroughAsyncCompletedTests.)
/// </summary>
public sealed class PassThroughAsyncReachTests
{
    private const string Before = /* lang=c#-test */ """
        using System;
        using System.Threading.Tasks;

        public class Service
        {
            public async Task<int> LoadAsync(int id) { await Task.Yield(); return id * 2; }

            public async Task<int> LoadOtherAsync(int id) { await Task.Yield(); return id * 3; }

            public async Task<int> PickAsync(int id)
            {
                bool cached = id > 10;
                if (cached)
                {
                    return {|#0:await|} LoadAsync(id);
                }

                return await LoadOtherAsync(id);
            }

            public async Task WaitAsync()
            {
                var pause = Task.Delay(TimeSpan.FromMilliseconds(1));
                // the pause is all there is
                {|#1:await|} pause;
            }

            public async Task<int> ViaLambdaAsync(int id) => {|#2:await|} Apply(x => x + id, id);

            public async Task<int> ViaGroupAsync(int id) => {|#3:await|} Apply(Twice, id).ConfigureAwait(false);

            public async Task PauseAsync() => {|#4:await|} Task.Delay(TimeSpan.Zero);

            private int Twice(int x) => 2 * x;

            private async Task<int> Apply(Func<int, int> f, int x) { await Task.Yield(); return f(x); }
        }

        public static class Api
        {
            public static async Task<string> Run(int x)
            {
                var s = new Service();
                var a = await s.PickAsync(x);
                var wait = s.WaitAsync();
                await wait;
                var b = await s.ViaLambdaAsync(x);
                var c = await s.ViaGroupAsync(x);
                await s.PauseAsync();
                return a + "," + wait.Status + "," + b + "," + c;
            }
        }
        """;

    private const string After = /* lang=c#-test */ """
        using System;
        using System.Threading.Tasks;

        public class Service
        {
            public async Task<int> LoadAsync(int id) { await Task.Yield(); return id * 2; }

            public async Task<int> LoadOtherAsync(int id) { await Task.Yield(); return id * 3; }

            public Task<int> PickAsync(int id)
            {
                bool cached = id > 10;
                if (cached)
                {
                    return LoadAsync(id);
                }

                return LoadOtherAsync(id);
            }

            public Task WaitAsync()
            {
                var pause = Task.Delay(TimeSpan.FromMilliseconds(1));
                // the pause is all there is
                return pause;
            }

            public Task<int> ViaLambdaAsync(int id) => Apply(x => x + id, id);

            public Task<int> ViaGroupAsync(int id) => Apply(Twice, id);

            public Task PauseAsync() => Task.CompletedTask;

            private int Twice(int x) => 2 * x;

            private async Task<int> Apply(Func<int, int> f, int x) { await Task.Yield(); return f(x); }
        }

        public static class Api
        {
            public static async Task<string> Run(int x)
            {
                var s = new Service();
                var a = await s.PickAsync(x);
                var wait = s.WaitAsync();
                await wait;
                var b = await s.ViaLambdaAsync(x);
                var c = await s.ViaGroupAsync(x);
                await s.PauseAsync();
                return a + "," + wait.Status + "," + b + "," + c;
            }
        }
        """;

    [Fact]
    public async Task DeclaredLocals_HeldTasks_DelegateArguments_AndTimeSpanDelays_AreFixed()
    {
        var test = new Verify.Test { TestCode = Before, FixedCode = After };
        test.ExpectedDiagnostics.Add(Verify.Diagnostic().WithLocation(0).WithArguments("'PickAsync'", "'LoadAsync' or 'LoadOtherAsync'"));
        test.ExpectedDiagnostics.Add(Verify.Diagnostic().WithLocation(1).WithArguments("'WaitAsync'", "'pause'"));
        test.ExpectedDiagnostics.Add(Verify.Diagnostic().WithLocation(2).WithArguments("'ViaLambdaAsync'", "'Apply'"));
        test.ExpectedDiagnostics.Add(Verify.Diagnostic().WithLocation(3).WithArguments("'ViaGroupAsync'", "'Apply'"));
        test.ExpectedDiagnostics.Add(Verify.Diagnostic().WithLocation(4).WithArguments("'PauseAsync'", "'Delay'"));
        await test.RunAsync();
    }

    /// <summary>The same file also compiled for netstandard2.0 with C# 7.3: every copy reports, and the fix builds in both.</summary>
    [Fact]
    public async Task OlderCSharp_OnTwoTargets_GetsTheSameFix()
    {
        var test = new Verify.Test
        {
            TestCode = Before,
            FixedCode = After,
            LinkedTargets = { new LinkedTarget(TestTarget.NetStandard20, LanguageVersion.CSharp7_3, NullableContextOptions.Disable) },
        };
        for (var i = 0; i <= 4; i++)
        {
            test.ExpectedDiagnostics.Add(Verify.Diagnostic().WithLocation(i).WithArguments(Arguments[i]));
        }

        await test.RunAsync();
    }

    private static readonly string[][] Arguments =
    [
        ["'PickAsync'", "'LoadAsync' or 'LoadOtherAsync'"],
        ["'WaitAsync'", "'pause'"],
        ["'ViaLambdaAsync'", "'Apply'"],
        ["'ViaGroupAsync'", "'Apply'"],
        ["'PauseAsync'", "'Delay'"],
    ];

    [Theory]
    [InlineData(3)]
    [InlineData(12)]
    public async Task FixedCode_DoesWhatTheOriginalDid(int x)
    {
        var original = await CodeRunner.RunAsync(TestMarkup.Strip(Before), "Api", "Run", x);
        Assert.Equal(original, await CodeRunner.RunAsync(After, "Api", "Run", x));
        Assert.StartsWith("returned " + (x > 10 ? 2 * x : 3 * x) + ",RanToCompletion,", original, StringComparison.Ordinal);
    }

    /// <summary>
    /// Not reported: a declared local whose initializer can throw (checked arithmetic), a held task read again or
    /// assigned, a method group of another receiver (null would throw at the call), a delay beyond int.MaxValue milliseconds (the
    /// .NET Framework's limit) or below zero, a held task whose call throws at once, and a <c>Task&lt;T&gt;</c> awaited in a
    /// lambda of <c>Task</c> whose delegate type is inferred (<c>var</c>) rather than written (written, it is reported).
    /// </summary>
    [Fact]
    public async Task ShapesThatCouldThrowOrChange_AreNotReported()
    {
        await Verify.VerifyAnalyzerAsync(/* lang=c#-test */ """
            using System;
            using System.Threading.Tasks;

            public class Quiet
            {
                public async Task<int> LoadAsync(int id) { await Task.Yield(); return id; }

                public async Task<int> Computed(int n) { var next = checked(n + 1); return await LoadAsync(n); }
                public async Task ReadAgain() { var t = Task.Delay(1); Console.WriteLine(t.Status); await t; }
                public async Task Reassigned() { Task t = Task.Delay(1); t = Task.Delay(2); await t; }
                public async Task OtherReceiver(Quiet other) { await Run(other.Work); }
                public void NaturalType()
                {
                    // The lambda's natural type is Func<Task>; without async it would be Func<Task<int>>, and the
                    // assignment below would no longer compile.
                    var save = async () => { await LoadAsync(1); };
                    save = async () => { await Task.Yield(); };
                    Func<Task> written = async () => { [|await|] LoadAsync(2); }; // written: returned as it is
                    written = save;
                }
                public async Task TooLong() { await Task.Delay(TimeSpan.FromDays(30)); }
                public async Task Negative() { await Task.Delay(TimeSpan.FromSeconds(-5)); }
                public async Task ThrowingStart() { var t = Start(); await t; }

                private Task Start() => throw new InvalidOperationException();
                private async Task Run(Func<Task> f) { await Task.Yield(); await f(); }
                private Task Work() => Task.CompletedTask;
            }
            """);
    }

    private const string Store = /* lang=c#-test */ """
        using System;
        using System.Threading.Tasks;

        public class Store
        {
            public async Task<int> SaveChangesAsync(int n) { await Task.Yield(); return n; }

            public async Task SaveAsync(int n) => {|#0:await|} SaveChangesAsync(n);

            public async Task FlushAsync(int n)
            {
                {|#1:await|} SaveChangesAsync(n).ConfigureAwait(false);
            }

            public Func<int, Task> Saver => async n => {|#2:await|} SaveChangesAsync(n);

            // A lambda given as an argument: without async, Task.Run's Func<Task<int>> overload would bind.
            public Task Queued(int n) => Task.Run(async () => { await SaveChangesAsync(n); });
        }

        public static class Api
        {
            public static async Task<string> Run(int x)
            {
                var s = new Store();
                await s.SaveAsync(x);
                await s.FlushAsync(x);
                await s.Saver(x);
                var queued = s.Queued(x);
                await queued;
                return "saved " + x + " " + queued.GetType().IsGenericType;
            }
        }
        """;

    private const string StoreFixed = /* lang=c#-test */ """
        using System;
        using System.Threading.Tasks;

        public class Store
        {
            public async Task<int> SaveChangesAsync(int n) { await Task.Yield(); return n; }

            public Task SaveAsync(int n) => SaveChangesAsync(n);

            public Task FlushAsync(int n)
            {
                return SaveChangesAsync(n);
            }

            public Func<int, Task> Saver => n => SaveChangesAsync(n);

            // A lambda given as an argument: without async, Task.Run's Func<Task<int>> overload would bind.
            public Task Queued(int n) => Task.Run(async () => { await SaveChangesAsync(n); });
        }

        public static class Api
        {
            public static async Task<string> Run(int x)
            {
                var s = new Store();
                await s.SaveAsync(x);
                await s.FlushAsync(x);
                await s.Saver(x);
                var queued = s.Queued(x);
                await queued;
                return "saved " + x + " " + queued.GetType().IsGenericType;
            }
        }
        """;

    /// <summary>
    /// A <c>Task&lt;T&gt;</c> awaited where the function returns <c>Task</c> (a store's save that returns a count): the
    /// task converts, and is returned as it is, from a method, a statement body and a lambda whose delegate type is
    /// written down. A lambda given to Task.Run is left, since its overload would change.
    /// </summary>
    [Fact]
    public async Task ATaskOfT_IsReturned_WhereTheFunctionReturnsTask()
    {
        var test = new Verify.Test
        {
            TestCode = Store,
            FixedCode = StoreFixed,
            LinkedTargets = { new LinkedTarget(TestTarget.NetStandard20, LanguageVersion.CSharp7_3, NullableContextOptions.Disable) },
        };
        test.ExpectedDiagnostics.Add(Verify.Diagnostic().WithLocation(0).WithArguments("'SaveAsync'", "'SaveChangesAsync'"));
        test.ExpectedDiagnostics.Add(Verify.Diagnostic().WithLocation(1).WithArguments("'FlushAsync'", "'SaveChangesAsync'"));
        test.ExpectedDiagnostics.Add(Verify.Diagnostic().WithLocation(2).WithArguments("This lambda", "'SaveChangesAsync'"));
        await test.RunAsync();
    }

    [Fact]
    public async Task ATaskOfT_ReturnedAsTask_DoesWhatTheOriginalDid()
    {
        var original = await CodeRunner.RunAsync(TestMarkup.Strip(Store), "Api", "Run", 4);
        Assert.Equal(original, await CodeRunner.RunAsync(StoreFixed, "Api", "Run", 4));
        Assert.StartsWith("returned saved 4 ", original, StringComparison.Ordinal);
    }

    private const string Owner = /* lang=c#-test */ """
        using System;
        using System.Threading.Tasks;

        public class Ledger
        {
            public async Task<int> TotalAsync(int n) { await Task.Yield(); if (n < 0) throw new ArgumentException("negative"); return n * 10; }
            public virtual async Task<int> ReplaceableAsync(int n) { await Task.Yield(); return n; }
        }

        public class Owner
        {
            private readonly Ledger _made = new Ledger();
            private readonly Ledger _given;
            private readonly Ledger _checkedLater;
            private readonly Ledger _trusted;

            public Owner(Ledger given, Ledger later, Ledger trusted)
            {
                _given = given ?? throw new ArgumentNullException(nameof(given));
                ArgumentNullException.ThrowIfNull(later);
                _checkedLater = later;
                _trusted = trusted;
            }

            public Owner(Ledger given) : this(given, given, given) { }

            public async Task<int> MadeAsync(int n) => {|#0:await|} _made.TotalAsync(n);
            public async Task<int> GivenAsync(int n) { return {|#1:await|} this._given.TotalAsync(n); }
            public async Task<int> LaterAsync(int n) => {|#2:await|} _checkedLater.TotalAsync(n);

            // Declared non-nullable only: a caller's null! would throw at the call instead of into the task.
            public async Task<int> TrustedAsync(int n) => await _trusted.TotalAsync(n);

            // An override could be a plain method that throws at the call.
            public async Task<int> ReplaceableAsync(int n) => await _made.ReplaceableAsync(n);
        }

        public class Reassigned
        {
            private readonly Ledger _ledger = new Ledger();
            private readonly Ledger _other = new Ledger();

            public Reassigned(Ledger? ledger, Ledger? other) { _ledger = ledger!; (_other, _ledger) = (other!, new Ledger()); }

            public async Task<int> LedgerAsync(int n) => await _ledger.TotalAsync(n);
            public async Task<int> OtherAsync(int n) => await _other.TotalAsync(n);
        }

        public class Initialized
        {
            private readonly Ledger _ledger = new Ledger();

            // An object initializer may set the field after the constructor, to null.
            public Ledger? Ledger { init => _ledger = value!; }

            public async Task<int> TotalAsync(int n) => await _ledger.TotalAsync(n);
        }

        public struct Holder
        {
            private readonly Ledger _ledger = new Ledger();

            public Holder() { }

            // default(Holder) leaves the field null.
            public async Task<int> TotalAsync(int n) => await _ledger.TotalAsync(n);
        }

        public static class Api
        {
            public static async Task<string> Run(int x)
            {
                var owner = new Owner(new Ledger());
                var made = owner.MadeAsync(x);
                var given = owner.GivenAsync(x);
                var later = owner.LaterAsync(x);
                var results = new System.Collections.Generic.List<string>();
                foreach (var task in new[] { made, given, later })
                {
                    try { results.Add((await task).ToString()); }
                    catch (ArgumentException e) { results.Add(task.Status + " " + e.Message); }
                }

                return string.Join(",", results);
            }
        }
        """;

    /// <summary>
    /// A call on a readonly field of this instance that is never null is as safe as one on <c>this</c>: the field is set
    /// by a <c>new</c> in its initializer that no constructor replaces, or in every constructor (chains followed) from a
    /// parameter checked for null. Not a field only declared non-nullable (<c>null!</c> passes that), one a constructor
    /// writes otherwise (a nullable argument, a tuple) or an <c>init</c> accessor sets, a struct's (<c>default</c> leaves
    /// it null), or a virtual callee.
    /// </summary>
    [Fact]
    public async Task ReadonlyFieldsThatAreNeverNull_AreReceiversLikeThis()
    {
        var after = Owner
            .Replace("public async Task<int> MadeAsync(int n) => {|#0:await|} _made.TotalAsync(n);", "public Task<int> MadeAsync(int n) => _made.TotalAsync(n);", StringComparison.Ordinal)
            .Replace("public async Task<int> GivenAsync(int n) { return {|#1:await|} this._given.TotalAsync(n); }", "public Task<int> GivenAsync(int n) { return this._given.TotalAsync(n); }", StringComparison.Ordinal)
            .Replace("public async Task<int> LaterAsync(int n) => {|#2:await|} _checkedLater.TotalAsync(n);", "public Task<int> LaterAsync(int n) => _checkedLater.TotalAsync(n);", StringComparison.Ordinal);
        var test = new Verify.Test { TestCode = Owner, FixedCode = after };
        test.ExpectedDiagnostics.Add(Verify.Diagnostic().WithLocation(0).WithArguments("'MadeAsync'", "'TotalAsync'"));
        test.ExpectedDiagnostics.Add(Verify.Diagnostic().WithLocation(1).WithArguments("'GivenAsync'", "'TotalAsync'"));
        test.ExpectedDiagnostics.Add(Verify.Diagnostic().WithLocation(2).WithArguments("'LaterAsync'", "'TotalAsync'"));
        await test.RunAsync();

        foreach (var x in new[] { 2, -1 })
        {
            var original = await CodeRunner.RunAsync(TestMarkup.Strip(Owner), "Api", "Run", x);
            Assert.Equal(original, await CodeRunner.RunAsync(after, "Api", "Run", x));
            Assert.Equal(x < 0 ? "returned Faulted negative,Faulted negative,Faulted negative" : "returned 20,20,20", original);
        }
    }

    /// <summary>
    /// A get-only auto-property is a readonly field behind a getter that only reads it: set by a <c>new</c> in its
    /// initializer, or in every constructor from a parameter checked for null, it is a receiver like the field. Not one
    /// with a setter or an <c>init</c> accessor (set again later, to null), one a derived class may override, one whose
    /// getter runs code, or one a constructor sets from a parameter only declared non-nullable.
    /// </summary>
    [Fact]
    public async Task GetOnlyAutoPropertiesThatAreNeverNull_AreReceiversLikeThis()
    {
        const string before = """
            using System;
            using System.Threading.Tasks;

            public class Ledger
            {
                public async Task<int> TotalAsync(int n) { await Task.Yield(); if (n < 0) throw new ArgumentException("negative"); return n * 10; }
            }

            public class Books
            {
                public Books(Ledger given, Ledger trusted)
                {
                    Given = given ?? throw new ArgumentNullException(nameof(given));
                    Trusted = trusted;
                }

                public Books() : this(new Ledger(), new Ledger()) { }

                private Ledger Made { get; } = new Ledger();
                private Ledger Given { get; }
                private Ledger Trusted { get; }
                public Ledger Settable { get; set; } = new Ledger();
                public Ledger Initable { get; init; } = new Ledger();
                public virtual Ledger Replaceable { get; } = new Ledger();
                private Ledger Computed => new Ledger();

                public async Task<int> MadeAsync(int n) => {|#0:await|} Made.TotalAsync(n);
                public async Task<int> GivenAsync(int n) { return {|#1:await|} this.Given.TotalAsync(n); }
                public async Task<int> TrustedAsync(int n) => await Trusted.TotalAsync(n);
                public async Task<int> SettableAsync(int n) => await Settable.TotalAsync(n);
                public async Task<int> InitableAsync(int n) => await Initable.TotalAsync(n);
                public async Task<int> ReplaceableAsync(int n) => await Replaceable.TotalAsync(n);
                public async Task<int> ComputedAsync(int n) => await Computed.TotalAsync(n);
            }

            public static class Api
            {
                public static async Task<string> Run(int x)
                {
                    var books = new Books();
                    var results = new System.Collections.Generic.List<string>();
                    foreach (var task in new[] { books.MadeAsync(x), books.GivenAsync(x) })
                    {
                        try { results.Add((await task).ToString()); }
                        catch (ArgumentException e) { results.Add(task.Status + " " + e.Message); }
                    }

                    return string.Join(",", results);
                }
            }
            """;
        var after = before
            .Replace("public async Task<int> MadeAsync(int n) => {|#0:await|} Made.TotalAsync(n);", "public Task<int> MadeAsync(int n) => Made.TotalAsync(n);", StringComparison.Ordinal)
            .Replace("public async Task<int> GivenAsync(int n) { return {|#1:await|} this.Given.TotalAsync(n); }", "public Task<int> GivenAsync(int n) { return this.Given.TotalAsync(n); }", StringComparison.Ordinal);
        var test = new Verify.Test { TestCode = before, FixedCode = after };
        test.ExpectedDiagnostics.Add(Verify.Diagnostic().WithLocation(0).WithArguments("'MadeAsync'", "'TotalAsync'"));
        test.ExpectedDiagnostics.Add(Verify.Diagnostic().WithLocation(1).WithArguments("'GivenAsync'", "'TotalAsync'"));
        await test.RunAsync();

        foreach (var x in new[] { 3, -1 })
        {
            var original = await CodeRunner.RunAsync(TestMarkup.Strip(before), "Api", "Run", x);
            Assert.Equal(original, await CodeRunner.RunAsync(after, "Api", "Run", x));
            Assert.Equal(x < 0 ? "returned Faulted negative,Faulted negative" : "returned 30,30", original);
        }
    }

    /// <summary>
    /// A field made by <c>new</c>, a static one, one set from a parameter checked with <c>?? throw</c>, and a get-only
    /// auto-property made by <c>new</c>, in a file compiled for
    /// netstandard2.0 at C# 7.3 beside net10.0 with nullable warnings: every copy reports, and the fix builds in both.
    /// </summary>
    [Fact]
    public async Task ReadonlyFieldReceivers_OnTwoTargets_GetTheSameFix()
    {
        const string Source = """
            using System;
            using System.Threading.Tasks;

            public class Ledger
            {
                public async Task<int> TotalAsync(int n) { await Task.Yield(); return n; }
            }

            public class Owner
            {
                private static readonly Ledger s_shared = new Ledger();
                private readonly Ledger _made = new Ledger();
                private readonly Ledger _given;

                public Owner(Ledger given) { _given = given ?? throw new ArgumentNullException(nameof(given)); }

                private Ledger Books { get; } = new Ledger();

                public async Task<int> MadeAsync(int n) { return [|await|] _made.TotalAsync(n); }
                public async Task<int> GivenAsync(int n) { return [|await|] _given.TotalAsync(n); }
                public async Task<int> SharedAsync(int n) { return [|await|] s_shared.TotalAsync(n); }
                public async Task<int> BooksAsync(int n) { return [|await|] Books.TotalAsync(n); }
            }
            """;
        await new Verify.Test
        {
            TestCode = Source,
            FixedCode = TestMarkup.Strip(Source)
                .Replace("public async Task<int> MadeAsync(int n) { return await _made.TotalAsync(n); }", "public Task<int> MadeAsync(int n) { return _made.TotalAsync(n); }", StringComparison.Ordinal)
                .Replace("public async Task<int> GivenAsync(int n) { return await _given.TotalAsync(n); }", "public Task<int> GivenAsync(int n) { return _given.TotalAsync(n); }", StringComparison.Ordinal)
                .Replace("public async Task<int> SharedAsync(int n) { return await s_shared.TotalAsync(n); }", "public Task<int> SharedAsync(int n) { return s_shared.TotalAsync(n); }", StringComparison.Ordinal)
                .Replace("public async Task<int> BooksAsync(int n) { return await Books.TotalAsync(n); }", "public Task<int> BooksAsync(int n) { return Books.TotalAsync(n); }", StringComparison.Ordinal),
            LinkedTargets = { new LinkedTarget(TestTarget.NetStandard20, LanguageVersion.CSharp7_3, NullableContextOptions.Disable) },
        }.RunAsync();
    }

    /// <summary>
    /// A static readonly field a <c>new</c> in its initializer sets is a receiver that cannot be null, in its own type or
    /// another: the type initializer has run before any code reads it. Not one a static constructor replaces, one set by
    /// a factory call (which may return null), a static field that is not readonly, a <c>[ThreadStatic]</c> one, or one
    /// an earlier static initializer can reach while it is still null.
    /// </summary>
    [Fact]
    public async Task StaticReadonlyFieldsMadeByNew_AreReceiversLikeThis()
    {
        const string Source = /* lang=c#-test */ """
            using System;
            using System.Threading.Tasks;

            public sealed class Meter
            {
                public async Task<int> ReadAsync(int n) { await Task.Yield(); if (n < 0) throw new ArgumentException("negative"); return n + 1; }
                public static Meter? Find(int id) => id > 0 ? new Meter() : null;
            }

            public static class Shared
            {
                public static readonly Meter Main = new Meter();
            }

            public class Panel
            {
                private static readonly Meter s_own = new();
                private static readonly Meter s_replaced = new Meter();
                private static readonly Meter? s_found = Meter.Find(1);
                private static Meter s_writable = new Meter();

                // Its initializer runs on the first thread only: on any other the field is null.
                [ThreadStatic] private static readonly Meter? s_perThread = new Meter();

                static Panel() { s_replaced = Meter.Find(0)!; }

                public async Task<int> OwnAsync(int n) => {|#0:await|} s_own.ReadAsync(n);
                public static async Task<int> SharedAsync(int n) { return {|#1:await|} Shared.Main.ReadAsync(n); }

                public async Task<int> ReplacedAsync(int n) => await s_replaced.ReadAsync(n);
                public async Task<int> FoundAsync(int n) => await s_found!.ReadAsync(n);
                public async Task<int> WritableAsync(int n) => await s_writable.ReadAsync(n);
                public async Task<int> PerThreadAsync(int n) => await s_perThread!.ReadAsync(n);
                public static void Reset() => s_writable = null!;
            }

            public class Warmed
            {
                // Runs before s_meter is set: the call meets a null field, which the async method puts in s_warm's task.
                private static readonly Task<int> s_warm = new Warmed().ReadAsync(1);
                private static readonly Meter s_meter = new Meter();

                public async Task<int> ReadAsync(int n) => await s_meter.ReadAsync(n);
                public static bool WarmFailed => s_warm.IsFaulted;
            }

            public static class Api
            {
                public static async Task<string> Run(int x)
                {
                    var own = new Panel().OwnAsync(x);
                    var shared = Panel.SharedAsync(x);
                    var results = new System.Collections.Generic.List<string>();
                    foreach (var task in new[] { own, shared })
                    {
                        try { results.Add((await task).ToString()); }
                        catch (ArgumentException e) { results.Add(task.Status + " " + e.Message); }
                    }

                    results.Add(Warmed.WarmFailed ? "warm faulted" : "warm ran");
                    return string.Join(",", results);
                }
            }
            """;
        var after = TestMarkup.Strip(Source)
            .Replace("public async Task<int> OwnAsync(int n) => await s_own.ReadAsync(n);", "public Task<int> OwnAsync(int n) => s_own.ReadAsync(n);", StringComparison.Ordinal)
            .Replace("public static async Task<int> SharedAsync(int n) { return await Shared.Main.ReadAsync(n); }", "public static Task<int> SharedAsync(int n) { return Shared.Main.ReadAsync(n); }", StringComparison.Ordinal);
        var test = new Verify.Test { TestCode = Source, FixedCode = after };
        test.ExpectedDiagnostics.Add(Verify.Diagnostic().WithLocation(0).WithArguments("'OwnAsync'", "'ReadAsync'"));
        test.ExpectedDiagnostics.Add(Verify.Diagnostic().WithLocation(1).WithArguments("'SharedAsync'", "'ReadAsync'"));
        await test.RunAsync();

        foreach (var x in new[] { 4, -1 })
        {
            var original = await CodeRunner.RunAsync(TestMarkup.Strip(Source), "Api", "Run", x);
            Assert.Equal(original, await CodeRunner.RunAsync(after, "Api", "Run", x));
            Assert.Equal(x < 0 ? "returned Faulted negative,Faulted negative,warm faulted" : "returned 5,5,warm faulted", original);
        }
    }
}
