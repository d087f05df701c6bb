using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp;
using TplPractices.Analyzers.Tests.Verifiers;
using Verify = TplPractices.Analyzers.Tests.Verifiers.CSharpCodeFixVerifier<
    TplPractices.Analyzers.Rules.UseTaskStateAnalyzer,
    TplPractices.Analyzers.CodeFixes.Rules.UseTaskStateFixer>;

namespace TplPractices.Analyzers.Tests.Rules;

/// <summary>TPL0001: which delegates given to StartNew and ContinueWith allocate a closure, and which are left alone.</summary>
public sealed class UseTaskStateTests
{
    [Fact]
    public async Task CapturingLambdas_Report_AndTheMessageNamesTheCaptures()
    {
        await new Verify.Test
        {
            TestCode = /* lang=c#-test */ """
                using System.Collections.Concurrent;
                using System.Threading;
                using System.Threading.Tasks;

                class C
                {
                    private int _count;

                    void M(Task<int> task, TaskFactory factory, CancellationToken token)
                    {
                        var queue = new ConcurrentQueue<int>();
                        var source = new TaskCompletionSource<int>();
                        Task.Factory.StartNew({|#0:() => queue.Enqueue(1)|});
                        Task<int>.Factory.StartNew({|#1:() => queue.Count|}, token);
                        factory.StartNew({|#2:delegate { queue.Enqueue(2); }|});
                        task.ContinueWith({|#3:_ => source.SetResult(task.Result)|});
                        Task.Factory.StartNew({|#4:() => _count++|});
                        Task.Factory.StartNew({|#5:() => _count += queue.Count + source.Task.Id|});
                    }
                }
                """,
            ExpectedDiagnostics =
            {
                Verify.Diagnostic().WithLocation(0).WithMessage("The delegate captures 'queue', so each call allocates a closure and a delegate; pass it as the task's state"),
                Verify.Diagnostic().WithLocation(1).WithMessage("The delegate captures 'queue', so each call allocates a closure and a delegate; pass it as the task's state"),
                Verify.Diagnostic().WithLocation(2).WithMessage("The delegate captures 'queue', so each call allocates a closure and a delegate; pass it as the task's state"),
                Verify.Diagnostic().WithLocation(3).WithMessage("The delegate captures 'task' and 'source', so each call allocates a closure and a delegate; pass them as the task's state"),
                Verify.Diagnostic().WithLocation(4).WithMessage("The delegate captures 'this', so each call allocates a delegate; pass it as the task's state"),
                Verify.Diagnostic().WithLocation(5).WithMessage("The delegate captures 'this', 'queue' and 'source', so each call allocates a closure and a delegate; pass them as the task's state"),
            },
        }.RunAsync();
    }

    /// <summary>
    /// Where everything the delegate captures is captured too by a function that keeps the closure (a local function made
    /// a delegate, a lambda stored as an event handler), the state form saves only the delegate, and the message says so.
    /// Another lambda passed to a call that has a state form does not count: it may get that form as well; one passed
    /// to a delegate (AsyncEx's <c>convert(result => tcs.TrySetResult(result))</c>) or to a method without one (a
    /// library's pump taking a receiver, whose longer overload only adds options) does. A function inside another goes with that one: a handler stored inside a
    /// <c>Task.Run</c> lambda moves into its state with it. A local function only called keeps its captures on the stack.
    /// </summary>
    [Fact]
    public async Task CapturesAnotherFunctionKeeps_CostOnlyTheDelegate()
    {
        await new Verify.Test
        {
            TestCode = /* lang=c#-test */ """
                using System;
                using System.Threading.Tasks;

                class Feed
                {
                    public event Action<int>? Arrived;

                    Task<int> Next(Task started, Action<Action<int>> subscribe)
                    {
                        var result = new TaskCompletionSource<int>();
                        started.ContinueWith({|#0:_ => result.TrySetResult(-1)|}, TaskScheduler.Default);
                        subscribe(Deliver);
                        return result.Task;

                        void Deliver(int value) => result.TrySetResult(value);
                    }

                    void Watch(Task started, int id)
                    {
                        started.ContinueWith({|#1:_ => Console.WriteLine(id)|}, TaskScheduler.Default);
                        Arrived += value => Console.WriteLine(id + value);
                    }

                    void Twice(Task started, int id)
                    {
                        started.ContinueWith({|#2:_ => Console.WriteLine(id)|}, TaskScheduler.Default);
                        started.ContinueWith({|#3:_ => Console.WriteLine(-id)|}, TaskScheduler.Default);
                        Show();

                        void Show() => Console.WriteLine(id);
                    }

                    void Partly(Task started, int id, string name)
                    {
                        started.ContinueWith({|#4:_ => Console.WriteLine(name + id)|}, TaskScheduler.Default);
                        Arrived += value => Console.WriteLine(id + value);
                    }

                    Task<int> Converted(Task started, Func<Action<int>, object> convert)
                    {
                        var result = new TaskCompletionSource<int>(TaskCreationOptions.RunContinuationsAsynchronously);
                        started.ContinueWith({|#5:_ => result.TrySetResult(-1)|}, TaskScheduler.Default);
                        _ = convert(value => result.TrySetResult(value));
                        return result.Task;
                    }

                    void Passed(Task started, int id)
                    {
                        started.ContinueWith({|#6:_ => Console.WriteLine(id)|}, TaskScheduler.Default);
                        Task.Factory.StartNew({|#7:() => Console.WriteLine(-id)|}, default, TaskCreationOptions.None, TaskScheduler.Default);
                        Subscribe(value => Console.WriteLine(id + value));
                    }

                    void Subscribe(Action<int> handler) => Arrived += handler;

                    void Subscribe(Action<int> handler, object? owner) => Arrived += handler;

                    Task<int> Pumped(Task started, Func<int, Task> write, int id)
                    {
                        started.ContinueWith({|#8:_ => Console.WriteLine(id)|}, TaskScheduler.Default);
                        return Pump(value => write(value + id));
                    }

                    static Task<int> Pump(Func<int, Task> receiver) => Task.FromResult(0);

                    static Task<int> Pump(Func<int, Task> receiver, TaskScheduler scheduler, bool ordered) => Task.FromResult(0);

                    void Nested(Task started, int id)
                    {
                        started.ContinueWith({|#9:_ => Console.WriteLine(id)|}, TaskScheduler.Default);
                        Task.Run(() => { Arrived += value => Console.WriteLine(id + value); });
                    }
                }
                """,
            ExpectedDiagnostics =
            {
                Verify.Diagnostic().WithLocation(0).WithMessage("The delegate captures 'result', so each call allocates a delegate; pass it as the task's state"),
                Verify.Diagnostic().WithLocation(1).WithMessage("The delegate captures 'id', so each call allocates a delegate; pass it as the task's state"),
                Verify.Diagnostic().WithLocation(2).WithMessage("The delegate captures 'id', so each call allocates a closure and a delegate; pass it as the task's state"),
                Verify.Diagnostic().WithLocation(3).WithMessage("The delegate captures 'id', so each call allocates a closure and a delegate; pass it as the task's state"),
                Verify.Diagnostic().WithLocation(4).WithMessage("The delegate captures 'name' and 'id', so each call allocates a closure and a delegate; pass them as the task's state"),
                Verify.Diagnostic().WithLocation(5).WithMessage("The delegate captures 'result', so each call allocates a delegate; pass it as the task's state"),
                Verify.Diagnostic().WithLocation(6).WithMessage("The delegate captures 'id', so each call allocates a closure and a delegate; pass it as the task's state"),
                Verify.Diagnostic().WithLocation(7).WithMessage("The delegate captures 'id', so each call allocates a closure and a delegate; pass it as the task's state"),
                Verify.Diagnostic().WithLocation(8).WithMessage("The delegate captures 'id', so each call allocates a delegate; pass it as the task's state"),
                Verify.Diagnostic().WithLocation(9).WithMessage("The delegate captures 'id', so each call allocates a closure and a delegate; pass it as the task's state"),
            },
        }.RunAsync();
    }

    [Fact]
    public async Task DelegatesThatCaptureNothingOrOtherApis_DoNotReport()
    {
        await Verify.VerifyAnalyzerAsync(/* lang=c#-test */ """
            using System;
            using System.Threading.Tasks;

            class C
            {
                static void Work() { }
                void Instance() { }

                void M(Task task, int value)
                {
                    Task.Factory.StartNew(static () => Work());
                    Task.Factory.StartNew(() => Work());
                    Task.Factory.StartNew(Work);
                    Task.Factory.StartNew(state => Console.WriteLine(state), value);
                    task.ContinueWith((t, state) => Console.WriteLine(state), value);
                    Task.Run(() => Console.WriteLine(value));
                    Task.Factory.ContinueWhenAll(new[] { task }, _ => Console.WriteLine(value));
                    task.ContinueWith(t => t.Wait());
                }
            }
            """);
    }

    /// <summary>A const local is compiled in as its value and nameof reads no variable: neither is a capture.</summary>
    [Fact]
    public async Task ConstantsAndNameOf_AreNotCaptures()
    {
        await new Verify.Test
        {
            TestCode = /* lang=c#-test */ """
            using System;
            using System.Threading.Tasks;

            class C
            {
                void M(Task task, int value)
                {
                    const int Limit = 3;
                    Task.Factory.StartNew(() => Console.WriteLine(Limit));
                    Task.Factory.StartNew(() => Console.WriteLine(nameof(value)));
                    task.ContinueWith(t => Console.WriteLine(nameof(task) + Limit));
                    Task.Factory.StartNew(() => Console.WriteLine(nameof(Work) + nameof(_count) + nameof(Count) + nameof(this.Work)));
                    Task.Factory.StartNew({|#0:() => Console.WriteLine(value + Limit)|});
                }

                private int _count;
                int Count => _count;
                void Work() { }
            }

            static class Log
            {
                static void Write(string text) { }
                static void M() => Task.Factory.StartNew(() => Write(nameof(Write)));
            }
            """,
            ExpectedDiagnostics = { Verify.Diagnostic().WithLocation(0).WithMessage("The delegate captures 'value', so each call allocates a closure and a delegate; pass it as the task's state") },
            FixedCode = /* lang=c#-test */ """
            using System;
            using System.Threading.Tasks;

            class C
            {
                void M(Task task, int value)
                {
                    const int Limit = 3;
                    Task.Factory.StartNew(() => Console.WriteLine(Limit));
                    Task.Factory.StartNew(() => Console.WriteLine(nameof(value)));
                    task.ContinueWith(t => Console.WriteLine(nameof(task) + Limit));
                    Task.Factory.StartNew(() => Console.WriteLine(nameof(Work) + nameof(_count) + nameof(Count) + nameof(this.Work)));
                    Task.Factory.StartNew(static state =>
                    {
                        var value = (int)state!;
                        Console.WriteLine(value + Limit);
                    }, value);
                }

                private int _count;
                int Count => _count;
                void Work() { }
            }

            static class Log
            {
                static void Write(string text) { }
                static void M() => Task.Factory.StartNew(() => Write(nameof(Write)));
            }
            """,
        }.RunAsync();
    }

    [Fact]
    public async Task VariablesTheClosureMustShare_DoNotReport()
    {
        await Verify.VerifyAnalyzerAsync(/* lang=c#-test */ """
            using System;
            using System.Threading.Tasks;

            class C
            {
                void M(int parameter)
                {
                    int writtenInside = 0;
                    Task.Factory.StartNew(() => writtenInside++);

                    int writtenAfter = 1;
                    Task.Factory.StartNew(() => Console.WriteLine(writtenAfter));
                    writtenAfter = 2;

                    for (int i = 0; i < 3; i++)
                    {
                        Task.Factory.StartNew(() => Console.WriteLine(i));
                    }

                    int perIteration = 0;
                    while (perIteration < 3)
                    {
                        perIteration = perIteration + 1;
                        Task.Factory.StartNew(() => Console.WriteLine(perIteration));
                    }

                    int byRef = 0;
                    Task.Factory.StartNew(() => Console.WriteLine(byRef));
                    Increment(ref byRef);

                    int elsewhere = 0;
                    Action other = () => elsewhere = 5;
                    Task.Factory.StartNew(() => Console.WriteLine(elsewhere));

                    var span = new MutableCounter();
                    Task.Factory.StartNew(() => span.Add());

                    Task.Factory.StartNew(() => Console.WriteLine(parameter));
                    parameter = 3;
                }

                static void Increment(ref int value) => value++;

                struct MutableCounter { public int Value; public void Add() => Value++; }
            }
            """);
    }

    /// <summary>
    /// A value tuple's methods never mutate it: one whose elements are only read is carried as state like any value.
    /// A write to an element is a write of the variable; a mutable struct inside the tuple can still change.
    /// </summary>
    [Fact]
    public async Task ValueTuplesOnlyRead_Report_AndTheFixCarriesThem()
    {
        await Verify.VerifyCodeFixAsync(/* lang=c#-test */ """
            using System;
            using System.Threading.Tasks;

            class C
            {
                Task Read(int a, string b)
                {
                    var pair = (a, b);
                    return Task.Factory.StartNew([|() => Console.WriteLine(pair.Item1 + pair.b)|]);
                }
            }
            """, /* lang=c#-test */ """
            using System;
            using System.Threading.Tasks;

            class C
            {
                Task Read(int a, string b)
                {
                    var pair = (a, b);
                    return Task.Factory.StartNew(static state =>
                    {
                        var pair = ((int a, string b))state!;
                        Console.WriteLine(pair.Item1 + pair.b);
                    }, pair);
                }
            }
            """);
    }

    [Fact]
    public async Task ValueTuplesWrittenOrHoldingAMutableStruct_DoNotReport()
    {
        await Verify.VerifyAnalyzerAsync(/* lang=c#-test */ """
            using System;
            using System.Threading.Tasks;

            class C
            {
                Task WrittenAfter(int a)
                {
                    var pair = (a, a);
                    var task = Task.Factory.StartNew(() => Console.WriteLine(pair.Item1));
                    pair.Item2 = 3;
                    return task;
                }

                Task WrittenInside(int a)
                {
                    var pair = (a, a);
                    return Task.Factory.StartNew(() => pair.Item1++);
                }

                Task MutableInside(int a)
                {
                    var pair = (a, new Counter());
                    return Task.Factory.StartNew(() => pair.Item2.Add());
                }

                struct Counter { public int Value; public void Add() => Value++; }
            }
            """);
    }

    [Fact]
    public async Task SafeWritesAndFreshLoopVariables_Report()
    {
        await Verify.VerifyAnalyzerAsync(/* lang=c#-test */ """
            using System;
            using System.Threading.Tasks;

            class C
            {
                void M(int[] values, string text)
                {
                    int before = 0;
                    before = 5;
                    Task.Factory.StartNew([|() => Console.WriteLine(before)|]);

                    foreach (var value in values)
                    {
                        Task.Factory.StartNew([|() => Console.WriteLine(value)|]);
                    }

                    for (int i = 0; i < 3; i++)
                    {
                        var copy = i;
                        Task.Factory.StartNew([|() => Console.WriteLine(copy)|]);
                    }

                    Task.Factory.StartNew([|() => Console.WriteLine(text.Length)|]);
                }
            }
            """);
    }

    [Fact]
    public async Task LambdasInLambdasExpressionBodiesAndTopLevelStatements_Report()
    {
        await Verify.VerifyAnalyzerAsync(/* lang=c#-test */ """
            using System;
            using System.Threading.Tasks;

            class C
            {
                Task Expression(int x) => Task.Factory.StartNew([|() => Console.WriteLine(x)|]);

                Func<int, Task> Nested() => x => Task.Factory.StartNew([|() => Console.WriteLine(x)|]);
            }
            """);

        await new Verify.Test
        {
            TestState = { OutputKind = OutputKind.ConsoleApplication },
            TestCode = /* lang=c#-test */ """
                using System;
                using System.Threading.Tasks;

                var name = "top";
                await Task.Factory.StartNew([|() => Console.WriteLine(name)|]);
                """,
        }.RunAsync();
    }

    [Fact]
    public async Task GeneratedCode_DoesNotReport()
    {
        await Verify.VerifyAnalyzerAsync(/* lang=c#-test */ """
            // <auto-generated/>
            using System;
            using System.Threading.Tasks;

            class C
            {
                void M(int x) => Task.Factory.StartNew(() => Console.WriteLine(x));
            }
            """);
    }

    [Theory]
    [InlineData("Task.Factory.StartNew(() => Console.WriteLine(x)")]
    [InlineData("Task.Factory.StartNew(() => Console.WriteLine(missing))")]
    [InlineData("Task.Factory.StartNew(() => )")]
    [InlineData("Task.Factory.StartNew(")]
    [InlineData("task.ContinueWith(t => Console.WriteLine(x), )")]
    [InlineData("task.ContinueWith((a, b, c) => Console.WriteLine(x))")]
    public async Task IncompleteOrInvalidCode_DoesNotThrow(string statement)
    {
        // Half-typed code may still report where the call is complete; it must never throw.
        Assert.InRange(await HalfTypedCode.CountDiagnosticsAsync(new Analyzers.Rules.UseTaskStateAnalyzer(), "Task task, int x", statement), 0, 1);
    }

    /// <summary>C# 7.3 has no static lambdas and no shadowing in lambdas: the read-back locals get new names.</summary>
    [Fact]
    public async Task CSharp73_FixRenamesTheReadBackLocals()
    {
        await new Verify.Test
        {
            OnCSharp73NetFramework = true,
            TestCode = /* lang=c#-test */ """
                using System;
                using System.Threading.Tasks;

                class C
                {
                    void M(int x, Task<int> task)
                    {
                        Task.Factory.StartNew([|() => Console.WriteLine(x)|]);
                        task.ContinueWith([|_ => Console.WriteLine(task.Result + x)|]);
                    }
                }
                """,
            FixedCode = /* lang=c#-test */ """
                using System;
                using System.Threading.Tasks;

                class C
                {
                    void M(int x, Task<int> task)
                    {
                        Task.Factory.StartNew(state =>
                        {
                            var myX = (int)state;
                            Console.WriteLine(myX);
                        }, x);
                        task.ContinueWith((antecedent, state) =>
                        {
                            var myX = (int)state;
                            Console.WriteLine(antecedent.Result + myX);
                        }, x);
                    }
                }
                """,
        }.RunAsync();
    }

    /// <summary>
    /// A variable the call's own statement assigns is still null when the lambda is made: as state it would stay null,
    /// and the cleanup it serves would silently stop. A variable only read, in a tuple literal too, is no write.
    /// </summary>
    [Fact]
    public async Task OwnResult_IsNotReported_TupleReads_AreNoWrites()
    {
        await Verify.VerifyAnalyzerAsync(/* lang=c#-test */ """
            using System;
            using System.Threading.Tasks;

            class C
            {
                Task? M(Task load, int a, int b)
                {
                    Task? pending = null;
                    pending = load.ContinueWith(t => Console.WriteLine(pending?.Id));
                    Use((a, b));
                    Task.Factory.StartNew([|() => Console.WriteLine(a + b)|]);
                    return pending;
                }

                static void Use((int, int) pair) { }
            }
            """);
    }

    /// <summary>
    /// A lambda nested in the value the statement assigns runs only after the assignment has stored that value
    /// (an iterator's recursive body): its capture is reported and fixed. Passed to a method, the value could run
    /// before the assignment, so that one stays unreported.
    /// </summary>
    [Fact]
    public async Task LambdaInsideTheAssignedLambda_IsReported_ButNotInsideACallsArgument()
    {
        await Verify.VerifyCodeFixAsync(/* lang=c#-test */ """
            using System;
            using System.Threading.Tasks;

            class C
            {
                Task Walk(object? root)
                {
                    Func<object?, Task>? body = null;
                    body = node => node is null ? Task.CompletedTask : Task.Factory.StartNew([|() => body!(null)|]).Unwrap();
                    Func<Task>? later = null;
                    later = Run(() => Task.Factory.StartNew(() => later!()).Unwrap());
                    return body(root);
                }

                static Func<Task> Run(Func<Task> make) => make;
            }
            """, /* lang=c#-test */ """
            using System;
            using System.Threading.Tasks;

            class C
            {
                Task Walk(object? root)
                {
                    Func<object?, Task>? body = null;
                    body = node => node is null ? Task.CompletedTask : Task.Factory.StartNew(static state =>
                    {
                        var body = (Func<object?, Task>?)state!;
                        return body!(null);
                    }, body).Unwrap();
                    Func<Task>? later = null;
                    later = Run(() => Task.Factory.StartNew(() => later!()).Unwrap());
                    return body(root);
                }

                static Func<Task> Run(Func<Task> make) => make;
            }
            """);
    }

    /// <summary>
    /// A link of a chain TPL0002 rewrites into awaits belongs to TPL0002, whose fix removes the continuation: one
    /// fixable diagnostic per site, or dotnet format would apply either fix from one run to the next.
    /// </summary>
    [Theory]
    [InlineData("", false)]
    [InlineData("dotnet_diagnostic.TPL0002.severity = none\n", true)]
    [InlineData("tpl_practices.TPL0002.excluded_namespaces = N\n", true)]
    public async Task ChainLink_IsLeftToTPL0002_WhileItIsOn(string config, bool reported)
    {
        var code = $$"""
            using System.Threading.Tasks;

            namespace N
            {
                class C
                {
                    Task Step(int x) => Task.Delay(x);

                    Task M(Task first, int x) => first.ContinueWith({{(reported ? "[|_ => Step(x)|]" : "_ => Step(x)")}}).Unwrap();
                }
            }
            """;
        var test = new Verify.Test { TestCode = code };
        test.TestState.AnalyzerConfigFiles.Add(("/.editorconfig", "root = true\n[*.cs]\n" + config));
        await test.RunAsync();
    }
}
