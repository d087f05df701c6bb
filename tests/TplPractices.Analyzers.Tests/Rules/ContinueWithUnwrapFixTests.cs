using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp;
using TplPractices.Analyzers.Tests.Verifiers;
using Verify = TplPractices.Analyzers.Tests.Verifiers.CSharpCodeFixVerifier<
    TplPractices.Analyzers.Rules.ContinueWithUnwrapAnalyzer,
    TplPractices.Analyzers.CodeFixes.Rules.ContinueWithUnwrapFixer>;

namespace TplPractices.Analyzers.Tests.Rules;

/// <summary>TPL0002: the await rewrite, and every shape it leaves alone (reported without a fix).</summary>
public sealed class ContinueWithUnwrapFixTests
{
    [Fact]
    public async Task ReturnedChains_BecomeSequentialAwaits()
    {
        await Verify.VerifyCodeFixAsync(ContinueWithUnwrapCases.Before, ContinueWithUnwrapCases.After);
    }

    /// <summary>The same file shared with netstandard2.0 and .NET Framework, as a multi-targeted library has it.</summary>
    [Fact]
    public async Task MultiTargetedProject_EveryTargetCompilesTheFix()
    {
        await new Verify.Test
        {
            TestCode = ContinueWithUnwrapCases.Before,
            FixedCode = ContinueWithUnwrapCases.After,
            LinkedTargets = { TestTarget.NetStandard20, TestTarget.Net472 },
        }.RunAsync();
    }

    [Fact]
    public async Task ChainInsideAContinuation_BothRewritten()
    {
        await Verify.VerifyCodeFixAsync(/* lang=c#-test */ """
            using System.Threading.Tasks;

            class C
            {
                static Task A() => Task.Delay(1);

                Task Nested() =>
                    [|A().ContinueWith(_ => Task.Run(() => [|A().ContinueWith(_ => A()).Unwrap()|])).Unwrap()|];
            }
            """, /* lang=c#-test */ """
            using System.Threading.Tasks;

            class C
            {
                static Task A() => Task.Delay(1);

                async Task Nested()
                {
                    await A().ConfigureAwait(false);
                    await Task.Run(async () =>
                    {
                        await A().ConfigureAwait(false);
                        await A().ConfigureAwait(false);
                    }).ConfigureAwait(false);
                }
            }
            """);
    }

    /// <summary>
    /// The inner chain is what the outer link returns. Fix All rewrites the inner chain first, which makes that link's
    /// lambda async and takes apart the node the outer fix was to await: the outer chain is left, reported without a fix
    /// afterwards (an async continuation is no link the fix inlines). Fixed one at a time from the top, the outer chain
    /// goes first and the inner one is then awaited, no longer returned, and has no fix. Both ends are stable.
    /// </summary>
    [Fact]
    public async Task ChainReturnedByALink_InnerRewritten_OuterLeftWithoutAFix()
    {
        await new Verify.Test
        {
            TestCode = /* lang=c#-test */ """
                using System.Threading.Tasks;

                class C
                {
                    static Task A() => Task.Delay(1);
                    static Task<int> B() => Task.FromResult(2);

                    Task Nested() =>
                        [|A().ContinueWith(_ => [|B().ContinueWith(b => Task.FromResult(b.Result + 1)).Unwrap()|]).Unwrap()|];
                }
                """,
            FixedState =
            {
                MarkupHandling = Microsoft.CodeAnalysis.Testing.MarkupMode.Allow,
                Sources =
                {
                    /* lang=c#-test */ """
                    using System.Threading.Tasks;

                    class C
                    {
                        static Task A() => Task.Delay(1);
                        static Task<int> B() => Task.FromResult(2);

                        async Task Nested()
                        {
                            await A().ConfigureAwait(false);
                            await [|B().ContinueWith(b => Task.FromResult(b.Result + 1)).Unwrap()|].ConfigureAwait(false);
                        }
                    }
                    """,
                },
            },
            BatchFixedState =
            {
                MarkupHandling = Microsoft.CodeAnalysis.Testing.MarkupMode.Allow,
                Sources =
                {
                    /* lang=c#-test */ """
                    using System.Threading.Tasks;

                    class C
                    {
                        static Task A() => Task.Delay(1);
                        static Task<int> B() => Task.FromResult(2);

                        Task Nested() =>
                            [|A().ContinueWith(async _ =>
                            {
                                var result = await B().ConfigureAwait(false);
                                return result + 1;
                            }).Unwrap()|];
                    }
                    """,
                },
            },
        }.RunAsync();
    }

    [Fact]
    public async Task TypedChainReturnedAsTask_AwaitsWithoutReturningAValue()
    {
        await Verify.VerifyCodeFixAsync(/* lang=c#-test */ """
            using System.Threading.Tasks;

            class C
            {
                [System.Obsolete]
                Task M(Task t)
                {
                    if (t == null) throw new System.ArgumentNullException(nameof(t));
                    return [|t.ContinueWith(_ => Task.FromResult(1)).Unwrap()|];
                }

                Task<int> Conditional(Task<bool> flag) =>
                    [|flag.ContinueWith(f => f.Result ? Task.FromResult(1) : Task.FromResult(2)).Unwrap()|]; // picks one
            }
            """, /* lang=c#-test */ """
            using System.Threading.Tasks;

            class C
            {
                [System.Obsolete]
                async Task M(Task t)
                {
                    if (t == null) throw new System.ArgumentNullException(nameof(t));
                    await t.ConfigureAwait(false);
                }

                async Task<int> Conditional(Task<bool> flag)
                {
                    var result = await flag.ConfigureAwait(false);
                    return await (result ? Task.FromResult(1) : Task.FromResult(2)).ConfigureAwait(false);
                } // picks one
            }
            """);
    }

    [Fact]
    public async Task ShapesAwaitCannotKeep_ReportWithoutFix()
    {
        const string Source = /* lang=c#-test */ """
            using System;
            using System.Threading;
            using System.Threading.Tasks;

            class C
            {
                static Task A() => Task.Delay(1);
                static Task<int> B() => Task.FromResult(1);
                static Task Next(Task previous) => previous;

                // The continuation inspects its antecedent's outcome.
                Task Status(Task t) => [|t.ContinueWith(p => p.IsFaulted ? A() : B()).Unwrap()|];
                Task Exception(Task t) => [|t.ContinueWith(p => p.Exception == null ? A() : B()).Unwrap()|];
                Task Passed(Task t) => [|t.ContinueWith(p => Next(p)).Unwrap()|];

                // Options, schedulers and tokens have no await equivalent.
                Task Options(Task t) => [|t.ContinueWith(_ => A(), TaskContinuationOptions.OnlyOnRanToCompletion).Unwrap()|];
                Task Scheduler(Task t) => [|t.ContinueWith(_ => A(), TaskScheduler.Default).Unwrap()|];
                Task Token(Task t, CancellationToken c) => [|t.ContinueWith(_ => A(), c).Unwrap()|];

                // Not a plain lambda returning a task.
                Task AsyncLambda(Task t) => [|t.ContinueWith(async _ => await A()).Unwrap()|];
                Task MethodGroup(Task t) => [|t.ContinueWith(Next).Unwrap()|];
                Task Block(Task t) => [|t.ContinueWith(_ => { Console.WriteLine(); return A(); }).Unwrap()|];
                Task OutVar(Task<string> t) => [|t.ContinueWith(p => int.TryParse(p.Result, out var n) ? A() : B()).Unwrap()|];

                // Not returned, or from a function that cannot become async.
                void Stored(Task t) { var chained = [|t.ContinueWith(_ => A()).Unwrap()|]; }
                Task Property => [|A().ContinueWith(_ => A()).Unwrap()|];
                Task RefParameter(ref int x) => [|A().ContinueWith(_ => A()).Unwrap()|];
                object NotATask() => [|A().ContinueWith(_ => A()).Unwrap()|];
                async Task AlreadyAsync() => await [|A().ContinueWith(_ => A()).Unwrap()|];
                Task<int> OtherReturns(bool b)
                {
                    if (b) return B();
                    return [|A().ContinueWith(_ => B()).Unwrap()|];
                }

                readonly object _gate = new object();
                Task Locked() { lock (_gate) { return [|A().ContinueWith(_ => A()).Unwrap()|]; } }

                Task Loop(int count)
                {
                    Task current = A();
                    for (var i = 0; i < count; i++) current = [|current.ContinueWith(_ => A()).Unwrap()|];
                    return current;
                }
            }
            """;
        await Verify.VerifyCodeFixAsync(Source, Source);
    }

    [Fact]
    public async Task NamesInScope_AreNotReused()
    {
        await Verify.VerifyCodeFixAsync(/* lang=c#-test */ """
            using System.Threading.Tasks;

            class C
            {
                int result = 3;

                Task<int> M(Task<int> t)
                {
                    var result2 = 4;
                    return [|t.ContinueWith(x => Task.FromResult(x.Result + result + result2)).Unwrap()|];
                }
            }
            """, /* lang=c#-test */ """
            using System.Threading.Tasks;

            class C
            {
                int result = 3;

                async Task<int> M(Task<int> t)
                {
                    var result2 = 4;
                    var result3 = await t.ConfigureAwait(false);
                    return result3 + result + result2;
                }
            }
            """);
    }

    [Fact]
    public async Task EmbeddedReturn_GetsABlock_AndStillReturns()
    {
        await Verify.VerifyCodeFixAsync(/* lang=c#-test */ """
            using System;
            using System.Threading.Tasks;

            class C
            {
                public static Task M(Task t, bool valid)
                {
                    if (valid)
                        return [|t.ContinueWith(_ => Task.Delay(1)).Unwrap()|];
                    throw new InvalidOperationException();
                }
            }
            """, /* lang=c#-test */ """
            using System;
            using System.Threading.Tasks;

            class C
            {
                public static async Task M(Task t, bool valid)
                {
                    if (valid)
                    {
                        await t.ConfigureAwait(false);
                        await Task.Delay(1).ConfigureAwait(false);
                        return;
                    }
                    throw new InvalidOperationException();
                }
            }
            """);
    }

    [Fact]
    public async Task TopLevelStatementsLambda_IsRewritten()
    {
        await new Verify.Test
        {
            TestState = { OutputKind = OutputKind.ConsoleApplication },
            TestCode = /* lang=c#-test */ """
                using System;
                using System.Threading.Tasks;

                Func<Task> run = () => [|Task.Delay(1).ContinueWith(_ => Task.Delay(2)).Unwrap()|];
                await run();
                """,
            FixedCode = /* lang=c#-test */ """
                using System;
                using System.Threading.Tasks;

                Func<Task> run = async () =>
                {
                    await Task.Delay(1).ConfigureAwait(false);
                    await Task.Delay(2).ConfigureAwait(false);
                };
                await run();
                """,
        }.RunAsync();
    }

    [Fact]
    public async Task CSharp73OnNetFramework_IsRewritten()
    {
        await new Verify.Test
        {
            OnCSharp73NetFramework = true,
            TestCode = /* lang=c#-test */ """
                using System.Threading.Tasks;

                class C
                {
                    public Task<string> M(Task<int> t) => [|t.ContinueWith(x => Task.FromResult(x.Result.ToString())).Unwrap()|];
                }
                """,
            FixedCode = /* lang=c#-test */ """
                using System.Threading.Tasks;

                class C
                {
                    public async Task<string> M(Task<int> t)
                    {
                        var result = await t.ConfigureAwait(false);
                        return result.ToString();
                    }
                }
                """,
        }.RunAsync();
    }

    /// <summary>
    /// Comments between the chain's links survive the rewrite; a function holding an #if gets no fix, since a branch
    /// another target compiles might return a task of its own, which an async function cannot.
    /// </summary>
    [Fact]
    public async Task CommentsBetweenLinks_Survive_AFunctionHoldingAnIf_HasNoFix()
    {
        await new Verify.Test
        {
            FixedState = { MarkupHandling = Microsoft.CodeAnalysis.Testing.MarkupMode.Allow },
            TestCode = /* lang=c#-test */ """
                using System.Threading.Tasks;

                class C
                {
                    Task Step(int n) => Task.Delay(n);

                    Task Commented() =>
                        [|Step(1) // first
                            .ContinueWith(_ => Step(2)) /* then */ .Unwrap()|];

                    Task Conditional()
                    {
                #if NET
                        return Step(3);
                #else
                        return [|Step(1).ContinueWith(_ => Step(2)).Unwrap()|];
                #endif
                    }
                }
                """,
            FixedCode = /* lang=c#-test */ """
                using System.Threading.Tasks;

                class C
                {
                    Task Step(int n) => Task.Delay(n);

                    // first
                    /* then */
                    async Task Commented()
                    {
                        await Step(1).ConfigureAwait(false);
                        await Step(2).ConfigureAwait(false);
                    }

                    Task Conditional()
                    {
                #if NET
                        return Step(3);
                #else
                        return [|Step(1).ContinueWith(_ => Step(2)).Unwrap()|];
                #endif
                    }
                }
                """,
        }.RunAsync();
    }

    /// <summary>
    /// A caller that drops the task (<c>Steps();</c>) would draw CS4014 once the method is async, an error under
    /// TreatWarningsAsErrors: the method is left as it is.
    /// </summary>
    [Fact]
    public async Task MethodWhoseTaskACallerDrops_IsLeftAlone()
    {
        const string Code = /* lang=c#-test */ """
            using System.Threading.Tasks;

            class C
            {
                Task Step(int n) => Task.Delay(n);

                Task Steps() => [|Step(1).ContinueWith(_ => Step(2)).Unwrap()|];

                void FireAndForget() => Steps();
            }
            """;
        await new Verify.Test
        {
            TestCode = Code,
            FixedCode = Code,
            FixedState = { MarkupHandling = Microsoft.CodeAnalysis.Testing.MarkupMode.Allow },
            CompilerDiagnostics = Microsoft.CodeAnalysis.Testing.CompilerDiagnostics.Warnings,
        }.RunAsync();
    }
}
