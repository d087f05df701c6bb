using System.Collections.Immutable;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CodeFixes;
using Microsoft.CodeAnalysis.CSharp;
using Microsoft.CodeAnalysis.Testing;
using TplPractices.Analyzers.CodeFixes.Rules;
using TplPractices.Analyzers.Tests.Verifiers;
using Verify = TplPractices.Analyzers.Tests.Verifiers.CSharpCodeFixVerifier<
    TplPractices.Analyzers.Rules.ExplicitSchedulerAnalyzer,
    TplPractices.Analyzers.CodeFixes.Rules.ExplicitSchedulerFixer>;

namespace TplPractices.Analyzers.Tests.Rules;

/// <summary>
/// TPL0019: StartNew and ContinueWith without a TaskScheduler run on TaskScheduler.Current; the fix passes it, with the
/// token and options the shorter overload used, or (one site at a time) passes TaskScheduler.Default.
/// </summary>
public sealed class ExplicitSchedulerTests
{
    private const string Usings = """
        using System;
        using System.Threading;
        using System.Threading.Tasks;

        """;

    private static string Class(string members) => Usings + "class C\n{\n" + members + "\n}\n";

    [Fact]
    public async Task EveryStartNewShape_OnTaskFactory_PassesCurrent()
    {
        var before = Class("""
                Task A(Action work) => Task.Factory.[|StartNew|](work);
                Task<int> B(Func<int> work) => Task.Factory.[|StartNew|](work);
                Task D(Action work, CancellationToken token) => Task.Factory.[|StartNew|](work, token);
                Task E(Action work) => Task.Factory.[|StartNew|](work, TaskCreationOptions.LongRunning);
                Task F(Action<object?> work, object state) => Task.Factory.[|StartNew|](work, state);
                Task<int> G(Func<object?, int> work) => Task.Factory.[|StartNew|](work, "s", TaskCreationOptions.DenyChildAttach);
                Task<int> H(Func<int> work) => Task<int>.Factory.[|StartNew|](work);
            """);
        var after = Class("""
                Task A(Action work) => Task.Factory.StartNew(work, CancellationToken.None, TaskCreationOptions.None, TaskScheduler.Current);
                Task<int> B(Func<int> work) => Task.Factory.StartNew(work, CancellationToken.None, TaskCreationOptions.None, TaskScheduler.Current);
                Task D(Action work, CancellationToken token) => Task.Factory.StartNew(work, token, TaskCreationOptions.None, TaskScheduler.Current);
                Task E(Action work) => Task.Factory.StartNew(work, CancellationToken.None, TaskCreationOptions.LongRunning, TaskScheduler.Current);
                Task F(Action<object?> work, object state) => Task.Factory.StartNew(work, state, CancellationToken.None, TaskCreationOptions.None, TaskScheduler.Current);
                Task<int> G(Func<object?, int> work) => Task.Factory.StartNew(
                    work,
                    "s",
                    CancellationToken.None,
                    TaskCreationOptions.DenyChildAttach,
                    TaskScheduler.Current);
                Task<int> H(Func<int> work) => Task<int>.Factory.StartNew(work, CancellationToken.None, TaskCreationOptions.None, TaskScheduler.Current);
            """);
        await Verify.VerifyCodeFixAsync(before, after);
    }

    [Fact]
    public async Task ALambdaTheFixMoves_KeepsItsAuthorsListsAndLongLines()
    {
        var before = Class("""
                void Report(string bus, string name, object logger) { }
                void Stop(object logger, string why, string detail) { }

                void Add(Task<object> ask, string bus, string name, object logger)
                {
                    ask.[|ContinueWith|](t =>
                        {
                            if (t.IsCanceled)
                            {
                                Report(bus, name,
                                    logger);
                                Stop(logger, "the logger was stopped because the system shut down while it started", $"{name} on {bus}, asked at {DateTime.UtcNow:O}");
                                return;
                            }
                        });
                }
            """);
        var after = Class("""
                void Report(string bus, string name, object logger) { }
                void Stop(object logger, string why, string detail) { }

                void Add(Task<object> ask, string bus, string name, object logger)
                {
                    ask.ContinueWith(
                        t =>
                            {
                                if (t.IsCanceled)
                                {
                                    Report(bus, name,
                                        logger);
                                    Stop(logger, "the logger was stopped because the system shut down while it started", $"{name} on {bus}, asked at {DateTime.UtcNow:O}");
                                    return;
                                }
                            },
                        CancellationToken.None,
                        TaskContinuationOptions.None,
                        TaskScheduler.Current);
                }
            """);
        await Verify.VerifyCodeFixAsync(before, after);
    }

    /// <summary>
    /// A list whose ')' is on a line of its own (found in Akka.NET): the arguments added go after the last one, not
    /// after its line break; a comment after a comma stays with it; a directive at the start of a line in the moved
    /// lambda stays at the start of its line.
    /// </summary>
    [Fact]
    public async Task AListEndingOnItsOwnLine_TakesTheArgumentsBeforeIt()
    {
        var before = Class("""
                Task Run(Action work)
                {
                    return Task
                        .Factory
                        .[|StartNew|]
                        (
                            () =>
                            {
                                work();
                            }
                        );
                }

                Task After(Task t) => t.[|ContinueWith|](
                    _ => { }
                );

                Task Long(Action work) => Task.Factory.[|StartNew|](work, // why so long
                    TaskCreationOptions.LongRunning);

                void Pair(Task<int> read, Action<int> use)
                {
            #pragma warning disable CS4014
                    read.[|ContinueWith|](result =>
            #pragma warning restore CS4014
                    {
                        use(result.Result);
                    }, TaskContinuationOptions.ExecuteSynchronously);
                }
            """);
        var after = Class("""
                Task Run(Action work)
                {
                    return Task
                        .Factory
                        .StartNew
                        (
                            () =>
                            {
                                work();
                            },
                            CancellationToken.None,
                            TaskCreationOptions.None,
                            TaskScheduler.Current
                        );
                }

                Task After(Task t) => t.ContinueWith(
                    _ => { }, CancellationToken.None, TaskContinuationOptions.None, TaskScheduler.Current
                );

                Task Long(Action work) => Task.Factory.StartNew(work, // why so long
                    CancellationToken.None,
                    TaskCreationOptions.LongRunning,
                    TaskScheduler.Current);

                void Pair(Task<int> read, Action<int> use)
                {
            #pragma warning disable CS4014
                    read.ContinueWith(
                        result =>
            #pragma warning restore CS4014
                        {
                            use(result.Result);
                        },
                        CancellationToken.None,
                        TaskContinuationOptions.ExecuteSynchronously,
                        TaskScheduler.Current);
                }
            """);
        await Verify.VerifyCodeFixAsync(before, after);
    }

    /// <summary>
    /// A chain the author goes on with on a line of its own after a list the fix spreads (Octokit's test of a cancelled
    /// operation: <c>}, TaskContinuationOptions.OnlyOnCanceled)</c> / <c>.ContinueWith(…)</c>) keeps its line where it
    /// was; once, it moved one indent right with the spread list's last argument.
    /// </summary>
    [Fact]
    public async Task AChainGoneOnWithOnALineOfItsOwn_KeepsItsPlace()
    {
        var before = Class("""
                async Task<Task<Task<object>>> Cancelled(Task<object> work)
                {
                    var cancelled = false;
                    var result = await work
                        .[|ContinueWith|](task =>
                        {
                            cancelled = task.IsCanceled;
                            return task;
                        }, TaskContinuationOptions.OnlyOnCanceled)
                        .[|ContinueWith|](task => task, TaskContinuationOptions.OnlyOnFaulted);
                    return result;
                }
            """);
        var after = Class("""
                async Task<Task<Task<object>>> Cancelled(Task<object> work)
                {
                    var cancelled = false;
                    var result = await work
                        .ContinueWith(
                            task =>
                            {
                                cancelled = task.IsCanceled;
                                return task;
                            },
                            CancellationToken.None,
                            TaskContinuationOptions.OnlyOnCanceled,
                            TaskScheduler.Current)
                        .ContinueWith(task => task, CancellationToken.None, TaskContinuationOptions.OnlyOnFaulted, TaskScheduler.Current);
                    return result;
                }
            """);
        await Verify.VerifyCodeFixAsync(before, after);
    }

    [Fact]
    public async Task EveryContinueWithShape_PassesCurrent()
    {
        var before = Class("""
                Task A(Task t) => t.[|ContinueWith|](_ => Console.WriteLine());
                Task<int> B(Task<int> t) => t.[|ContinueWith|](x => x.Result * 2);
                Task D(Task t, CancellationToken token) => t.[|ContinueWith|](_ => Console.WriteLine(), token);
                Task E(Task t) => t.[|ContinueWith|](_ => Console.WriteLine(), TaskContinuationOptions.OnlyOnFaulted);
                Task F(Task<int> t) => t.[|ContinueWith|]((x, s) => Console.WriteLine(s), "s");
                Task<string> G(Task t) => t.[|ContinueWith|]((_, s) => (string)s!, "s", TaskContinuationOptions.None);
                Task? H(Task? t) => t?.[|ContinueWith|](_ => { });
            """);
        var after = Class("""
                Task A(Task t) => t.ContinueWith(_ => Console.WriteLine(), CancellationToken.None, TaskContinuationOptions.None, TaskScheduler.Current);
                Task<int> B(Task<int> t) => t.ContinueWith(x => x.Result * 2, CancellationToken.None, TaskContinuationOptions.None, TaskScheduler.Current);
                Task D(Task t, CancellationToken token) => t.ContinueWith(_ => Console.WriteLine(), token, TaskContinuationOptions.None, TaskScheduler.Current);
                Task E(Task t) => t.ContinueWith(_ => Console.WriteLine(), CancellationToken.None, TaskContinuationOptions.OnlyOnFaulted, TaskScheduler.Current);
                Task F(Task<int> t) => t.ContinueWith((x, s) => Console.WriteLine(s), "s", CancellationToken.None, TaskContinuationOptions.None, TaskScheduler.Current);
                Task<string> G(Task t) => t.ContinueWith((_, s) => (string)s!, "s", CancellationToken.None, TaskContinuationOptions.None, TaskScheduler.Current);
                Task? H(Task? t) => t?.ContinueWith(_ => { }, CancellationToken.None, TaskContinuationOptions.None, TaskScheduler.Current);
            """);
        await Verify.VerifyCodeFixAsync(before, after);
    }

    /// <summary>
    /// The other calls that take their scheduler from TaskScheduler.Current for want of one: a factory's
    /// ContinueWhenAll and ContinueWhenAny (their continuation runs on Task.Factory's scheduler, which is none), and
    /// Task.Start. The fix passes what they used, with the token and options the shorter overload used.
    /// </summary>
    [Fact]
    public async Task ContinueWhenAllAnyAndStart_PassCurrent()
    {
        var before = Class("""
                Task A(Task[] ts) => Task.Factory.[|ContinueWhenAll|](ts, _ => Console.WriteLine());
                Task<int> B(Task<int>[] ts) => Task.Factory.[|ContinueWhenAll|](ts, all => all.Length);
                Task D(Task[] ts, CancellationToken token) => Task.Factory.[|ContinueWhenAny|](ts, _ => { }, token);
                Task<int> E(Task[] ts) => Task<int>.Factory.[|ContinueWhenAny|](ts, first => first.Id, TaskContinuationOptions.LongRunning);
                void F(Task t) => t.[|Start|]();
                void G() => new Task<int>(() => 1).[|Start|]();
            """);
        var after = Class("""
                Task A(Task[] ts) => Task.Factory.ContinueWhenAll(
                    ts,
                    _ => Console.WriteLine(),
                    CancellationToken.None,
                    TaskContinuationOptions.None,
                    TaskScheduler.Current);
                Task<int> B(Task<int>[] ts) => Task.Factory.ContinueWhenAll(
                    ts,
                    all => all.Length,
                    CancellationToken.None,
                    TaskContinuationOptions.None,
                    TaskScheduler.Current);
                Task D(Task[] ts, CancellationToken token) => Task.Factory.ContinueWhenAny(ts, _ => { }, token, TaskContinuationOptions.None, TaskScheduler.Current);
                Task<int> E(Task[] ts) => Task<int>.Factory.ContinueWhenAny(
                    ts,
                    first => first.Id,
                    CancellationToken.None,
                    TaskContinuationOptions.LongRunning,
                    TaskScheduler.Current);
                void F(Task t) => t.Start(TaskScheduler.Current);
                void G() => new Task<int>(() => 1).Start(TaskScheduler.Current);
            """);
        await Verify.VerifyCodeFixAsync(before, after);
    }

    /// <summary>
    /// The continuation as real code passes it: a delegate held in a variable, a method group (Task.WaitAll, which
    /// binds as the Action the shorter overload took), and the generic forms over typed tasks. The longer overload binds
    /// the same way, so the fixed code compiles (the gauntlet takes this whole source).
    /// </summary>
    [Fact]
    public async Task ContinueWhenAllAndAny_OfDelegatesAndMethodGroups_PassCurrent()
    {
        const string before = """
            using System;
            using System.Threading;
            using System.Threading.Tasks;

            public static class Batches
            {
                public static Task Written(Task first, Task second) => Task.Factory.[|ContinueWhenAll|](new[] { first, second }, Task.WaitAll);

                public static Task Handled(Task[] all, Action<Task> handler) => Task.Factory.[|ContinueWhenAny|](all, handler);

                public static Task<decimal> Best(Task<decimal>[] quotes) => Task.Factory.[|ContinueWhenAny|](quotes, winner => winner.Result);
            }
            """;
        const string after = """
            using System;
            using System.Threading;
            using System.Threading.Tasks;

            public static class Batches
            {
                public static Task Written(Task first, Task second) => Task.Factory.ContinueWhenAll(
                    new[] { first, second },
                    Task.WaitAll,
                    CancellationToken.None,
                    TaskContinuationOptions.None,
                    TaskScheduler.Current);

                public static Task Handled(Task[] all, Action<Task> handler) => Task.Factory.ContinueWhenAny(
                    all,
                    handler,
                    CancellationToken.None,
                    TaskContinuationOptions.None,
                    TaskScheduler.Current);

                public static Task<decimal> Best(Task<decimal>[] quotes) => Task.Factory.ContinueWhenAny(
                    quotes,
                    winner => winner.Result,
                    CancellationToken.None,
                    TaskContinuationOptions.None,
                    TaskScheduler.Current);
            }
            """;
        await Verify.VerifyCodeFixAsync(before, after);
    }

    /// <summary>
    /// Arguments written with the null-forgiving operator stay where they were. The compiler marks such an argument
    /// implicit and points it at the expression inside; the fix took it for one the call left out, so a token or
    /// options became CancellationToken.None or TaskContinuationOptions.None (the work could no longer be canceled, its
    /// options were lost), and a delegate became a name that does not compile (found on ParallelExtensionsExtras, which
    /// passes a recursive continuation as <c>recursiveBody!</c>).
    /// </summary>
    [Fact]
    public async Task ArgumentsWrittenWithTheNullForgivingOperator_AreKept()
    {
        const string before = """
            using System;
            using System.Threading;
            using System.Threading.Tasks;

            public static class Forgiven
            {
                public static Task Token(Task t, CancellationToken token) => t.[|ContinueWith|](_ => { }, token!);

                public static Task Options(Task t, TaskContinuationOptions options) => t.[|ContinueWith|](_ => { }, options!);

                public static Task Delegate(Task t, Action<Task?>? next) => t.[|ContinueWith|](next!);

                public static Task Work(Action? work) => Task.Factory.[|StartNew|](work!, TaskCreationOptions.LongRunning);
            }
            """;
        const string after = """
            using System;
            using System.Threading;
            using System.Threading.Tasks;

            public static class Forgiven
            {
                public static Task Token(Task t, CancellationToken token) => t.ContinueWith(_ => { }, token!, TaskContinuationOptions.None, TaskScheduler.Current);

                public static Task Options(Task t, TaskContinuationOptions options) => t.ContinueWith(_ => { }, CancellationToken.None, options!, TaskScheduler.Current);

                public static Task Delegate(Task t, Action<Task?>? next) => t.ContinueWith(
                    next!,
                    CancellationToken.None,
                    TaskContinuationOptions.None,
                    TaskScheduler.Current);

                public static Task Work(Action? work) => Task.Factory.StartNew(work!, CancellationToken.None, TaskCreationOptions.LongRunning, TaskScheduler.Current);
            }
            """;
        await Verify.VerifyCodeFixAsync(before, after);
    }

    /// <summary>
    /// Not reported: the same calls given a scheduler, a factory of unknown origin, and RunSynchronously (it runs the
    /// task on the calling thread where the scheduler lets it, rather than queueing it). A factory made in place
    /// without a scheduler is reported without a fix, as its StartNew is.
    /// </summary>
    [Fact]
    public async Task ContinueWhenAllAnyAndStart_ThatChooseTheirScheduler_AreNotReported()
    {
        var code = Class("""
                Task A(Task[] ts) => Task.Factory.ContinueWhenAll(ts, _ => { }, CancellationToken.None, TaskContinuationOptions.None, TaskScheduler.Default);
                void B(Task t) => t.Start(TaskScheduler.Default);
                void D(Task t) => t.RunSynchronously();
                Task E(TaskFactory factory, Task[] ts) => factory.ContinueWhenAny(ts, _ => { });
                Task F(Task[] ts, CancellationToken token) => new TaskFactory(token).[|ContinueWhenAll|](ts, _ => { });
            """);
        await Verify.VerifyCodeFixAsync(code, code);
    }

    /// <summary>
    /// A positional argument after a named one (C# 7.2; Dapper's <c>ContinueWith(OnCompleted, state: source,
    /// TaskContinuationOptions.ExecuteSynchronously)</c>) binds by its place, which the longer overload gives the token:
    /// it takes its parameter's name, and the fix compiles. It was offered nowhere before (the rewrite did not compile).
    /// </summary>
    [Fact]
    public async Task APositionalArgumentAfterANamedOne_IsNamed()
    {
        var before = Class("""
                Task A(Task t, object source) => t.[|ContinueWith|](Done, state: source, TaskContinuationOptions.ExecuteSynchronously);
                static void Done(Task t, object s) { }
            """);
        var after = Class("""
                Task A(Task t, object source) => t.ContinueWith(
                    Done,
                    state: source,
                    continuationOptions: TaskContinuationOptions.ExecuteSynchronously,
                    cancellationToken: CancellationToken.None,
                    scheduler: TaskScheduler.Current);
                static void Done(Task t, object s) { }
            """);
        // One text for netstandard2.0 at C# 7.3 (non-trailing named arguments are C# 7.2) and net10.0.
        await new Verify.Test { SharedByNetStandardAndNet10 = true, TestCode = before, FixedCode = after }.RunAsync();
    }

    [Fact]
    public async Task NamedArguments_StayNamed_AndTheNewOnesAreNamed()
    {
        var before = Class("""
                Task A(Action work) => Task.Factory.[|StartNew|](creationOptions: TaskCreationOptions.LongRunning, action: work);
                Task B(Task t) => t.[|ContinueWith|](continuationAction: _ => { });
            """);
        var after = Class("""
                Task A(Action work) => Task.Factory.StartNew(
                    creationOptions: TaskCreationOptions.LongRunning,
                    action: work,
                    cancellationToken: CancellationToken.None,
                    scheduler: TaskScheduler.Current);
                Task B(Task t) => t.ContinueWith(
                    continuationAction: _ => { },
                    cancellationToken: CancellationToken.None,
                    continuationOptions: TaskContinuationOptions.None,
                    scheduler: TaskScheduler.Current);
            """);
        await Verify.VerifyCodeFixAsync(before, after);
    }

    /// <summary>
    /// The second action passes TaskScheduler.Default, and says that it changes where the work runs; Fix All asked for
    /// it leaves the code as it is.
    /// </summary>
    [Fact]
    public async Task TheDefaultScheduler_IsTheSecondAction()
    {
        var before = Class("""
                Task A(Action work) => Task.Factory.[|StartNew|](work);
            """);
        var after = Class("""
                Task A(Action work) => Task.Factory.StartNew(work, CancellationToken.None, TaskCreationOptions.None, TaskScheduler.Default);
            """);
        var test = new Verify.Test
        {
            TestCode = before,
            FixedCode = after,
            BatchFixedCode = before,
            CodeActionIndex = 1,
            CodeActionEquivalenceKey = ExplicitSchedulerFixer.EquivalenceKey + "_PassDefault",
            CodeActionVerifier = (action, verifier) => verifier.True(action.Title.Contains("changes where the work runs", StringComparison.Ordinal), action.Title),
            BatchFixedState = { MarkupHandling = MarkupMode.Allow },
        };
        await test.RunAsync();
    }

    /// <summary>Fix All (and dotnet format) take only the exact fix: asked for the Default one, it offers nothing.</summary>
    [Fact]
    public async Task FixAll_NeverTakesTheDefaultScheduler()
    {
        var code = Class("""
                Task A(Action work) => Task.Factory.StartNew(work);
                Task B(Task t) => t.ContinueWith(_ => { });
            """);
        var (project, diagnostics) = await AnalyzerRun.Of(new TplPractices.Analyzers.Rules.ExplicitSchedulerAnalyzer(), code).AnalyzeAsync();
        Assert.Equal(2, diagnostics.Length);
        var fixer = new ExplicitSchedulerFixer();
        var provider = fixer.GetFixAllProvider()!;
        FixAllContext ContextFor(string key) => new(
            project.Documents.Single(), fixer, FixAllScope.Document, key, [DiagnosticIds.ExplicitScheduler], new Given(diagnostics), CancellationToken.None);

        Assert.NotNull(await provider.GetFixAsync(ContextFor(ExplicitSchedulerFixer.EquivalenceKey)));
        Assert.Null(await provider.GetFixAsync(ContextFor(ExplicitSchedulerFixer.EquivalenceKey + "_PassDefault")));
    }

    [Fact]
    public async Task CallsThatChooseTheirScheduler_AreNotReported()
    {
        var code = Class("""
                private readonly TaskFactory _factory = new TaskFactory(TaskScheduler.Default);

                Task A(Action work) => Task.Factory.StartNew(work, CancellationToken.None, TaskCreationOptions.None, TaskScheduler.Default);
                Task B(Task t) => t.ContinueWith(_ => { }, TaskScheduler.Default);
                Task D(Task t, CancellationToken token) => t.ContinueWith(_ => { }, token, TaskContinuationOptions.None, TaskScheduler.Current);
                Task E(Action work) => Task.Run(work);
                Task F(Action work) => _factory.StartNew(work);
                Task G(Action work) => new TaskFactory(TaskScheduler.Default).StartNew(work);
                Task H(TaskFactory factory, Action work) => factory.StartNew(work);
                Task I(Action work) => Widget.StartNew(work);
                Task J(Task t) => new Widget().ContinueWith(t);

                sealed class Widget
                {
                    public static Task StartNew(Action work) => Task.CompletedTask;
                    public Task ContinueWith(Task t) => t;
                }
            """);
        await Verify.VerifyAnalyzerAsync(code);
    }

    /// <summary>A factory made in place without a scheduler is reported, but its token and options are its own: no fix.</summary>
    [Fact]
    public async Task AFactoryMadeInPlace_IsReportedWithoutAFix()
    {
        var code = Class("""
                Task A(Action work, CancellationToken token) => new TaskFactory(token).[|StartNew|](work);
                Task B(Action work) => new TaskFactory().[|StartNew|](work);
            """);
        await Verify.VerifyCodeFixAsync(code, code);
    }

    /// <summary>
    /// A readonly field whose only value is a factory made without a scheduler is that factory: reported, without a fix.
    /// Where a constructor may assign it (in any part of the type), or it is not readonly, or it was made with a
    /// scheduler, it is not reported; a constructor that only reads it, or a second part of the type, does not matter.
    /// </summary>
    [Fact]
    public async Task AFactoryInAReadonlyField_MadeWithoutAScheduler_IsReportedWithoutAFix()
    {
        var code = Usings + """
            class Queue
            {
                private static readonly TaskFactory s_longRunning = new TaskFactory(TaskCreationOptions.LongRunning, TaskContinuationOptions.None);
                private readonly TaskFactory _plain = new();
                private readonly TaskFactory<int> _numbers = new TaskFactory<int>(CancellationToken.None);
                private readonly TaskFactory _scheduled = new TaskFactory(TaskScheduler.Default);
                private TaskFactory _writable = new TaskFactory();

                Task A(Action work) => s_longRunning.[|StartNew|](work);
                Task B(Action work) => _plain.[|StartNew|](work);
                Task<int> C(Func<int> work) => _numbers.[|StartNew|](work);
                Task D(Action work) => _scheduled.StartNew(work);
                Task E(Action work) => _writable.StartNew(work);
            }

            class Configured
            {
                private readonly TaskFactory _factory = new TaskFactory();

                public Configured(bool exclusive)
                {
                    if (exclusive)
                    {
                        _factory = new TaskFactory(new ConcurrentExclusiveSchedulerPair().ExclusiveScheduler);
                    }
                }

                Task A(Action work) => _factory.StartNew(work);
            }

            partial class Logged
            {
                private readonly TaskFactory _factory = new TaskFactory();

                public Logged() => Console.WriteLine(_factory.Scheduler is null);

                Task A(Action work) => _factory.[|StartNew|](work);
            }

            partial class Logged
            {
                Task B(Action work) => _factory.[|StartNew|](work);
            }

            partial class Reset
            {
                private readonly TaskFactory _factory = new TaskFactory();

                Task A(Action work) => _factory.StartNew(work);
            }

            partial class Reset
            {
                public Reset(TaskScheduler scheduler) => _factory = new TaskFactory(scheduler);
            }
            """;
        await Verify.VerifyCodeFixAsync(code, code);
    }

    [Fact]
    public async Task NestedLambdas_ExpressionBodies_AndTopLevelStatements()
    {
        var before = Usings + """
            var outer = Task.Factory.[|StartNew|](() =>
            {
                Func<Task, Task> inner = t => t.[|ContinueWith|](_ => Console.WriteLine("inner"));
                return inner(Task.CompletedTask);
            }).Unwrap();
            await outer;
            """;
        var after = Usings + """
            var outer = Task.Factory.StartNew(
                () =>
                {
                    Func<Task, Task> inner = t => t.ContinueWith(
                        _ => Console.WriteLine("inner"),
                        CancellationToken.None,
                        TaskContinuationOptions.None,
                        TaskScheduler.Current);
                    return inner(Task.CompletedTask);
                },
                CancellationToken.None,
                TaskCreationOptions.None,
                TaskScheduler.Current).Unwrap();
            await outer;
            """;
        await new Verify.Test
        {
            TestCode = before,
            FixedCode = after,
            TestState = { OutputKind = OutputKind.ConsoleApplication },
        }.RunAsync();
    }

    /// <summary>C# 7.3 on .NET Framework 4.7.2, nullable off: the fix writes nothing newer.</summary>
    [Fact]
    public async Task CSharp73_OnNetFramework()
    {
        var before = Class("""
                Task A(Task<int> t) { return t.[|ContinueWith|](x => Console.WriteLine(x.Result), TaskContinuationOptions.ExecuteSynchronously); }
            """);
        var after = Class("""
                Task A(Task<int> t)
                {
                    return t.ContinueWith(x => Console.WriteLine(x.Result), CancellationToken.None, TaskContinuationOptions.ExecuteSynchronously, TaskScheduler.Current);
                }
            """);
        await new Verify.Test { TestCode = before, FixedCode = after, OnCSharp73NetFramework = true }.RunAsync();
    }

    /// <summary>A ContinueWith chain TPL0002 rewrites into awaits is its site (the awaits keep the caller's scheduler).</summary>
    [Fact]
    public async Task AChainTPL0002Takes_IsLeftToIt()
    {
        var code = Class("""
                Task<int> A(Task<int> t) => t.ContinueWith(x => Task.FromResult(x.Result + 1)).Unwrap();
            """);
        var test = new Verify.Test { TestCode = code };
        test.TestState.AnalyzerConfigFiles.Add(("/.editorconfig", "root = true\n[*.cs]\ndotnet_diagnostic.TPL0002.severity = warning\n"));
        await test.RunAsync();
    }

    /// <summary>
    /// A chain whose continuation returns a chain of its own is not TPL0002's to take: its fix rewrites the inner chain
    /// first, which makes the outer link's lambda async, and the outer chain is then left. Its ContinueWith is this
    /// rule's from the start, so one dotnet format run passes its scheduler and a second run finds nothing more (it
    /// used to be left to TPL0002, unreported, and the second run added the scheduler). TPL0002's fix changes the fault
    /// path, so dotnet format leaves both chains to the author.
    /// </summary>
    [Fact]
    public async Task AChainHoldingAChainTPL0002Rewrites_IsThisRulesOuterCall()
    {
        var code = Class("""
                static Task A() => Task.Delay(1);
                static Task<int> B() => Task.FromResult(2);

                Task Nested() => A().{|#0:ContinueWith|}(_ => B().ContinueWith(b => Task.FromResult(b.Result + 1)).Unwrap()).Unwrap();
            """);
        var test = new Verify.Test
        {
            TestCode = code,
            ExpectedDiagnostics = { Verify.Diagnostic().WithLocation(0).WithArguments("ContinueWith", "without a TaskScheduler runs on TaskScheduler.Current, the scheduler of whatever task calls it; pass the scheduler explicitly") },
        };
        test.TestState.AnalyzerConfigFiles.Add(("/.editorconfig", "root = true\n[*.cs]\ndotnet_diagnostic.TPL0002.severity = warning\n"));
        test.FixedCode = Class("""
                static Task A() => Task.Delay(1);
                static Task<int> B() => Task.FromResult(2);

                Task Nested() => A().ContinueWith(
                    _ => B().ContinueWith(b => Task.FromResult(b.Result + 1)).Unwrap(),
                    CancellationToken.None,
                    TaskContinuationOptions.None,
                    TaskScheduler.Current).Unwrap();
            """);
        await test.RunAsync();

        var rules = new[] { DiagnosticIds.ContinueWithUnwrapChain, DiagnosticIds.ExplicitScheduler };
        var once = await Gauntlet.FormatRun.FixAsync(TestMarkup.Strip(code), rules);
        Assert.Contains("TaskScheduler.Current", once, StringComparison.Ordinal);
        Assert.DoesNotContain("await", once, StringComparison.Ordinal);
        Assert.Equal(once, await Gauntlet.FormatRun.FixAsync(once, rules));
    }

    private sealed class Given(ImmutableArray<Diagnostic> diagnostics) : FixAllContext.DiagnosticProvider
    {
        public override Task<IEnumerable<Diagnostic>> GetAllDiagnosticsAsync(Project project, CancellationToken cancellationToken) => Task.FromResult<IEnumerable<Diagnostic>>(diagnostics);

        public override Task<IEnumerable<Diagnostic>> GetDocumentDiagnosticsAsync(Document document, CancellationToken cancellationToken) => Task.FromResult<IEnumerable<Diagnostic>>(diagnostics);

        public override Task<IEnumerable<Diagnostic>> GetProjectDiagnosticsAsync(Project project, CancellationToken cancellationToken) => Task.FromResult<IEnumerable<Diagnostic>>([]);
    }

    /// <summary>
    /// A file with one using in an <c>#if</c> (NATS.Net guards an alias for netstandard) still writes the names its
    /// unconditional usings bring short: <c>TaskScheduler.Current</c>, not <c>global::System.Threading.Tasks.TaskScheduler.Current</c>.
    /// A name a conditional using may bring (an alias of that name, or any name of a namespace this target lacks)
    /// stays qualified.
    /// </summary>
    [Theory]
    [InlineData("using Random = System.Random;", "t.ContinueWith(x => x.Result + 1, CancellationToken.None, TaskContinuationOptions.None, TaskScheduler.Current);")]
    [InlineData("using TaskScheduler = System.Threading.Tasks.TaskScheduler;", "t.ContinueWith(\n        x => x.Result + 1,\n        CancellationToken.None,\n        TaskContinuationOptions.None,\n        global::System.Threading.Tasks.TaskScheduler.Current);")]
    [InlineData("using Some.Namespace.OnlyThere;", "t.ContinueWith(\n        x => x.Result + 1,\n        global::System.Threading.CancellationToken.None,\n        global::System.Threading.Tasks.TaskContinuationOptions.None,\n        global::System.Threading.Tasks.TaskScheduler.Current);")]
    public async Task AGuardedUsing_LeavesTheUnconditionalOnesShort(string guarded, string fixedCall)
    {
        var code = $$"""
            using System.Threading;
            using System.Threading.Tasks;
            #if NETSTANDARD2_0_OR_GREATER && !NET
            {{guarded}}
            #endif

            class C
            {
                Task<int> Next(Task<int> t) => t.{|#0:ContinueWith|}(x => x.Result + 1);
            }
            """;
        await new Verify.Test
        {
            SharedByNetStandardAndNet10 = true,
            TestCode = code,
            ExpectedDiagnostics = { Verify.Diagnostic().WithLocation(0).WithArguments("ContinueWith", "without a TaskScheduler runs on TaskScheduler.Current, the scheduler of whatever task calls it; pass the scheduler explicitly") },
            FixedCode = code.Replace("t.{|#0:ContinueWith|}(x => x.Result + 1);", fixedCall, StringComparison.Ordinal),
        }.RunAsync();
    }
    /// <summary>
    /// Usings in a namespace, a sorted plain group then a blank line and static usings out of order (DotNetty's
    /// WebSocket handlers): Roslyn's adder finds the whole list unsorted and appends the using the fix needs; the shared
    /// layer puts it in its place in the sorted plain group, and the blank line before the static usings stays.
    /// </summary>
    [Fact]
    public async Task AnAddedUsing_TakesItsPlaceInASortedGroup_BeforeUnsortedStaticUsings()
    {
        const string Lib = """

            namespace Lib
            {
                public static class Zebra { public static void Go() { } }
                public static class Aardvark { }
            }
            """;
        var before = """
            namespace N
            {
                using System.Threading.Tasks;
                using Lib;

                using static Lib.Zebra;
                using static Lib.Aardvark;

                class C
                {
                    Task M(Task t) => t.[|ContinueWith|](_ => Go());
                }
            }
            """ + Lib;
        var after = """
            namespace N
            {
                using System.Threading;
                using System.Threading.Tasks;
                using Lib;

                using static Lib.Zebra;
                using static Lib.Aardvark;

                class C
                {
                    Task M(Task t) => t.ContinueWith(_ => Go(), CancellationToken.None, TaskContinuationOptions.None, TaskScheduler.Current);
                }
            }
            """ + Lib;
        await OnBothTargets(before, after);

        // At the file's top, under a header: the header stays first, above the using that now sorts first.
        const string Header = "// A header the file starts with.\n\n";
        const string Usings = "using System.Threading.Tasks;\nusing Lib;\n\nusing static Lib.Zebra;\nusing static Lib.Aardvark;\n\n";
        const string Class = "class C\n{\n    Task M(Task t) => t.CALL;\n}\n";
        await OnBothTargets(
            Header + Usings + Class.Replace("CALL", "[|ContinueWith|](_ => Go())", StringComparison.Ordinal) + Lib,
            Header + "using System.Threading;\n" + Usings
                + Class.Replace("CALL", "ContinueWith(_ => Go(), CancellationToken.None, TaskContinuationOptions.None, TaskScheduler.Current)", StringComparison.Ordinal) + Lib);

        // The file shared by netstandard2.0 at C# 7.3 and net10.0 with nullable warnings: every copy gets the text.
        static Task OnBothTargets(string before, string after) =>
            new Verify.Test { SharedByNetStandardAndNet10 = true, TestCode = before, FixedCode = after }.RunAsync();
    }
}
