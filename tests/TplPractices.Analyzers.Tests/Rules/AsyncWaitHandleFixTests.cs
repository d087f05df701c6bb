using TplPractices.Analyzers.Tests.Verifiers;
using Verify = TplPractices.Analyzers.Tests.Verifiers.CSharpCodeFixVerifier<
    TplPractices.Analyzers.Rules.AsyncWaitHandleAnalyzer,
    TplPractices.Analyzers.CodeFixes.Rules.AsyncWaitHandleFixer>;

namespace TplPractices.Analyzers.Tests.Rules;

/// <summary>TPL0004: each rewrite; AsyncWaitHandleBehaviourTests runs them on faulted and canceled tasks.</summary>
public sealed class AsyncWaitHandleFixTests
{
    [Fact]
    public async Task SyncWaitOne_BecomesTaskWaitAny()
    {
        await Verify.VerifyCodeFixAsync(AsyncWaitHandleCases.SyncBefore, AsyncWaitHandleCases.SyncAfter);
    }

    [Theory]
    [InlineData(TestTarget.Net80)]
    [InlineData(TestTarget.Net100)]
    public async Task AsyncWaitOne_OnNet80AndLater_AwaitsWithSuppressThrowing(TestTarget target)
    {
        await Verify.VerifyCodeFixAsync(AsyncWaitHandleCases.AsyncBefore, AsyncWaitHandleCases.AsyncAfterNet80, target);
    }

    [Fact]
    public async Task AsyncWaitOne_OnNetStandard_AwaitsWhenAny()
    {
        await Verify.VerifyCodeFixAsync(AsyncWaitHandleCases.AsyncBefore, AsyncWaitHandleCases.AsyncAfterNetStandard, TestTarget.NetStandard20);
    }

    /// <summary>net8.0 would await with SuppressThrowing, netstandard2.0 cannot: the shared file gets WhenAny.</summary>
    [Fact]
    public async Task MultiTargetedProject_GetsTheFormEveryTargetCompiles()
    {
        var test = new Verify.Test { Target = TestTarget.Net80, TestCode = AsyncWaitHandleCases.AsyncBefore, FixedCode = AsyncWaitHandleCases.AsyncAfterNetStandard };
        test.LinkedTargets.Add(TestTarget.NetStandard20);
        await test.RunAsync();

        var sync = new Verify.Test { Target = TestTarget.Net80, TestCode = AsyncWaitHandleCases.SyncBefore, FixedCode = AsyncWaitHandleCases.SyncAfter };
        sync.LinkedTargets.Add(TestTarget.NetStandard20);
        await sync.RunAsync();
    }

    [Fact]
    public async Task WaitHandleWaitAllAndWaitAny_BecomeTaskWaits()
    {
        await Verify.VerifyCodeFixAsync(AsyncWaitHandleCases.ManyBefore, AsyncWaitHandleCases.ManyAfter);
    }

    [Fact]
    public async Task ShapesWithoutAnEquivalent_ReportWithoutFix()
    {
        const string Source = /* lang=c#-test */ """
            using System;
            using System.Threading;
            using System.Threading.Tasks;

            class C
            {
                WaitHandle Stored(Task t) => [|((IAsyncResult)t).AsyncWaitHandle|];

                bool ExitContext(Task t) => [|((IAsyncResult)t).AsyncWaitHandle|].WaitOne(10, false);

                int AnyWithTimeout(Task a, Task b) =>
                    WaitHandle.WaitAny(new[] { [|((IAsyncResult)a).AsyncWaitHandle|], [|((IAsyncResult)b).AsyncWaitHandle|] }, 10);

                bool Mixed(Task a, ManualResetEvent signal) =>
                    WaitHandle.WaitAll(new WaitHandle[] { [|((IAsyncResult)a).AsyncWaitHandle|], signal });

                void Handles(Task a, Task b)
                {
                    var handles = new[] { [|((IAsyncResult)a).AsyncWaitHandle|], [|((IAsyncResult)b).AsyncWaitHandle|] };
                    WaitHandle.WaitAll(handles);
                }
            }
            """;
        await Verify.VerifyCodeFixAsync(Source, Source);
    }

    [Fact]
    public async Task AwaitIsNotUsedWhereItCannotCompile()
    {
        // C# 13 allows a Span local in an async method, but not alive across an await.
        await new Verify.Test
        {
            LanguageVersion = Microsoft.CodeAnalysis.CSharp.LanguageVersion.CSharp13,
            TestCode =
            /* lang=c#-test */ """
            using System;
            using System.Threading.Tasks;

            class C
            {
                private readonly object _gate = new object();

                async Task InLock(Task t)
                {
                    lock (_gate)
                    {
                        [|((IAsyncResult)t).AsyncWaitHandle|].WaitOne();
                    }

                    await Task.Yield();
                }

                async Task WithSpan(Task t)
                {
                    Span<int> buffer = stackalloc int[4];
                    buffer[0] = 1;
                    [|((IAsyncResult)t).AsyncWaitHandle|].WaitOne();
                    await Task.Yield();
                }

                async Task<bool> ResultUsed(Task t)
                {
                    await Task.Yield();
                    return [|((IAsyncResult)t).AsyncWaitHandle|].WaitOne();
                }
            }
            """,
            FixedCode = /* lang=c#-test */ """
            using System;
            using System.Threading.Tasks;

            class C
            {
                private readonly object _gate = new object();

                async Task InLock(Task t)
                {
                    lock (_gate)
                    {
                        Task.WaitAny(t);
                    }

                    await Task.Yield();
                }

                async Task WithSpan(Task t)
                {
                    Span<int> buffer = stackalloc int[4];
                    buffer[0] = 1;
                    Task.WaitAny(t);
                    await Task.Yield();
                }

                async Task<bool> ResultUsed(Task t)
                {
                    await Task.Yield();
                    return Task.WaitAny(t) == 0;
                }
            }
            """,
        }.RunAsync();
    }

    [Fact]
    public async Task MissingUsing_IsAdded()
    {
        await Verify.VerifyCodeFixAsync(
            /* lang=c#-test */ """
            class C
            {
                bool M(System.Threading.Tasks.Task t) => [|((System.IAsyncResult)t).AsyncWaitHandle|].WaitOne(50);
            }
            """,
            /* lang=c#-test */ """
            using System.Threading.Tasks;

            class C
            {
                bool M(System.Threading.Tasks.Task t) => Task.WaitAny(new Task[] { t }, 50) == 0;
            }
            """);
    }

    [Fact]
    public void EquivalenceKey_IsStableAndNamesTheRule()
    {
        Assert.Equal("TPL0004_WaitOnTask", TplPractices.Analyzers.CodeFixes.Rules.AsyncWaitHandleFixer.EquivalenceKey);
    }
}
