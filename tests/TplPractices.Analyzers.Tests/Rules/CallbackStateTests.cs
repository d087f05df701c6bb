using Microsoft.CodeAnalysis.Testing;
using TplPractices.Analyzers.Rules;
using TplPractices.Analyzers.Tests.Verifiers;
using Verify = TplPractices.Analyzers.Tests.Verifiers.CSharpCodeFixVerifier<
    TplPractices.Analyzers.Rules.CallbackStateAnalyzer,
    TplPractices.Analyzers.CodeFixes.Rules.CallbackStateFixer>;

namespace TplPractices.Analyzers.Tests.Rules;

/// <summary>TPL0006: what is reported, what is reported without a fix, and what is left alone.</summary>
public sealed class CallbackStateTests
{
    /// <summary>
    /// CancellationTokenRegistration is readonly on .NET Core 3.0+ and unmarked in netstandard2.0, yet the same type:
    /// a capture of one is reported on every target alike (ReadOnlyBclStructsTests keeps the list complete).
    /// </summary>
    [Theory]
    [InlineData(TestTarget.Net100)]
    [InlineData(TestTarget.NetStandard20)]
    [InlineData(TestTarget.Net472)]
    public async Task StructsReadOnlyOnlyByAnnotation_ReportOnEveryTarget(TestTarget target)
    {
        await Verify.VerifyAnalyzerAsync(/* lang=c#-test */ """
            using System;
            using System.Threading;

            class C
            {
                void M(CancellationToken token, CancellationTokenRegistration previous)
                {
                    token.Register([|() => previous.Dispose()|]);
                }
            }
            """, target);
    }

    /// <summary>
    /// An async local function keeps its captures in a closure on the heap (its state machine cannot hold a reference to
    /// the caller's stack): a callback capturing only what it captures costs the delegate alone.
    /// </summary>
    [Fact]
    public async Task CapturesAnAsyncLocalFunctionKeeps_CostOnlyTheDelegate()
    {
        var test = new Verify.Test
        {
            TestCode = /* lang=c#-test */ """
                using System.Threading;
                using System.Threading.Tasks;

                class Waiter
                {
                    async Task<int> WaitAsync(CancellationToken token)
                    {
                        var result = new TaskCompletionSource<int>();
                        token.Register({|#0:() => result.TrySetCanceled()|});
                        await Fill();
                        return await result.Task;

                        async Task Fill()
                        {
                            await Task.Yield();
                            result.TrySetResult(1);
                        }
                    }
                }
                """,
        };
        test.ExpectedDiagnostics.Add(Verify.Diagnostic().WithLocation(0).WithArguments("'result'", "a delegate", "it"));
        await test.RunAsync();
    }

    /// <summary>
    /// A function inside the callback that uses what the callback captures (<c>items.ForEach(i => Use(i * factor))</c>)
    /// makes a closure of its own once the callback is static, but only when the callback runs: the call itself no
    /// longer makes the callback's closure and delegate. Measured (.NET 10, x64, 2026-12-05): a registration disposed
    /// unrun cost 104 B a call with a tuple's two captures and 96 B with one reference, and 32 B and 0 B in the state
    /// form; a StartNew that runs such a callback cost 232 B and 149 B. So such callbacks are reported like any other.
    /// </summary>
    [Fact]
    public async Task InnerFunctionsUsingTheCaptures_AreStillReported()
    {
        var test = new Verify.Test
        {
            TestCode = /* lang=c#-test */ """
                using System;
                using System.Collections.Generic;
                using System.Threading;

                class Walker
                {
                    private int _scale = 2;

                    void Tuple(CancellationToken token, List<int> items, int factor) =>
                        token.Register({|#0:() => items.ForEach(i => Console.WriteLine(i * factor))|});

                    void OnlyThis(CancellationToken token) =>
                        token.Register({|#1:() => new List<int> { 1 }.ForEach(i => Console.WriteLine(i * _scale))|});

                    void OneReference(CancellationToken token, List<int> items) =>
                        token.Register({|#2:() => items.ForEach(i => Console.WriteLine(i + items.Count))|});
                }
                """,
        };
        test.ExpectedDiagnostics.Add(Verify.Diagnostic().WithLocation(0).WithArguments("'items' and 'factor'", "a closure and a delegate", "them"));
        test.ExpectedDiagnostics.Add(Verify.Diagnostic().WithLocation(1).WithArguments("'this'", "a delegate", "it"));
        test.ExpectedDiagnostics.Add(Verify.Diagnostic().WithLocation(2).WithArguments("'items'", "a closure and a delegate", "it"));
        await test.RunAsync();
    }

    [Fact]
    public async Task NothingToCarry_OrAStateAlready_IsNotReported()
    {
        await Verify.VerifyAnalyzerAsync(/* lang=c#-test */ """
            using System;
            using System.Threading;

            class C
            {
                static void Log(object? o) => Console.WriteLine(o);

                void M(CancellationToken token, SynchronizationContext context, int x)
                {
                    token.Register(() => Console.WriteLine("static data only"));
                    token.Register(static () => Console.WriteLine("static"));
                    token.Register(Log, x);                                          // a method group with a state
                    token.Register(static state => Log(state), x);                   // already the state form
                    ThreadPool.QueueUserWorkItem(Log);                               // a method group
                    ThreadPool.QueueUserWorkItem(s => Log(s), x);                    // the state is used, not null
                    context.Post(_ => Log(x), "not null");                           // a state that is not null
                    Func<int> f = () => x;                                           // not a callback API
                }
            }
            """);
    }

    /// <summary>
    /// A SynchronizationContext whose Post or Send, as the project implements it, never reads its state (a test double
    /// that calls <c>d(null)</c>) would hand a state fix's callback null: the capture stays, unreported. So does a call on
    /// any type such a double derives from, the base class too (<c>SynchronizationContext.Current</c> may be the double).
    /// One that passes its state on (Rebus's test context queues the pair), and that no dropping double derives from, is
    /// reported and fixed as the base class's is in a project without such a double.
    /// </summary>
    [Fact]
    public async Task AContextOfTheProjectThatIgnoresItsState_IsNotReported()
    {
        await Verify.VerifyAnalyzerAsync(/* lang=c#-test */ """
            using System;
            using System.Collections.Generic;
            using System.Threading;

            class Dropping : SynchronizationContext
            {
                public override void Post(SendOrPostCallback d, object? state) => d(null);

                public override void Send(SendOrPostCallback d, object? ignored)
                {
                    d(null);
                }
            }

            sealed class Derived : Dropping { }

            sealed class Passing : SynchronizationContext
            {
                private readonly Queue<(SendOrPostCallback, object?)> _work = new();

                public override void Post(SendOrPostCallback d, object? state) => _work.Enqueue((d, state));
            }

            class C
            {
                static void Log(object? o) => Console.WriteLine(o);

                void M(Dropping dropping, Derived derived, Passing passing, SynchronizationContext any, int x)
                {
                    dropping.Post(_ => Log(x), null);
                    dropping.Send(_ => Log(x), null);
                    derived.Post(_ => Log(x), null);
                    passing.Post([|_ => Log(x)|], null);
                    any.Post(_ => Log(x), null);
                    SynchronizationContext.Current?.Send(_ => Log(x), null);
                }
            }
            """);
    }

    /// <summary>
    /// A context of the project that passes its state on, unsealed, with a double derived from it that drops the state:
    /// a call on the base may reach the double. Without that double it is reported, and so is the framework's base.
    /// </summary>
    [Theory]
    [InlineData(true)]
    [InlineData(false)]
    public async Task AContextADroppingDoubleDerivesFrom_IsNotReported(bool withDouble)
    {
        var code = """
            using System;
            using System.Threading;

            class Pumping : SynchronizationContext
            {
                public override void Post(SendOrPostCallback d, object? state) => ThreadPool.QueueUserWorkItem(s => d(s), state);
            }

            class C
            {
                static void Log(object? o) => Console.WriteLine(o);

                void M(Pumping pumping, SynchronizationContext any, int x)
                {
                    pumping.Post(MARK_ => Log(x)MARK, null);
                    any.Post(MARK_ => Log(x)MARK, null);
                }
            }

            """;
        code = withDouble
            ? code.Replace("MARK", "", StringComparison.Ordinal) + "class Double : Pumping { public override void Post(SendOrPostCallback d, object? state) => d(null); }\n"
            : code.Replace("MARK_", "[|_", StringComparison.Ordinal).Replace("MARK", "|]", StringComparison.Ordinal)
                // A Send that drops its state (or throws, as a context that cannot send to its own thread does) says
                // nothing of Post.
                + "class NoSend : Pumping { public override void Send(SendOrPostCallback d, object? state) => throw new NotSupportedException(); }\n";
        await Verify.VerifyAnalyzerAsync(code);
    }

    /// <summary>A copy in the state would not see the writes the closure shares.</summary>
    [Fact]
    public async Task VariablesTheClosureMustShare_AreNotReported()
    {
        await Verify.VerifyAnalyzerAsync(/* lang=c#-test */ """
            using System;
            using System.Threading;

            class C
            {
                void Written(CancellationToken token)
                {
                    var count = 0;
                    token.Register(() => Console.WriteLine(count));
                    count++;
                }

                void WrittenInside(CancellationToken token)
                {
                    var count = 0;
                    token.Register(() => count++);
                }

                void Loop(CancellationToken token)
                {
                    for (var i = 0; i < 3; i++) token.Register(() => Console.WriteLine(i));
                }
            }
            """);
    }

    [Fact]
    public async Task ShapesWithoutAFix_AreReportedWithout()
    {
        const string Source = /* lang=c#-test */ """
            using System;
            using System.Threading;

            class C
            {
                void Named(CancellationToken token, int x) => token.Register(callback: [|() => Console.WriteLine(x)|]);
                void ReadsItsState(int x) => ThreadPool.QueueUserWorkItem([|s => Console.WriteLine(s ?? x)|], null);
                void Four(CancellationToken token, int a, int b, int c, int d) => token.Register([|() => Console.WriteLine(a + b + c + d)|]);
            }
            """;
        await new Verify.Test { TestCode = Source, FixedCode = Source, FixedState = { MarkupHandling = MarkupMode.Allow } }.RunAsync();
    }

    [Fact]
    public async Task GeneratedCode_IsNotReported()
    {
        await Verify.VerifyAnalyzerAsync(/* lang=c#-test */ """
            // <auto-generated/>
            using System;
            using System.Threading;

            class C
            {
                void M(CancellationToken token, int x) => token.Register(() => Console.WriteLine(x));
            }
            """);
    }

    [Theory]
    [InlineData("token.Register(() => Console.WriteLine(x)")]
    [InlineData("ThreadPool.QueueUserWorkItem(_ => Console.WriteLine(x), ")]
    [InlineData("new Timer(_ => Console.WriteLine(x), null, 0, ")]
    public async Task HalfTypedCode_NeverThrows(string statement)
    {
        var count = await HalfTypedCode.CountDiagnosticsAsync(new CallbackStateAnalyzer(), "System.Threading.CancellationToken token, int x", statement);
        Assert.Equal(0, count); // a member with syntax errors is skipped
    }

    /// <summary>
    /// The timer or registration the statement creates is what the callback disposes: at the call the variable is
    /// still null (or default), so passing it as state would silently stop the cleanup.
    /// </summary>
    [Fact]
    public async Task VariableAssignedByTheCallsOwnStatement_IsNotReported()
    {
        await Verify.VerifyAnalyzerAsync(/* lang=c#-test */ """
            using System;
            using System.Threading;

            class C
            {
                void M(CancellationToken token)
                {
                    Timer? timer = null;
                    timer = new Timer(_ => timer?.Dispose(), null, 10, Timeout.Infinite);

                    CancellationTokenRegistration registration = default;
                    registration = token.Register(() => registration.Dispose());
                }
            }
            """);
    }
}
