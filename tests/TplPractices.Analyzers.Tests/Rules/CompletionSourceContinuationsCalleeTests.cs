using Verify = TplPractices.Analyzers.Tests.Verifiers.CSharpCodeFixVerifier<
    TplPractices.Analyzers.Rules.CompletionSourceContinuationsAnalyzer,
    TplPractices.Analyzers.CodeFixes.Rules.CompletionSourceContinuationsFixer>;

namespace TplPractices.Analyzers.Tests.Rules;

/// <summary>
/// TPL0013 where the completion is made one step away from the code that reads it: by a method of a derived source
/// that only completes it, through a local copy of the field, or in a method whose caller then reads a task's state.
/// Found on DotNetty, whose TLS stream completes its pending read so that the SSL stream's reader runs inline.
/// </summary>
public sealed class CompletionSourceContinuationsCalleeTests
{
    private const string Flag = "TaskCreationOptions.RunContinuationsAsynchronously";

    /// <summary>
    /// A derived source's method whose whole body completes the instance is a completion: a source completed through it
    /// before anyone sees it (a shared completed instance) is not reported; one handed out first still is.
    /// </summary>
    [Fact]
    public async Task ADerivedSourcesCompletingMethod_CountsAsTheCompletion()
    {
        await Verify.VerifyAnalyzerAsync("""
            using System;
            using System.Threading.Tasks;

            sealed class Signal : TaskCompletionSource<int>
            {
                public static readonly Signal Done = MakeDone();

                public bool TryFinish() => TrySetResult(0);

                public void Finish()
                {
                    this.SetResult(0);
                }

                private static Signal MakeDone()
                {
                    var signal = new Signal();
                    signal.TryFinish();
                    return signal;
                }

                public static Signal Finished()
                {
                    var signal = new Signal();
                    signal.Finish();
                    return signal;
                }

                public static Signal HandedOutFirst(Action<Signal> keep)
                {
                    var signal = [|new Signal()|];
                    keep(signal);
                    signal.TryFinish();
                    return signal;
                }
            }
            """);
    }

    /// <summary>
    /// A method that does more than complete the instance, or one a derived type can override, is not read as a
    /// completion: the source returned after it may still be pending.
    /// </summary>
    [Fact]
    public async Task AMethodThatDoesMoreOrCanBeOverridden_IsNotACompletion()
    {
        await Verify.VerifyAnalyzerAsync("""
            using System;
            using System.Threading.Tasks;

            class Signal : TaskCompletionSource<int>
            {
                public virtual bool TryFinish() => TrySetResult(0);

                public void FinishLater(Action<Action> post) => post(() => TrySetResult(0));

                public static Signal Overridable()
                {
                    var signal = [|new Signal()|];
                    signal.TryFinish();
                    return signal;
                }

                public static Signal Deferred(Action<Action> post)
                {
                    var signal = [|new Signal()|];
                    signal.FinishLater(post);
                    return signal;
                }
            }
            """);
    }

    private const string Session = """
        using System;
        using System.Threading.Tasks;

        sealed class Session
        {
            private readonly Pipe _pipe = new Pipe();
            private Task<int> _reading = Task.FromResult(0);

            public void OnBytes(int count)
            {
                _pipe.Push(count);
                CHECK
            }

            private sealed class Pipe
            {
                private TaskCompletionSource<int>? _waiting;
                private int _count;

                public Task<int> ReadAsync()
                {
                    _waiting = NEW;
                    return _waiting.Task;
                }

                public void Push(int count)
                {
                    _count = count;
                    PUSH
                }
            }
        }
        """;

    /// <summary>Runs the completion inline on purpose, through a copy of the field that clears it.</summary>
    private const string InlineTask = """
        new Task(state =>
                    {
                        var self = (Pipe)state!;
                        var waiting = self._waiting;
                        self._waiting = null;
                        waiting?.TrySetResult(self._count);
                    }, this).RunSynchronously(TaskScheduler.Default);
        """;

    private const string ReadsState = """
        if (_reading.IsCompleted)
                {
                    Console.WriteLine(_reading.Result);
                    _reading = _pipe.ReadAsync();
                }
        """;

    private static string SessionWith(string push, string check, string creation) => Session
        .Replace("PUSH", push, StringComparison.Ordinal)
        .Replace("CHECK", check, StringComparison.Ordinal)
        .Replace("NEW", creation, StringComparison.Ordinal);

    /// <summary>
    /// The caller of the completing method reads a task's state right after the call: it relies on the awaiting code
    /// having run inside the completion, whether the method completes the source itself, through a copy, or in a
    /// task it runs synchronously. With the flag the check would see the reader unfinished on every packet.
    /// </summary>
    [Theory]
    [InlineData("_waiting?.TrySetResult(count);")]
    [InlineData("var waiting = _waiting; _waiting = null; waiting?.TrySetResult(count);")]
    [InlineData(InlineTask)]
    public async Task ACallerThatReadsTheStateAfterTheCompletingCall_IsNotReported(string push)
    {
        await Verify.VerifyAnalyzerAsync(SessionWith(push, ReadsState, "new TaskCompletionSource<int>()"));
    }

    /// <summary>
    /// Without the read after the call, or where the completion runs later on the pool (a lambda given to Task.Run is
    /// not crossed), nothing relies on inline continuations: reported and fixed as before.
    /// </summary>
    [Theory]
    [InlineData(InlineTask, "Console.WriteLine(count);")]
    [InlineData("Task.Run(() => _waiting?.TrySetResult(_count));", ReadsState)]
    public async Task WithoutARelyingCaller_IsReported(string push, string check)
    {
        var code = SessionWith(push, check.Replace("count", "_reading.Id", StringComparison.Ordinal), "[|new TaskCompletionSource<int>()|]");
        await Verify.VerifyCodeFixAsync(code, code.Replace("[|new TaskCompletionSource<int>()|]", $"new TaskCompletionSource<int>({Flag})", StringComparison.Ordinal));
    }

    /// <summary>
    /// A thread of its own whose work ends in the completion has nothing left to do, as pool work has not, and so has a
    /// try whose block and catches each end in one (the STA helper: <c>try { done.SetResult(Work()); } catch (Exception
    /// e) { done.SetException(e); }</c>). A finally, or work after the try, runs after the completion: reported.
    /// </summary>
    [Fact]
    public async Task TheLastActOfAThreadOrOfATryThatEndsTheWork_IsNotReported()
    {
        await Verify.VerifyAnalyzerAsync("""
            using System;
            using System.Threading;
            using System.Threading.Tasks;

            static class Helpers
            {
                static int Work() => 42;

                public static Task<int> OnItsOwnThread()
                {
                    var done = new TaskCompletionSource<int>();
                    new Thread(() => done.SetResult(Work())).Start();
                    return done.Task;
                }

                public static Task<int> OnAnStaThread()
                {
                    var done = new TaskCompletionSource<int>();
                    var thread = new Thread(() =>
                    {
                        try
                        {
                            done.SetResult(Work());
                        }
                        catch (Exception e)
                        {
                            done.SetException(e);
                        }
                    });
                    thread.Start();
                    return done.Task;
                }

                public static Task<int> OnThePool()
                {
                    var done = new TaskCompletionSource<int>();
                    Task.Run(() =>
                    {
                        try { done.TrySetResult(Work()); }
                        catch (Exception e) { done.TrySetException(e); }
                    });
                    return done.Task;
                }

                public static Task<int> WithAFinally()
                {
                    var done = [|new TaskCompletionSource<int>()|];
                    new Thread(() =>
                    {
                        try { done.SetResult(Work()); }
                        finally { Console.WriteLine("after the awaiting code"); }
                    }).Start();
                    return done.Task;
                }

                public static Task<int> WithWorkAfterTheTry()
                {
                    var done = [|new TaskCompletionSource<int>()|];
                    Task.Run(() =>
                    {
                        try { done.SetResult(Work()); }
                        catch (Exception e) { done.SetException(e); }
                        Console.WriteLine("after the awaiting code");
                    });
                    return done.Task;
                }
            }
            """);
    }

    /// <summary>
    /// A helper of the project that completes the source it is given only as the last act of pool work (an extension
    /// whose body is <c>Task.Run(() => source.TrySetResult(value))</c>, a static method queueing the completion) is such a
    /// completion: a source completed only through it is not reported, as Discord.Net's guild sync promises showed.
    /// </summary>
    [Fact]
    public async Task AHelperThatCompletesOnThePool_CountsAsTheLastActOfPoolWork()
    {
        await Verify.VerifyAnalyzerAsync("""
            using System.Threading;
            using System.Threading.Tasks;

            static class Completions
            {
                public static Task TrySetResultAsync<T>(this TaskCompletionSource<T> source, T value)
                    => Task.Run(() => source.TrySetResult(value));

                public static void FinishLater(TaskCompletionSource<bool> source)
                {
                    ThreadPool.QueueUserWorkItem(_ => source.SetResult(true));
                }
            }

            sealed class Guild
            {
                private TaskCompletionSource<bool> _synced;
                private TaskCompletionSource<bool> _downloaded;

                public Task Synced => _synced.Task;
                public Task Downloaded => _downloaded.Task;
                public bool IsSynced => _synced.Task.IsCompleted;

                public void Reset()
                {
                    _synced = new TaskCompletionSource<bool>();
                    _downloaded = new TaskCompletionSource<bool>();
                }

                public void OnSync() => _ = _synced.TrySetResultAsync(true);

                public void OnDownload() => Completions.FinishLater(_downloaded);

                public async Task<int> ConnectAsync()
                {
                    var connected = new TaskCompletionSource<int>();
                    Start(() => _ = connected.TrySetResultAsync(1));
                    return await connected.Task;
                }

                private static void Start(System.Action a) => a();
            }
            """);
    }

    /// <summary>
    /// A helper that runs more work after the completion, completes inline, or can be overridden is no such
    /// completion, and neither is a source the type also completes directly elsewhere: all reported.
    /// </summary>
    [Fact]
    public async Task AHelperThatDoesMoreOrCompletesInline_IsNotPoolWork()
    {
        await Verify.VerifyAnalyzerAsync("""
            using System;
            using System.Threading.Tasks;

            class Completions
            {
                public static Task ThenLog<T>(TaskCompletionSource<T> source, T value)
                    => Task.Run(() => { source.TrySetResult(value); Console.WriteLine("done"); });

                public static Task Inline<T>(TaskCompletionSource<T> source, T value)
                {
                    source.TrySetResult(value);
                    return Task.CompletedTask;
                }

                public virtual Task Overridable(TaskCompletionSource<int> source) => Task.Run(() => source.TrySetResult(0));
            }

            sealed class Guild
            {
                private TaskCompletionSource<int> _a, _b, _c, _d;

                public Task A => _a.Task;
                public Task B => _b.Task;
                public Task C => _c.Task;
                public Task D => _d.Task;

                public void Reset(Completions completions)
                {
                    _a = [|new TaskCompletionSource<int>()|];
                    _b = [|new TaskCompletionSource<int>()|];
                    _c = [|new TaskCompletionSource<int>()|];
                    _d = [|new TaskCompletionSource<int>()|];
                    _ = Completions.ThenLog(_a, 1);
                    _ = Completions.Inline(_b, 1);
                    _ = completions.Overridable(_c);
                    _ = Completions.ThenLog(_d, 1);
                }

                public void Fail() => _d.TrySetCanceled();
            }
            """);
    }
}
