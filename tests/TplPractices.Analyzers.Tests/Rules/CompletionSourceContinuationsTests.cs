using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp;
using Microsoft.CodeAnalysis.Testing;
using TplPractices.Analyzers.Rules;
using TplPractices.Analyzers.Tests.Verifiers;
using Verify = TplPractices.Analyzers.Tests.Verifiers.CSharpCodeFixVerifier<
    TplPractices.Analyzers.Rules.CompletionSourceContinuationsAnalyzer,
    TplPractices.Analyzers.CodeFixes.Rules.CompletionSourceContinuationsFixer>;

namespace TplPractices.Analyzers.Tests.Rules;

/// <summary>TPL0013: a TaskCompletionSource without RunContinuationsAsynchronously whose task escapes before it is completed.</summary>
public sealed class CompletionSourceContinuationsTests
{
    private const string Usings = """
        using System;
        using System.Collections.Generic;
        using System.Threading;
        using System.Threading.Tasks;

        """;

    private static string Class(string members) =>
        Usings + "class C\n{\n    private TaskCompletionSource<int>? _pending;\n    private readonly object _gate = new object();\n" + members + "\n}\n";

    private const string Flag = "TaskCreationOptions.RunContinuationsAsynchronously";

    [Fact]
    public async Task EveryWayTheTaskEscapes_IsReportedAndFixed()
    {
        var before = Class("""
                Task<int> Returned()
                {
                    var done = [|new TaskCompletionSource<int>()|];
                    ThreadPool.QueueUserWorkItem(_ => { done.SetResult(1); Console.WriteLine("set"); });
                    return done.Task;
                }

                Task Stored()
                {
                    lock (_gate)
                    {
                        _pending = [|new TaskCompletionSource<int>()|];
                        return _pending.Task;
                    }
                }

                void Complete(int value) { lock (_gate) { _pending?.TrySetResult(value); } }

                async Task<bool> Awaited(CancellationToken token)
                {
                    var canceled = [|new TaskCompletionSource<bool>()|];
                    using (token.Register(() => canceled.TrySetResult(true)))
                    {
                        return await canceled.Task;
                    }
                }

                Task<int> HandedOut(Action<TaskCompletionSource<int>> start)
                {
                    var done = [|new TaskCompletionSource<int>()|];
                    start(done);
                    return done.Task;
                }

                TaskCompletionSource<int> Made() => [|new TaskCompletionSource<int>()|];

                Task<int> Later(Queue<TaskCompletionSource<int>> waiters)
                {
                    TaskCompletionSource<int> waiter = [|new()|];
                    waiters.Enqueue(waiter);
                    return waiter.Task;
                }
            """);
        var after = Class($$"""
                Task<int> Returned()
                {
                    var done = new TaskCompletionSource<int>({{Flag}});
                    ThreadPool.QueueUserWorkItem(_ => { done.SetResult(1); Console.WriteLine("set"); });
                    return done.Task;
                }

                Task Stored()
                {
                    lock (_gate)
                    {
                        _pending = new TaskCompletionSource<int>({{Flag}});
                        return _pending.Task;
                    }
                }

                void Complete(int value) { lock (_gate) { _pending?.TrySetResult(value); } }

                async Task<bool> Awaited(CancellationToken token)
                {
                    var canceled = new TaskCompletionSource<bool>({{Flag}});
                    using (token.Register(() => canceled.TrySetResult(true)))
                    {
                        return await canceled.Task;
                    }
                }

                Task<int> HandedOut(Action<TaskCompletionSource<int>> start)
                {
                    var done = new TaskCompletionSource<int>({{Flag}});
                    start(done);
                    return done.Task;
                }

                TaskCompletionSource<int> Made() => new TaskCompletionSource<int>({{Flag}});

                Task<int> Later(Queue<TaskCompletionSource<int>> waiters)
                {
                    TaskCompletionSource<int> waiter = new({{Flag}});
                    waiters.Enqueue(waiter);
                    return waiter.Task;
                }
            """);
        await Verify.VerifyCodeFixAsync(before, after);
    }

    /// <summary>
    /// A type derived from TaskCompletionSource&lt;T&gt; whose constructor makes its base without options is the same
    /// source: completed inside a cancellation callback while its task is awaited, it is reported. The flag belongs in
    /// the type's base call, which every instance shares, so no fix is offered at the creation.
    /// </summary>
    [Fact]
    public async Task DerivedSourcesMadeWithoutTheFlag_AreReportedWithoutAFix()
    {
        var code = Usings + """
            sealed class TokenSource<T> : TaskCompletionSource<T>
            {
                public TokenSource(CancellationToken token) => Registration = token.Register(() => TrySetCanceled());

                public CancellationTokenRegistration Registration { get; }
            }

            sealed class Implicit<T> : TaskCompletionSource<T>
            {
            }

            sealed class Flagged<T> : TaskCompletionSource<T>
            {
                public Flagged() : base(TaskCreationOptions.RunContinuationsAsynchronously) { }
            }

            sealed class Forwarded<T> : TaskCompletionSource<T>
            {
                public Forwarded(TaskCreationOptions options) : base(options) { }
            }

            class C
            {
                Task<int> Waited(CancellationToken token)
                {
                    var source = [|new TokenSource<int>(token)|];
                    return source.Task;
                }

                Task<int> Plain(Action<TaskCompletionSource<int>> start)
                {
                    var source = [|new Implicit<int>()|];
                    start(source);
                    return source.Task;
                }

                Task<int> WithFlag(Action<TaskCompletionSource<int>> start)
                {
                    var source = new Flagged<int>();
                    start(source);
                    return source.Task;
                }

                Task<int> Unknown(Action<TaskCompletionSource<int>> start)
                {
                    var source = new Forwarded<int>(TaskCreationOptions.None); // the chain is not read: left alone
                    start(source);
                    return source.Task;
                }
            }
            """;

        // The same text after: no fix is offered.
        await Verify.VerifyCodeFixAsync(code, code);
    }

    [Fact]
    public async Task StateAndNamedArguments_KeepWhatTheCallPasses()
    {
        var before = Class("""
                TaskCompletionSource<int> State(object owner) => [|new TaskCompletionSource<int>(owner)|];
                TaskCompletionSource<int> Named(object owner) => [|new TaskCompletionSource<int>(state: owner)|];
                TaskCompletionSource NonGeneric() => [|new TaskCompletionSource()|];
                private readonly TaskCompletionSource<string> _ready = [|new TaskCompletionSource<string>()|];
                Task<string> Ready => _ready.Task;
                void SetReady(string value) => _ready.TrySetResult(value);
                TaskCompletionSource<int> Wrapped(object owner) => [|new TaskCompletionSource<int>(
                    owner
                )|];
                TaskCompletionSource<int> Noted(object owner) => [|new TaskCompletionSource<int>(owner // who waits
                )|];
            """);
        var after = Class($$"""
                TaskCompletionSource<int> State(object owner) => new TaskCompletionSource<int>(owner, {{Flag}});
                TaskCompletionSource<int> Named(object owner) => new TaskCompletionSource<int>(
                    state: owner,
                    creationOptions: {{Flag}});
                TaskCompletionSource NonGeneric() => new TaskCompletionSource({{Flag}});
                private readonly TaskCompletionSource<string> _ready = new TaskCompletionSource<string>({{Flag}});
                Task<string> Ready => _ready.Task;
                void SetReady(string value) => _ready.TrySetResult(value);
                TaskCompletionSource<int> Wrapped(object owner) => new TaskCompletionSource<int>(
                    owner, {{Flag}}
                );
                TaskCompletionSource<int> Noted(object owner) => new TaskCompletionSource<int>(owner, {{Flag}} // who waits
                );
            """);
        await Verify.VerifyCodeFixAsync(before, after);
    }

    /// <summary>
    /// The flag's value kept as a number for old targets binds to the <c>object state</c> constructor and sets nothing
    /// (seen in the GitHub Actions runner's SDK): reported, with a message that says the number is the state, and fixed
    /// as any source with a state is.
    /// </summary>
    [Fact]
    public async Task TheFlagsValueAsANumber_IsTheState_AndTheMessageSaysSo()
    {
        var before = Usings + """
            class C
            {
                private const int RunAsync = 0x40;

                async Task<bool> Wait(CancellationToken token)
                {
                    var canceled = {|#0:new TaskCompletionSource<bool>(RunAsync)|};
                    using (token.Register(() => canceled.TrySetResult(true)))
                    {
                        return await canceled.Task;
                    }
                }

                Task<int> Other(object owner, Action<TaskCompletionSource<int>> start)
                {
                    var done = {|#1:new TaskCompletionSource<int>(65)|};
                    start(done);
                    return done.Task;
                }
            }
            """;
        var after = before.Replace("{|#0:new TaskCompletionSource<bool>(RunAsync)|}", $"new TaskCompletionSource<bool>(RunAsync, {Flag})", StringComparison.Ordinal)
            .Replace("{|#1:new TaskCompletionSource<int>(65)|}", $"new TaskCompletionSource<int>(65, {Flag})", StringComparison.Ordinal);
        var test = new Verify.Test { TestCode = before, FixedCode = after };
        test.ExpectedDiagnostics.Add(Verify.Diagnostic().WithLocation(0).WithArguments(
            "; the 64 passed here is the source's state, not its options: a number binds to the object overload"));
        test.ExpectedDiagnostics.Add(Verify.Diagnostic().WithLocation(1).WithArguments(""));
        await test.RunAsync();
    }

    /// <summary>
    /// Options written out are the author's choice, <c>TaskCreationOptions.None</c> too: nobody writes it by accident,
    /// and code that needs its awaiters to run inside the completion says so that way (grpc-dotnet's client makes its
    /// request-completion and retry sources so, with comments saying the caller must wait for the awaiter, or the
    /// awaiter must run under the lock). The same shapes without options are reported: only the argument differs.
    /// </summary>
    [Fact]
    public async Task OptionsWrittenOut_EvenNone_AreTheAuthorsChoice()
    {
        const string Shapes = """
            using System.Threading.Tasks;
            using static System.Threading.Tasks.TaskCreationOptions;

            sealed class Upload
            {
                private readonly object _gate = new object();
                private TaskCompletionSource<string?> _nextAttempt;

                public Upload(object owner)
                {
                    // The closer must wait until the content writer, awaiting this, has finished.
                    Finished = <<new TaskCompletionSource<bool>(OPTIONS)>>;
                    Owned = <<new TaskCompletionSource<int>(owner, OPTIONS)>>;
                    _nextAttempt = <<new TaskCompletionSource<string?>(OPTIONS)>>;
                }

                public TaskCompletionSource<bool> Finished { get; }

                public TaskCompletionSource<int> Owned { get; }

                public Task<string?> NextAttempt { get { lock (_gate) { return _nextAttempt.Task; } } }

                public void Retry(string attempt)
                {
                    lock (_gate)
                    {
                        // Awaiters run here, inside the lock.
                        _nextAttempt.SetResult(attempt);
                        _nextAttempt = <<new TaskCompletionSource<string?>(creationOptions: OPTIONS)>>;
                    }
                }
            }
            """;
        string Written(string options) => Shapes.Replace("<<", "", StringComparison.Ordinal).Replace(">>", "", StringComparison.Ordinal)
            .Replace("OPTIONS", options, StringComparison.Ordinal);
        await Verify.VerifyAnalyzerAsync(Written("TaskCreationOptions.None"));
        await Verify.VerifyAnalyzerAsync(Written("None"));

        // Without the options each creation is reported: every task escapes before its source is completed.
        var bare = Shapes.Replace("<<", "[|", StringComparison.Ordinal).Replace(">>", "|]", StringComparison.Ordinal)
            .Replace("(OPTIONS)", "()", StringComparison.Ordinal)
            .Replace("(owner, OPTIONS)", "(owner)", StringComparison.Ordinal)
            .Replace("(creationOptions: OPTIONS)", "()", StringComparison.Ordinal);
        Assert.Equal(4, bare.Split("[|").Length - 1);
        await Verify.VerifyAnalyzerAsync(bare);
    }

    /// <summary>
    /// Not reported: the flag is there; options the analyzer cannot read; AttachedToParent (TPL0009's, and the two
    /// fixes would edit one argument); options passed as the state (CA2247's mistake); a source completed before its
    /// task can be seen; a source nobody awaits or nobody completes; another type of the same name; an expression tree.
    /// </summary>
    [Fact]
    public async Task WhatCannotHaveContinuationsOrIsNotOurs_IsNotReported()
    {
        var code = Class("""
                TaskCompletionSource<int> Flagged() => new TaskCompletionSource<int>(TaskCreationOptions.RunContinuationsAsynchronously);
                TaskCompletionSource<int> FlaggedWithState(object s) => new TaskCompletionSource<int>(s, TaskCreationOptions.RunContinuationsAsynchronously | TaskCreationOptions.AttachedToParent);
                TaskCompletionSource<int> Variable(TaskCreationOptions options) => new TaskCompletionSource<int>(options);
                TaskCompletionSource<int> Attached() => new TaskCompletionSource<int>(TaskCreationOptions.AttachedToParent);
                TaskCompletionSource<int> WrongEnum() => new TaskCompletionSource<int>(TaskContinuationOptions.RunContinuationsAsynchronously);

                Task<int> CompletedFirst()
                {
                    var done = new TaskCompletionSource<int>();
                    done.SetResult(1);
                    return done.Task;
                }

                Task<int> CompletedFirstByTry(Exception error)
                {
                    var failed = new TaskCompletionSource<int>();
                    _ = failed.TrySetException(error);
                    return failed.Task;
                }

                void NeverAwaited() { var done = new TaskCompletionSource<int>(); done.TrySetResult(1); }
                Task<int> NeverCompleted() => new TaskCompletionSource<int>().Task;
                void Discarded() { new TaskCompletionSource<int>(); }
                System.Linq.Expressions.Expression<Func<object>> Tree() => () => new TaskCompletionSource<int>();
            """);
        await Verify.VerifyAnalyzerAsync(code);
        await Verify.VerifyAnalyzerAsync(Usings + """
            class TaskCompletionSource<T> { public Task<T> Task => throw new NotImplementedException(); }
            class C { Task<int> M() { var done = new TaskCompletionSource<int>(); return done.Task; } }
            """);
    }

    /// <summary>
    /// A source whose task is read but which nothing completes or hands on (a test of a wait that must time out, a
    /// never-ending task to race against) runs no continuation at all, like <c>new TaskCompletionSource&lt;T&gt;().Task</c>:
    /// a local so, or a private field. A field other types can reach may be completed there.
    /// </summary>
    [Fact]
    public async Task ASourceNothingCanComplete_IsNotReported()
    {
        await Verify.VerifyAnalyzerAsync(Usings + """
            static class Never
            {
                private static readonly TaskCompletionSource<bool> s_never = new TaskCompletionSource<bool>();
                public static Task Forever => s_never.Task;
                public static Task<int> Either(Task<int> work) => Task.WhenAny(work, Forever).ContinueWith(t => work.Result);
            }

            class Gate
            {
                private TaskCompletionSource<object?> _closed = new TaskCompletionSource<object?>();
                internal TaskCompletionSource<object?> Opened = [|new TaskCompletionSource<object?>()|];
                private readonly TaskCompletionSource<int> _handed = [|new TaskCompletionSource<int>()|];
                private readonly TaskCompletionSource<int> _nested = [|new TaskCompletionSource<int>()|];
                public Task Closed => _closed.Task;
                public Task Both => Task.WhenAll(Opened.Task, _handed.Task, _nested.Task);
                public void Reset() => _closed = new TaskCompletionSource<object?>();
                public void Start(Action<TaskCompletionSource<int>> start) => start(_handed);

                sealed class Closer
                {
                    public void Close(Gate gate) => gate._nested.TrySetResult(1);
                }
            }
            """);
        await Verify.VerifyAnalyzerAsync(Class("""
                async Task<bool> TimesOut(Task<int> work, CancellationToken token)
                {
                    var never = new TaskCompletionSource<int>();
                    var waited = never.Task.ContinueWith(t => t.Result, token);
                    return await Task.WhenAny(work, never.Task, waited) == work;
                }

                Task<object> Pending()
                {
                    TaskCompletionSource<object> source;
                    source = new TaskCompletionSource<object>();
                    Task<object> task = source.Task;
                    return task;
                }

                Task<int> CompletedLater()
                {
                    var done = [|new TaskCompletionSource<int>()|];
                    var task = done.Task.ContinueWith(t => t.Result + 1);
                    done.SetResult(1);
                    return task;
                }

                Task<int> CompletedInACallback(CancellationToken token)
                {
                    var canceled = [|new TaskCompletionSource<int>()|];
                    token.Register(() => canceled.TrySetCanceled());
                    return canceled.Task;
                }

                Task<int> HandedOn(Action<TaskCompletionSource<int>> start)
                {
                    var started = [|new TaskCompletionSource<int>()|];
                    var task = started.Task;
                    start(started);
                    return task;
                }
            """));
    }

    /// <summary>A completion that may not run (in an if, after the task is read, in a lambda) does not count.</summary>
    [Fact]
    public async Task CompletedOnlySometimesOrAfterTheTaskIsRead_IsReported()
    {
        await Verify.VerifyAnalyzerAsync(Class("""
                Task<int> Conditional(bool now)
                {
                    var done = [|new TaskCompletionSource<int>()|];
                    if (now) done.SetResult(1);
                    return done.Task;
                }

                Task<int> ReadFirst()
                {
                    var done = [|new TaskCompletionSource<int>()|];
                    var task = done.Task;
                    done.SetResult(1);
                    return task;
                }

                Task<int> InALambda()
                {
                    var done = [|new TaskCompletionSource<int>()|];
                    Action complete = () => done.SetResult(1);
                    complete();
                    return done.Task;
                }
            """));
    }

    [Fact]
    public async Task NestedLambdasLocalFunctionsAndExpressionBodies_AreReported()
    {
        var before = Class("""
                Func<Task<int>> Factory() => () =>
                {
                    var inner = [|new TaskCompletionSource<int>()|];
                    Task.Run(() => { inner.SetResult(2); Console.WriteLine("set"); });
                    return inner.Task;
                };

                Task<int> Local()
                {
                    return Make();
                    Task<int> Make() { var done = [|new TaskCompletionSource<int>()|]; Task.Run(() => { lock (_gate) { done.SetResult(3); } }); return done.Task; }
                }
            """);
        var after = Class($$"""
                Func<Task<int>> Factory() => () =>
                {
                    var inner = new TaskCompletionSource<int>({{Flag}});
                    Task.Run(() => { inner.SetResult(2); Console.WriteLine("set"); });
                    return inner.Task;
                };

                Task<int> Local()
                {
                    return Make();
                    Task<int> Make()
                    {
                        var done = new TaskCompletionSource<int>({{Flag}});
                        Task.Run(() => { lock (_gate) { done.SetResult(3); } });
                        return done.Task;
                    }
                }
            """);
        await Verify.VerifyCodeFixAsync(before, after);
    }

    [Fact]
    public async Task TopLevelStatements_AreReportedAndFixed()
    {
        const string Code = """
            using System.Threading;
            using System.Threading.Tasks;

            var ready = [|new TaskCompletionSource<bool>()|];
            System.Threading.Timer timer = new(_ => ready.SetResult(true), null, 1, Timeout.Infinite);
            await ready.Task;
            """;
        await new Verify.Test
        {
            TestCode = Code,
            FixedCode = Code.Replace("[|new TaskCompletionSource<bool>()|]", $"new TaskCompletionSource<bool>({Flag})", StringComparison.Ordinal),
            TestState = { OutputKind = OutputKind.ConsoleApplication },
        }.RunAsync();
    }

    /// <summary>
    /// The fix moves the awaiting code off the completer's thread, which code can rely on (CompletedThenTaskStateRead):
    /// it is offered one site at a time, with a title that says so, and never in Fix All or dotnet format.
    /// </summary>
    [Fact]
    public async Task Fix_IsOfferedPerSite_NotInFixAll_AndItsTitleSaysWhatChanges()
    {
        var before = Class("""
                TaskCompletionSource<int> A() => [|new TaskCompletionSource<int>()|];
                TaskCompletionSource<int> B(object s) => [|new TaskCompletionSource<int>(s)|];
                TaskCompletionSource<int>[] D(object s) => new[] { [|new TaskCompletionSource<int>()|], [|new TaskCompletionSource<int>(s)|] };
            """);
        var after = Class($$"""
                TaskCompletionSource<int> A() => new TaskCompletionSource<int>({{Flag}});
                TaskCompletionSource<int> B(object s) => new TaskCompletionSource<int>(s, {{Flag}});
                TaskCompletionSource<int>[] D(object s) => new[]
                {
                    new TaskCompletionSource<int>({{Flag}}),
                    new TaskCompletionSource<int>(s, {{Flag}})
                };
            """);
        await new Verify.Test
        {
            TestCode = before,
            FixedCode = after,
            NumberOfIncrementalIterations = 4,
            CodeActionValidationMode = CodeActionValidationMode.None,
            CodeFixTestBehaviors = CodeFixTestBehaviors.SkipFixAllCheck,
        }.RunAsync();
        Assert.Null(new CodeFixes.Rules.CompletionSourceContinuationsFixer().GetFixAllProvider());

        var actions = await AnalyzerRun.CodeActionTitlesAsync(new CodeFixes.Rules.CompletionSourceContinuationsFixer(), new CompletionSourceContinuationsAnalyzer(), TestMarkup.Strip(before));
        Assert.All(actions, title => Assert.Equal("Add TaskCreationOptions.RunContinuationsAsynchronously (may change where continuations run)", title));
        Assert.Equal(4, actions.Count);
    }

    /// <summary>
    /// Completed on every path before its task can be seen: in both a try and its catch, inside a lock or a using, in
    /// both branches of an if, in every section of a switch with a default. Nothing can await it yet: not reported.
    /// </summary>
    [Fact]
    public async Task CompletedOnEveryPathBeforeTheTaskEscapes_IsNotReported()
    {
        await Verify.VerifyAnalyzerAsync(Class("""
                Task<int> TryAndCatch(Func<int> work)
                {
                    var done = new TaskCompletionSource<int>();
                    try
                    {
                        var value = work();
                        done.SetResult(value);
                    }
                    catch (Exception error)
                    {
                        done.SetException(error);
                    }

                    return done.Task;
                }

                Task<int> InsideLockAndUsing(IDisposable scope)
                {
                    var done = new TaskCompletionSource<int>();
                    lock (_gate)
                    {
                        done.SetResult(1);
                    }

                    var other = new TaskCompletionSource<int>();
                    using (scope)
                    {
                        _ = other.TrySetResult(2);
                    }

                    return done.Task.IsCompleted ? other.Task : done.Task;
                }

                Task<int> BothBranches(bool fail)
                {
                    var done = new TaskCompletionSource<int>();
                    if (fail) { done.SetCanceled(); } else if (_pending is null) done.SetResult(1); else done.SetResult(2);
                    return done.Task;
                }

                Task<int> EverySection(int kind)
                {
                    var done = new TaskCompletionSource<int>();
                    switch (kind)
                    {
                        case 0:
                            done.SetResult(0);
                            break;
                        default:
                            done.SetResult(kind);
                            break;
                    }

                    return done.Task;
                }
            """));
    }

    /// <summary>A catch that does not complete the source, or a switch without a default, leaves a path where it escapes pending.</summary>
    [Fact]
    public async Task APathThatLeavesTheSourcePending_IsReported()
    {
        await Verify.VerifyAnalyzerAsync(Class("""
                Task<int> CatchLogsOnly(Func<int> work)
                {
                    var done = [|new TaskCompletionSource<int>()|];
                    try
                    {
                        done.SetResult(work());
                    }
                    catch (InvalidOperationException)
                    {
                        Console.WriteLine("failed");
                    }

                    return done.Task;
                }

                Task<int> NoDefault(int kind)
                {
                    var done = [|new TaskCompletionSource<int>()|];
                    switch (kind)
                    {
                        case 0:
                            done.SetResult(0);
                            break;
                    }

                    return done.Task;
                }
            """));
    }

    /// <summary>
    /// Every completion is the last thing a pool work item or continuation does, holding no lock: the thread has nothing
    /// else to do, so running the awaiting code there costs nothing, and the flag would only add a queue hop. Not
    /// reported. The same completion followed by more work, under a lock, in a loop, or from a public method, a
    /// cancellation or timer callback is a hazard, and reported.
    /// </summary>
    [Fact]
    public async Task CompletedOnlyAsTheLastActOfPoolWork_IsNotReported()
    {
        await Verify.VerifyAnalyzerAsync(Class("""
                Task<int> Queued()
                {
                    var done = new TaskCompletionSource<int>();
                    ThreadPool.QueueUserWorkItem(_ => done.SetResult(1));
                    return done.Task;
                }

                Task<int> Ran(int value)
                {
                    var done = new TaskCompletionSource<int>();
                    Task.Run(() =>
                    {
                        var doubled = value * 2;
                        _ = done.TrySetResult(doubled);
                    });
                    return done.Task;
                }

                Task<int> Continued(Task<int> first)
                {
                    var done = new TaskCompletionSource<int>();
                    first.ContinueWith(t => done.TrySetResult(t.Result + 1), TaskScheduler.Default);
                    return done.Task;
                }

                // Rebus's test helper: the work ends in whichever branch completes the source.
                Task<int> InEachBranch(WaitHandle signal)
                {
                    var done = new TaskCompletionSource<int>();
                    ThreadPool.QueueUserWorkItem(_ =>
                    {
                        if (signal.WaitOne(100))
                        {
                            done.SetResult(1);
                        }
                        else if (signal.SafeWaitHandle.IsClosed)
                            done.SetCanceled();
                        else
                        {
                            try { done.SetResult(2); }
                            catch (InvalidOperationException e) { done.SetException(e); }
                        }
                    });
                    return done.Task;
                }

                Task<int> MoreWorkAfter()
                {
                    var done = [|new TaskCompletionSource<int>()|];
                    ThreadPool.QueueUserWorkItem(_ => { done.SetResult(1); Console.WriteLine("then more"); });
                    return done.Task;
                }

                Task<int> MoreWorkAfterTheBranches(WaitHandle signal)
                {
                    var done = [|new TaskCompletionSource<int>()|];
                    ThreadPool.QueueUserWorkItem(_ =>
                    {
                        if (signal.WaitOne(100)) { done.SetResult(1); } else { done.SetResult(2); }
                        Console.WriteLine("then more");
                    });
                    return done.Task;
                }

                Task<int> BranchInsideUsing(WaitHandle signal)
                {
                    var done = [|new TaskCompletionSource<int>()|];
                    ThreadPool.QueueUserWorkItem(_ =>
                    {
                        using (var timer = new Timer(_ => { }))
                        {
                            if (signal.WaitOne(100)) { done.SetResult(1); } else { done.SetResult(2); }
                        }
                    });
                    return done.Task;
                }

                Task<int> InALoop(int[] values)
                {
                    var done = [|new TaskCompletionSource<int>()|];
                    Task.Run(() => { foreach (var v in values) { done.TrySetResult(v); } });
                    return done.Task;
                }

                Task<int> FromATimer()
                {
                    var done = [|new TaskCompletionSource<int>()|];
                    var timer = new Timer(_ => done.SetResult(1), null, 1, Timeout.Infinite);
                    return done.Task;
                }

                // A method of our own named Run may run the delegate at once, under the caller's lock.
                static void Run(Action action) => action();

                Task<int> OwnRun()
                {
                    var done = [|new TaskCompletionSource<int>()|];
                    lock (_gate) { Run(() => done.SetResult(1)); }
                    return done.Task;
                }

                Task<int> HandedToOtherCode(Action<TaskCompletionSource<int>> start)
                {
                    var done = [|new TaskCompletionSource<int>()|];
                    ThreadPool.QueueUserWorkItem(_ => done.SetResult(1));
                    start(done);
                    return done.Task;
                }
            """));
    }

    /// <summary>
    /// The same work given the source as its state, as TPL0006, TPL0007 and TPL0001 rewrite a capture (Rebus's test
    /// helper completed its source in <c>Task.Run</c>; after TPL0007's fix the rule spoke on the <c>StartNew</c> it
    /// wrote): silent where the work reads the state back only under the source's name, reported where the state is
    /// read another way too, or the work does more after completing.
    /// </summary>
    [Fact]
    public async Task CompletedAsTheLastActOfPoolWorkGivenTheSourceAsItsState_IsNotReported()
    {
        await Verify.VerifyAnalyzerAsync(Class("""
                Task<int> StartedWithTheState()
                {
                    var done = new TaskCompletionSource<int>();
                    _ = Task.Factory.StartNew(static state =>
                    {
                        var done = (TaskCompletionSource<int>)state!;
                        done.SetResult(1);
                    }, done, CancellationToken.None, TaskCreationOptions.DenyChildAttach, TaskScheduler.Default);
                    return done.Task;
                }

                Task<int> QueuedAsTypedState()
                {
                    var done = new TaskCompletionSource<int>();
                    ThreadPool.QueueUserWorkItem(static done => done.SetResult(1), done, preferLocal: false);
                    return done.Task;
                }

                Task<int> QueuedInATuple(int value)
                {
                    var done = new TaskCompletionSource<int>();
                    ThreadPool.QueueUserWorkItem(static state =>
                    {
                        var (done, value) = state;
                        done.SetResult(value * 2);
                    }, (done, value), preferLocal: false);
                    return done.Task;
                }

                Task<int> ContinuedWithTheState(Task<int> first)
                {
                    var done = new TaskCompletionSource<int>();
                    first.ContinueWith(static (t, state) => ((TaskCompletionSource<int>)state!).SetResult(t.Result), done, TaskScheduler.Default);
                    return done.Task;
                }

                Task<int> ContinuedReturningTheCompletion(Task<int> first)
                {
                    var done = new TaskCompletionSource<int>();
                    first.ContinueWith(static (t, state) =>
                    {
                        var done = (TaskCompletionSource<int>)state!;
                        return done.TrySetResult(t.Result + 1);
                    }, done, CancellationToken.None, TaskContinuationOptions.None, TaskScheduler.Default);
                    return done.Task;
                }

                Task<int> ByAHelper()
                {
                    var done = new TaskCompletionSource<int>();
                    Complete(done);
                    return done.Task;
                }

                static void Complete(TaskCompletionSource<int> done) => Task.Factory.StartNew(static state =>
                {
                    var done = (TaskCompletionSource<int>)state!;
                    done.SetResult(1);
                }, done, CancellationToken.None, TaskCreationOptions.DenyChildAttach, TaskScheduler.Default);

                Task<int> StateReadTwice(List<object> seen)
                {
                    var done = [|new TaskCompletionSource<int>()|];
                    ThreadPool.QueueUserWorkItem(state =>
                    {
                        seen.Add(state!);
                        var done = (TaskCompletionSource<int>)state!;
                        done.SetResult(1);
                    }, done);
                    return done.Task;
                }

                Task<int> ReadBackUnderAnotherName()
                {
                    var done = [|new TaskCompletionSource<int>()|];
                    ThreadPool.QueueUserWorkItem(static state =>
                    {
                        var source = (TaskCompletionSource<int>)state!;
                        source.SetResult(1);
                    }, done);
                    return done.Task;
                }

                Task<int> MoreWorkAfter()
                {
                    var done = [|new TaskCompletionSource<int>()|];
                    ThreadPool.QueueUserWorkItem(static done => { done.SetResult(1); Console.WriteLine("then more"); }, done, preferLocal: false);
                    return done.Task;
                }

                static void Schedule(Action<object?> work, object? state) => work(state);

                Task<int> NotPoolWork()
                {
                    var done = [|new TaskCompletionSource<int>()|];
                    Schedule(static done => ((TaskCompletionSource<int>)done!).SetResult(1), done);
                    return done.Task;
                }
            """));
    }

    /// <summary>
    /// A source whose task is only waited for or read (<c>Wait</c>, <c>Result</c>, <c>GetResult</c>, <c>WaitAll</c>,
    /// a state) has no continuation to run inline. A set of sources made into a local array (an order-by-completion
    /// helper) whose completions go through copies the rule does not follow is left alone; a visible completion of an
    /// element under a lock, or in a loop, is a hazard and reported.
    /// </summary>
    [Fact]
    public async Task NothingContinuesOnTheTask_OrTheSetIsCompletedOutOfSight_IsNotReported()
    {
        await Verify.VerifyAnalyzerAsync(Class("""
                private readonly TaskCompletionSource<bool> _stopped = new TaskCompletionSource<bool>();

                public void Stop() { lock (_gate) { _stopped.TrySetResult(true); } }

                public bool WaitStopped(int milliseconds) => _stopped.Task.Wait(milliseconds);

                int Blocking(Action<Action> post)
                {
                    var done = new TaskCompletionSource<int>();
                    post(() => { lock (_gate) { done.SetResult(1); } });
                    Task.WaitAny(new Task[] { done.Task }, 1000);
                    return done.Task.IsCompleted ? done.Task.GetAwaiter().GetResult() : done.Task.Result;
                }

                List<Task<int>> InOrder(Task<int>[] tasks)
                {
                    var sources = new TaskCompletionSource<int>[tasks.Length];
                    for (var i = 0; i < tasks.Length; i++)
                    {
                        sources[i] = new TaskCompletionSource<int>();
                    }

                    var next = -1;
                    Action<Task<int>> onEach = t =>
                    {
                        var source = sources[Interlocked.Increment(ref next)];
                        source.TrySetResult(t.Result);
                    };
                    foreach (var task in tasks)
                    {
                        task.ContinueWith(onEach, CancellationToken.None, TaskContinuationOptions.ExecuteSynchronously, TaskScheduler.Default);
                    }

                    return System.Linq.Enumerable.ToList(System.Linq.Enumerable.Select(sources, s => s.Task));
                }

                Task<int>[] EachLastActOfPoolWork(int count)
                {
                    var sources = new TaskCompletionSource<int>[count];
                    var tasks = new Task<int>[count];
                    for (var i = 0; i < count; i++)
                    {
                        var at = i;
                        sources[i] = new TaskCompletionSource<int>();
                        tasks[i] = sources[i].Task;
                        Task.Run(() => sources[at].SetResult(at));
                    }

                    return tasks;
                }

                Task<int>[] UnderALock(int count)
                {
                    var sources = new TaskCompletionSource<int>[count];
                    for (var i = 0; i < count; i++)
                    {
                        sources[i] = [|new TaskCompletionSource<int>()|];
                    }

                    ThreadPool.QueueUserWorkItem(_ => { lock (_gate) { sources[0].SetResult(0); } });
                    return new[] { sources[0].Task };
                }

                Task<int>[] InALoop(int count)
                {
                    var sources = new TaskCompletionSource<int>[count];
                    var tasks = new Task<int>[count];
                    for (var i = 0; i < count; i++)
                    {
                        sources[i] = [|new TaskCompletionSource<int>()|];
                        tasks[i] = sources[i].Task;
                    }

                    Task.Run(() => { foreach (var source in sources) { source.TrySetResult(1); } });
                    return tasks;
                }
            """));
    }

    /// <summary>
    /// A completer that reads a task's state right after completing a source relies on the awaiting code having run
    /// inside the completion (a TLS adapter completes its read source, then checks whether the reader finished). With
    /// the flag the reader is only queued and the check fails: the rule stays silent, for a field's source and a local's.
    /// </summary>
    [Fact]
    public async Task CompletedThenTaskStateRead_IsNotReported()
    {
        await Verify.VerifyAnalyzerAsync(Usings + """
            sealed class Adapter
            {
                private TaskCompletionSource<int> _read = new TaskCompletionSource<int>();
                private Task _reader = Task.CompletedTask;

                public Task<int> ReadAsync() => _read.Task;

                public void OnPacket(int length)
                {
                    // Completed inline on purpose: the reader runs now, so its task is done when we look.
                    _read.TrySetResult(length);
                    if (!_reader.IsCompleted)
                    {
                        Console.WriteLine("the reader still waits");
                    }
                }

                public Task<int> Local(Action<Action> post)
                {
                    var done = new TaskCompletionSource<int>();
                    var watcher = Watch(done.Task);
                    post(() =>
                    {
                        done.SetResult(1);
                        Console.WriteLine(watcher.Status);
                    });
                    return done.Task;
                }

                private static async Task Watch(Task<int> task) => await task;
            }
            """);
    }

    /// <summary>
    /// A state read in another branch than the completion runs instead of it, so it relies on nothing: a continuation
    /// that copies its antecedent's outcome (<c>if (t.IsCanceled) … else if (t.IsFaulted) … else …</c>) read as
    /// relying on inline continuations, and a source also completed in a cancellation callback went unreported. The
    /// shape of a <c>WaitAsync</c> polyfill for netstandard2.0, whose source type carries the token; a read after the
    /// completion on its own path still silences the rule. The lambda's local shadows the source's name, as in the
    /// library this came from: the rule reads completions by name.
    /// </summary>
    [Fact]
    public async Task AStateReadInAnotherBranch_DoesNotSilenceTheRule()
    {
        const string Code = """
            using System;
            using System.Threading;
            using System.Threading.Tasks;

            static class Waiting
            {
                public static async Task<T> WithToken<T>(Task<T> task, CancellationToken token)
                {
                    var source = [|new TokenSource<T>(token)|];
                    using var registration = token.Register(static state => ((TokenSource<T>)state!).Cancel(), source);
                    _ = task.ContinueWith(static (t, state) =>
                    {
                        var source = (TokenSource<T>)state!;
                        if (t.IsCanceled) source.TrySetCanceled();
                        else if (t.IsFaulted) source.TrySetException(t.Exception!.InnerExceptions);
                        else source.TrySetResult(t.Result);
                    }, source, CancellationToken.None, TaskContinuationOptions.ExecuteSynchronously, TaskScheduler.Default);
                    return await source.Task.ConfigureAwait(false);
                }

                public static Task<int> Switched(Task<int> task, Action<TaskCompletionSource<int>> keep)
                {
                    var source = [|new TaskCompletionSource<int>()|];
                    keep(source);
                    switch (task.Status)
                    {
                        case TaskStatus.RanToCompletion:
                            source.TrySetResult(task.Result);
                            break;
                        default:
                            Console.WriteLine(task.IsFaulted ? "faulted" : "canceled");
                            break;
                    }

                    return source.Task;
                }

                public static Task<int> CheckedAfter(Task<int> reader, Action<TaskCompletionSource<int>> keep, bool now)
                {
                    var source = new TaskCompletionSource<int>();
                    keep(source);
                    if (now)
                    {
                        source.TrySetResult(1);
                    }

                    Console.WriteLine(reader.IsCompleted ? "read" : "waiting");
                    return source.Task;
                }

                private sealed class TokenSource<T> : TaskCompletionSource<T>
                {
                    private readonly CancellationToken _token;

                    public TokenSource(CancellationToken token) { _token = token; }

                    public void Cancel() { TrySetCanceled(_token); }
                }
            }
            """;

        // The derived source takes its flag in its own base call: no fix. The base type's gets the flag.
        await new Verify.Test
        {
            // A polyfill for the targets without Task.WaitAsync, written in the library's own (newer) C#.
            Target = TestTarget.NetStandard20,
            TestCode = Code,
            FixedCode = Code.Replace("[|new TaskCompletionSource<int>()|]", $"new TaskCompletionSource<int>({Flag})", StringComparison.Ordinal),
            FixedState = { MarkupHandling = MarkupMode.Allow },
        }.RunAsync();
    }

    /// <summary>netstandard2.0 under C# 7.3 has the generic source and the flag; the fix compiles in both linked copies.</summary>
    [Fact]
    public async Task OnCSharp73NetStandard_AndMultiTargeted_TheFixCompiles()
    {
        const string Before = """
            using System.Threading.Tasks;

            class C
            {
                public Task<int> Start(System.Action<TaskCompletionSource<int>> run)
                {
                    var done = [|new TaskCompletionSource<int>()|];
                    run(done);
                    return done.Task;
                }
            }
            """;
        await new Verify.Test
        {
            SharedByNetStandardAndNet10 = true,
            TestCode = Before,
            FixedCode = Before.Replace("[|new TaskCompletionSource<int>()|]", $"new TaskCompletionSource<int>({Flag})", StringComparison.Ordinal),
        }.RunAsync();
    }

    /// <summary>.NET Framework 4.7.2 has the flag too; the non-generic source exists only from .NET 5.</summary>
    [Fact]
    public async Task OnNetFramework_TheGenericSourceIsReported()
    {
        const string Before = """
            using System.Threading.Tasks;

            class C
            {
                public TaskCompletionSource<int> Make() { return [|new TaskCompletionSource<int>()|]; }
            }
            """;
        await new Verify.Test
        {
            OnCSharp73NetFramework = true,
            TestCode = Before,
            FixedCode = Before.Replace("[|new TaskCompletionSource<int>()|]", $"new TaskCompletionSource<int>({Flag})", StringComparison.Ordinal),
        }.RunAsync();
    }

    /// <summary>A file that imports the enum statically keeps its style.</summary>
    [Fact]
    public async Task UsingStatic_IsWrittenAsTheFileNamesIt()
    {
        const string Before = """
            using System.Threading.Tasks;
            using static System.Threading.Tasks.TaskCreationOptions;

            class C
            {
                TaskCompletionSource<int> M(object owner) => [|new TaskCompletionSource<int>(owner)|];
            }
            """;
        await Verify.VerifyCodeFixAsync(Before, Before.Replace("[|new TaskCompletionSource<int>(owner)|]", "new TaskCompletionSource<int>(owner, RunContinuationsAsynchronously)", StringComparison.Ordinal));
    }

    [Fact]
    public async Task GeneratedCode_DoesNotReport()
    {
        await Verify.VerifyAnalyzerAsync("""
            // <auto-generated/>
            using System.Threading.Tasks;

            class C
            {
                TaskCompletionSource<int> M() => new TaskCompletionSource<int>();
            }
            """);
    }

    [Theory]
    [InlineData("new TaskCompletionSource<int>(")]
    [InlineData("var d = new TaskCompletionSource<int>(TaskCreationOptions.")]
    [InlineData("var d = new TaskCompletionSource<>(); return d.Task")]
    [InlineData("var d = new TaskCompletionSource<int>(state: ); return d.Task")]
    [InlineData("var d = new TaskCompletionSource<int>(); d.SetResult(; return d.Task")]
    [InlineData("TaskCompletionSource<int> d = new(); return d.")]
    public async Task IncompleteCode_NeitherThrowsNorReports(string statement)
    {
        Assert.Equal(0, await HalfTypedCode.CountDiagnosticsAsync(new CompletionSourceContinuationsAnalyzer(), "", statement));
    }

    /// <summary>
    /// The caveat the page names: before the fix the awaiting code runs inside SetResult, on the completer's thread and
    /// before SetResult returns; after it, it runs later on the pool, and the completer no longer waits for it.
    /// </summary>
    [Fact]
    public async Task Caveat_ContinuationsNoLongerRunInsideSetResult()
    {
        const string Code = """
            // Shows a documented caveat of a fix
            using System.Threading;
            using System.Threading.Tasks;

            public static class Api
            {
                private static readonly object Gate = new object();
                private static bool _continued;

                // Takes the completer's lock: inline it re-enters it, on the pool it waits until the completer lets go.
                private static async Task AwaitAsync(Task<int> task) { await task; lock (Gate) { _continued = true; } }

                public static Task<int> Make()
                {
                    var done = new TaskCompletionSource<int>();
                    _continued = false;
                    var awaiting = AwaitAsync(done.Task);
                    return Complete(done, awaiting);
                }

                private static Task<int> Complete(TaskCompletionSource<int> done, Task awaiting)
                {
                    // Whether the awaiting code had run when SetResult returned; then wait for it either way.
                    bool ranInside;
                    lock (Gate)
                    {
                        done.SetResult(1);
                        ranInside = _continued;
                    }

                    awaiting.Wait();
                    return Task.FromResult(ranInside ? 1 : 0);
                }
            }
            """;
        await FixedBehaviour.AssertAsync(Code, DiagnosticIds.CompletionSourceContinuations, "Api", "Make", "returned 1", "returned 0");
    }
}
