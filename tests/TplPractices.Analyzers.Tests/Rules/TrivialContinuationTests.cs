using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp;
using Microsoft.CodeAnalysis.Testing;
using TplPractices.Analyzers.Rules;
using TplPractices.Analyzers.Tests.Verifiers;
using Verify = TplPractices.Analyzers.Tests.Verifiers.CSharpCodeFixVerifier<
    TplPractices.Analyzers.Rules.TrivialContinuationAnalyzer,
    TplPractices.Analyzers.CodeFixes.Rules.TrivialContinuationFixer>;

namespace TplPractices.Analyzers.Tests.Rules;

/// <summary>TPL0011: ContinueWith with a provably trivial lambda and no ExecuteSynchronously; the fix adds the flag.</summary>
public sealed class TrivialContinuationTests
{
    private const string Usings = """
        using System;
        using System.Collections.Generic;
        using System.Threading;
        using System.Threading.Tasks;

        """;

    /// <summary>
    /// The class the cases sit in. Its source runs its continuations asynchronously: a continuation that completes it
    /// can run inline without moving the source's awaiters (a source of unknown making gets no fix, below).
    /// </summary>
    private static string Class(string members) =>
        Usings + "class C\n{\n    private bool _done;\n    private int _last;\n"
        + "    private readonly TaskCompletionSource<int> _source = new TaskCompletionSource<int>(TaskCreationOptions.RunContinuationsAsynchronously);\n"
        + members + "\n}\n";

    private const string Completes = "completes a TaskCompletionSource";
    private const string Sets = "sets a field or variable";
    private const string Returns = "returns the antecedent's result or status";

    [Fact]
    public async Task EveryTrivialShape_GetsTheFlag()
    {
        var before = Class("""
                void A(Task t) => t.{|#0:ContinueWith|}(_ => _source.TrySetResult(1));
                void B(Task<int> t) => t.{|#1:ContinueWith|}(x => x.Result + 1);
                void D(Task t) => t.{|#2:ContinueWith|}(_ => { _done = true; });
                void E(Task t) => t.{|#3:ContinueWith|}(x => x.Status);
                void F(Task<int> t) => t.{|#4:ContinueWith|}(x =>
                {
                    if (x.IsFaulted) _source.TrySetException(x.Exception!.InnerExceptions);
                    else _source.TrySetResult(x.Result);
                });
                void G(Task<int> t) => t.{|#5:ContinueWith|}((x, state) => ((TaskCompletionSource<int>)state!).TrySetResult(x.Result), new TaskCompletionSource<int>(TaskCreationOptions.RunContinuationsAsynchronously));
                void H(Task<int> t) => t.{|#6:ContinueWith|}(x => { _last = x.IsCanceled ? -1 : x.Result; });
            """);
        var after = Class("""
                void A(Task t) => t.ContinueWith(_ => _source.TrySetResult(1), TaskContinuationOptions.ExecuteSynchronously);
                void B(Task<int> t) => t.ContinueWith(x => x.Result + 1, TaskContinuationOptions.ExecuteSynchronously);
                void D(Task t) => t.ContinueWith(_ => { _done = true; }, TaskContinuationOptions.ExecuteSynchronously);
                void E(Task t) => t.ContinueWith(x => x.Status, TaskContinuationOptions.ExecuteSynchronously);
                void F(Task<int> t) => t.ContinueWith(x =>
                {
                    if (x.IsFaulted) _source.TrySetException(x.Exception!.InnerExceptions);
                    else _source.TrySetResult(x.Result);
                }, TaskContinuationOptions.ExecuteSynchronously);
                void G(Task<int> t) => t.ContinueWith(
                    (x, state) => ((TaskCompletionSource<int>)state!).TrySetResult(x.Result),
                    new TaskCompletionSource<int>(TaskCreationOptions.RunContinuationsAsynchronously),
                    TaskContinuationOptions.ExecuteSynchronously);
                void H(Task<int> t) => t.ContinueWith(x => { _last = x.IsCanceled ? -1 : x.Result; }, TaskContinuationOptions.ExecuteSynchronously);
            """);
        var test = new Verify.Test { TestCode = before, FixedCode = after };
        test.ExpectedDiagnostics.Add(Verify.Diagnostic().WithLocation(0).WithArguments(Completes));
        test.ExpectedDiagnostics.Add(Verify.Diagnostic().WithLocation(1).WithArguments(Returns));
        test.ExpectedDiagnostics.Add(Verify.Diagnostic().WithLocation(2).WithArguments(Sets));
        test.ExpectedDiagnostics.Add(Verify.Diagnostic().WithLocation(3).WithArguments(Returns));
        test.ExpectedDiagnostics.Add(Verify.Diagnostic().WithLocation(4).WithArguments(Completes));
        test.ExpectedDiagnostics.Add(Verify.Diagnostic().WithLocation(5).WithArguments(Completes));
        test.ExpectedDiagnostics.Add(Verify.Diagnostic().WithLocation(6).WithArguments(Sets));
        await test.RunAsync();
    }

    /// <summary>
    /// Arguments written with the null-forgiving operator are written arguments: the flag joins the options as written,
    /// and a token moves to the four-part overload with the call's own token. Such calls got no fix before (the rule
    /// read only arguments whose syntax the compiler gives as written, and it marks these implicit).
    /// </summary>
    [Fact]
    public async Task ArgumentsWrittenWithTheNullForgivingOperator_KeepTheirPlace()
    {
        var before = Class("""
                void A(Task t) => t.[|ContinueWith|](_ => _source.TrySetResult(1), TaskContinuationOptions.OnlyOnRanToCompletion!);
                void B(Task<int> t, CancellationToken token) => t.[|ContinueWith|](x => x.Result, token!);
            """);
        var after = Class("""
                void A(Task t) => t.ContinueWith(
                    _ => _source.TrySetResult(1),
                    TaskContinuationOptions.OnlyOnRanToCompletion! | TaskContinuationOptions.ExecuteSynchronously);
                void B(Task<int> t, CancellationToken token) => t.ContinueWith(x => x.Result, token!, TaskContinuationOptions.ExecuteSynchronously, TaskScheduler.Current);
            """);
        await Verify.VerifyCodeFixAsync(before, after);
    }

    [Fact]
    public async Task OptionsThatArePassed_KeepEveryOtherFlag()
    {
        var before = Class("""
                void A(Task t) => t.[|ContinueWith|](_ => _source.TrySetResult(1), TaskContinuationOptions.OnlyOnRanToCompletion);
                void B(Task t) => t.[|ContinueWith|](_ => _source.TrySetResult(1), TaskContinuationOptions.None);
                void D(Task<int> t) => t.[|ContinueWith|](x => x.Result, CancellationToken.None, TaskContinuationOptions.DenyChildAttach | TaskContinuationOptions.HideScheduler, TaskScheduler.Default);
                void E(Task<int> t, CancellationToken token) => t.[|ContinueWith|](x => x.Result, token, TaskContinuationOptions.None, TaskScheduler.Current);
            """);
        var after = Class("""
                void A(Task t) => t.ContinueWith(
                    _ => _source.TrySetResult(1),
                    TaskContinuationOptions.OnlyOnRanToCompletion | TaskContinuationOptions.ExecuteSynchronously);
                void B(Task t) => t.ContinueWith(_ => _source.TrySetResult(1), TaskContinuationOptions.ExecuteSynchronously);
                void D(Task<int> t) => t.ContinueWith(
                    x => x.Result,
                    CancellationToken.None,
                    TaskContinuationOptions.DenyChildAttach | TaskContinuationOptions.HideScheduler | TaskContinuationOptions.ExecuteSynchronously,
                    TaskScheduler.Default);
                void E(Task<int> t, CancellationToken token) => t.ContinueWith(x => x.Result, token, TaskContinuationOptions.ExecuteSynchronously, TaskScheduler.Current);
            """);
        await Verify.VerifyCodeFixAsync(before, after);
    }

    /// <summary>
    /// A token or scheduler without options: the call moves to the overload with all four, the scheduler it used
    /// (TaskScheduler.Current) written out, as TPL0019's fix writes it. Named arguments are reported without a fix.
    /// </summary>
    [Fact]
    public async Task TokenOrSchedulerWithoutOptions_MovesToTheFullOverload()
    {
        var before = Class("""
                void A(Task<int> t, CancellationToken token) => t.[|ContinueWith|](x => x.Result, token);
                void B(Task<int> t) => t.[|ContinueWith|](x => x.Result, TaskScheduler.Default);
                void D(Task<int> t) => t.[|ContinueWith|](continuationFunction: x => x.Result);
            """);
        var after = Class("""
                void A(Task<int> t, CancellationToken token) => t.ContinueWith(x => x.Result, token, TaskContinuationOptions.ExecuteSynchronously, TaskScheduler.Current);
                void B(Task<int> t) => t.ContinueWith(x => x.Result, CancellationToken.None, TaskContinuationOptions.ExecuteSynchronously, TaskScheduler.Default);
                void D(Task<int> t) => t.[|ContinueWith|](continuationFunction: x => x.Result);
            """);
        await new Verify.Test { TestCode = before, FixedCode = after, FixedState = { MarkupHandling = MarkupMode.Allow } }.RunAsync();
    }

    [Fact]
    public async Task WhatIsNotTrivialOrCannotChange_IsNotReported()
    {
        var code = Class("""
                void Calls(Task t) => t.ContinueWith(_ => Console.WriteLine("done"));
                void Creates(Task t, List<object> all) => t.ContinueWith(_ => { _last = new List<int>().Count; });
                void OtherProperty(Task t, List<int> list) => t.ContinueWith(_ => { _last = list.Count; });
                void MethodGroup(Task t) => t.ContinueWith(Handle);
                void Async(Task t) => t.ContinueWith(async _ => { await Task.Yield(); });
                void Loop(Task t) => t.ContinueWith(_ => { for (var i = 0; i < 3; i++) _last = i; });
                void Long(Task t) => t.ContinueWith(_ => { _done = true; _last = 1; _done = false; });
                void Nested(Task t) => t.ContinueWith(_ => { Action a = () => { }; });
                void Already(Task t) => t.ContinueWith(_ => { _done = true; }, TaskContinuationOptions.ExecuteSynchronously | TaskContinuationOptions.OnlyOnFaulted);
                void LongRunning(Task t) => t.ContinueWith(_ => { _done = true; }, TaskContinuationOptions.LongRunning);
                void Variable(Task t, TaskContinuationOptions options) => t.ContinueWith(_ => { _done = true; }, options);
                void UiScheduler(Task t) => t.ContinueWith(_ => { _done = true; }, TaskScheduler.FromCurrentSynchronizationContext());
                void OwnScheduler(Task t, TaskScheduler scheduler) => t.ContinueWith(_ => { _done = true; }, CancellationToken.None, TaskContinuationOptions.None, scheduler);
                Task Factory(Task[] all) => Task.Factory.ContinueWhenAll(all, _ => { _done = true; });
                static void Handle(Task t) { }
            """);
        await Verify.VerifyAnalyzerAsync(code);
    }

    /// <summary>
    /// Trivial is what the continuation costs, not how it is spelled: text made of values the runtime formats is
    /// trivial as concatenation, interpolation or ToString alike; a switch or pattern over the status is too; a
    /// discard is a declared local nobody reads.
    /// </summary>
    [Fact]
    public async Task OneNotionOfTrivial_WhateverTheSpelling()
    {
        var before = Class("""
                void Concatenated(Task<int> t) => t.{|#0:ContinueWith|}(a => "finished: " + a.Status);
                void Interpolated(Task<int> t) => t.{|#1:ContinueWith|}(a => $"n{a.Result,4:D3} {a.IsFaulted}");
                void Formatted(Task<int> t) => t.{|#2:ContinueWith|}(a => a.Result.ToString());
                void StatusText(Task t) => t.{|#3:ContinueWith|}(a => a.Status.ToString("G"));
                void Switched(Task t) => t.{|#4:ContinueWith|}(a => a.Status switch { TaskStatus.RanToCompletion => "ok", TaskStatus.Canceled or TaskStatus.Faulted => "failed", _ => "?" });
                void Tested(Task<int> t) => t.{|#5:ContinueWith|}(a => a.Status is not TaskStatus.RanToCompletion || a.Result is > 0 and < 10);
                void Discarded(Task t) => t.{|#6:ContinueWith|}(a => { _ = a.Exception; });
                void Declared(Task t) => t.{|#7:ContinueWith|}(a => { var ignored = a.Exception; });
            """);
        var after = Class("""
                void Concatenated(Task<int> t) => t.ContinueWith(a => "finished: " + a.Status, TaskContinuationOptions.ExecuteSynchronously);
                void Interpolated(Task<int> t) => t.ContinueWith(a => $"n{a.Result,4:D3} {a.IsFaulted}", TaskContinuationOptions.ExecuteSynchronously);
                void Formatted(Task<int> t) => t.ContinueWith(a => a.Result.ToString(), TaskContinuationOptions.ExecuteSynchronously);
                void StatusText(Task t) => t.ContinueWith(a => a.Status.ToString("G"), TaskContinuationOptions.ExecuteSynchronously);
                void Switched(Task t) => t.ContinueWith(
                    a => a.Status switch { TaskStatus.RanToCompletion => "ok", TaskStatus.Canceled or TaskStatus.Faulted => "failed", _ => "?" },
                    TaskContinuationOptions.ExecuteSynchronously);
                void Tested(Task<int> t) => t.ContinueWith(
                    a => a.Status is not TaskStatus.RanToCompletion || a.Result is > 0 and < 10,
                    TaskContinuationOptions.ExecuteSynchronously);
                void Discarded(Task t) => t.ContinueWith(a => { _ = a.Exception; }, TaskContinuationOptions.ExecuteSynchronously);
                void Declared(Task t) => t.ContinueWith(a => { var ignored = a.Exception; }, TaskContinuationOptions.ExecuteSynchronously);
            """);
        var test = new Verify.Test { TestCode = before, FixedCode = after };
        for (var i = 0; i < 8; i++)
        {
            test.ExpectedDiagnostics.Add(Verify.Diagnostic().WithLocation(i).WithArguments(Returns));
        }

        await test.RunAsync();
    }

    /// <summary>Text that runs a type's own ToString, or a pattern that reads a member of another type, runs unknown code.</summary>
    [Fact]
    public async Task TextOrPatternsThatRunUserCode_AreNotReported()
    {
        await Verify.VerifyAnalyzerAsync(Usings + """
            struct Money { public override string ToString() => "¤"; }
            class C
            {
                void Concatenated(Task<Money> t) => t.ContinueWith(a => "total: " + a.Result);
                void Interpolated(Task<Money> t) => t.ContinueWith(a => $"total: {a.Result}");
                void Formatted(Task<Money> t) => t.ContinueWith(a => a.Result.ToString());
                void AnyObject(Task<object> t) => t.ContinueWith(a => "value: " + a.Result);
                void Culture(Task<int> t) => t.ContinueWith(a => a.Result.ToString(System.Globalization.CultureInfo.CurrentCulture));
                void Message(Task t) => t.ContinueWith(a => a.Exception is { Message: var m } ? m : "");
            }
            """);
    }

    /// <summary>
    /// Forwarding an outcome to a TaskCompletionSource is one completion whichever branch runs: an if counts its longer
    /// branch. A branch that itself does three things is still too much.
    /// </summary>
    [Fact]
    public async Task ForwardingTheOutcome_IsOneCompletionWhicheverWayItGoes()
    {
        var before = Class("""
                void Forward(Task<int> t) => t.[|ContinueWith|](x =>
                {
                    if (x.IsFaulted) _source.TrySetException(x.Exception!.InnerExceptions);
                    else if (x.IsCanceled) _source.TrySetCanceled();
                    else _source.TrySetResult(x.Result);
                });
                void TooMuch(Task<int> t) => t.ContinueWith(x =>
                {
                    if (x.IsFaulted) { _done = true; _last = -1; _source.TrySetCanceled(); }
                    else _source.TrySetResult(x.Result);
                });
            """);
        var after = Class("""
                void Forward(Task<int> t) => t.ContinueWith(x =>
                {
                    if (x.IsFaulted) _source.TrySetException(x.Exception!.InnerExceptions);
                    else if (x.IsCanceled) _source.TrySetCanceled();
                    else _source.TrySetResult(x.Result);
                }, TaskContinuationOptions.ExecuteSynchronously);
                void TooMuch(Task<int> t) => t.ContinueWith(x =>
                {
                    if (x.IsFaulted) { _done = true; _last = -1; _source.TrySetCanceled(); }
                    else _source.TrySetResult(x.Result);
                });
            """);
        await Verify.VerifyCodeFixAsync(before, after);
    }

    /// <summary>
    /// A continuation of a continuation is left alone however it is written: fluently, or through a local that holds
    /// the first link and that nothing else writes.
    /// </summary>
    [Fact]
    public async Task ContinuationOfAContinuation_ThroughALocal_IsNotReported()
    {
        var before = Class("""
                void Local(Task<int> s)
                {
                    var d = s.ContinueWith(x => x.Result + 1);
                    d.ContinueWith(y => { _last = y.Result; });
                }
                void Rewritten(Task<int> s, Task<int> other)
                {
                    var d = s.ContinueWith(x => x.Result + 1);
                    d = other;
                    d.[|ContinueWith|](y => { _last = y.Result; });
                }
            """);
        var after = before.Replace(
            "d.[|ContinueWith|](y => { _last = y.Result; });",
            "d.ContinueWith(y => { _last = y.Result; }, TaskContinuationOptions.ExecuteSynchronously);",
            StringComparison.Ordinal);
        await Verify.VerifyCodeFixAsync(before, after);
    }

    /// <summary>
    /// With the flag, whatever resumes on the continuation's own task runs inside the completer too: an await (a
    /// hosted service's start-up would resume inside the host's notification), a further continuation, a caller it
    /// is returned or handed to. Reported only where nothing resumes on it: dropped, or waited for by a blocked thread.
    /// </summary>
    [Fact]
    public async Task OnlyATaskNothingResumesOn_IsReported()
    {
        var before = Class("""
                void Dropped(Task t) => t.[|ContinueWith|](_ => { _done = true; });
                void Discarded(Task t) { _ = t.[|ContinueWith|](_ => { _done = true; }); }
                int Waited(Task<int> t) => t.[|ContinueWith|](x => x.Result + 1).Result;
                void Blocked(Task t) { t.[|ContinueWith|](_ => { _done = true; }).Wait(); t.[|ContinueWith|](_ => { _last = 1; }).GetAwaiter().GetResult(); }
                Task Returned(Task t) => t.ContinueWith(_ => { _done = true; });
                async Task Awaited(Task t) { await t.ContinueWith(_ => { _done = true; }); _last = 2; }
                Task Stored(Task t) { var started = t.ContinueWith(_ => { _done = true; }); return started; }
                Task[] Handed(Task t) => new[] { t.ContinueWith(_ => { _done = true; }) };
                Task Continued(Task t) => t.ContinueWith(_ => { _done = true; }).ContinueWith(_ => { _last = 3; });
            """);
        var after = Class("""
                void Dropped(Task t) => t.ContinueWith(_ => { _done = true; }, TaskContinuationOptions.ExecuteSynchronously);
                void Discarded(Task t) { _ = t.ContinueWith(_ => { _done = true; }, TaskContinuationOptions.ExecuteSynchronously); }
                int Waited(Task<int> t) => t.ContinueWith(x => x.Result + 1, TaskContinuationOptions.ExecuteSynchronously).Result;
                void Blocked(Task t)
                {
                    t.ContinueWith(_ => { _done = true; }, TaskContinuationOptions.ExecuteSynchronously).Wait();
                    t.ContinueWith(_ => { _last = 1; }, TaskContinuationOptions.ExecuteSynchronously).GetAwaiter().GetResult();
                }
                Task Returned(Task t) => t.ContinueWith(_ => { _done = true; });
                async Task Awaited(Task t) { await t.ContinueWith(_ => { _done = true; }); _last = 2; }
                Task Stored(Task t) { var started = t.ContinueWith(_ => { _done = true; }); return started; }
                Task[] Handed(Task t) => new[] { t.ContinueWith(_ => { _done = true; }) };
                Task Continued(Task t) => t.ContinueWith(_ => { _done = true; }).ContinueWith(_ => { _last = 3; });
            """);
        await Verify.VerifyCodeFixAsync(before, after);
    }

    /// <summary>A ContinueWith of the user's own type is not the TPL's.</summary>
    [Fact]
    public async Task OwnContinueWith_IsNotReported()
    {
        await Verify.VerifyAnalyzerAsync(Usings + """
            class Promise { public Promise ContinueWith(Action<Promise> next) => this; }
            class C { Promise M(Promise p) => p.ContinueWith(_ => { }); }
            """);
    }

    [Fact]
    public async Task NestedLambdasConditionalAccessAndLocalFunctions_AreReported()
    {
        var before = Class("""
                Action<Task> Make() => t => t.[|ContinueWith|](_ => { _done = true; });
                void Maybe(Task? t) => t?.[|ContinueWith|](_ => { _done = true; });
                void Local(Task t) { Next(); void Next() => t.[|ContinueWith|](x => { _done = x.IsCompleted; }); }
            """);
        var after = Class("""
                Action<Task> Make() => t => t.ContinueWith(_ => { _done = true; }, TaskContinuationOptions.ExecuteSynchronously);
                void Maybe(Task? t) => t?.ContinueWith(_ => { _done = true; }, TaskContinuationOptions.ExecuteSynchronously);
                void Local(Task t) { Next(); void Next() => t.ContinueWith(x => { _done = x.IsCompleted; }, TaskContinuationOptions.ExecuteSynchronously); }
            """);
        await Verify.VerifyCodeFixAsync(before, after);
    }

    [Fact]
    public async Task TopLevelStatements_AreReportedAndFixed()
    {
        const string Code = """
            using System.Threading.Tasks;

            var done = new TaskCompletionSource<bool>(TaskCreationOptions.RunContinuationsAsynchronously);
            var first = Task.Delay(1);
            _ = first.[|ContinueWith|](_ => done.TrySetResult(true));
            await done.Task;
            """;
        await new Verify.Test
        {
            TestCode = Code,
            FixedCode = Code.Replace("[|ContinueWith|](_ => done.TrySetResult(true))", "ContinueWith(_ => done.TrySetResult(true), TaskContinuationOptions.ExecuteSynchronously)", StringComparison.Ordinal),
            TestState = { OutputKind = OutputKind.ConsoleApplication },
        }.RunAsync();
    }

    [Fact]
    public async Task UsingStatic_AndAnAlias_AreWrittenAsTheFileNamesThem()
    {
        const string Before = """
            using System.Threading.Tasks;
            using static System.Threading.Tasks.TaskContinuationOptions;

            class C
            {
                private readonly TaskCompletionSource<int> done = new TaskCompletionSource<int>(TaskCreationOptions.RunContinuationsAsynchronously);

                void M(Task t) => t.[|ContinueWith|](_ => done.TrySetResult(1), OnlyOnRanToCompletion);
            }
            """;
        await Verify.VerifyCodeFixAsync(Before, Before.Replace("[|ContinueWith|](_ => done.TrySetResult(1), OnlyOnRanToCompletion)", "ContinueWith(_ => done.TrySetResult(1), OnlyOnRanToCompletion | ExecuteSynchronously)", StringComparison.Ordinal));
    }

    [Fact]
    public async Task FixAll_FixesEverySiteOfTheDocument()
    {
        var before = Class("""
                void A(Task t) => t.[|ContinueWith|](_ => { _done = true; });
                void B(Task t) => t.[|ContinueWith|](_ => { _done = false; }, TaskContinuationOptions.NotOnCanceled);
                int D(Task<int> t) => t.[|ContinueWith|](x => x.Result * 2).Result;
            """);
        var after = Class("""
                void A(Task t) => t.ContinueWith(_ => { _done = true; }, TaskContinuationOptions.ExecuteSynchronously);
                void B(Task t) => t.ContinueWith(_ => { _done = false; }, TaskContinuationOptions.NotOnCanceled | TaskContinuationOptions.ExecuteSynchronously);
                int D(Task<int> t) => t.ContinueWith(x => x.Result * 2, TaskContinuationOptions.ExecuteSynchronously).Result;
            """);
        await new Verify.Test { TestCode = before, FixedCode = after, NumberOfFixAllIterations = 1 }.RunAsync();
    }

    [Fact]
    public async Task OnCSharp73NetStandard_AndMultiTargeted_TheFixCompiles()
    {
        const string Before = """
            using System.Threading.Tasks;

            class C
            {
                private int _last;

                public void Keep(Task<int> t) { t.[|ContinueWith|](x => { _last = x.Result; }); }
            }
            """;
        await new Verify.Test
        {
            SharedByNetStandardAndNet10 = true,
            TestCode = Before,
            FixedCode = Before.Replace("[|ContinueWith|](x => { _last = x.Result; })", "ContinueWith(x => { _last = x.Result; }, TaskContinuationOptions.ExecuteSynchronously)", StringComparison.Ordinal),
        }.RunAsync();
    }

    /// <summary>A comment inside the options survives the fix.</summary>
    [Fact]
    public async Task CommentInTheOptions_Survives()
    {
        await Verify.VerifyCodeFixAsync(
            Class("""
                void M(Task t) => t.[|ContinueWith|](_ => { _done = true; }, /* only then */ TaskContinuationOptions.OnlyOnRanToCompletion);
            """),
            Class("""
                void M(Task t) => t.ContinueWith(
                    _ => { _done = true; },
                    /* only then */ TaskContinuationOptions.OnlyOnRanToCompletion | TaskContinuationOptions.ExecuteSynchronously);
            """));
    }

    /// <summary>
    /// TPL0001's fix unpacks the state into locals; the continuation stays trivial, so the two fixes give the same text
    /// in either order.
    /// </summary>
    [Fact]
    public async Task StateUnpackedIntoLocals_StaysTrivial()
    {
        var before = Class("""
                void A(Task<int> t) => t.[|ContinueWith|](static (x, state) => { var self = (C)state!; self._last = x.Result; }, this);
                void B(Task<int> t, int step) => t.[|ContinueWith|](static (x, state) => { var (self, by) = ((C, int))state!; self._last = x.Result + by; }, (this, step));
            """);
        var after = Class("""
                void A(Task<int> t) => t.ContinueWith(
                    static (x, state) => { var self = (C)state!; self._last = x.Result; },
                    this,
                    TaskContinuationOptions.ExecuteSynchronously);
                void B(Task<int> t, int step) => t.ContinueWith(
                    static (x, state) => { var (self, by) = ((C, int))state!; self._last = x.Result + by; },
                    (this, step),
                    TaskContinuationOptions.ExecuteSynchronously);
            """);
        await Verify.VerifyCodeFixAsync(before, after);
    }

    /// <summary>
    /// The continued variable, captured, is the antecedent when nothing writes it; a variable written elsewhere may
    /// hold a running task by the time the continuation reads it, and its Result would block.
    /// </summary>
    [Fact]
    public async Task CapturedReceiver_IsTheAntecedentOnlyWhenNothingWritesIt()
    {
        var before = Class("""
                void A(Task<int> task) => task.[|ContinueWith|](_ => _source.SetResult(task.Result));
                Task B(Task<int> task) { var c = task.ContinueWith(_ => _source.SetResult(task.Result)); task = Task.FromResult(2); return c; }
            """);
        var after = Class("""
                void A(Task<int> task) => task.ContinueWith(_ => _source.SetResult(task.Result), TaskContinuationOptions.ExecuteSynchronously);
                Task B(Task<int> task) { var c = task.ContinueWith(_ => _source.SetResult(task.Result)); task = Task.FromResult(2); return c; }
            """);
        await Verify.VerifyCodeFixAsync(before, after);
    }

    /// <summary>A link of a chain TPL0002 rewrites into awaits loses its continuation: that rule takes the site.</summary>
    [Fact]
    public async Task LinkOfAChainTheChainRuleRewrites_IsLeftToIt()
    {
        var code = Class("""
                void Chain(Task<Task<int>> t) => t.ContinueWith(x => x.Result).Unwrap();
            """);
        await Verify.VerifyAnalyzerAsync(code);
    }

    [Fact]
    public void Rule_IsASuggestion()
    {
        Assert.Equal(DiagnosticSeverity.Info, TrivialContinuationAnalyzer.Rule.DefaultSeverity);
    }

    /// <summary>
    /// A continuation that completes a source gets the flag only where the source is seen made with
    /// <c>TaskCreationOptions.RunContinuationsAsynchronously</c>: a captured local, the continuation's state (alone, or an
    /// element of the state tuple TPL0001's fix writes), a readonly field only its initializer sets. Any other source
    /// (a parameter, one made without the flag, a type derived from it, one given the continuation options' member of
    /// that name, which binds to the state overload) runs its awaiters inside the completion, and with the flag they
    /// would run on the thread that completes the antecedent: reported, no fix (a cache client's wait helper completed
    /// such a derived source from a continuation).
    /// </summary>
    [Fact]
    public async Task ASourceOfUnknownMaking_GetsNoFix()
    {
        const string Code = """
            using System.Threading;
            using System.Threading.Tasks;

            sealed class Pending<T> : TaskCompletionSource<T>
            {
            }

            class C
            {
                private readonly TaskCompletionSource<int> _plain = new TaskCompletionSource<int>();

                Task<int> Given(Task<int> t, TaskCompletionSource<int> done)
                {
                    t.[|ContinueWith|](x => done.TrySetResult(x.Result));
                    return done.Task;
                }

                Task<int> Plain(Task<int> t)
                {
                    var done = new TaskCompletionSource<int>();
                    t.[|ContinueWith|](x => done.TrySetResult(x.Result));
                    return done.Task;
                }

                Task<int> Derived(Task<int> t)
                {
                    var done = new Pending<int>();
                    t.[|ContinueWith|]((x, state) => ((Pending<int>)state!).TrySetResult(x.Result), done);
                    return done.Task;
                }

                Task<int> WrongEnum(Task<int> t)
                {
                    var done = new TaskCompletionSource<int>(TaskContinuationOptions.RunContinuationsAsynchronously);
                    t.[|ContinueWith|](x => done.TrySetResult(x.Result));
                    return done.Task;
                }

                Task<int> Field(Task<int> t)
                {
                    t.[|ContinueWith|](x => _plain.TrySetResult(x.Result));
                    return _plain.Task;
                }
            }
            """;
        await Verify.VerifyCodeFixAsync(Code, Code);
    }

    [Fact]
    public async Task ASourceMadeToRunContinuationsAsynchronously_IsFixedWhereverItIsSeen()
    {
        const string Before = """
            using System.Threading;
            using System.Threading.Tasks;

            class C
            {
                private int _seen;

                Task<int> Captured(Task<int> t)
                {
                    var done = new TaskCompletionSource<int>(TaskCreationOptions.RunContinuationsAsynchronously);
                    t.[|ContinueWith|](x => done.TrySetResult(x.Result));
                    return done.Task;
                }

                Task<int> InATuple(Task<int> t)
                {
                    var done = new TaskCompletionSource<int>(TaskCreationOptions.RunContinuationsAsynchronously);
                    t.[|ContinueWith|](
                        static (x, state) =>
                        {
                            var (self, source) = ((C, TaskCompletionSource<int>))state!;
                            self._seen = x.Result;
                            source.TrySetResult(x.Result);
                        },
                        (this, done));
                    return done.Task;
                }
            }
            """;
        var after = TestMarkup.Strip(Before)
            .Replace("t.ContinueWith(x => done.TrySetResult(x.Result));", "t.ContinueWith(x => done.TrySetResult(x.Result), TaskContinuationOptions.ExecuteSynchronously);", StringComparison.Ordinal)
            .Replace("(this, done));", "(this, done),\n            TaskContinuationOptions.ExecuteSynchronously);", StringComparison.Ordinal);
        await Verify.VerifyCodeFixAsync(Before, after);
    }

    /// <summary>
    /// A readonly field counts as made with the flag only where nothing but its initializer sets it: a constructor that
    /// replaces it (here through a tuple, which the write test reads as any assignment) may leave a source without it.
    /// </summary>
    [Fact]
    public async Task AReadonlyFieldMadeWithTheFlag_IsFixedOnlyWhereNoConstructorReplacesIt()
    {
        const string Before = """
            using System.Threading.Tasks;

            class D
            {
                private readonly TaskCompletionSource<int> _kept = new TaskCompletionSource<int>(TaskCreationOptions.RunContinuationsAsynchronously);
                private readonly TaskCompletionSource<int> _swapped = new TaskCompletionSource<int>(TaskCreationOptions.RunContinuationsAsynchronously);
                private readonly int _count;

                public D(bool fresh)
                {
                    if (fresh)
                    {
                        (this._swapped, _count) = (new TaskCompletionSource<int>(), 1);
                    }
                }

                void Kept(Task<int> t) => t.[|ContinueWith|](x => _kept.TrySetResult(x.Result));

                void Swapped(Task<int> t) => t.[|ContinueWith|](x => _swapped.TrySetResult(x.Result + _count));
            }
            """;
        var test = new Verify.Test
        {
            TestCode = Before,
            FixedCode = TestMarkup.Strip(Before).Replace(
                "t.ContinueWith(x => _kept.TrySetResult(x.Result));",
                "t.ContinueWith(x => _kept.TrySetResult(x.Result), TaskContinuationOptions.ExecuteSynchronously);",
                StringComparison.Ordinal),
        };

        // The swapped field's continuation stays reported, without a fix.
        test.FixedState.ExpectedDiagnostics.Add(Verify.Diagnostic().WithSpan(19, 36, 19, 48).WithArguments(Completes));
        await test.RunAsync();
    }
}
