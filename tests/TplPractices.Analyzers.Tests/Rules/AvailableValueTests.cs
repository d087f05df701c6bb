using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp;
using Microsoft.CodeAnalysis.Testing;
using TplPractices.Analyzers.Rules;
using TplPractices.Analyzers.Tests.Verifiers;
using Verify = TplPractices.Analyzers.Tests.Verifiers.CSharpCodeFixVerifier<
    TplPractices.Analyzers.Rules.AvailableValueAnalyzer,
    TplPractices.Analyzers.CodeFixes.Rules.AvailableValueFixer>;

namespace TplPractices.Analyzers.Tests.Rules;

/// <summary>TPL0014: delegate tasks that only return an available value, and awaits of tasks that are already complete.</summary>
public sealed class AvailableValueTests
{
    private const string Usings = """
        using System;
        using System.Collections.Generic;
        using System.Threading;
        using System.Threading.Tasks;

        """;

    private static string Class(string members) =>
        Usings + "class C\n{\n    private readonly string _name = \"c\";\n    private static readonly int[] Empty = new int[0];\n    private int _count;\n" + members + "\n}\n";

    private const string Queued = "queues a delegate only to return a value that is already available; use Task.FromResult";
    private const string Nothing = "queues a delegate that does nothing; use Task.CompletedTask";
    private const string Complete = "awaits a task that is already complete; use the value directly";

    [Fact]
    public async Task DelegateTasksOfAvailableValues_BecomeCompletedTasks()
    {
        var before = Class("""
                Task<int> Parameter(int value) => {|#0:Task.Run(() => value)|};
                Task<string> Field() => {|#1:Task.Run(() => _name)|};
                Task<int[]> StaticField() => {|#2:Task.Factory.StartNew(() => Empty)|};
                Task<C> This() => {|#3:Task.Run(() => this)|};
                Task Nothing() => {|#4:Task.Run(() => { })|};
                Task Anonymous() => {|#5:Task.Factory.StartNew(delegate { })|};
                Task<int> Local(List<int> items)
                {
                    var count = items.Count;
                    return {|#6:Task.Run(() => { return count; })|};
                }
                Task<object> Boxed(int value) => {|#7:Task.Run<object>(() => value)|};
            """);
        var after = Class("""
                Task<int> Parameter(int value) => Task.FromResult(value);
                Task<string> Field() => Task.FromResult(_name);
                Task<int[]> StaticField() => Task.FromResult(Empty);
                Task<C> This() => Task.FromResult(this);
                Task Nothing() => Task.CompletedTask;
                Task Anonymous() => Task.CompletedTask;
                Task<int> Local(List<int> items)
                {
                    var count = items.Count;
                    return Task.FromResult(count);
                }
                Task<object> Boxed(int value) => Task.FromResult<object>(value);
            """);
        var test = new Verify.Test { TestCode = before, FixedCode = after };
        test.ExpectedDiagnostics.Add(Verify.Diagnostic().WithLocation(0).WithArguments("Task.Run(() => value)", Queued));
        test.ExpectedDiagnostics.Add(Verify.Diagnostic().WithLocation(1).WithArguments("Task.Run(() => _name)", Queued));
        test.ExpectedDiagnostics.Add(Verify.Diagnostic().WithLocation(2).WithArguments("Task.Factory.StartNew(() => Empty)", Queued));
        test.ExpectedDiagnostics.Add(Verify.Diagnostic().WithLocation(3).WithArguments("Task.Run(() => this)", Queued));
        test.ExpectedDiagnostics.Add(Verify.Diagnostic().WithLocation(4).WithArguments("Task.Run(() => { })", Nothing));
        test.ExpectedDiagnostics.Add(Verify.Diagnostic().WithLocation(5).WithArguments("Task.Factory.StartNew(delegate { })", Nothing));
        test.ExpectedDiagnostics.Add(Verify.Diagnostic().WithLocation(6).WithArguments("Task.Run(() => { return count; })", Queued));
        test.ExpectedDiagnostics.Add(Verify.Diagnostic().WithLocation(7).WithArguments("Task.Run<object>(() => value)", Queued));
        await test.RunAsync();
    }

    /// <summary>
    /// A delegate that carries an attribute (C# 10) is reported, but the fix would drop the attribute with the delegate:
    /// the shared layer withholds it, so the code stays as it is.
    /// </summary>
    [Fact]
    public async Task DelegateWithAnAttribute_IsReportedWithoutAFix()
    {
        var code = Class("""
                Task<int> Parameter(int value) => {|#0:Task.Run([System.Diagnostics.DebuggerStepThrough] () => value)|};
            """);
        var test = new Verify.Test { TestCode = code, FixedCode = code };
        test.ExpectedDiagnostics.Add(Verify.Diagnostic().WithLocation(0).WithArguments("Task.Run(...)", Queued));
        await test.RunAsync();
    }

    /// <summary>
    /// Not reported: a value read later than the call could differ (a variable written anywhere, a mutable field, a field a
    /// constructor sets), reading it runs code (a property, a call) or may throw; a token, options or a scheduler the
    /// task honours; an async delegate or one returning a task (Run unwraps it); a factory of the user's.
    /// </summary>
    [Fact]
    public async Task ValuesThatCouldChangeOrCost_AndCallsWithMoreArguments_AreNotReported()
    {
        var code = Class("""
                private readonly int _set;
                C(int set) { Log(); _set = set; }                  // Log runs before _set is set: it could read 0 now and set later
                void Log() => Console.WriteLine(_count);
                Task<int> Mutable() => Task.Run(() => _count);
                Task<int> SetInConstructor() => Task.Run(() => _set);
                Task<int> Written(int value) { var task = Task.Run(() => value); value++; return task; }
                Task<int> Loop(int n) { Task<int> last = Task.FromResult(0); for (var i = 0; i < n; i++) last = Task.Run(() => i); return last; }
                Task<int> Property(List<int> items) => Task.Run(() => items.Count);
                Task<int> Call(string text) => Task.Run(() => text.Length + 1);
                Task<int> Token(int value, CancellationToken token) => Task.Run(() => value, token);
                Task<int> Options(int value) => Task.Factory.StartNew(() => value, TaskCreationOptions.AttachedToParent);
                Task<int> Both(int value) => Task.Factory.StartNew(() => value, CancellationToken.None, TaskCreationOptions.LongRunning | TaskCreationOptions.AttachedToParent, TaskScheduler.Default);
                Task<int> Current(int value) => Task.Factory.StartNew(() => value, CancellationToken.None, TaskCreationOptions.None, TaskScheduler.Current);
                async Task Delays(Func<Task> next, CancellationToken token) { await next(); await Task.Delay(0, token); await Task.Delay(1); }
                Task<int> Async(int value) => Task.Run(async () => { await Task.Yield(); return value; });
                Task<int> ReturnsTask(Task<int> inner) => Task.Run(() => inner);
                Task<int> OwnFactory(TaskFactory factory, int value) => factory.StartNew(() => value);
                Task Works() => Task.Run(() => Console.WriteLine("work"));
                Task<DateTime> Now() => Task.Run(() => DateTime.Now);
            """);
        await Verify.VerifyAnalyzerAsync(code);
    }

    /// <summary>
    /// A readonly field only constructors set, where no constructor runs code of the instance (field assignments from
    /// parameters, guards, calls on other receivers) and the base is object: no member can run before it is set, so
    /// the delegate and the call read the same value. Any other constructor, or a base class, keeps it unreported.
    /// </summary>
    [Fact]
    public async Task ReadonlyFieldsOnlyPlainConstructorsSet_AreAvailable()
    {
        var before = Usings + """
            sealed class Service
            {
                private readonly string _name;
                private readonly int _size;

                public Service(string name, int size)
                {
                    if (size < 0) throw new ArgumentOutOfRangeException(nameof(size));
                    ArgumentNullException.ThrowIfNull(name);
                    _name = name;
                    this._size = size;
                }

                public Service(string name) : this(name, 1) { }

                public Task<string> Name() => [|Task.Run(() => _name)|];
                public Task<int> Size() => [|Task.Run(() => _size)|];
            }

            class Registered
            {
                private readonly string _name;
                public Registered(string name, List<Registered> all) { all.Add(this); _name = name; } // 'this' escapes first
                public Task<string> Name() => Task.Run(() => _name);
            }

            class Derived : Registered
            {
                private readonly string _tag;
                public Derived(string tag, List<Registered> all) : base(tag, all) => _tag = tag;  // a base constructor runs first
                public Task<string> Tag() => Task.Run(() => _tag);
            }

            class Property
            {
                private readonly int _count;
                public Property(int count) { _count = count + Extra; }                             // a getter of the instance runs
                private int Extra => 1;
                public Task<int> Count() => Task.Run(() => _count);
            }
            """;
        var after = before
            .Replace("[|Task.Run(() => _name)|]", "Task.FromResult(_name)", StringComparison.Ordinal)
            .Replace("[|Task.Run(() => _size)|]", "Task.FromResult(_size)", StringComparison.Ordinal);
        await Verify.VerifyCodeFixAsync(before, after);
    }

    /// <summary>A constant TPL0003 caches would be its site once written as Task.FromResult: reported here without a fix.</summary>
    [Fact]
    public async Task ConstantsTheCacheRuleTakes_AreReportedWithoutAFix_OthersAreFixed()
    {
        var before = Class("""
                Task<int> Answer() => {|#0:Task.Run(() => 42)|};
                Task<bool> Cached() => {|#1:Task.Run(() => true)|};
            """);
        var after = Class("""
                Task<int> Answer() => Task.Run(() => 42);
                Task<bool> Cached() => Task.FromResult(true);
            """);
        var test = new Verify.Test { TestCode = before, FixedCode = after };
        test.ExpectedDiagnostics.Add(Verify.Diagnostic().WithLocation(0).WithArguments("Task.Run(() => 42)", Queued));
        test.ExpectedDiagnostics.Add(Verify.Diagnostic().WithLocation(1).WithArguments("Task.Run(() => true)", Queued));
        test.FixedState.ExpectedDiagnostics.Add(Verify.Diagnostic().WithLocation(10, 27).WithArguments("Task.Run(() => 42)", Queued));
        await test.RunAsync();
    }

    /// <summary>
    /// The long gauntlet's find: 1 is cached by net10.0's runtime, not by netstandard2.0's, so TPL0003 caches it in the
    /// netstandard2.0 copy only. A file shared by both targets gets no fix: Task.FromResult(1) would be TPL0003's site
    /// on the next dotnet format run there.
    /// </summary>
    [Fact]
    public async Task AConstantOnlyOneTargetCaches_GetsNoFixInAFileSharedWithTheOther()
    {
        const string Before = """
            using System.Threading.Tasks;

            class C
            {
                public Task<int> Own() { return [|Task.Run(() => 1)|]; }
                public Task<int> Other(int n) { return [|Task.Run(() => n)|]; }
            }
            """;
        var test = new Verify.Test
        {
            SharedByNetStandardAndNet10 = true,
            TestCode = Before,
            FixedCode = Before
                .Replace("[|Task.Run(() => 1)|]", "Task.Run(() => 1)", StringComparison.Ordinal)
                .Replace("[|Task.Run(() => n)|]", "Task.FromResult(n)", StringComparison.Ordinal),
        };
        test.FixedState.ExpectedDiagnostics.Add(Verify.Diagnostic().WithSpan(5, 37, 5, 54).WithArguments("Task.Run(() => 1)", Queued));
        await test.RunAsync();
    }

    [Fact]
    public async Task AwaitsOfCompletedTasks_TakeTheValue_WhereSomethingElseIsAwaited()
    {
        var before = Class("""
                async Task<int> Sum(Func<Task<int>> next)
                {
                    var first = await next();
                    var second = {|#0:await Task.FromResult(first + 1)|};
                    {|#1:await Task.CompletedTask|};
                    var third = {|#2:await Task.FromResult<object>("x").ConfigureAwait(false)|};
                    return first + second + third.GetHashCode();
                }

                async Task<int> Awaited(Func<Task<int>> next, int value)
                {
                    var extra = await {|#3:Task.Run(() => value)|};
                    return extra + await next();
                }
            """);
        var after = Class("""
                async Task<int> Sum(Func<Task<int>> next)
                {
                    var first = await next();
                    var second = first + 1;
                    var third = (object)"x";
                    return first + second + third.GetHashCode();
                }

                async Task<int> Awaited(Func<Task<int>> next, int value)
                {
                    var extra = value;
                    return extra + await next();
                }
            """);
        var test = new Verify.Test { TestCode = before, FixedCode = after };
        test.ExpectedDiagnostics.Add(Verify.Diagnostic().WithLocation(0).WithArguments("Task.FromResult(first + 1)", Complete));
        test.ExpectedDiagnostics.Add(Verify.Diagnostic().WithLocation(1).WithArguments("Task.CompletedTask", Complete));
        test.ExpectedDiagnostics.Add(Verify.Diagnostic().WithLocation(2).WithArguments("Task.FromResult<object>(\"x\").ConfigureAwait(...)", Complete));
        test.ExpectedDiagnostics.Add(Verify.Diagnostic().WithLocation(3).WithArguments("Task.Run(() => value)", Queued));
        await test.RunAsync();
    }

    /// <summary>
    /// Arguments that leave the task what a completed one is (a token that cannot be canceled, options without
    /// AttachedToParent, the default scheduler) do not keep a delegate task from being reported; a zero delay is a
    /// completed task, and the message says what to write if a yield was meant.
    /// </summary>
    [Fact]
    public async Task NeutralArguments_AndZeroDelays_AreReported()
    {
        var before = Class("""
                Task<int> Options(int value) => {|#0:Task.Factory.StartNew(() => value, TaskCreationOptions.LongRunning)|};
                Task<int> All(int value) => {|#1:Task.Factory.StartNew(() => value, CancellationToken.None, TaskCreationOptions.DenyChildAttach, TaskScheduler.Default)|};
                Task<int> Token(int value) => {|#2:Task.Run(() => value, default(CancellationToken))|};

                async Task<int> Paused(Func<Task<int>> next)
                {
                    {|#3:await Task.Delay(0)|};
                    var value = await next();
                    {|#4:await Task.Delay(TimeSpan.Zero).ConfigureAwait(false)|};
                    {|#5:await Task.Delay(0, CancellationToken.None)|};
                    return value;
                }
            """);
        var after = Class("""
                Task<int> Options(int value) => Task.FromResult(value);
                Task<int> All(int value) => Task.FromResult(value);
                Task<int> Token(int value) => Task.FromResult(value);

                async Task<int> Paused(Func<Task<int>> next)
                {
                    var value = await next();
                    return value;
                }
            """);
        const string ZeroDelay = "awaits a zero delay, which is a task already complete: it does not yield (await Task.Yield() if a yield was meant); remove the await";
        var test = new Verify.Test { TestCode = before, FixedCode = after };
        test.ExpectedDiagnostics.Add(Verify.Diagnostic().WithLocation(0).WithArguments("Task.Factory.StartNew(...)", Queued));
        test.ExpectedDiagnostics.Add(Verify.Diagnostic().WithLocation(1).WithArguments("Task.Factory.StartNew(...)", Queued));
        test.ExpectedDiagnostics.Add(Verify.Diagnostic().WithLocation(2).WithArguments("Task.Run(...)", Queued));
        test.ExpectedDiagnostics.Add(Verify.Diagnostic().WithLocation(3).WithArguments("Task.Delay(0)", ZeroDelay));
        test.ExpectedDiagnostics.Add(Verify.Diagnostic().WithLocation(4).WithArguments("Task.Delay(TimeSpan.Zero).ConfigureAwait(...)", ZeroDelay));
        test.ExpectedDiagnostics.Add(Verify.Diagnostic().WithLocation(5).WithArguments("Task.Delay(0, CancellationToken.None)", ZeroDelay));
        await test.RunAsync();
    }

    /// <summary>
    /// An awaited statement that goes leaves its blank line to the statement after it: the code keeps its paragraphs,
    /// and a statement that had its own blank line does not get a second one. One that opened its block takes the blank
    /// line below it along (Rebus's benchmark test began with <c>await Task.FromResult(false);</c> and a blank line,
    /// and kept the blank line under its brace).
    /// </summary>
    [Fact]
    public async Task ARemovedAwait_LeavesItsBlankLineToTheNextStatement()
    {
        var before = Class("""
                async Task<int> Paused(Func<Task<int>> next)
                {
                    var value = await next();

                    {|#0:await Task.Delay(0)|};
                    value += await next();

                    {|#1:await Task.CompletedTask|};

                    return value;
                }

                async Task<int> Opened(Func<Task<int>> next)
                {
                    {|#2:await Task.FromResult(false)|};

                    // then the work
                    return await next();
                }
            """);
        var after = Class("""
                async Task<int> Paused(Func<Task<int>> next)
                {
                    var value = await next();

                    value += await next();

                    return value;
                }

                async Task<int> Opened(Func<Task<int>> next)
                {
                    // then the work
                    return await next();
                }
            """);
        var test = new Verify.Test { TestCode = before, FixedCode = after };
        test.ExpectedDiagnostics.Add(Verify.Diagnostic().WithLocation(0).WithArguments("Task.Delay(0)", "awaits a zero delay, which is a task already complete: it does not yield (await Task.Yield() if a yield was meant); remove the await"));
        test.ExpectedDiagnostics.Add(Verify.Diagnostic().WithLocation(1).WithArguments("Task.CompletedTask", Complete));
        test.ExpectedDiagnostics.Add(Verify.Diagnostic().WithLocation(2).WithArguments("Task.FromResult(false)", Complete));
        await test.RunAsync();
    }

    private const string ZeroDelayTask = "is a zero delay, which every runtime completes at once: it is Task.CompletedTask; use that";

    /// <summary>
    /// A ConfigureAwait that does more than choose the context is part of what the await does: ForceYielding yields even
    /// after a completed task (real code writes <c>await Task.CompletedTask.ConfigureAwait(ForceYielding)</c> to leave
    /// its caller's thread), SuppressThrowing swallows, and a computed argument runs code. Such an await is kept; the
    /// delegate task or zero delay under it is still made the completed task, whose await yields the same.
    /// </summary>
    [Fact]
    public async Task AwaitsConfiguredToYieldOrSuppress_AreKept()
    {
        var before = Class("""
                async Task<int> Yielding(int value)
                {
                    await Task.CompletedTask.ConfigureAwait(ConfigureAwaitOptions.ForceYielding);
                    await Task.CompletedTask.ConfigureAwait(ConfigureAwaitOptions.ForceYielding | ConfigureAwaitOptions.ContinueOnCapturedContext);
                    await Task.CompletedTask.ConfigureAwait(ConfigureAwaitOptions.SuppressThrowing);
                    await Task.CompletedTask.ConfigureAwait(Capture());
                    var first = await Task.FromResult(value).ConfigureAwait(ConfigureAwaitOptions.ForceYielding);
                    var second = await {|#0:Task.Run(() => value)|}.ConfigureAwait(ConfigureAwaitOptions.ForceYielding);
                    await {|#1:Task.Delay(0)|}.ConfigureAwait(ConfigureAwaitOptions.ForceYielding);
                    {|#2:await Task.CompletedTask.ConfigureAwait(ConfigureAwaitOptions.None)|};
                    var third = {|#3:await Task.FromResult(value).ConfigureAwait(ConfigureAwaitOptions.ContinueOnCapturedContext)|};
                    return first + second + third;
                }

                bool Capture() => _count++ > 0;
            """);
        var after = Class("""
                async Task<int> Yielding(int value)
                {
                    await Task.CompletedTask.ConfigureAwait(ConfigureAwaitOptions.ForceYielding);
                    await Task.CompletedTask.ConfigureAwait(ConfigureAwaitOptions.ForceYielding | ConfigureAwaitOptions.ContinueOnCapturedContext);
                    await Task.CompletedTask.ConfigureAwait(ConfigureAwaitOptions.SuppressThrowing);
                    await Task.CompletedTask.ConfigureAwait(Capture());
                    var first = await Task.FromResult(value).ConfigureAwait(ConfigureAwaitOptions.ForceYielding);
                    var second = await Task.FromResult(value).ConfigureAwait(ConfigureAwaitOptions.ForceYielding);
                    await Task.CompletedTask.ConfigureAwait(ConfigureAwaitOptions.ForceYielding);
                    var third = value;
                    return first + second + third;
                }

                bool Capture() => _count++ > 0;
            """);
        var test = new Verify.Test { TestCode = before, FixedCode = after };
        test.ExpectedDiagnostics.Add(Verify.Diagnostic().WithLocation(0).WithArguments("Task.Run(() => value)", Queued));
        test.ExpectedDiagnostics.Add(Verify.Diagnostic().WithLocation(1).WithArguments("Task.Delay(0)", ZeroDelayTask));
        test.ExpectedDiagnostics.Add(Verify.Diagnostic().WithLocation(2).WithArguments("Task.CompletedTask.ConfigureAwait(...)", Complete));
        test.ExpectedDiagnostics.Add(Verify.Diagnostic().WithLocation(3).WithArguments("Task.FromResult(value).ConfigureAwait(...)", Complete));
        await test.RunAsync();
    }


    /// <summary>
    /// A zero delay awaited as the function's only await, with work after it, reads as a yield before the work; it
    /// yields nothing, so the work runs before the caller gets the task. Reported without a fix: Task.Yield() changes
    /// what runs where, and removing the await leaves an async function without one (CS1998). In a lambda, a nested
    /// block and with ConfigureAwait; not before a throw, a return of a read, or at the end, nor in a body holding an #if
    /// (another build may await elsewhere).
    /// </summary>
    [Fact]
    public async Task AZeroDelayAsTheOnlyAwait_BeforeWork_IsReportedWithoutAFix()
    {
        var code = Class("""
                async Task Yields() { {|#0:await Task.Delay(0)|}; _count++; Console.WriteLine(_name); }
                async Task<int> Computes() { {|#1:await Task.Delay(TimeSpan.Zero).ConfigureAwait(false)|}; return Sum(Empty); }
                Func<Task> Later() => async () => { {|#2:await Task.Delay(0)|}; var list = new List<int>(); };
                async Task Branch(bool now) { if (now) { {|#3:await Task.Delay(0, CancellationToken.None)|}; Console.WriteLine(); } }
                async Task Throws() { await Task.Delay(0); throw new InvalidOperationException(_name); }
                async Task<int> Reads() { await Task.Delay(0); return _count; }
                async Task Trails() { Console.WriteLine(); await Task.Delay(0); }
                async Task Cancelable(CancellationToken token) { await Task.Delay(0, token); Console.WriteLine(); }
                async Task Conditional()
                {
                    await Task.Delay(0);
            #if DEBUG
                    await Task.Yield();
            #endif
                    Console.WriteLine();
                }
                static int Sum(int[] items) => items.Length;
            """);
        const string Lone = "is the function's only await, of a zero delay, a task already complete: it does not yield, so the code after it runs before the caller gets the task (await Task.Yield() if a yield was meant)";
        var test = new Verify.Test { TestCode = code, FixedCode = code };
        string[] shown = ["Task.Delay(0)", "Task.Delay(TimeSpan.Zero).ConfigureAwait(...)", "Task.Delay(0)", "Task.Delay(0, CancellationToken.None)"];
        for (var i = 0; i < shown.Length; i++)
        {
            test.ExpectedDiagnostics.Add(Verify.Diagnostic().WithLocation(i).WithArguments(shown[i], Lone));
            test.FixedState.ExpectedDiagnostics.Add(Verify.Diagnostic().WithLocation(i).WithArguments(shown[i], Lone));
        }

        await test.RunAsync();
    }

    /// <summary>
    /// A zero delay used as a task (returned, held, raced, given on) is the completed task: Task.CompletedTask says so,
    /// in any spelling of the delay and with a token that cannot be canceled. Discarded as a statement it is reported
    /// without a fix (more often a missing await than a task to keep). A token that may be canceled, a delay that is not
    /// zero and the TimeProvider overloads (which check their provider) are not reported.
    /// </summary>
    [Fact]
    public async Task ZeroDelaysUsedAsTasks_BecomeTheCompletedTask()
    {
        var before = Class("""
                Task Returned() { return {|#0:Task.Delay(0)|}; }
                Task Spans() => {|#1:Task.Delay(TimeSpan.Zero, CancellationToken.None)|};
                Task Named() => {|#2:Task.Delay(cancellationToken: default, millisecondsDelay: 0)|};
                Task Held() { var done = {|#3:Task.Delay(0)|}; return done; }
                Func<Task> Lambda() => () => {|#4:Task.Delay(0, default(CancellationToken))|};
                async Task<Task> Race(Task work) { var winner = await Task.WhenAny(work, {|#5:Task.Delay(0)|}); await work; return winner; }
                void Discarded() { {|#6:Task.Delay(0)|}; }
                Task Cancelable(CancellationToken token) => Task.Delay(0, token);
                Task NotZero() => Task.Delay(1);
                Task Provider() => Task.Delay(TimeSpan.Zero, TimeProvider.System);
            """);
        var after = Class("""
                Task Returned() { return Task.CompletedTask; }
                Task Spans() => Task.CompletedTask;
                Task Named() => Task.CompletedTask;
                Task Held() { var done = Task.CompletedTask; return done; }
                Func<Task> Lambda() => () => Task.CompletedTask;
                async Task<Task> Race(Task work) { var winner = await Task.WhenAny(work, Task.CompletedTask); await work; return winner; }
                void Discarded() { {|#6:Task.Delay(0)|}; }
                Task Cancelable(CancellationToken token) => Task.Delay(0, token);
                Task NotZero() => Task.Delay(1);
                Task Provider() => Task.Delay(TimeSpan.Zero, TimeProvider.System);
            """);
        const string Discarded = "makes a zero delay, a task already complete, and discards it: it waits for nothing; remove it (or await a real delay, or Task.Yield(), if a wait was meant)";
        var test = new Verify.Test { TestCode = before, FixedCode = after, FixedState = { MarkupHandling = MarkupMode.Allow } };
        string[] shown = ["Task.Delay(0)", "Task.Delay(...)", "Task.Delay(...)", "Task.Delay(0)", "Task.Delay(...)", "Task.Delay(0)"];
        for (var i = 0; i < shown.Length; i++)
        {
            test.ExpectedDiagnostics.Add(Verify.Diagnostic().WithLocation(i).WithArguments(shown[i], ZeroDelayTask));
        }

        test.ExpectedDiagnostics.Add(Verify.Diagnostic().WithLocation(6).WithArguments("Task.Delay(0)", Discarded));
        test.FixedState.ExpectedDiagnostics.Add(Verify.Diagnostic().WithLocation(6).WithArguments("Task.Delay(0)", Discarded));
        await test.RunAsync();
    }

    /// <summary>
    /// A lone zero delay before work in top-level statements is not reported (no caller waits for a task there); in a
    /// local function of them, and in C# 7.3 on .NET Framework, it is.
    /// </summary>
    [Fact]
    public async Task ALoneZeroDelay_InTopLevelStatements_IsLeft_AndInTheirLocalFunction_Reported()
    {
        const string Code = """
            using System;
            using System.Threading.Tasks;

            await Task.Delay(0);
            Console.WriteLine("started");
            Later().Wait();

            async Task Later()
            {
                [|await Task.Delay(0)|];
                Console.WriteLine("later");
            }
            """;
        await new Verify.Test { TestCode = Code, FixedCode = Code, TestState = { OutputKind = OutputKind.ConsoleApplication } }.RunAsync();

        const string Old = """
            using System;
            using System.Threading.Tasks;

            class C
            {
                async Task<int> Parse(string text)
                {
                    [|await Task.Delay(0)|];
                    return text.Trim().Length;
                }
            }
            """;
        await new Verify.Test { TestCode = Old, FixedCode = Old, OnCSharp73NetFramework = true }.RunAsync();
    }

    /// <summary>A zero delay in top-level statements, a nested lambda and a local function's expression body.</summary>
    [Fact]
    public async Task ZeroDelaysInTopLevelStatementsAndNestedFunctions_AreFixed()
    {
        const string Before = """
            using System;
            using System.Threading.Tasks;

            Func<int, Func<Task>> make = n => () => n > 0 ? [|Task.Delay(0)|] : Task.Delay(n);
            await Task.WhenAll(make(1)(), Pause());
            Task Pause() => [|Task.Delay(TimeSpan.Zero)|];
            """;
        await new Verify.Test
        {
            TestCode = Before,
            FixedCode = Before.Replace("[|Task.Delay(0)|]", "Task.CompletedTask", StringComparison.Ordinal).Replace("[|Task.Delay(TimeSpan.Zero)|]", "Task.CompletedTask", StringComparison.Ordinal),
            TestState = { OutputKind = OutputKind.ConsoleApplication },
        }.RunAsync();
    }

    /// <summary>
    /// The premise of the zero-delay fix, on the test runtime: the delay's task is the completed task itself, and the
    /// rewritten code gives the same results as the original.
    /// </summary>
    [Fact]
    public async Task ZeroDelay_IsTheCompletedTask_AndTheFixedCodeBehavesTheSame()
    {
        const string Before = """
            using System;
            using System.Threading;
            using System.Threading.Tasks;

            public static class Api
            {
                public static string Run(int unused)
                {
                    var zero = [|Task.Delay(0)|];
                    var span = [|Task.Delay(TimeSpan.Zero, CancellationToken.None)|];
                    var winner = Task.WhenAny(new TaskCompletionSource<int>().Task, [|Task.Delay(0)|]).Result;
                    return zero.Status + " " + span.IsCompleted + " " + (winner == zero) + " " + ReferenceEquals(zero, Task.CompletedTask);
                }
            }
            """;
        var after = Before.Replace("[|Task.Delay(0)|]", "Task.CompletedTask", StringComparison.Ordinal)
            .Replace("[|Task.Delay(TimeSpan.Zero, CancellationToken.None)|]", "Task.CompletedTask", StringComparison.Ordinal);
        await Verify.VerifyCodeFixAsync(Before, after);

        const string Expected = "returned RanToCompletion True True True";
        Assert.Equal(Expected, await CodeRunner.RunAsync(TestMarkup.Strip(Before), "Api", "Run", 0));
        Assert.Equal(Expected, await CodeRunner.RunAsync(after, "Api", "Run", 0));
    }

    /// <summary>
    /// The only await of a function keeps it async (the idiom that silences CS1998): not reported. A zero delay there
    /// followed by nothing, a throw or a return of a value is the same idiom, not a yield meant: real code writes
    /// <c>await Task.Delay(0); throw …;</c> so that the exception goes into the task, and a trailing one only to keep
    /// the function async (work after it is a yield meant: see the next test). An
    /// awaited delegate task there becomes an await of a completed task. In a loop body, awaits are TPL0005's.
    /// </summary>
    [Fact]
    public async Task TheOnlyAwait_AndAwaitsInLoops_AreLeftAlone()
    {
        var before = Class("""
                async Task Only() { await Task.CompletedTask; }
                async Task Throws() { await Task.Delay(0); throw new InvalidOperationException(_name); }
                async Task Restores() { _count++; await Task.Delay(TimeSpan.Zero); }
                async Task<int> OnlyValue(int value) => await Task.FromResult(value);
                async Task<int> OnlyRun(int value) => await {|#0:Task.Run(() => value)|};
                async Task<int> InLoop(int[] items, Func<Task> next)
                {
                    var sum = 0;
                    foreach (var item in items) sum += await Task.FromResult(item);
                    foreach (var item in items) sum += await Task.Run(() => item);
                    await next();
                    return sum;
                }
            """);
        var after = Class("""
                async Task Only() { await Task.CompletedTask; }
                async Task Throws() { await Task.Delay(0); throw new InvalidOperationException(_name); }
                async Task Restores() { _count++; await Task.Delay(TimeSpan.Zero); }
                async Task<int> OnlyValue(int value) => await Task.FromResult(value);
                async Task<int> OnlyRun(int value) => await Task.FromResult(value);
                async Task<int> InLoop(int[] items, Func<Task> next)
                {
                    var sum = 0;
                    foreach (var item in items) sum += await Task.FromResult(item);
                    foreach (var item in items) sum += await Task.Run(() => item);
                    await next();
                    return sum;
                }
            """);
        var test = new Verify.Test { TestCode = before, FixedCode = after };
        test.ExpectedDiagnostics.Add(Verify.Diagnostic().WithLocation(0).WithArguments("Task.Run(() => value)", Queued));
        await test.RunAsync();
    }

    /// <summary>
    /// Where the other awaits sit under an #if, another build of the file (another OS, Debug or Release) may compile
    /// none of them: the completed task's await is then the one that keeps the function async, and removing it warns
    /// CS1998 there, an error under warnings as errors. Found in the GitHub Actions runner, whose Windows-only work is
    /// followed by <c>await Task.CompletedTask;</c>. Not reported where the function's body holds an #if; a delegate
    /// task (which becomes a completed one, still awaited) still is.
    /// </summary>
    [Fact]
    public async Task AwaitsBesideAnIf_AreLeftAlone()
    {
        var before = Class("""
                async Task Kept(Func<Task> work)
                {
            #if !OS_WINDOWS
                    await work();
            #endif
                    await Task.CompletedTask;
                }
                async Task<int> Value(int value, Func<Task> work)
                {
            #if DEBUG
                    await work();
            #else
                    await work();
            #endif
                    return await Task.FromResult(value) + await {|#0:Task.Run(() => value)|};
                }
            """);
        var after = before.Replace("{|#0:Task.Run(() => value)|}", "Task.FromResult(value)", StringComparison.Ordinal);
        var test = new Verify.Test { TestCode = before, FixedCode = after };
        test.ExpectedDiagnostics.Add(Verify.Diagnostic().WithLocation(0).WithArguments("Task.Run(() => value)", Queued));
        await test.RunAsync();
    }

    [Fact]
    public async Task NestedLambdasLocalFunctionsAndTopLevelStatements_AreReported()
    {
        var before = Class("""
                Func<int, Task<int>> Make() => x => [|Task.Run(() => x)|];
                Task Local() { return Run(); Task Run() => [|Task.Run(() => { })|]; }
            """);
        var after = Class("""
                Func<int, Task<int>> Make() => x => Task.FromResult(x);
                Task Local() { return Run(); Task Run() => Task.CompletedTask; }
            """);
        await Verify.VerifyCodeFixAsync(before, after);

        const string TopLevel = """
            using System;
            using System.Threading.Tasks;

            var name = Environment.MachineName;
            var task = [|Task.Run(() => name)|];
            Console.WriteLine(await task);
            """;
        await new Verify.Test
        {
            TestCode = TopLevel,
            FixedCode = TopLevel.Replace("[|Task.Run(() => name)|]", "Task.FromResult(name)", StringComparison.Ordinal),
            TestState = { OutputKind = OutputKind.ConsoleApplication },
        }.RunAsync();
    }

    [Fact]
    public async Task FixAll_FixesEverySiteOfTheDocument()
    {
        var before = Class("""
                Task<int> A(int v) => [|Task.Run(() => v)|];
                Task B() => [|Task.Run(() => { })|];
                async Task<int> D(Func<Task<int>> next) { var x = await next(); return [|await Task.FromResult(x)|]; }
            """);
        var after = Class("""
                Task<int> A(int v) => Task.FromResult(v);
                Task B() => Task.CompletedTask;
                async Task<int> D(Func<Task<int>> next) { var x = await next(); return x; }
            """);
        await new Verify.Test { TestCode = before, FixedCode = after, NumberOfFixAllIterations = 1 }.RunAsync();
    }

    /// <summary>netstandard2.0 under C# 7.3 and net10.0 with nullable share the file: the fix compiles in both copies.</summary>
    [Fact]
    public async Task OnCSharp73NetStandard_AndMultiTargeted_TheFixCompiles()
    {
        const string Before = """
            using System.Threading.Tasks;

            class C
            {
                public Task<string> Name(string name) { return [|Task.Run(() => name)|]; }
                public Task Done() { return [|Task.Factory.StartNew(() => { })|]; }
                public Task Zero() { return [|Task.Delay(0)|]; }
            }
            """;
        await new Verify.Test
        {
            SharedByNetStandardAndNet10 = true,
            TestCode = Before,
            FixedCode = Before
                .Replace("[|Task.Run(() => name)|]", "Task.FromResult(name)", StringComparison.Ordinal)
                .Replace("[|Task.Factory.StartNew(() => { })|]", "Task.CompletedTask", StringComparison.Ordinal)
                .Replace("[|Task.Delay(0)|]", "Task.CompletedTask", StringComparison.Ordinal),
        }.RunAsync();
    }

    /// <summary>TPL0001 and TPL0007 leave a delegate task this rule removes; TPL0003 leaves an awaited FromResult this rule removes.</summary>
    [Fact]
    public async Task OtherRulesLeaveTheSiteToThisOne()
    {
        var code = Class("""
                Task<int> A(int v) => Task.Factory.StartNew(() => v);
                Task<int> B(int v) => Task.Run(() => v);
                async Task<int> D(Func<Task<int>> next) => await next() + await Task.FromResult(1000);
            """);
        var run = new AnalyzerRun([new UseTaskStateAnalyzer(), new TaskRunStateAnalyzer(), new CacheConstantTaskResultAnalyzer(), new AvailableValueAnalyzer()])
        {
            Sources = { ("Test0.cs", code) },
            EditorConfig = "root = true\n[*.cs]\ndotnet_diagnostic.TPL0007.severity = warning\n",
        };
        Assert.Equal(["TPL0014", "TPL0014", "TPL0014"], (await run.DiagnosticsAsync()).Select(d => d.Id));

        run.EditorConfig += "dotnet_diagnostic.TPL0014.severity = none\n";
        Assert.Equal(["TPL0001", "TPL0003", "TPL0007"], (await run.DiagnosticsAsync()).Select(d => d.Id).OrderBy(id => id));
    }

    /// <summary>
    /// The pair the held-out run found giving two results: in a loop, TPL0005 turns the awaited Task.FromResult(1000)
    /// into its value, and TPL0003 leaves it to it; with TPL0005 off, TPL0003 caches it.
    /// </summary>
    [Fact]
    public async Task InALoop_TheCacheRuleLeavesAnAwaitedConstantToTheLoopRule()
    {
        var code = Class("""
                async Task<int> Sum(int n, Func<Task<int>> next)
                {
                    var sum = await next();
                    for (var i = 0; i < n; i++) sum += await Task.FromResult(1000);
                    return sum;
                }
            """);
        var run = new AnalyzerRun([new CacheConstantTaskResultAnalyzer(), new AwaitInLoopAnalyzer(), new AvailableValueAnalyzer()])
        {
            Sources = { ("Test0.cs", code) },
        };
        Assert.Equal(["TPL0005"], (await run.DiagnosticsAsync()).Select(d => d.Id));

        run.EditorConfig = "root = true\n[*.cs]\ndotnet_diagnostic.TPL0005.severity = none\n";
        Assert.Equal(["TPL0003"], (await run.DiagnosticsAsync()).Select(d => d.Id));
    }

    /// <summary>
    /// The caveat the page names that a run can show every time: Task.Run's task is created with DenyChildAttach, the
    /// completed task with no options. (Its being complete at once depends on the pool's timing before the fix.)
    /// </summary>
    [Fact]
    public async Task Caveat_TheTaskHasNoCreationOptions()
    {
        const string Code = """
            // Shows a documented caveat of a fix
            using System.Threading.Tasks;

            public static class Api
            {
                private static Task<int> Make(int value) => Task.Run(() => value);

                public static string Options() => Make(5).CreationOptions.ToString();
            }
            """;
        await FixedBehaviour.AssertAsync(Code, DiagnosticIds.AvailableValue, "Api", "Options", "returned DenyChildAttach", "returned None");
    }

    [Fact]
    public async Task GeneratedCode_DoesNotReport()
    {
        await Verify.VerifyAnalyzerAsync("""
            // <auto-generated/>
            using System.Threading.Tasks;

            class C
            {
                Task<int> M(int v) => Task.Run(() => v);
            }
            """);
    }

    [Theory]
    [InlineData("int", "Task.Run(() => ")]
    [InlineData("int v", "Task.Run(() => v")]
    [InlineData("int v", "Task.Run(() => v, )")]
    [InlineData("int v", "Task.Factory.StartNew(() => { return v })")]
    [InlineData("int v", "Task.Run<>(() => v)")]
    [InlineData("", "await Task.FromResult(")]
    public async Task IncompleteCode_NeitherThrowsNorReports(string parameters, string statement)
    {
        Assert.Equal(0, await HalfTypedCode.CountDiagnosticsAsync(new AvailableValueAnalyzer(), parameters, statement));
    }
}
