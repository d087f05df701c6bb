using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp;
using TplPractices.Analyzers.Tests.Verifiers;
using Verify = TplPractices.Analyzers.Tests.Verifiers.CSharpCodeFixVerifier<
    TplPractices.Analyzers.Rules.AsyncWaitHandleAnalyzer,
    TplPractices.Analyzers.CodeFixes.Rules.AsyncWaitHandleFixer>;

namespace TplPractices.Analyzers.Tests.Rules;

/// <summary>TPL0004: which AsyncWaitHandle accesses are known to be on a task, and which are not.</summary>
public sealed class AsyncWaitHandleTests
{
    [Fact]
    public async Task CastsAndConversionsOfTasks_Report()
    {
        await Verify.VerifyAnalyzerAsync(/* lang=c#-test */ """
            using System;
            using System.Threading;
            using System.Threading.Tasks;

            class C
            {
                void M(Task task, Task<int> typed, object boxed)
                {
                    [|((IAsyncResult)task).AsyncWaitHandle|].WaitOne();
                    [|((IAsyncResult)typed).AsyncWaitHandle|].WaitOne(100);
                    [|(task as IAsyncResult).AsyncWaitHandle|].WaitOne(TimeSpan.FromSeconds(1));
                    WaitHandle stored = [|((IAsyncResult)task).AsyncWaitHandle|];
                    bool done = [|((IAsyncResult)(object)typed).AsyncWaitHandle|].WaitOne();
                }
            }
            """);
    }

    /// <summary>
    /// An IAsyncResult implemented over a task forwards the handle its interface requires; nothing waits there, and
    /// the contract leaves no other way. The same for an override. A helper of the user's that returns the handle
    /// can change its signature, and a handle waited on in place can be the task's own wait: both still report.
    /// </summary>
    [Fact]
    public async Task HandlesAnInterfaceOrBaseRequires_DoNotReport()
    {
        await Verify.VerifyAnalyzerAsync(/* lang=c#-test */ """
            using System;
            using System.Threading;
            using System.Threading.Tasks;

            sealed class TaskAsyncResult : IAsyncResult
            {
                private readonly Task _task;

                public TaskAsyncResult(Task task) => _task = task;

                public WaitHandle AsyncWaitHandle => ((IAsyncResult)_task).AsyncWaitHandle;

                public object? AsyncState => ((IAsyncResult)_task).AsyncState;

                public bool CompletedSynchronously => false;

                public bool IsCompleted => _task.IsCompleted;

                public WaitHandle Helper() { return [|((IAsyncResult)_task).AsyncWaitHandle|]; }

                public Func<WaitHandle> Later() => () => [|((IAsyncResult)_task).AsyncWaitHandle|];

                public bool Waits() => [|((IAsyncResult)_task).AsyncWaitHandle|].WaitOne(10);
            }

            sealed class Explicit : IAsyncResult
            {
                private readonly Task _task = Task.CompletedTask;

                WaitHandle IAsyncResult.AsyncWaitHandle { get { return ((IAsyncResult)_task).AsyncWaitHandle; } }

                object? IAsyncResult.AsyncState => null;

                bool IAsyncResult.CompletedSynchronously => true;

                bool IAsyncResult.IsCompleted => true;
            }

            abstract class Operation
            {
                public abstract WaitHandle Handle { get; }
            }

            sealed class TaskOperation : Operation
            {
                private readonly Task _task = Task.CompletedTask;

                public override WaitHandle Handle => ((IAsyncResult)_task).AsyncWaitHandle;
            }
            """);
    }

    [Fact]
    public async Task LocalsThatOnlyHoldTasks_Report()
    {
        await Verify.VerifyAnalyzerAsync(/* lang=c#-test */ """
            using System;
            using System.Threading.Tasks;

            class C
            {
                void M(Task task, Task<string> other)
                {
                    var ar = (IAsyncResult)task;
                    [|ar.AsyncWaitHandle|].WaitOne();

                    IAsyncResult implicitly = task;
                    [|implicitly.AsyncWaitHandle|].WaitOne();

                    IAsyncResult reassigned = task;
                    reassigned = other;
                    [|reassigned.AsyncWaitHandle|].WaitOne();
                }
            }
            """);
    }

    [Fact]
    public async Task WaitAllAndWaitAnyOverTaskHandles_ReportEachHandle()
    {
        await Verify.VerifyAnalyzerAsync(/* lang=c#-test */ """
            using System;
            using System.Threading;
            using System.Threading.Tasks;

            class C
            {
                void M(Task a, Task b, ManualResetEvent signal)
                {
                    WaitHandle.WaitAll(new[] { [|((IAsyncResult)a).AsyncWaitHandle|], [|((IAsyncResult)b).AsyncWaitHandle|] });
                    WaitHandle.WaitAny(new WaitHandle[] { [|((IAsyncResult)a).AsyncWaitHandle|], signal });
                }
            }
            """);
    }

    [Fact]
    public async Task ApmResultsAndUnknownOrigins_DoNotReport_ButTasksFromPatternsDo()
    {
        await Verify.VerifyAnalyzerAsync(/* lang=c#-test */ """
            using System;
            using System.IO;
            using System.Threading.Tasks;

            class C
            {
                private IAsyncResult? _field;

                void M(Stream stream, byte[] buffer, IAsyncResult parameter, Task task)
                {
                    IAsyncResult apm = stream.BeginRead(buffer, 0, buffer.Length, null, null);
                    apm.AsyncWaitHandle.WaitOne();

                    var alsoApm = stream.BeginWrite(buffer, 0, 1, null, null);
                    alsoApm.AsyncWaitHandle.WaitOne();

                    parameter.AsyncWaitHandle.WaitOne();
                    _field!.AsyncWaitHandle.WaitOne();

                    IAsyncResult mixed = task;
                    mixed = stream.BeginRead(buffer, 0, 1, null, null);
                    mixed.AsyncWaitHandle.WaitOne();

                    IAsyncResult byRef = task;
                    Replace(ref byRef);
                    byRef.AsyncWaitHandle.WaitOne();

                    Make(out var declaredOut);
                    declaredOut.AsyncWaitHandle.WaitOne();

                    // Known to be a task through the pattern, so this one is reported.
                    if (parameter is Task { } patterned)
                    {
                        IAsyncResult fromPattern = patterned;
                        [|fromPattern.AsyncWaitHandle|].WaitOne();
                    }
                }

                static void Replace(ref IAsyncResult value) { }
                static void Make(out IAsyncResult value) => value = Task.CompletedTask;
            }
            """);
    }

    [Fact]
    public async Task LocalFromPatternVariable_DoesNotReportThePatternLocal()
    {
        await Verify.VerifyAnalyzerAsync(/* lang=c#-test */ """
            using System;
            using System.Threading.Tasks;

            class C
            {
                void M(object value)
                {
                    if (value is IAsyncResult ar)
                    {
                        ar.AsyncWaitHandle.WaitOne();
                    }
                }
            }
            """);
    }

    [Fact]
    public async Task NestedLambdasExpressionBodiesAndLocalFunctions_Report()
    {
        await Verify.VerifyAnalyzerAsync(/* lang=c#-test */ """
            using System;
            using System.Threading.Tasks;

            class C
            {
                bool Expression(Task t) => [|((IAsyncResult)t).AsyncWaitHandle|].WaitOne();

                Func<Task, Func<bool>> Nested() => t => () => [|((IAsyncResult)t).AsyncWaitHandle|].WaitOne();

                void Local(Task t)
                {
                    Inner();
                    void Inner() => [|((IAsyncResult)t).AsyncWaitHandle|].WaitOne();
                }
            }
            """);
    }

    /// <summary>Every kind of member that can read the property reports, and an escaped name is the same name.</summary>
    [Fact]
    public async Task EveryKindOfMember_AndEscapedNames_Report()
    {
        await Verify.VerifyAnalyzerAsync(/* lang=c#-test */ """
            using System;
            using System.Threading;
            using System.Threading.Tasks;

            class C
            {
                static readonly Task Done = Task.CompletedTask;
                static readonly WaitHandle Field = [|((IAsyncResult)Done).AsyncWaitHandle|];
                WaitHandle Initialized { get; } = [|((IAsyncResult)Done).AsyncWaitHandle|];
                WaitHandle Arrow => [|((IAsyncResult)Done).AsyncWaitHandle|];
                WaitHandle this[int i] { get { return [|((IAsyncResult)Done).AsyncWaitHandle|]; } }
                C() { [|((IAsyncResult)Done).AsyncWaitHandle|].WaitOne(); }
                public static explicit operator WaitHandle(C c) => [|((IAsyncResult)Done).@AsyncWaitHandle|];
                bool Escaped(Task t) => [|((IAsyncResult)t).\u0041syncWaitHandle|].WaitOne();
                bool Named(Task t) => nameof(IAsyncResult.AsyncWaitHandle).Length > 0;
            }
            """);
    }

    [Fact]
    public async Task TopLevelStatements_Report()
    {
        await new Verify.Test
        {
            TestState = { OutputKind = OutputKind.ConsoleApplication },
            TestCode = /* lang=c#-test */ """
                using System;
                using System.Threading.Tasks;

                var task = Task.Delay(1);
                [|((IAsyncResult)task).AsyncWaitHandle|].WaitOne();
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
                void M(Task t) => ((IAsyncResult)t).AsyncWaitHandle.WaitOne();
            }
            """);
    }

    [Theory]
    [InlineData("((IAsyncResult)task).AsyncWaitHandle.")]
    [InlineData("((IAsyncResult)task).AsyncWaitHandle.WaitOne(")]
    [InlineData("((IAsyncResult)missing).AsyncWaitHandle.WaitOne()")]
    [InlineData("((IAsyncResult)task).AsyncWaitHandle.WaitOne(1, 2, 3)")]
    [InlineData("WaitHandle.WaitAll(new[] { ((IAsyncResult)task).AsyncWaitHandle, })")]
    [InlineData("WaitHandle.WaitAll(new[] { ((IAsyncResult)task).AsyncWaitHandle, missing })")]
    [InlineData("((IAsyncResult)(Task)null!).AsyncWaitHandle.WaitOne(")]
    public async Task IncompleteOrInvalidCode_DoesNotThrow(string statement)
    {
        // Half-typed code may still report where the call is complete; it must never throw.
        Assert.InRange(await HalfTypedCode.CountDiagnosticsAsync(new Analyzers.Rules.AsyncWaitHandleAnalyzer(), "Task task", statement), 0, 1);
    }

    [Fact]
    public async Task OlderLanguageVersion_Reports()
    {
        await new Verify.Test
        {
            OnCSharp73NetFramework = true,
            TestCode = /* lang=c#-test */ """
                using System;
                using System.Threading.Tasks;

                class C
                {
                    void M(Task t) { [|((IAsyncResult)t).AsyncWaitHandle|].WaitOne(); }
                }
                """,
        }.RunAsync();
    }

    /// <summary>
    /// A property pattern reads the handle of the pattern's input: reported where that input is a task, without a fix;
    /// an IAsyncResult that may not be a task, and a pattern nested in another's property, are not.
    /// </summary>
    [Fact]
    public async Task PropertyPatternsOnATask_AreReportedWithoutAFix()
    {
        const string Code = /* lang=c#-test */ """
            using System;
            using System.Threading.Tasks;

            class Holder { public IAsyncResult Result = Task.CompletedTask; }

            class C
            {
                bool Is(Task task) => task is IAsyncResult { [|AsyncWaitHandle|]: var handle } && handle.WaitOne(10);
                bool Switch(Task<int> task) => task switch { IAsyncResult { [|AsyncWaitHandle|]: var handle } => handle.WaitOne(10), _ => false };
                bool Apm(IAsyncResult result) => result is { AsyncWaitHandle: var handle } && handle.WaitOne(10);
                bool Nested(Holder holder) => holder is { Result: { AsyncWaitHandle: var handle } } && handle.WaitOne(10);
            }
            """;
        await Verify.VerifyCodeFixAsync(Code, Code);
    }
}
