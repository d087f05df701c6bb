using Microsoft.CodeAnalysis.Testing;
using TplPractices.Analyzers.CodeFixes.Rules;
using TplPractices.Analyzers.Rules;
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

    /// <summary>
    /// The await lets the thread go where WaitOne held it: the caller runs on before the task is done. So the await fix is
    /// offered one site at a time, its title saying so, and Fix All leaves these waits alone.
    /// </summary>
    private static Verify.Test AwaitedOneSiteAtATime(TestTarget target, string fixedCode) => new()
    {
        Target = target,
        TestCode = AsyncWaitHandleCases.AsyncBefore,
        FixedCode = fixedCode,
        CodeFixTestBehaviors = CodeFixTestBehaviors.SkipFixAllCheck,
        CodeActionEquivalenceKey = AsyncWaitHandleFixer.EquivalenceKey + "_OneSite",
        CodeActionVerifier = (action, verifier) => verifier.True(action.Title.EndsWith("(" + AsyncWaitHandleUse.AwaitReason + ")", StringComparison.Ordinal), action.Title),
    };

    [Theory]
    [InlineData(TestTarget.Net80)]
    [InlineData(TestTarget.Net100)]
    public async Task AsyncWaitOne_OnNet80AndLater_AwaitsWithSuppressThrowing(TestTarget target)
    {
        await AwaitedOneSiteAtATime(target, AsyncWaitHandleCases.AsyncAfterNet80).RunAsync();
    }

    [Fact]
    public async Task AsyncWaitOne_OnNetStandard_AwaitsWhenAny()
    {
        await AwaitedOneSiteAtATime(TestTarget.NetStandard20, AsyncWaitHandleCases.AsyncAfterNetStandard).RunAsync();
    }

    /// <summary>net8.0 would await with SuppressThrowing, netstandard2.0 cannot: the shared file gets WhenAny.</summary>
    [Fact]
    public async Task MultiTargetedProject_GetsTheFormEveryTargetCompiles()
    {
        var test = AwaitedOneSiteAtATime(TestTarget.Net80, AsyncWaitHandleCases.AsyncAfterNetStandard);
        test.LinkedTargets.Add(TestTarget.NetStandard20);
        await test.RunAsync();

        var sync = new Verify.Test { Target = TestTarget.Net80, TestCode = AsyncWaitHandleCases.SyncBefore, FixedCode = AsyncWaitHandleCases.SyncAfter };
        sync.LinkedTargets.Add(TestTarget.NetStandard20);
        await sync.RunAsync();
    }

    /// <summary>Fix All (and dotnet format) rewrites the blocking waits, which stay blocking, and leaves the awaitable ones.</summary>
    [Fact]
    public async Task FixAll_LeavesTheWaitsAnAwaitWouldReplace()
    {
        const string Before = """
            using System;
            using System.Threading.Tasks;

            public static class Waits
            {
                public static bool Blocking(Task t) => [|((IAsyncResult)t).AsyncWaitHandle|].WaitOne();

                public static async Task Awaitable(Task t)
                {
                    [|((IAsyncResult)t).AsyncWaitHandle|].WaitOne();
                    await Task.Yield();
                }
            }
            """;
        await new Verify.Test
        {
            TestCode = Before,
            FixedState =
            {
                Sources = { Before.Replace("=> [|((IAsyncResult)t).AsyncWaitHandle|].WaitOne();", "=> Task.WaitAny(t) == 0;", StringComparison.Ordinal) },
                MarkupHandling = MarkupMode.Allow,
            },
            CodeActionEquivalenceKey = AsyncWaitHandleFixer.EquivalenceKey,
        }.RunAsync();
    }

    /// <summary>
    /// A void method's expression body discards the wait's result as a statement does: <c>Task.WaitAny(t)</c> stands
    /// there alone (<c>Task.WaitAny(t) == 0</c> is no statement, so the fix was withheld). A lambda's body keeps no fix:
    /// its wait, which returns an int, could bind another overload of the call it is given to.
    /// </summary>
    [Fact]
    public async Task AVoidExpressionBody_TakesTheWaitAsAStatement()
    {
        const string Before = """
            using System;
            using System.Threading.Tasks;

            public static class Waits
            {
                public static void Blocking(Task t) => [|((IAsyncResult)t).AsyncWaitHandle|].WaitOne();

                public static void Local(Task t)
                {
                    void Wait() => [|((IAsyncResult)t).AsyncWaitHandle|].WaitOne();
                    Wait();
                }

                public static Action Later(Task t) => () => [|((IAsyncResult)t).AsyncWaitHandle|].WaitOne();
            }
            """;
        await new Verify.Test
        {
            TestCode = Before,
            FixedState =
            {
                Sources =
                {
                    Before
                        .Replace("Blocking(Task t) => [|((IAsyncResult)t).AsyncWaitHandle|].WaitOne();", "Blocking(Task t) => Task.WaitAny(t);", StringComparison.Ordinal)
                        .Replace("void Wait() => [|((IAsyncResult)t).AsyncWaitHandle|].WaitOne();", "void Wait() => Task.WaitAny(t);", StringComparison.Ordinal),
                },
                MarkupHandling = MarkupMode.Allow,
            },
        }.RunAsync();
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
