using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp;
using Microsoft.CodeAnalysis.Testing;
using TplPractices.Analyzers.Tests.Verifiers;
using Verify = TplPractices.Analyzers.Tests.Verifiers.CSharpCodeFixVerifier<
    TplPractices.Analyzers.Rules.UseTaskStateAnalyzer,
    TplPractices.Analyzers.CodeFixes.Rules.UseTaskStateFixer>;

namespace TplPractices.Analyzers.Tests.Rules;

/// <summary>TPL0001: the rewrite to the state overloads, and that it behaves like the original.</summary>
public sealed class UseTaskStateFixTests
{
    [Fact]
    public async Task CapturesMoveIntoTheState()
    {
        await Verify.VerifyCodeFixAsync(UseTaskStateCases.Before, UseTaskStateCases.After);
    }

    [Theory]
    [InlineData("Queue")]
    [InlineData("ResultOrZero")]
    [InlineData("Several")]
    [InlineData("Instance")]
    [InlineData("OnlyThis")]
    [InlineData("Antecedent")]
    public async Task FixedCode_ReturnsWhatTheOriginalReturned(string method)
    {
        object?[] Arguments() => method switch
        {
            "ResultOrZero" or "Antecedent" => [Task.FromResult(21)],
            "Several" => [2, "four", CancellationToken.None],
            "Instance" => [5],
            _ => [],
        };
        var isStatic = method is not ("Instance" or "OnlyThis");
        var original = await RunAsync(UseTaskStateCases.Before, method, isStatic, Arguments());
        var rewritten = await RunAsync(UseTaskStateCases.After, method, isStatic, Arguments());
        Assert.Equal(original, rewritten);
        Assert.StartsWith("returned", original, StringComparison.Ordinal);
    }

    /// <summary>
    /// A struct captured by a continuation (the registration a wait queue disposes once its waiter's task ends, found in
    /// AsyncEx) travels boxed in the state and is unboxed where it is read: disposing the copy unregisters the callback
    /// as disposing the captured variable did, since the registration is a handle to the token's record.
    /// </summary>
    [Fact]
    public async Task ACapturedRegistration_TravelsAsTheState_AndStillUnregisters()
    {
        const string Before = """
            using System.Threading;
            using System.Threading.Tasks;

            public static class Work
            {
                public static async Task<string> Run()
                {
                    using var source = new CancellationTokenSource();
                    var waiter = new TaskCompletionSource<int>();
                    var calls = 0;
                    var registration = source.Token.Register(() => calls++);
                    var done = waiter.Task.ContinueWith([|_ => registration.Dispose()|], CancellationToken.None, TaskContinuationOptions.ExecuteSynchronously, TaskScheduler.Default);
                    waiter.SetResult(1);
                    await done;
                    source.Cancel();
                    return "calls " + calls;
                }
            }
            """;
        const string Line = "\n            ";
        var after = Before.Replace(
            "ContinueWith([|_ => registration.Dispose()|], CancellationToken.None, TaskContinuationOptions.ExecuteSynchronously, TaskScheduler.Default);",
            "ContinueWith(" + Line + "static (_, state) =>" + Line + "{" + Line + "    var registration = (CancellationTokenRegistration)state!;" + Line + "    registration.Dispose();"
                + Line + "}," + Line + "registration," + Line + "CancellationToken.None," + Line + "TaskContinuationOptions.ExecuteSynchronously," + Line + "TaskScheduler.Default);",
            StringComparison.Ordinal);
        await Verify.VerifyCodeFixAsync(Before, after);
        var original = await CodeRunner.RunAsync(TestMarkup.Strip(Before), "Work", "Run");
        Assert.Equal("returned calls 0", original);
        Assert.Equal(original, await CodeRunner.RunAsync(after, "Work", "Run"));
    }

    /// <summary>
    /// A continuation that reads its antecedent parameter and captures the task it continues, inside a nested lambda
    /// that declares the parameter's name again: the fix used to read the task through the parameter, so the nested read
    /// became the inner <c>t</c> and the sum changed (12 to 8), still compiling. The task travels in the state there.
    /// </summary>
    [Fact]
    public async Task AntecedentNameDeclaredInANestedLambda_TheTaskTravelsInTheState()
    {
        const string Before = """
            using System.Linq;
            using System.Threading.Tasks;

            public static class Work
            {
                public static int Run(int offset)
                {
                    var task = Task.FromResult(5);
                    var others = new[] { Task.FromResult(1), Task.FromResult(2) };
                    return task.ContinueWith([|t => t.Result + others.Sum(t => task.Result - t.Result) + offset|]).Result;
                }
            }
            """;
        const string Line = "\n        ";
        var after = Before.Replace(
            "task.ContinueWith([|t => t.Result + others.Sum(t => task.Result - t.Result) + offset|]).Result;",
            "task.ContinueWith(static (t, state) =>" + Line + "{" + Line + "    var (others, task, offset) = ((Task<int>[], Task<int>, int))state!;"
                + Line + "    return t.Result + others.Sum(t => task.Result - t.Result) + offset;" + Line + "}, (others, task, offset)).Result;",
            StringComparison.Ordinal);
        await Verify.VerifyCodeFixAsync(Before, after);
        var original = await CodeRunner.RunAsync(TestMarkup.Strip(Before), "Work", "Run", 0);
        Assert.Equal("returned 12", original);
        Assert.Equal(original, await CodeRunner.RunAsync(after, "Work", "Run", 0));
    }

    /// <summary>
    /// The fixer reads the captured variables back by name from the diagnostic: a local spelled <c>@this</c> (whose name
    /// is "this") and the instance it captures too are two values, each read back where it belongs.
    /// </summary>
    [Fact]
    public async Task ALocalNamedThis_AndTheInstance_TravelAsTwoValues()
    {
        await Verify.VerifyCodeFixAsync(
            /* lang=c#-test */ """
            using System.Threading.Tasks;

            class Counter
            {
                private int _offset = 3;

                public Task<int> Sum(int start)
                {
                    var @this = start * 2;
                    return Task.Factory.StartNew([|() => @this + _offset|]);
                }
            }
            """,
            /* lang=c#-test */ """
            using System.Threading.Tasks;

            class Counter
            {
                private int _offset = 3;

                public Task<int> Sum(int start)
                {
                    var @this = start * 2;
                    return Task.Factory.StartNew(static state =>
                    {
                        var (@this, self) = ((int, Counter))state!;
                        return @this + self._offset;
                    }, (@this, this));
                }
            }
            """);
    }

    /// <summary>
    /// Named arguments after the delegate keep their names in the state overloads of StartNew and ContinueWith; the
    /// values go right after the delegate. Named before it, or the delegate itself named, the call has no fix.
    /// </summary>
    [Fact]
    public async Task NamedArgumentsAfterTheDelegate_StayNamed_NamedBeforeItHaveNoFix()
    {
        await new Verify.Test
        {
            TestCode = /* lang=c#-test */ """
                using System;
                using System.Threading;
                using System.Threading.Tasks;

                class C
                {
                    Task Start(int id, CancellationToken token) =>
                        Task.Factory.StartNew([|() => Console.WriteLine(id)|], cancellationToken: token);

                    Task Then(Task first, string label) =>
                        first.ContinueWith([|t => Console.WriteLine(label)|], continuationOptions: TaskContinuationOptions.OnlyOnRanToCompletion);

                    Task NamedDelegate(int id) => Task.Factory.StartNew(action: [|() => Console.WriteLine(id)|]);
                }
                """,
            FixedCode = /* lang=c#-test */ """
                using System;
                using System.Threading;
                using System.Threading.Tasks;

                class C
                {
                    Task Start(int id, CancellationToken token) =>
                        Task.Factory.StartNew(
                            static state =>
                            {
                                var id = (int)state!;
                                Console.WriteLine(id);
                            },
                            id,
                            cancellationToken: token);

                    Task Then(Task first, string label) =>
                        first.ContinueWith(
                            static (t, state) =>
                            {
                                var label = (string)state!;
                                Console.WriteLine(label);
                            },
                            label,
                            continuationOptions: TaskContinuationOptions.OnlyOnRanToCompletion);

                    Task NamedDelegate(int id) => Task.Factory.StartNew(action: [|() => Console.WriteLine(id)|]);
                }
                """,
            FixedState = { MarkupHandling = MarkupMode.Allow },
        }.RunAsync();
    }

    /// <summary>
    /// A method group bound to 'this' allocates a delegate per call, as a lambda capturing only 'this' does: fixed to
    /// the state overload, in C# 7.3 without 'static' and '!', as is one bound to a readonly field only its initializer
    /// makes with new. Another receiver is reported without a fix (it may be null).
    /// </summary>
    [Fact]
    public async Task MethodGroups_BoundToThis_AreFixed_OthersReported()
    {
        await new Verify.Test
        {
            LanguageVersion = LanguageVersion.CSharp7_3,
            NullableContext = NullableContextOptions.Disable,
            TestCode = /* lang=c#-test */ """
                using System;
                using System.Threading.Tasks;

                class Worker { public void Run() { } }

                class C
                {
                    private readonly Worker _worker = new Worker();

                    Task A() => Task.Factory.StartNew([|Work|]);
                    Task<int> B() => Task.Factory.StartNew([|this.Count|]);
                    Task D() => Task.Factory.StartNew([|_worker.Run|]);
                    Task E(Worker other) => Task.Factory.StartNew([|other.Run|]);

                    void Work() { }
                    int Count() => 1;
                }
                """,
            FixedCode = /* lang=c#-test */ """
                using System;
                using System.Threading.Tasks;

                class Worker { public void Run() { } }

                class C
                {
                    private readonly Worker _worker = new Worker();

                    Task A() => Task.Factory.StartNew(state => ((C)state).Work(), this);
                    Task<int> B() => Task.Factory.StartNew(state => ((C)state).Count(), this);
                    Task D() => Task.Factory.StartNew(state => ((Worker)state).Run(), _worker);
                    Task E(Worker other) => Task.Factory.StartNew({|#0:other.Run|});

                    void Work() { }
                    int Count() => 1;
                }
                """,
            FixedState = { ExpectedDiagnostics = { Verify.Diagnostic().WithLocation(0).WithArguments("'other'", "a delegate", "it") } },
        }.RunAsync();
    }

    /// <summary>
    /// A local function given as the delegate is not a method of a receiver: its group carries an implicit 'this' even
    /// where it captures nothing (Quartz's test of its queued scheduler gave <c>Run</c>, which only awaits a delay, and
    /// was told it captured 'this'), and no state can call it. What it captures is not followed, as for a lambda that
    /// calls one: none of the three is reported.
    /// </summary>
    [Fact]
    public async Task LocalFunctionGroups_AreNotReported()
    {
        const string Source = /* lang=c#-test */ """
            using System;
            using System.Threading.Tasks;

            class C
            {
                private int _runs;

                Task CapturesNothing()
                {
                    return Task.Factory.StartNew(Run);
                    void Run() => Console.WriteLine("run");
                }

                Task CapturesThis()
                {
                    return Task.Factory.StartNew(Run);
                    void Run() => _runs++;
                }

                Task<int> CapturesALocal(int x)
                {
                    return Task.Factory.StartNew(Run);
                    int Run() => x + 1;
                }
            }
            """;
        await Verify.VerifyCodeFixAsync(Source, Source);
    }

    /// <summary>
    /// A local function that shares its name with a method of the type: the state form <c>((C)state).Run()</c> would
    /// compile and call the type's method, not the local one. Not reported, so no fix can make that swap.
    /// </summary>
    [Fact]
    public async Task ALocalFunctionNamedAsAMethod_IsNotRewrittenIntoTheMethod()
    {
        const string Source = /* lang=c#-test */ """
            using System;
            using System.Threading.Tasks;

            class C
            {
                private int _runs;

                void Run() => Console.WriteLine("the type's method");

                Task Start()
                {
                    return Task.Factory.StartNew(Run);
                    void Run() => _runs++;
                }
            }
            """;
        await Verify.VerifyCodeFixAsync(Source, Source);
    }

    /// <summary>
    /// A comment after the delegate's comma speaks of the delegate: the shared argument rebuild keeps the comma and its
    /// comment right after the delegate and begins the inserted state on the next line, indented as the token is. It
    /// went after the state before, which it does not describe. The author's line of arguments after it stays one line.
    /// The file is shared by a netstandard2.0 copy at C# 7.3.
    /// </summary>
    [Fact]
    public async Task ACommentAfterTheDelegatesComma_StaysAfterTheDelegate()
    {
        await new Verify.Test
        {
            TestCode = /* lang=c#-test */ """
                using System;
                using System.Threading;
                using System.Threading.Tasks;

                class C
                {
                    Task Run(int n, CancellationToken token) => Task.Factory.StartNew([|() => Console.WriteLine(n)|],   // the work
                        token, TaskCreationOptions.None, TaskScheduler.Default);
                }
                """,
            FixedCode = /* lang=c#-test */ """
                using System;
                using System.Threading;
                using System.Threading.Tasks;

                class C
                {
                    Task Run(int n, CancellationToken token) => Task.Factory.StartNew(state =>
                    {
                        var myN = (int)state;
                        Console.WriteLine(myN);
                    },   // the work
                        n,
                        token, TaskCreationOptions.None, TaskScheduler.Default);
                }
                """,
            NullableContext = NullableContextOptions.Disable,
            LinkedTargets = { new LinkedTarget(TestTarget.NetStandard20, LanguageVersion.CSharp7_3, NullableContextOptions.Disable) },
        }.RunAsync();
    }

    /// <summary>
    /// A statement over several lines whose members of this instance are read through <c>self</c>: its lines keep the
    /// places the author gave them. The formatter moved each line beginning with a requalified name twice as far in as
    /// the statement (the NATS .NET client's reader loop, an argument a line), where the lambda stays and where it moves
    /// to a line of its own (TPL0007's form).
    /// </summary>
    [Fact]
    public async Task RequalifiedNames_KeepTheirStatementsLines()
    {
        await Verify.VerifyCodeFixAsync(/* lang=c#-test */ """
            using System.Threading.Tasks;

            sealed class Reader
            {
                private int _size;
                private string _name = "";

                public Task Start(int step)
                {
                    return Task.Factory.StartNew([|() =>
                    {
                        Use(
                            _size,
                            step,
                            _name);
                    }|]);
                }

                private static void Use(int size, int step, string name) { }
            }
            """, /* lang=c#-test */ """
            using System.Threading.Tasks;

            sealed class Reader
            {
                private int _size;
                private string _name = "";

                public Task Start(int step)
                {
                    return Task.Factory.StartNew(static state =>
                    {
                        var (self, step) = ((Reader, int))state!;
                        Use(
                            self._size,
                            step,
                            self._name);
                    }, (this, step));
                }

                private static void Use(int size, int step, string name) { }
            }
            """);
    }

    [Fact]
    public async Task CSharp8_FixOmitsStatic()
    {
        await new Verify.Test
        {
            LanguageVersion = LanguageVersion.CSharp8,
            TestCode = /* lang=c#-test */ """
                using System;
                using System.Threading.Tasks;

                class C
                {
                    Task M(int x) => Task.Factory.StartNew([|() => Console.WriteLine(x)|]);
                }
                """,
            FixedCode = /* lang=c#-test */ """
                using System;
                using System.Threading.Tasks;

                class C
                {
                    Task M(int x) => Task.Factory.StartNew(state =>
                    {
                        var x = (int)state!;
                        Console.WriteLine(x);
                    }, x);
                }
                """,
        }.RunAsync();
    }

    [Fact]
    public async Task NestedLambdasLoopsAndAsyncLambdas_AreFixed()
    {
        await Verify.VerifyCodeFixAsync(
            /* lang=c#-test */ """
            using System;
            using System.Threading.Tasks;

            class C
            {
                Func<int, Task> Nested() => x => Task.Factory.StartNew([|() => Console.WriteLine(x)|]);

                void Loop(string[] names)
                {
                    foreach (var name in names)
                    {
                        Task.Factory.StartNew([|() => Console.WriteLine(name)|]);
                    }
                }

                Task<Task> Async(int delay) => Task.Factory.StartNew([|async () => await Task.Delay(delay)|]);
            }
            """,
            /* lang=c#-test */ """
            using System;
            using System.Threading.Tasks;

            class C
            {
                Func<int, Task> Nested() => x => Task.Factory.StartNew(static state =>
                {
                    var x = (int)state!;
                    Console.WriteLine(x);
                }, x);

                void Loop(string[] names)
                {
                    foreach (var name in names)
                    {
                        Task.Factory.StartNew(static state =>
                        {
                            var name = (string)state!;
                            Console.WriteLine(name);
                        }, name);
                    }
                }

                Task<Task> Async(int delay) => Task.Factory.StartNew(static async state =>
                {
                    var delay = (int)state!;
                    await Task.Delay(delay);
                }, delay);
            }
            """);
    }

    [Fact]
    public async Task TopLevelStatements_AreFixed()
    {
        await new Verify.Test
        {
            TestState = { OutputKind = Microsoft.CodeAnalysis.OutputKind.ConsoleApplication },
            TestCode = /* lang=c#-test */ """
                using System;
                using System.Threading.Tasks;

                var name = "top";
                await Task.Factory.StartNew([|() => Console.WriteLine(name)|]);
                """,
            FixedCode = /* lang=c#-test */ """
                using System;
                using System.Threading.Tasks;

                var name = "top";
                await Task.Factory.StartNew(static state =>
                {
                    var name = (string)state!;
                    Console.WriteLine(name);
                }, name);
                """,
        }.RunAsync();
    }

    [Fact]
    public async Task ShapesWithoutAFix_ReportOnly()
    {
        const string Source = /* lang=c#-test */ """
            using System;
            using System.Threading.Tasks;

            class C
            {
                void M(int x)
                {
                    var anonymous = new { Value = 1 };
                    Task.Factory.StartNew([|() => Console.WriteLine(anonymous.Value)|]);

                    Task.Factory.StartNew(creationOptions: TaskCreationOptions.None, action: [|() => Console.WriteLine(x)|]);

                    // Capturing through a local function is not followed: neither reported nor fixed.
                    Task.Factory.StartNew(() => Helper());
                    void Helper() => Console.WriteLine(x);
                }
            }
            """;
        await Verify.VerifyCodeFixAsync(Source, Source);
    }

    /// <summary>Regression (FuzzTests): a captured value of a type not declared yet got a cast that repeated the error.</summary>
    [Fact]
    public async Task CaptureOfAnUndeclaredType_ReportsWithoutFix()
    {
        const string Source = """
            using System.Threading.Tasks;

            class C
            {
                void M()
                {
                    var counter = new MissingCounter();
                    Task.Factory.StartNew([|() => counter.Add()|]);
                }
            }
            """;
        await new Verify.Test { TestCode = Source, FixedCode = Source, CompilerDiagnostics = CompilerDiagnostics.None }.RunAsync();
    }

    [Fact]
    public void EquivalenceKey_IsStableAndNamesTheRule()
    {
        Assert.Equal("TPL0001_UseStateOverload", TplPractices.Analyzers.CodeFixes.Rules.UseTaskStateFixer.EquivalenceKey);
    }

    private static async Task<string> RunAsync(string markup, string method, bool isStatic, object?[] arguments)
    {
        var source = TestMarkup.Strip(markup);
        if (isStatic)
        {
            return await CodeRunner.RunAsync(source, "Work", method, arguments);
        }

        // Instance methods: call through a static entry point added to the same class.
        var entry = source.Replace(
            "public class Work\n{",
            "public class Work\n{\n    public static object Call(string name, object?[] args) => typeof(Work).GetMethod(name)!.Invoke(new Work(), args)!;",
            StringComparison.Ordinal);
        return await CodeRunner.RunAsync(entry, "Work", "Call", method, arguments);
    }

    /// <summary>
    /// <c>delegate { … }</c> declares no parameters; the compiler's names for them (<c>&lt;p0&gt;</c>) cannot be written,
    /// so the new lambda names them <c>_</c>.
    /// </summary>
    [Fact]
    public async Task AnonymousMethodWithoutParameterList_GetsParametersItCanName()
    {
        await Verify.VerifyCodeFixAsync(
            /* lang=c#-test */ """
            using System;
            using System.Threading.Tasks;

            class C
            {
                Task M(Task task, int x) => task.ContinueWith([|delegate { Console.WriteLine(x); }|]);
            }
            """,
            /* lang=c#-test */ """
            using System;
            using System.Threading.Tasks;

            class C
            {
                Task M(Task task, int x) => task.ContinueWith(static (_, state) =>
                {
                    var x = (int)state!;
                    Console.WriteLine(x);
                }, x);
            }
            """);
    }

    /// <summary>
    /// A lambda's attributes and explicit return type stay (C# 10).
    /// </summary>
    [Fact]
    public async Task LambdaAttributesAndReturnType_AreKept()
    {
        await Verify.VerifyCodeFixAsync(
            /* lang=c#-test */ """
            using System;
            using System.Diagnostics;
            using System.Threading.Tasks;

            class C
            {
                Task A(int x) => Task.Factory.StartNew([|[DebuggerStepThrough] () => Console.WriteLine(x)|]);
                Task<int> B(int x) => Task.Factory.StartNew([|int () => x + 1|]);
            }
            """,
            /* lang=c#-test */ """
            using System;
            using System.Diagnostics;
            using System.Threading.Tasks;

            class C
            {
                Task A(int x) => Task.Factory.StartNew([DebuggerStepThrough] static (state) =>
                {
                    var x = (int)state!;
                    Console.WriteLine(x);
                }, x);
                Task<int> B(int x) => Task.Factory.StartNew(static int (state) =>
                {
                    var x = (int)state!;
                    return x + 1;
                }, x);
            }
            """);
    }

    /// <summary>
    /// A comment before a lambda that starts with its return type, and one after an expression body the fix makes a
    /// block: each stays once, at the new lambda's edge (the kept return type and body used to carry a second copy). A
    /// line comment that ended the argument ends the line after the state.
    /// </summary>
    [Fact]
    public async Task CommentsAtTheLambdasEdges_AreWrittenOnce()
    {
        await Verify.VerifyCodeFixAsync(
            /* lang=c#-test */ """
            using System;
            using System.Threading.Tasks;

            class C
            {
                Task<int> B(int x) => Task.Factory.StartNew(
                    /* first */ [|int () => x + 1|] /* last */);

                Task D(int x) => Task.Factory.StartNew(
                    [|() => Console.WriteLine(x)|] // the end
                    );
            }
            """,
            /* lang=c#-test */ """
            using System;
            using System.Threading.Tasks;

            class C
            {
                Task<int> B(int x) => Task.Factory.StartNew(
                    /* first */ static int (state) =>
                    {
                        var x = (int)state!;
                        return x + 1;
                    } /* last */, x);

                Task D(int x) => Task.Factory.StartNew(
                    static state =>
                    {
                        var x = (int)state!;
                        Console.WriteLine(x);
                    }, x // the end
                    );
            }
            """);
    }

    /// <summary>
    /// An #if inside the lambda: the branch another target compiles may capture other values, which this copy
    /// cannot see. Reported, without a fix; comments in a fixed lambda survive.
    /// </summary>
    [Fact]
    public async Task LambdaHoldingAnIf_HasNoFix_CommentsSurviveTheFix()
    {
        await new Verify.Test
        {
            FixedState = { MarkupHandling = Microsoft.CodeAnalysis.Testing.MarkupMode.Allow },
            TestCode = /* lang=c#-test */ """
            using System;
            using System.Threading.Tasks;

            class C
            {
                Task A(int x, int y) => Task.Factory.StartNew([|() =>
                {
            #if NET
                    Console.WriteLine(x);
            #else
                    Console.WriteLine(y);
            #endif
                }|]);

                Task B(int x) => Task.Factory.StartNew([|() =>
                {
                    // why
                    Console.WriteLine(x); /* what */
                }|]);
            }
            """,
            FixedCode = /* lang=c#-test */ """
            using System;
            using System.Threading.Tasks;

            class C
            {
                Task A(int x, int y) => Task.Factory.StartNew([|() =>
                {
            #if NET
                    Console.WriteLine(x);
            #else
                    Console.WriteLine(y);
            #endif
                }|]);

                Task B(int x) => Task.Factory.StartNew(static state =>
                {
                    var x = (int)state!;
                    // why
                    Console.WriteLine(x); /* what */
                }, x);
            }
            """,
        }.RunAsync();
    }

    /// <summary>
    /// Usings inside #if: the fix cannot lean on them, yet a type with a keyword is written as the keyword (never
    /// global::System.Object or global::System.Int32) and a type of the namespace the code is in by its simple name.
    /// </summary>
    [Fact]
    public async Task GuardedUsings_KeywordsAndTheOwnNamespacesTypes_AreWrittenShort()
    {
        await new Verify.Test
        {
            TestCode = /* lang=c#-test */ """
            #if NET
            using System;
            #endif

            namespace System.Threading.Tasks.Extras
            {
                class C
                {
                    Task A(object gate, int count, TaskScheduler scheduler) => Task.Factory.StartNew([|() => Console.WriteLine(gate.ToString() + count + scheduler.Id)|]);
                }
            }
            """,
            FixedCode = /* lang=c#-test */ """
            #if NET
            using System;
            #endif

            namespace System.Threading.Tasks.Extras
            {
                class C
                {
                    Task A(object gate, int count, TaskScheduler scheduler) => Task.Factory.StartNew(static state =>
                    {
                        var (gate, count, scheduler) = ((object, int, TaskScheduler))state!;
                        Console.WriteLine(gate.ToString() + count + scheduler.Id);
                    }, (gate, count, scheduler));
                }
            }
            """,
        }.RunAsync();
    }

    /// <summary>
    /// A project that runs StyleCop (SA1107: one statement a line; SA1116/SA1117: the arguments of a list over several
    /// lines each on a line of their own, the first after the parenthesis): what the fix writes is laid out so.
    /// </summary>
    [Fact]
    public async Task AProjectRunningStyleCop_GetsTheFixLaidOutAsItsRulesWant()
    {
        await WithStyleCop(/* lang=c#-test */ """
            using System;
            using System.Threading.Tasks;

            class C
            {
                Task B(int x, int y) => Task.Factory.StartNew(
                    static state =>
                    {
                        var (x, y) = ((int, int))state!;
                        Console.WriteLine(x + y);
                    },
                    (x, y));
            }
            """).RunAsync();
    }

    /// <summary>
    /// The same project with SA1117 turned off in its .editorconfig (MySqlConnector's): the list is laid out as in any
    /// other project, the lambda's block staying on the call's line. The severity reaches the compilation's tree options,
    /// not the analyzer options, where it was looked for before (MySqlConnector's lists were spread).
    /// </summary>
    [Fact]
    public async Task AProjectRunningStyleCopWithSA1117Off_GetsTheUsualLayout()
    {
        var test = WithStyleCop(/* lang=c#-test */ """
            using System;
            using System.Threading.Tasks;

            class C
            {
                Task B(int x, int y) => Task.Factory.StartNew(static state =>
                {
                    var (x, y) = ((int, int))state!;
                    Console.WriteLine(x + y);
                }, (x, y));
            }
            """);
        const string Off = "root = true\n\n[*.cs]\ndotnet_diagnostic.SA1117.severity = none\n";
        test.TestState.AnalyzerConfigFiles.Add(("/.editorconfig", Off));
        test.FixedState.AnalyzerConfigFiles.Add(("/.editorconfig", Off));
        await test.RunAsync();
    }

    /// <summary>
    /// A project whose .editorconfig puts no lambda's brace on a line of its own (<c>csharp_new_line_before_open_brace</c>
    /// <c>none</c>, or a list without <c>lambdas</c>; RestSharp's): the block the fix writes opens at the end of the
    /// lambda's line. Where the list names lambdas, or nothing is set, the brace begins its own line.
    /// </summary>
    [Theory]
    [InlineData("none", false)]
    [InlineData("lambdas, methods", true)]
    public async Task TheBraceSetting_PlacesTheBlocksOpeningBrace(string setting, bool ownLine)
    {
        var config = "root = true\n\n[*.cs]\ncsharp_new_line_before_open_brace = " + setting + "\n";
        var open = ownLine ? "\n    {" : " {";
        var test = new Verify.Test
        {
            TestCode = "using System;\nusing System.Threading.Tasks;\n\nclass C\n{\n    Task B(int x, int y) => Task.Factory.StartNew([|() => Console.WriteLine(x + y)|]);\n}\n",
            FixedCode = "using System;\nusing System.Threading.Tasks;\n\nclass C\n{\n    Task B(int x, int y) => Task.Factory.StartNew(static state =>" + open
                + "\n        var (x, y) = ((int, int))state!;\n        Console.WriteLine(x + y);\n    }, (x, y));\n}\n",
        };
        test.TestState.AnalyzerConfigFiles.Add(("/.editorconfig", config));
        test.FixedState.AnalyzerConfigFiles.Add(("/.editorconfig", config));
        await test.RunAsync();
    }

    /// <summary>A capture in a project that lists StyleCop among its analyzers (none of them run here), fixed to <paramref name="fixedCode"/>.</summary>
    private static Verify.Test WithStyleCop(string fixedCode) => new()
    {
        SolutionTransforms =
        {
            (solution, project) => solution.AddAnalyzerReference(project, new Microsoft.CodeAnalysis.Diagnostics.AnalyzerImageReference(
                System.Collections.Immutable.ImmutableArray<Microsoft.CodeAnalysis.Diagnostics.DiagnosticAnalyzer>.Empty, "/packages/stylecop.analyzers/StyleCop.Analyzers.dll", "StyleCop.Analyzers")),
        },
        TestCode = /* lang=c#-test */ """
            using System;
            using System.Threading.Tasks;

            class C
            {
                Task B(int x, int y) => Task.Factory.StartNew([|() => Console.WriteLine(x + y)|]);
            }
            """,
        FixedCode = fixedCode,
    };

    /// <summary>
    /// The .editorconfig says CRLF, the file's lines end in LF: the lines the fix writes end as the file's do, so the file
    /// does not end up with both.
    /// </summary>
    [Fact]
    public async Task LinesTheFixWrites_EndAsTheFilesLinesDo()
    {
        await WithCrlfConfiguredAsync(new Verify.Test
        {
            TestCode = "using System;\nusing System.Threading.Tasks;\n\nclass C\n{\n    Task B(int x) => Task.Factory.StartNew([|() =>\n    {\n        // why\n        Console.WriteLine(x);\n    }|]);\n}\n",
            FixedCode = "using System;\nusing System.Threading.Tasks;\n\nclass C\n{\n    Task B(int x) => Task.Factory.StartNew(static state =>\n    {\n        var x = (int)state!;\n        // why\n        Console.WriteLine(x);\n    }, x);\n}\n",
        });
    }

    /// <summary>
    /// The same, where the rewritten lambda is an argument of its own line and its first statement has a comment before
    /// it (MQTTnet's background-task helper): the comment's line break, which the formatter rewrote as CRLF, stays LF.
    /// </summary>
    [Fact]
    public async Task LinesTheFixWrites_EndAsTheFilesLinesDo_BesideAComment()
    {
        await WithCrlfConfiguredAsync(new Verify.Test
        {
            TestCode = "using System;\nusing System.Threading.Tasks;\n\nclass C\n{\n    void B(Task task, string name)\n    {\n        task.ContinueWith(\n            [|t =>\n            {\n                // observe it first\n                var e = t.Exception;\n                Console.WriteLine(name + e);\n            }|],\n            TaskContinuationOptions.OnlyOnFaulted);\n    }\n}\n",
            FixedCode = "using System;\nusing System.Threading.Tasks;\n\nclass C\n{\n    void B(Task task, string name)\n    {\n        task.ContinueWith(\n            static (t, state) =>\n            {\n                var name = (string)state!;\n                // observe it first\n                var e = t.Exception;\n                Console.WriteLine(name + e);\n            },\n            name,\n            TaskContinuationOptions.OnlyOnFaulted);\n    }\n}\n",
        });
    }

    private static Task WithCrlfConfiguredAsync(Verify.Test test)
    {
        test.TestState.AnalyzerConfigFiles.Add(("/.editorconfig", "root = true\n[*.cs]\nend_of_line = crlf\n"));
        return test.RunAsync();
    }

    /// <summary>The caveat docs/rules/TPL0001.md names: the task's AsyncState is the state (it was null).</summary>
    [Fact]
    public async Task Caveat_TheStateIsTheTasksAsyncState()
    {
        const string Code = """
            using System.Threading.Tasks;

            // Shows a documented caveat of a fix: not a gauntlet input (docs/rules name the difference).
            public static class States
            {
                public static Task Work(int x) => Task.Factory.StartNew(() => System.Console.Write(x));

                public static string StateOf() => Work(5).AsyncState?.ToString() ?? "null";
            }
            """;
        await FixedBehaviour.AssertAsync(Code, "TPL0001", "States", "StateOf", "returned null", "returned 5");
    }
}
