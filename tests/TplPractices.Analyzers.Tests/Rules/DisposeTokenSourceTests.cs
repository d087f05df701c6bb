using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp;
using TplPractices.Analyzers.Tests.Verifiers;
using Microsoft.CodeAnalysis.Testing;
using TplPractices.Analyzers.Rules;
using Verify = TplPractices.Analyzers.Tests.Verifiers.CSharpCodeFixVerifier<
    TplPractices.Analyzers.Rules.DisposeTokenSourceAnalyzer,
    TplPractices.Analyzers.CodeFixes.Rules.DisposeTokenSourceFixer>;

namespace TplPractices.Analyzers.Tests.Rules;

/// <summary>
/// TPL0020: a local CancellationTokenSource with a timer or a parent registration that nothing disposes; the fix
/// declares it with using where nothing uses it, or its token, after its block.
/// </summary>
public sealed class DisposeTokenSourceTests
{
    private const string Usings = """
        using System;
        using System.IO;
        using System.Threading;
        using System.Threading.Tasks;

        """;

    private static string Class(string members) => Usings + "class C\n{\n" + members + "\n}\n";

    private const string Using = "declare it with using";

    private const string WhenTheWorkEnds = "dispose it when the work that uses its token ends";

    [Fact]
    public async Task TimeOutAndLinkedSources_AreDeclaredWithUsing()
    {
        var before = Class("""
                async Task<int> Read(Stream stream, byte[] buffer)
                {
                    var timeout = {|#0:new CancellationTokenSource(TimeSpan.FromSeconds(5))|};
                    return await stream.ReadAsync(buffer, 0, buffer.Length, timeout.Token).ConfigureAwait(false);
                }

                async Task Copy(Stream from, Stream to, CancellationToken outer)
                {
                    var linked = {|#1:CancellationTokenSource.CreateLinkedTokenSource(outer)|};
                    linked.CancelAfter(1000);
                    await from.CopyToAsync(to, 4096, linked.Token);
                }

                bool Enter(SemaphoreSlim gate)
                {
                    // Waits a second at most.
                    var limit = {|#2:new CancellationTokenSource()|};
                    limit.CancelAfter(TimeSpan.FromSeconds(1));
                    try { return gate.Wait(Timeout.Infinite, limit.Token); }
                    catch (OperationCanceledException) when (limit.IsCancellationRequested) { return false; }
                }
            """);
        var after = Class("""
                async Task<int> Read(Stream stream, byte[] buffer)
                {
                    using var timeout = new CancellationTokenSource(TimeSpan.FromSeconds(5));
                    return await stream.ReadAsync(buffer, 0, buffer.Length, timeout.Token).ConfigureAwait(false);
                }

                async Task Copy(Stream from, Stream to, CancellationToken outer)
                {
                    using var linked = CancellationTokenSource.CreateLinkedTokenSource(outer);
                    linked.CancelAfter(1000);
                    await from.CopyToAsync(to, 4096, linked.Token);
                }

                bool Enter(SemaphoreSlim gate)
                {
                    // Waits a second at most.
                    using var limit = new CancellationTokenSource();
                    limit.CancelAfter(TimeSpan.FromSeconds(1));
                    try { return gate.Wait(Timeout.Infinite, limit.Token); }
                    catch (OperationCanceledException) when (limit.IsCancellationRequested) { return false; }
                }
            """);
        var test = new Verify.Test { TestCode = before, FixedCode = after, FixedState = { MarkupHandling = MarkupMode.Allow } };
        test.ExpectedDiagnostics.Add(Verify.Diagnostic().WithLocation(0).WithArguments("timeout", DisposeTokenSource.Timer, Using));
        test.ExpectedDiagnostics.Add(Verify.Diagnostic().WithLocation(1).WithArguments("linked", DisposeTokenSource.TimerAndRegistration, Using));
        test.ExpectedDiagnostics.Add(Verify.Diagnostic().WithLocation(2).WithArguments("limit", DisposeTokenSource.Timer, Using));
        await test.RunAsync();
    }

    /// <summary>
    /// A source made over several lines keeps its layout behind the <c>using</c>: arguments indented from the line stay
    /// where they were (found on an application whose linked sources list their tokens one a line), arguments lined
    /// up under the first one move with it.
    /// </summary>
    [Fact]
    public async Task ASourceOverSeveralLines_KeepsItsLayoutBehindTheUsing()
    {
        var before = Class("""
                async Task Hanging(Stream stream, CancellationToken outer, CancellationToken stopping)
                {
                    var linked = {|#0:CancellationTokenSource.CreateLinkedTokenSource(
                        outer,
                        stopping
                    )|};
                    await stream.FlushAsync(linked.Token);
                }

                async Task Aligned(Stream stream, CancellationToken outer, CancellationToken stopping)
                {
                    var linked = {|#1:CancellationTokenSource.CreateLinkedTokenSource(outer,
                                                                                 stopping)|};
                    await stream.FlushAsync(linked.Token);
                }
            """);
        var after = Class("""
                async Task Hanging(Stream stream, CancellationToken outer, CancellationToken stopping)
                {
                    using var linked = CancellationTokenSource.CreateLinkedTokenSource(
                        outer,
                        stopping
                    );
                    await stream.FlushAsync(linked.Token);
                }

                async Task Aligned(Stream stream, CancellationToken outer, CancellationToken stopping)
                {
                    using var linked = CancellationTokenSource.CreateLinkedTokenSource(outer,
                                                                                       stopping);
                    await stream.FlushAsync(linked.Token);
                }
            """);
        var test = new Verify.Test { TestCode = before, FixedCode = after };
        test.ExpectedDiagnostics.Add(Verify.Diagnostic().WithLocation(0).WithArguments("linked", DisposeTokenSource.Registration, Using));
        test.ExpectedDiagnostics.Add(Verify.Diagnostic().WithLocation(1).WithArguments("linked", DisposeTokenSource.Registration, Using));
        await test.RunAsync();
    }

    [Fact]
    public async Task SourcesWithoutATimerOrParent_OrThatAreDisposedOrLeave_AreNotReported()
    {
        var code = Class("""
                private CancellationTokenSource? _field;

                Task Plain(Func<CancellationToken, Task> work) { var source = new CancellationTokenSource(); return work(source.Token); }
                Task Infinite(Func<CancellationToken, Task> work) { var source = new CancellationTokenSource(-1); return work(source.Token); }
                Task InfiniteSpan(Func<CancellationToken, Task> work) { var source = new CancellationTokenSource(Timeout.InfiniteTimeSpan); return work(source.Token); }
                async Task Using(Func<CancellationToken, Task> work) { using var source = new CancellationTokenSource(100); await work(source.Token); }
                async Task UsingStatement(Func<CancellationToken, Task> work) { using (var source = new CancellationTokenSource(100)) { await work(source.Token); } }
                async Task Finally(Func<CancellationToken, Task> work) { var source = new CancellationTokenSource(100); try { await work(source.Token); } finally { source.Dispose(); } }
                CancellationTokenSource Returned() { var source = new CancellationTokenSource(100); return source; }
                void Stored() { var source = new CancellationTokenSource(100); _field = source; }
                void Passed(Action<CancellationTokenSource> keep) { var source = new CancellationTokenSource(100); keep(source); }
                void CapturedAndDisposed() { var source = new CancellationTokenSource(100); Task.Delay(10, source.Token).ContinueWith(_ => source.Dispose()); }
                void NothingToHold(Func<CancellationToken, Task> work) { work(new CancellationTokenSource().Token).Wait(); work(new CancellationTokenSource(-1).Token).Wait(); }
                void Field() { _field = new CancellationTokenSource(100); }
            """);
        await Verify.VerifyAnalyzerAsync(code);
    }

    /// <summary>
    /// A source disposed on some paths only (in one branch, or after a return or throw that can leave first) keeps its
    /// timer on the others: reported, and the using disposes it on every path (a second Dispose does nothing).
    /// </summary>
    [Fact]
    public async Task ASourceDisposedOnSomePathsOnly_IsDeclaredWithUsing()
    {
        var before = Class("""
                async Task<bool> Branch(Func<CancellationToken, Task<bool>> work)
                {
                    var timeout = {|#0:new CancellationTokenSource(500)|};
                    var ok = await work(timeout.Token);
                    if (ok)
                    {
                        timeout.Dispose();
                    }

                    return ok;
                }

                async Task Early(Func<CancellationToken, Task> work, bool skip)
                {
                    var timeout = {|#1:new CancellationTokenSource(500)|};
                    if (skip)
                    {
                        return;
                    }

                    await work(timeout.Token);
                    timeout.Dispose();
                }

                async Task Thrown(Func<CancellationToken, Task<int>> work)
                {
                    var timeout = {|#2:new CancellationTokenSource(500)|};
                    if (await work(timeout.Token) < 0) throw new InvalidOperationException("negative");
                    timeout.Dispose();
                }

            """);
        var after = Class("""
                async Task<bool> Branch(Func<CancellationToken, Task<bool>> work)
                {
                    using var timeout = new CancellationTokenSource(500);
                    var ok = await work(timeout.Token);
                    if (ok)
                    {
                        timeout.Dispose();
                    }

                    return ok;
                }

                async Task Early(Func<CancellationToken, Task> work, bool skip)
                {
                    using var timeout = new CancellationTokenSource(500);
                    if (skip)
                    {
                        return;
                    }

                    await work(timeout.Token);
                    timeout.Dispose();
                }

                async Task Thrown(Func<CancellationToken, Task<int>> work)
                {
                    using var timeout = new CancellationTokenSource(500);
                    if (await work(timeout.Token) < 0) throw new InvalidOperationException("negative");
                    timeout.Dispose();
                }

            """);
        var test = new Verify.Test { TestCode = before, FixedCode = after, FixedState = { MarkupHandling = MarkupMode.Allow } };
        for (var i = 0; i < 3; i++)
        {
            test.ExpectedDiagnostics.Add(Verify.Diagnostic().WithLocation(i).WithArguments("timeout", DisposeTokenSource.Timer, Using));
        }

        await test.RunAsync();
    }

    /// <summary>
    /// A <c>break</c> or <c>continue</c> of the loop around the source leaves its block before the dispose, as a
    /// <c>return</c> does; the using declaration disposes on those paths too. One of a loop or switch between stays.
    /// </summary>
    [Fact]
    public async Task ASourceALoopLeavesBeforeItsDispose_IsDeclaredWithUsing()
    {
        // Not reported: the break and continue end loops inside the code between, and the switch's break its switch.
        const string InnerLoops = """
                async Task InnerLoops(Func<CancellationToken, Task<bool>> work, int[] items, int mode)
                {
                    while (true)
                    {
                        var timeout = new CancellationTokenSource(500);
                        foreach (var item in items)
                        {
                            if (item < 0) continue;
                            if (!await work(timeout.Token)) break;
                        }

                        switch (mode)
                        {
                            case 0:
                                break;
                        }

                        timeout.Dispose();
                    }
                }

            """;
        var before = Class("""
                async Task Each(Func<CancellationToken, Task<bool>> work, int[] items)
                {
                    foreach (var item in items)
                    {
                        var timeout = {|#0:new CancellationTokenSource(item)|};
                        if (item < 0) continue;
                        if (!await work(timeout.Token)) break;
                        timeout.Dispose();
                    }
                }

            """ + InnerLoops);
        var after = Class("""
                async Task Each(Func<CancellationToken, Task<bool>> work, int[] items)
                {
                    foreach (var item in items)
                    {
                        using var timeout = new CancellationTokenSource(item);
                        if (item < 0) continue;
                        if (!await work(timeout.Token)) break;
                        timeout.Dispose();
                    }
                }

            """ + InnerLoops);
        var test = new Verify.Test { TestCode = before, FixedCode = after, FixedState = { MarkupHandling = MarkupMode.Allow } };
        test.ExpectedDiagnostics.Add(Verify.Diagnostic().WithLocation(0).WithArguments("timeout", DisposeTokenSource.Timer, Using));
        await test.RunAsync();
    }

    [Fact]
    public async Task ASourceDisposedOnEveryPath_IsNotReported()
    {
        var code = Class("""
                async Task Plainly(Func<CancellationToken, Task> work)
                {
                    var timeout = new CancellationTokenSource(500);
                    await work(timeout.Token);
                    timeout.Dispose();
                }

                async Task BothBranches(Func<CancellationToken, Task<bool>> work)
                {
                    var timeout = new CancellationTokenSource(500);
                    if (await work(timeout.Token)) { timeout.Dispose(); } else { timeout.Dispose(); }
                }

                async Task ReturnInsideTheTry(Func<CancellationToken, Task<bool>> work)
                {
                    var timeout = new CancellationTokenSource(500);
                    try
                    {
                        if (await work(timeout.Token)) return;
                    }
                    finally
                    {
                        timeout.Dispose();
                    }
                }

                async Task ThrowInALambda(Func<CancellationToken, Task> work)
                {
                    var timeout = new CancellationTokenSource(500);
                    Func<int> check = () => throw new InvalidOperationException();
                    await work(timeout.Token);
                    timeout.Dispose();
                }

                async Task NullCheckedDispose(Func<CancellationToken, Task> work)
                {
                    var timeout = new CancellationTokenSource(500);
                    try { await work(timeout.Token); }
                    finally { if (timeout is not null) timeout.Dispose(); }
                }
            """);
        await Verify.VerifyAnalyzerAsync(code);
    }

    /// <summary>
    /// An early exit that disposes on its way out (<c>if (done) { timeout.Dispose(); return; }</c>, a <c>catch</c> that
    /// disposes and rethrows) leaves nothing held: with the dispose at the end, every path disposes. An exit without
    /// its own dispose, beside one with it, still leaves the timer held.
    /// </summary>
    [Fact]
    public async Task AnExitThatDisposesOnItsWayOut_CountsAsDisposed()
    {
        var before = Class("""
                async Task<bool> EarlyReturn(bool skip, Func<CancellationToken, Task> work)
                {
                    var timeout = new CancellationTokenSource(500);
                    if (skip)
                    {
                        timeout.Dispose();
                        return false;
                    }

                    await work(timeout.Token);
                    timeout.Dispose();
                    return true;
                }

                async Task Rethrow(Func<CancellationToken, Task> work)
                {
                    var timeout = new CancellationTokenSource(500);
                    try
                    {
                        await work(timeout.Token);
                    }
                    catch
                    {
                        timeout.Dispose();
                        throw;
                    }

                    timeout.Dispose();
                }

                async Task<int> OneExitForgets(int mode, Func<CancellationToken, Task> work)
                {
                    var timeout = {|#0:new CancellationTokenSource(500)|};
                    if (mode == 0) { timeout.Dispose(); return 0; }
                    if (mode == 1) return 1;
                    await work(timeout.Token);
                    timeout.Dispose();
                    return 2;
                }
            """);
        var after = before.Replace("var timeout = {|#0:new CancellationTokenSource(500)|};", "using var timeout = new CancellationTokenSource(500);");
        var test = new Verify.Test { TestCode = before, FixedCode = after };
        test.ExpectedDiagnostics.Add(Verify.Diagnostic().WithLocation(0).WithArguments("timeout", DisposeTokenSource.Timer, Using));
        await test.RunAsync();
    }

    /// <summary>
    /// A local declared without a source and given one later (<c>CancellationTokenSource source; if (…) source = new(…);
    /// else source = …;</c>) is one site, at its first write, reported without a fix: the declaration cannot take the
    /// <c>using</c>. Left alone where something disposes it (on any path: the writes may sit in the branch that
    /// disposes), where a write repeats in a loop or a lambda below the declaration, or where a write reads a source made
    /// elsewhere. A local that starts with a source of its own and is given a new one later is one site too, at the
    /// declaration's source, without a fix (a <c>using</c> local cannot be written), under the same conditions. A null
    /// test of the local keeps nothing: a `: null` choice read through one is reported too (no fix: its token goes
    /// through a <c>?:</c>).
    /// </summary>
    [Fact]
    public async Task ASourceWrittenIntoALocalLater_IsReportedWithoutAFix()
    {
        const string Dispose = "dispose it when the work that uses its token ends";
        var test = new Verify.Test
        {
            TestCode = Class("""
                CancellationTokenSource _shared = new CancellationTokenSource();

                async Task Branches(int ms, CancellationToken token, Func<CancellationToken, Task> work)
                {
                    CancellationTokenSource source;
                    if (ms > 0) source = {|#0:new CancellationTokenSource(ms)|};
                    else source = CancellationTokenSource.CreateLinkedTokenSource(token);
                    await work(source.Token);
                }

                async Task StartsNull(Func<CancellationToken, Task> work)
                {
                    CancellationTokenSource? source = null;
                    source = {|#1:new CancellationTokenSource(TimeSpan.FromSeconds(2))|};
                    await work(source.Token);
                }

                async Task DisposedInTheBranch(bool timed, Func<CancellationToken, Task> work)
                {
                    CancellationTokenSource source;
                    if (timed)
                    {
                        source = new CancellationTokenSource(500);
                        await work(source.Token);
                        source.Dispose();
                    }
                }

                async Task DisposedInAFinally(Func<CancellationToken, Task> work)
                {
                    CancellationTokenSource? source = null;
                    try
                    {
                        source = new CancellationTokenSource(500);
                        await work(source.Token);
                    }
                    finally
                    {
                        source?.Dispose();
                    }
                }

                async Task WrittenInALoop(Func<CancellationToken, Task> work)
                {
                    CancellationTokenSource source;
                    for (var i = 0; i < 3; i++)
                    {
                        source = new CancellationTokenSource(500);
                        await work(source.Token);
                    }
                }

                async Task OrShared(bool own, Func<CancellationToken, Task> work)
                {
                    CancellationTokenSource source;
                    if (own) source = new CancellationTokenSource(500);
                    else source = _shared;
                    await work(source.Token);
                }

                async Task Replaced(Func<CancellationToken, Task> work)
                {
                    var source = {|#3:new CancellationTokenSource()|};
                    source = new CancellationTokenSource(500);
                    await work(source.Token);
                }

                async Task ReplacedThenDisposed(Func<CancellationToken, Task> work)
                {
                    var source = new CancellationTokenSource();
                    source = new CancellationTokenSource(500);
                    await work(source.Token);
                    source.Dispose();
                }

                async Task ReplacedInALoop(Func<CancellationToken, Task> work)
                {
                    var source = new CancellationTokenSource();
                    while (!source.IsCancellationRequested)
                    {
                        source = new CancellationTokenSource(500);
                        await work(source.Token);
                    }
                }

                // A `: null` choice read through a null test: the token goes through a ?:, which the fix does not follow.
                async Task ChosenOrNone(CancellationToken token, Func<CancellationToken, Task> work)
                {
                    var linked = token.CanBeCanceled ? {|#2:CancellationTokenSource.CreateLinkedTokenSource(token)|} : null;
                    await work(linked != null ? linked.Token : token);
                }
            """),
        };
        test.ExpectedDiagnostics.Add(Verify.Diagnostic().WithLocation(0).WithArguments("source", DisposeTokenSource.TimerAndRegistration, Dispose));
        test.ExpectedDiagnostics.Add(Verify.Diagnostic().WithLocation(1).WithArguments("source", DisposeTokenSource.Timer, Dispose));
        test.ExpectedDiagnostics.Add(Verify.Diagnostic().WithLocation(2).WithArguments("linked", DisposeTokenSource.Registration, Dispose));
        test.ExpectedDiagnostics.Add(Verify.Diagnostic().WithLocation(3).WithArguments("source", DisposeTokenSource.Timer, Dispose));
        await test.RunAsync();
    }

    /// <summary>
    /// <c>var source = token.CanBeCanceled ? CreateLinkedTokenSource(token) : new CancellationTokenSource();</c>: every
    /// branch makes a new source (or is null), one site at the first. A branch that reads a source made elsewhere (which the using
    /// would dispose) leaves the local alone, and so does a choice of two sources that hold nothing.
    /// </summary>
    [Fact]
    public async Task ASourceChosenByAConditional_IsOneSite_WhereEveryBranchMakesOne()
    {
        var before = Class("""
                CancellationTokenSource _shared = new CancellationTokenSource();

                async Task Linked(CancellationToken token, Func<CancellationToken, Task> work)
                {
                    var source = token.CanBeCanceled ? {|#0:CancellationTokenSource.CreateLinkedTokenSource(token)|} : new CancellationTokenSource();
                    source.CancelAfter(2000);
                    await work(source.Token);
                }

                async Task Nested(int mode, Func<CancellationToken, Task> work)
                {
                    var source = mode == 0 ? {|#1:new CancellationTokenSource()|} : mode == 1 ? new CancellationTokenSource(100) : new CancellationTokenSource(200);
                    await work(source.Token);
                }

                async Task OrNone(TimeSpan? limit, Func<CancellationToken, Task> work)
                {
                    var source = limit is null ? null : {|#2:new CancellationTokenSource(limit.Value)|};
                    await work(source!.Token);
                }

                async Task Shared(bool own, Func<CancellationToken, Task> work)
                {
                    var source = own ? new CancellationTokenSource(100) : _shared;
                    await work(source.Token);
                }

                async Task NothingHeld(bool own, Func<CancellationToken, Task> work)
                {
                    var source = own ? new CancellationTokenSource() : new CancellationTokenSource(Timeout.Infinite);
                    await work(source.Token);
                }
            """);
        var after = before
            .Replace("var source = token.CanBeCanceled ? {|#0:CancellationTokenSource.CreateLinkedTokenSource(token)|}", "using var source = token.CanBeCanceled ? CancellationTokenSource.CreateLinkedTokenSource(token)")
            .Replace("var source = mode == 0 ? {|#1:new CancellationTokenSource()|}", "using var source = mode == 0 ? new CancellationTokenSource()")
            .Replace("var source = limit is null ? null : {|#2:new CancellationTokenSource(limit.Value)|};", "using var source = limit is null ? null : new CancellationTokenSource(limit.Value);");
        var test = new Verify.Test { TestCode = before, FixedCode = after };
        test.ExpectedDiagnostics.Add(Verify.Diagnostic().WithLocation(0).WithArguments("source", DisposeTokenSource.TimerAndRegistration, Using));
        test.ExpectedDiagnostics.Add(Verify.Diagnostic().WithLocation(1).WithArguments("source", DisposeTokenSource.Timer, Using));
        test.ExpectedDiagnostics.Add(Verify.Diagnostic().WithLocation(2).WithArguments("source", DisposeTokenSource.Timer, Using));
        await test.RunAsync();
    }

    /// <summary>
    /// A token that may still be in use when the block ends (given to work nobody awaits, kept in a variable): disposing
    /// the source there would stop its timer under that work. Reported, to dispose when the work ends; no fix.
    /// </summary>
    [Fact]
    public async Task ATokenThatMayOutliveTheBlock_IsReportedWithoutAFix()
    {
        var code = Class("""
                void FireAndForget(Func<CancellationToken, Task> work)
                {
                    var source = {|#0:new CancellationTokenSource(TimeSpan.FromMinutes(1))|};
                    _ = work(source.Token);
                }

                Task Kept(Func<CancellationToken, Task> work)
                {
                    var source = [|new CancellationTokenSource(100)|];
                    var token = source.Token;
                    return work(token);
                }

                // A void method of the user's may start work that keeps the token: only the runtime's own calls count as done.
                void StartedBySomeoneElse(Poller poller)
                {
                    var source = [|new CancellationTokenSource(100)|];
                    poller.Start(source.Token);
                }

                void InASwitch(int mode, Func<CancellationToken, Task> work)
                {
                    switch (mode)
                    {
                        case 1:
                            var source = [|new CancellationTokenSource(100)|];
                            work(source.Token).Wait();
                            break;
                    }
                }

                sealed class Poller { public void Start(CancellationToken token) => _ = Task.Delay(-1, token); }
            """);
        var test = new Verify.Test { TestCode = code, FixedCode = code };
        test.ExpectedDiagnostics.Add(Verify.Diagnostic().WithLocation(0).WithArguments("source", DisposeTokenSource.Timer, WhenTheWorkEnds));
        await test.RunAsync();
    }

    /// <summary>
    /// A source whose token only registers callbacks is a timer, or a watch on its parent, on purpose: its callbacks need
    /// it until it fires, and a using would stop them. Not reported. A token that goes to work as well is reported
    /// without a fix: disposed when the work ends, the source would drop the callbacks that have not run yet.
    /// </summary>
    [Fact]
    public async Task ASourceWhoseTokenOnlyRegistersCallbacks_IsNotReported()
    {
        var code = Class("""
                void Fires()
                {
                    var source = new CancellationTokenSource(1000);
                    source.Token.Register(() => Console.WriteLine("fired"));
                }

                void Later()
                {
                    var source = new CancellationTokenSource();
                    source.CancelAfter(200);
                    source.Token.UnsafeRegister(_ => Console.WriteLine("later"), null);
                }

                void Watches(CancellationToken parent)
                {
                    var linked = CancellationTokenSource.CreateLinkedTokenSource(parent);
                    linked.Token.Register(state => Console.WriteLine(state), "parent canceled");
                }

                async Task RegistersAndWorks(Func<CancellationToken, Task> work)
                {
                    var source = {|#0:new CancellationTokenSource(5000)|};
                    source.Token.Register(() => Console.WriteLine("timed out"));
                    await work(source.Token);
                }
            """);
        var test = new Verify.Test { TestCode = code, FixedCode = code };
        test.ExpectedDiagnostics.Add(Verify.Diagnostic().WithLocation(0).WithArguments("source", DisposeTokenSource.Timer, WhenTheWorkEnds));
        await test.RunAsync();
    }

    /// <summary>
    /// A local whose token the function hands out (returned, kept in a field or property, given to a new object that is
    /// returned: Proto.Actor's cache of time-out tokens, <c>return new TokenEntry(now, cts.Token);</c>) is a time-out
    /// meant to fire later, as the same token handed on from a source nothing holds is (<c>return new
    /// CancellationTokenSource(ms).Token;</c>): not reported, whatever other reads come first. A token given to work the
    /// function does not wait for still is, without a fix, and so is one a lambda hands out: the lambda, not the
    /// function, returns it. A linked source handed out (given a time-out too, kept in a field) keeps its registration on
    /// its parent until the parent ends: reported, without a fix.
    /// </summary>
    [Fact]
    public async Task ATimeOutTheFunctionHandsOut_IsNotReported()
    {
        var code = Class("""
                private CancellationToken _deadline;

                public CancellationToken Expiring { get; private set; }

                static CancellationToken After(int ms)
                {
                    var source = new CancellationTokenSource(ms);
                    return source.Token;
                }

                static CancellationToken Unheld(int ms) => new CancellationTokenSource(ms).Token;

                static (DateTime Made, CancellationToken Token) Entry(int seconds)
                {
                    var cts = new CancellationTokenSource(seconds * 1000);
                    return (DateTime.UtcNow, cts.Token);
                }

                static Tuple<DateTime, CancellationToken> Boxed(int seconds)
                {
                    var cts = new CancellationTokenSource(seconds * 1000);
                    return new Tuple<DateTime, CancellationToken>(DateTime.UtcNow, cts.Token);
                }

                void Arm(CancellationToken parent)
                {
                    var linked = {|#2:CancellationTokenSource.CreateLinkedTokenSource(parent)|};
                    linked.CancelAfter(1000);
                    _deadline = linked.Token;
                }

                void ArmProperty(int ms)
                {
                    var source = new CancellationTokenSource(ms);
                    Expiring = source.Token;
                }

                static Tuple<int, (DateTime Made, CancellationToken Token)> Nested(int seconds)
                {
                    var cts = new CancellationTokenSource(seconds * 1000);
                    return new Tuple<int, (DateTime, CancellationToken)>(seconds, (DateTime.UtcNow, cts.Token));
                }

                static CancellationToken WatchedThenReturned(Action<Action> later)
                {
                    var cts = new CancellationTokenSource(1000);
                    later(() => Console.WriteLine(cts.IsCancellationRequested));
                    return cts.Token;
                }

                async Task Started(Func<CancellationToken, Task> work)
                {
                    var source = {|#0:new CancellationTokenSource(5000)|};
                    var running = work(source.Token);
                    await running;
                }

                static Func<CancellationToken> ReturnedByALambda()
                {
                    var cts = {|#1:new CancellationTokenSource(1000)|};
                    return () => cts.Token;
                }
            """);
        var test = new Verify.Test { TestCode = code, FixedCode = code };
        test.ExpectedDiagnostics.Add(Verify.Diagnostic().WithLocation(0).WithArguments("source", DisposeTokenSource.Timer, WhenTheWorkEnds));
        test.ExpectedDiagnostics.Add(Verify.Diagnostic().WithLocation(1).WithArguments("cts", DisposeTokenSource.Timer, WhenTheWorkEnds));
        test.ExpectedDiagnostics.Add(Verify.Diagnostic().WithLocation(2).WithArguments("linked", DisposeTokenSource.TimerAndRegistration, WhenTheWorkEnds));
        await test.RunAsync();
    }

    /// <summary>
    /// The work that took the token ends before the statement does: waited for in place (<c>Wait()</c>, <c>Result</c>,
    /// <c>GetAwaiter().GetResult()</c>), or given the token through a local that only such calls read. Not fixed: a
    /// <c>Wait</c> with a time-out (it may return first), a held token read in a lambda, given to work nobody waits for,
    /// or written.
    /// </summary>
    [Fact]
    public async Task ATokenWaitedForInPlace_OrHeldInALocalReadSo_IsDeclaredWithUsing()
    {
        var before = Class("""
                int Waited(Func<CancellationToken, Task<int>> work, Func<CancellationToken, Task> other)
                {
                    var source = {|#0:new CancellationTokenSource(100)|};
                    other(source.Token).Wait();
                    other(source.Token).ConfigureAwait(false).GetAwaiter().GetResult();
                    return work(source.Token).Result;
                }

                async Task Held(Func<CancellationToken, Task> work)
                {
                    var source = {|#1:new CancellationTokenSource(TimeSpan.FromSeconds(1))|};
                    var token = source.Token;
                    token.ThrowIfCancellationRequested();
                    await work(token);
                }

                void TimedWait(Func<CancellationToken, Task> work)
                {
                    var source = [|new CancellationTokenSource(100)|];
                    work(source.Token).Wait(50);
                }

                Task Captured(Func<CancellationToken, Task> work)
                {
                    var source = [|new CancellationTokenSource(100)|];
                    var token = source.Token;
                    return Task.Run(() => work(token));
                }

                async Task Rewritten(Func<CancellationToken, Task> work)
                {
                    var source = [|new CancellationTokenSource(100)|];
                    var token = source.Token;
                    await work(token);
                    token = default;
                }
            """);
        var after = before
            .Replace("var source = {|#0:", "using var source = {|#0:", StringComparison.Ordinal)
            .Replace("var source = {|#1:", "using var source = {|#1:", StringComparison.Ordinal);
        var test = new Verify.Test { TestCode = before, FixedCode = after, FixedState = { MarkupHandling = MarkupMode.Allow } };
        test.ExpectedDiagnostics.Add(Verify.Diagnostic().WithLocation(0).WithArguments("source", DisposeTokenSource.Timer, Using));
        test.ExpectedDiagnostics.Add(Verify.Diagnostic().WithLocation(1).WithArguments("source", DisposeTokenSource.Timer, Using));
        await test.RunAsync();
    }

    /// <summary>
    /// A sequence an <c>await foreach</c> enumerates where it is made (<c>in ReadAll(token)</c>, <c>in
    /// items.WithCancellation(token)</c>): the loop disposes its enumerator when it ends, so the token's work ends with
    /// the statement, as an awaited call's does. A linked token written into the parameter of a consumer's fetch loop
    /// (the NATS .NET client's ordered consumer) was not reported; a local source here had no fix. A sequence kept in a
    /// local, or enumerated later, may still use the token: no fix. A whole source, so the gauntlet takes it too.
    /// </summary>
    [Fact]
    public async Task ATokenGivenToASequenceAnAwaitForeachEnumerates_EndsWithTheLoop()
    {
        var before = /* lang=c#-test */ """
            using System;
            using System.Collections.Generic;
            using System.Threading;
            using System.Threading.Tasks;

            class C
            {
                private readonly CancellationToken _stopping = default;

                async Task<int> Count(Func<CancellationToken, IAsyncEnumerable<int>> read)
                {
                    var timeout = {|#0:new CancellationTokenSource(TimeSpan.FromSeconds(5))|};
                    var count = 0;
                    await foreach (var item in read(timeout.Token))
                    {
                        count++;
                    }

                    return count;
                }

                async Task Drain(IAsyncEnumerable<int> items, CancellationToken outer)
                {
                    var linked = {|#1:CancellationTokenSource.CreateLinkedTokenSource(outer)|};
                    await foreach (var item in items.WithCancellation(linked.Token).ConfigureAwait(false))
                    {
                    }
                }

                async Task Fetch(Func<CancellationToken, IAsyncEnumerable<int>> read, CancellationToken token)
                {
                    token = [|CancellationTokenSource.CreateLinkedTokenSource(_stopping, token)|].Token;
                    await foreach (var item in read(token))
                    {
                    }
                }

                async Task Kept(Func<CancellationToken, IAsyncEnumerable<int>> read)
                {
                    var timeout = [|new CancellationTokenSource(1000)|];
                    var items = read(timeout.Token);
                    await foreach (var item in items)
                    {
                    }
                }
            }
            """;
        var after = before
            .Replace("var timeout = {|#0:", "using var timeout = {|#0:", StringComparison.Ordinal)
            .Replace("var linked = {|#1:", "using var linked = {|#1:", StringComparison.Ordinal);
        var test = new Verify.Test { TestCode = before, FixedCode = after, FixedState = { MarkupHandling = MarkupMode.Allow } };
        test.ExpectedDiagnostics.Add(Verify.Diagnostic().WithLocation(0).WithArguments("timeout", DisposeTokenSource.Timer, Using));
        test.ExpectedDiagnostics.Add(Verify.Diagnostic().WithLocation(1).WithArguments("linked", DisposeTokenSource.Registration, Using));
        await test.RunAsync();
    }

    /// <summary>
    /// A request's token made of a time-out and the caller's token, returned to the code that sends the request (seen
    /// in a REST client), or a token kept in a field, directly or through a local that holds it. A time-out handed out
    /// is meant to fire later, and lets its timer go when it does: not reported, as <c>return source.Token;</c> is not.
    /// A linked source handed out keeps its registration on the caller's token until that token ends, once per call:
    /// reported, without a fix, held or not. A local token that only goes to work stays reported, with the fix.
    /// </summary>
    [Fact]
    public async Task AHandedOutToken_ReportsLinkedSourcesOnly_WithoutAFix()
    {
        var before = Class("""
                CancellationToken _kept;

                static CancellationToken ForRequest(TimeSpan timeout, CancellationToken caller)
                {
                    var token = caller;
                    if (timeout != TimeSpan.Zero)
                    {
                        var limit = new CancellationTokenSource(timeout);
                        var both = {|#0:CancellationTokenSource.CreateLinkedTokenSource(caller, limit.Token)|};
                        token = both.Token;
                    }

                    return token;
                }

                static CancellationToken Direct(int ms)
                {
                    var source = new CancellationTokenSource(ms);
                    var token = source.Token;
                    return token;
                }

                void Keep(int ms)
                {
                    var source = new CancellationTokenSource(ms);
                    var token = source.Token;
                    _kept = token;
                }

                static CancellationToken Unheld(CancellationToken caller, CancellationToken other) =>
                    {|#1:CancellationTokenSource.CreateLinkedTokenSource(caller, other)|}.Token;

                static async Task Work(int ms)
                {
                    var source = {|#2:new CancellationTokenSource(ms)|};
                    var token = source.Token;
                    await Task.Delay(10, token);
                }
            """);
        var after = before
            .Replace("var source = {|#2:new CancellationTokenSource(ms)|};", "using var source = new CancellationTokenSource(ms);", StringComparison.Ordinal);
        var test = new Verify.Test { TestCode = before, FixedCode = after, FixedState = { MarkupHandling = MarkupMode.Allow } };
        test.ExpectedDiagnostics.Add(Verify.Diagnostic().WithLocation(0).WithArguments("both", DisposeTokenSource.Registration, WhenTheWorkEnds));
        test.ExpectedDiagnostics.Add(Verify.Diagnostic().WithLocation(1).WithArguments(Linked, DisposeTokenSource.Registration, WhenTheWorkEnds));
        test.ExpectedDiagnostics.Add(Verify.Diagnostic().WithLocation(2).WithArguments("source", DisposeTokenSource.Timer, Using));
        test.FixedState.ExpectedDiagnostics.Add(Verify.Diagnostic().WithLocation(0).WithArguments("both", DisposeTokenSource.Registration, WhenTheWorkEnds));
        test.FixedState.ExpectedDiagnostics.Add(Verify.Diagnostic().WithLocation(1).WithArguments(Linked, DisposeTokenSource.Registration, WhenTheWorkEnds));
        await test.RunAsync();
    }

    /// <summary>
    /// A time-out linked with the caller's token, the linked token given to work awaited in place: the time-out's token
    /// is in use only while the linked token is, so both sources take a using. Where the linked token goes to work nobody
    /// awaits, both are still reported, neither with a fix.
    /// </summary>
    [Fact]
    public async Task ATimeOutLinkedWithTheCallersToken_BothTakeAUsing()
    {
        var before = Class("""
                async Task<int> Read(Stream stream, byte[] buffer, CancellationToken caller)
                {
                    var timeout = {|#0:new CancellationTokenSource(1000)|};
                    var linked = {|#1:CancellationTokenSource.CreateLinkedTokenSource(caller, timeout.Token)|};
                    return await stream.ReadAsync(buffer, 0, buffer.Length, linked.Token);
                }

                void Started(CancellationToken caller, Func<CancellationToken, Task> work)
                {
                    var timeout = {|#2:new CancellationTokenSource(1000)|};
                    var linked = {|#3:CancellationTokenSource.CreateLinkedTokenSource(caller, timeout.Token)|};
                    _ = work(linked.Token);
                }
            """);
        var after = before
            .Replace("var timeout = {|#0:new CancellationTokenSource(1000)|};", "using var timeout = new CancellationTokenSource(1000);", StringComparison.Ordinal)
            .Replace("var linked = {|#1:CancellationTokenSource.CreateLinkedTokenSource(caller, timeout.Token)|};", "using var linked = CancellationTokenSource.CreateLinkedTokenSource(caller, timeout.Token);", StringComparison.Ordinal);
        var test = new Verify.Test { TestCode = before, FixedCode = after, FixedState = { MarkupHandling = MarkupMode.Allow } };
        test.FixedState.ExpectedDiagnostics.Add(Verify.Diagnostic().WithLocation(2).WithArguments("timeout", DisposeTokenSource.Timer, WhenTheWorkEnds));
        test.FixedState.ExpectedDiagnostics.Add(Verify.Diagnostic().WithLocation(3).WithArguments("linked", DisposeTokenSource.Registration, WhenTheWorkEnds));
        test.ExpectedDiagnostics.Add(Verify.Diagnostic().WithLocation(0).WithArguments("timeout", DisposeTokenSource.Timer, Using));
        test.ExpectedDiagnostics.Add(Verify.Diagnostic().WithLocation(1).WithArguments("linked", DisposeTokenSource.Registration, Using));
        test.ExpectedDiagnostics.Add(Verify.Diagnostic().WithLocation(2).WithArguments("timeout", DisposeTokenSource.Timer, WhenTheWorkEnds));
        test.ExpectedDiagnostics.Add(Verify.Diagnostic().WithLocation(3).WithArguments("linked", DisposeTokenSource.Registration, WhenTheWorkEnds));
        await test.RunAsync();
    }

    /// <summary>
    /// A time-out made in the linked source's own arguments, the linked token awaited in place: nothing holds the
    /// time-out, and the fix holds it in a using before the statement, whether the linked source's declaration is a
    /// using declaration or statement already or takes a using from the same Fix All (the order the fixes run in does
    /// not decide it).
    /// </summary>
    [Fact]
    public async Task AnUnheldTimeOutInALinkedSource_IsHeldInAUsing()
    {
        var before = Class("""
                async Task Run(CancellationToken caller, Func<CancellationToken, Task> work)
                {
                    var linked = [|CancellationTokenSource.CreateLinkedTokenSource(caller, [|new CancellationTokenSource(1000)|].Token)|];
                    await work(linked.Token);
                }

                async Task Declared(CancellationToken caller, Func<CancellationToken, Task> work)
                {
                    using var linked = CancellationTokenSource.CreateLinkedTokenSource(caller, [|new CancellationTokenSource(1000)|].Token);
                    await work(linked.Token);
                }

                async Task Block(CancellationToken caller, Func<CancellationToken, Task> work)
                {
                    using (var linked = CancellationTokenSource.CreateLinkedTokenSource(caller, [|new CancellationTokenSource(1000)|].Token))
                    {
                        await work(linked.Token);
                    }
                }
            """);
        var after = Class("""
                async Task Run(CancellationToken caller, Func<CancellationToken, Task> work)
                {
                    using var timeoutSource = new CancellationTokenSource(1000);
                    using var linked = CancellationTokenSource.CreateLinkedTokenSource(caller, timeoutSource.Token);
                    await work(linked.Token);
                }

                async Task Declared(CancellationToken caller, Func<CancellationToken, Task> work)
                {
                    using var timeoutSource = new CancellationTokenSource(1000);
                    using var linked = CancellationTokenSource.CreateLinkedTokenSource(caller, timeoutSource.Token);
                    await work(linked.Token);
                }

                async Task Block(CancellationToken caller, Func<CancellationToken, Task> work)
                {
                    using var timeoutSource = new CancellationTokenSource(1000);
                    using (var linked = CancellationTokenSource.CreateLinkedTokenSource(caller, timeoutSource.Token))
                    {
                        await work(linked.Token);
                    }
                }
            """);
        await new Verify.Test { TestCode = before, FixedCode = after }.RunAsync();
    }

    /// <summary>
    /// Before C# 8 a held source wraps the rest of its block in a using statement, and a source held before a statement
    /// wraps that statement: where one site's statements hold another's, Fix All takes the outer one first and the
    /// inner one on its next pass, and never edits a statement twice in one pass; sources in a block the outer using
    /// moves are held there as well.
    /// </summary>
    [Fact]
    public async Task BeforeCSharp8_SitesInOneBlock_TakeTurns()
    {
        var before = Class("""
                async Task Run(CancellationToken caller, Func<CancellationToken, Task> work)
                {
                    var timeout = [|new CancellationTokenSource(1000)|];
                    await work(timeout.Token);
                    await work([|new CancellationTokenSource(500)|].Token);
                    var linked = [|CancellationTokenSource.CreateLinkedTokenSource(caller, [|new CancellationTokenSource(200)|].Token)|];
                    await work(linked.Token);
                }

                async Task Nested(bool again, Func<CancellationToken, Task> work)
                {
                    var outer = [|new CancellationTokenSource(1000)|];
                    await work(outer.Token);
                    if (again)
                    {
                        var inner = [|new CancellationTokenSource(500)|];
                        await work(inner.Token);
                        await work([|new CancellationTokenSource(100)|].Token);
                    }
                }
            """);
        await new Verify.Test
        {
            TestCode = before,
            FixedCode = Class("""
                    async Task Run(CancellationToken caller, Func<CancellationToken, Task> work)
                    {
                        using (var timeout = new CancellationTokenSource(1000))
                        {
                            await work(timeout.Token);
                            using (var timeoutSource = new CancellationTokenSource(500))
                            {
                                await work(timeoutSource.Token);
                            }
                            using (var timeoutSource2 = new CancellationTokenSource(200))
                            {
                                using (var linked = CancellationTokenSource.CreateLinkedTokenSource(caller, timeoutSource2.Token))
                                {
                                    await work(linked.Token);
                                }
                            }
                        }
                    }

                    async Task Nested(bool again, Func<CancellationToken, Task> work)
                    {
                        using (var outer = new CancellationTokenSource(1000))
                        {
                            await work(outer.Token);
                            if (again)
                            {
                                using (var inner = new CancellationTokenSource(500))
                                {
                                    await work(inner.Token);
                                    using (var timeoutSource = new CancellationTokenSource(100))
                                    {
                                        await work(timeoutSource.Token);
                                    }
                                }
                            }
                        }
                    }
                """),
            LinkedTargets = { new LinkedTarget(TestTarget.NetStandard20, LanguageVersion.CSharp7_3, NullableContextOptions.Disable) },
        }.RunAsync();
    }

    /// <summary>
    /// Code being typed: a linked source that reads its own token in its initializer, or two that read each other's,
    /// one before its declaration. The walks from a parent's token to the linked source's token take only reads after
    /// the linked source is made, so they cannot go round; here the compiler does not bind those reads to the locals,
    /// and nothing is reported.
    /// </summary>
    [Fact]
    public async Task LinkedSourcesReadingEachOtherBeforeTheyAreMade_DoNotLoop()
    {
        var code = Class("""
                async Task Self(CancellationToken caller)
                {
                    var linked = CancellationTokenSource.CreateLinkedTokenSource(linked.Token);
                    await Task.Delay(10, linked.Token);
                }

                async Task Pair(CancellationToken caller)
                {
                    var first = CancellationTokenSource.CreateLinkedTokenSource(second.Token);
                    var second = CancellationTokenSource.CreateLinkedTokenSource(first.Token);
                    await Task.Delay(10, second.Token);
                }
            """);
        await new Verify.Test { CompilerDiagnostics = CompilerDiagnostics.None, TestCode = code, FixedCode = code }.RunAsync();
    }

    /// <summary>
    /// One file compiled for netstandard2.0 under C# 7.3 and, linked, for net10.0 with nullable warnings as errors: the
    /// using statement, which both compile, wins over the using declaration only C# 8 takes.
    /// </summary>
    [Fact]
    public async Task SharedByNetStandardAndNet10_GetsTheUsingStatement()
    {
        const string Before = """
            using System;
            using System.Threading;
            using System.Threading.Tasks;

            class C
            {
                async Task Guard(Func<CancellationToken, Task> work)
                {
                    var timeout = [|new CancellationTokenSource(100)|];
                    await work(timeout.Token);
                }

                async Task Chosen(CancellationToken token, Func<CancellationToken, Task> work)
                {
                    var linked = token.CanBeCanceled ? [|CancellationTokenSource.CreateLinkedTokenSource(token)|] : new CancellationTokenSource(100);
                    await work(linked.Token);
                }
            }
            """;
        const string After = """
            using System;
            using System.Threading;
            using System.Threading.Tasks;

            class C
            {
                async Task Guard(Func<CancellationToken, Task> work)
                {
                    using (var timeout = new CancellationTokenSource(100))
                    {
                        await work(timeout.Token);
                    }
                }

                async Task Chosen(CancellationToken token, Func<CancellationToken, Task> work)
                {
                    using (var linked = token.CanBeCanceled ? CancellationTokenSource.CreateLinkedTokenSource(token) : new CancellationTokenSource(100))
                    {
                        await work(linked.Token);
                    }
                }
            }
            """;
        await new Verify.Test { SharedByNetStandardAndNet10 = true, TestCode = Before, FixedCode = After }.RunAsync();
    }

    /// <summary>Before C# 8: a using statement around the rest of the block; two sources in one block both get one.</summary>
    [Fact]
    public async Task CSharp73_UsingStatements()
    {
        var before = Class("""
                async Task Both(Func<CancellationToken, Task> first, Func<CancellationToken, Task> second)
                {
                    var one = [|new CancellationTokenSource(100)|];
                    await first(one.Token);
                    var two = [|new CancellationTokenSource(200)|];
                    await second(two.Token);
                }
            """);
        var after = Class("""
                async Task Both(Func<CancellationToken, Task> first, Func<CancellationToken, Task> second)
                {
                    using (var one = new CancellationTokenSource(100))
                    {
                        await first(one.Token);
                        using (var two = new CancellationTokenSource(200))
                        {
                            await second(two.Token);
                        }
                    }
                }
            """);
        await new Verify.Test { TestCode = before, FixedCode = after, OnCSharp73NetFramework = true, NumberOfIncrementalIterations = 2, NumberOfFixAllIterations = 1 }.RunAsync();
    }

    /// <summary>
    /// A file that netstandard2.0 compiles at C# 7.3 beside net10.0 (a library's usual pair) gets the using statement,
    /// which both copies compile, whichever copy's diagnostic is fixed.
    /// </summary>
    [Fact]
    public async Task SharedWithCSharp73_GetsTheUsingStatementInEveryCopy()
    {
        var before = Class("""
                async Task Both(Func<CancellationToken, Task> first)
                {
                    var one = [|new CancellationTokenSource(100)|];
                    await first(one.Token);
                }
            """);
        var after = Class("""
                async Task Both(Func<CancellationToken, Task> first)
                {
                    using (var one = new CancellationTokenSource(100))
                    {
                        await first(one.Token);
                    }
                }
            """);
        await new Verify.Test
        {
            TestCode = before,
            FixedCode = after,
            LinkedTargets = { new LinkedTarget(TestTarget.NetStandard20, LanguageVersion.CSharp7_3, NullableContextOptions.Disable) },
        }.RunAsync();
    }

    [Fact]
    public async Task NestedLambdas_AndTopLevelStatements()
    {
        var before = Usings + """
            Func<Func<CancellationToken, Task>, Task> run = async work =>
            {
                var inner = [|new CancellationTokenSource(50)|];
                await work(inner.Token);
            };
            var outer = [|new CancellationTokenSource(1000)|];
            await Task.Delay(10, outer.Token);
            await run(token => Task.Delay(1, token));
            """;
        var after = Usings + """
            Func<Func<CancellationToken, Task>, Task> run = async work =>
            {
                using var inner = new CancellationTokenSource(50);
                await work(inner.Token);
            };
            using var outer = new CancellationTokenSource(1000);
            await Task.Delay(10, outer.Token);
            await run(token => Task.Delay(1, token));
            """;
        await new Verify.Test { TestCode = before, FixedCode = after, TestState = { OutputKind = OutputKind.ConsoleApplication } }.RunAsync();
    }

    private const string Hold = "hold it in a using variable";

    private const string Timed = "new CancellationTokenSource(…)";

    private const string Linked = "CancellationTokenSource.CreateLinkedTokenSource(…)";

    /// <summary>
    /// A source only its token is read from (found in Discord.Net's audio stream: a linked source per write) can never be
    /// disposed. Where the token ends with the statement and nothing before the source in the statement runs code, a
    /// using variable declared before the statement holds it.
    /// </summary>
    [Fact]
    public async Task ASourceNothingHolds_IsHeldInAUsingBeforeItsStatement()
    {
        var before = Class("""
                private readonly CancellationToken _stopping = default;

                async Task<int> Read(Stream stream, byte[] buffer)
                {
                    // Five seconds at most.
                    return await stream.ReadAsync(buffer, 0, buffer.Length, {|#0:new CancellationTokenSource(TimeSpan.FromSeconds(5))|}.Token).ConfigureAwait(false);
                }

                async Task Copy(Stream from, Stream to, CancellationToken outer)
                {
                    var timeoutSource = 1;
                    await from.CopyToAsync(to, 4096 * timeoutSource, {|#1:CancellationTokenSource.CreateLinkedTokenSource(outer, _stopping)|}.Token);
                }

                async Task<bool> Held(SemaphoreSlim gate, CancellationToken outer)
                {
                    var token = {|#2:CancellationTokenSource.CreateLinkedTokenSource(outer, _stopping)|}.Token;
                    if (await gate.WaitAsync(1000, {|#3:new CancellationTokenSource(500)|}.Token))
                    {
                        gate.Release();
                    }

                    return await gate.WaitAsync(10, token);
                }

                // A task TPL0003 would cache, and a value TPL0014 would take, count as the reads those fixes make of them.
                async Task Prepared(Func<Task<int>, int, CancellationToken, Task> work)
                {
                    await work(Task.FromResult(1000), await Task.Run(() => 5), {|#4:new CancellationTokenSource(100)|}.Token);
                }
            """);
        var after = Class("""
                private readonly CancellationToken _stopping = default;

                async Task<int> Read(Stream stream, byte[] buffer)
                {
                    // Five seconds at most.
                    using var timeoutSource = new CancellationTokenSource(TimeSpan.FromSeconds(5));
                    return await stream.ReadAsync(buffer, 0, buffer.Length, timeoutSource.Token).ConfigureAwait(false);
                }

                async Task Copy(Stream from, Stream to, CancellationToken outer)
                {
                    var timeoutSource = 1;
                    using var linkedSource = CancellationTokenSource.CreateLinkedTokenSource(outer, _stopping);
                    await from.CopyToAsync(to, 4096 * timeoutSource, linkedSource.Token);
                }

                async Task<bool> Held(SemaphoreSlim gate, CancellationToken outer)
                {
                    using var linkedSource = CancellationTokenSource.CreateLinkedTokenSource(outer, _stopping);
                    var token = linkedSource.Token;
                    using var timeoutSource = new CancellationTokenSource(500);
                    if (await gate.WaitAsync(1000, timeoutSource.Token))
                    {
                        gate.Release();
                    }

                    return await gate.WaitAsync(10, token);
                }

                // A task TPL0003 would cache, and a value TPL0014 would take, count as the reads those fixes make of them.
                async Task Prepared(Func<Task<int>, int, CancellationToken, Task> work)
                {
                    using var timeoutSource = new CancellationTokenSource(100);
                    await work(Task.FromResult(1000), await Task.Run(() => 5), timeoutSource.Token);
                }
            """);
        var test = new Verify.Test { TestCode = before, FixedCode = after };
        test.ExpectedDiagnostics.Add(Verify.Diagnostic().WithLocation(4).WithArguments(Timed, DisposeTokenSource.Timer, Hold));
        test.ExpectedDiagnostics.Add(Verify.Diagnostic().WithLocation(0).WithArguments(Timed, DisposeTokenSource.Timer, Hold));
        test.ExpectedDiagnostics.Add(Verify.Diagnostic().WithLocation(1).WithArguments(Linked, DisposeTokenSource.Registration, Hold));
        test.ExpectedDiagnostics.Add(Verify.Diagnostic().WithLocation(2).WithArguments(Linked, DisposeTokenSource.Registration, Hold));
        test.ExpectedDiagnostics.Add(Verify.Diagnostic().WithLocation(3).WithArguments(Timed, DisposeTokenSource.Timer, Hold));
        await test.RunAsync();
    }

    /// <summary>
    /// Reported, not fixed, where a using before the statement would change what happens: a call or an await before the
    /// source would now run under its timer; a source on a conditional path or in a loop's condition would be made where
    /// it was not, or once for many; a token given to work nobody awaits outlives the statement; and where no using
    /// declaration can stand (a statement alone under an if, a switch section). An expression body becomes a block
    /// (<see cref="DisposeTokenSourceExpressionBodyTests"/>).
    /// </summary>
    [Fact]
    public async Task ASourceNothingHolds_WhereAUsingWouldChangeWhatRuns_IsReportedWithoutAFix()
    {
        var code = Class("""
                async Task AfterAnAwait(Func<int, CancellationToken, Task> work, Func<Task<int>> size) => await work(await size(), [|new CancellationTokenSource(100)|].Token);
                async Task AfterACall(Func<int, CancellationToken, Task> work)
                {
                    await work(Math.Max(1, 2), [|new CancellationTokenSource(100)|].Token);
                }

                // A task's Result waits, and a Lazy's Value may run its factory: the timer would run during either.
                async Task AfterAWait(Func<int, CancellationToken, Task> work, Task<int> size, Lazy<int> lazy)
                {
                    await work(size.Result, [|new CancellationTokenSource(100)|].Token);
                    await work(lazy.Value, [|new CancellationTokenSource(100)|].Token);
                }

                async Task<int> Conditional(bool wait, Func<CancellationToken, Task<int>> work)
                {
                    var n = wait ? await work([|new CancellationTokenSource(100)|].Token) : 0;
                    while (await work([|new CancellationTokenSource(100)|].Token) > n) { }
                    if (wait) await work([|new CancellationTokenSource(100)|].Token);
                    _ = work(new CancellationTokenSource(100).Token);
                    switch (n)
                    {
                        case 1:
                            await work([|new CancellationTokenSource(100)|].Token);
                            break;
                    }

                    return n;
                }

            """);
        await new Verify.Test { TestCode = code, FixedCode = code }.RunAsync();
    }

    /// <summary>Two sources in one statement: each gets its using, one per pass of Fix All, in the order they were made.</summary>
    [Fact]
    public async Task TwoSourcesNothingHoldsInOneStatement_AreBothHeld()
    {
        var before = Class("""
                async Task Two(Func<CancellationToken, CancellationToken, Task> work, CancellationToken outer)
                {
                    await work([|new CancellationTokenSource(TimeSpan.FromSeconds(1))|].Token, [|CancellationTokenSource.CreateLinkedTokenSource(outer)|].Token);
                }
            """);
        var after = Class("""
                async Task Two(Func<CancellationToken, CancellationToken, Task> work, CancellationToken outer)
                {
                    using var timeoutSource = new CancellationTokenSource(TimeSpan.FromSeconds(1));
                    using var linkedSource = CancellationTokenSource.CreateLinkedTokenSource(outer);
                    await work(timeoutSource.Token, linkedSource.Token);
                }
            """);
        await new Verify.Test { TestCode = before, FixedCode = after, NumberOfIncrementalIterations = 2, NumberOfFixAllIterations = 1 }.RunAsync();
    }

    /// <summary>
    /// A token written into a parameter or local (<c>token = CreateLinkedTokenSource(token, _stopping).Token;</c>, one
    /// linked source per call on a token that lives as long as the object) is reported where every read of the variable
    /// ends with its statement, without a fix: the variable outlives any block a using could close. A token handed on
    /// (to a change token, to work nobody awaits, to a lambda) may be meant to fire later: not reported.
    /// </summary>
    [Fact]
    public async Task ASourceNothingHolds_WrittenIntoAVariable_OrHandedOn()
    {
        var code = Class("""
                private readonly CancellationToken _stopping = default;
                private CancellationToken _kept;

                async Task Write(Stream to, byte[] data, CancellationToken cancelToken)
                {
                    if (cancelToken.CanBeCanceled)
                        cancelToken = [|CancellationTokenSource.CreateLinkedTokenSource(cancelToken, _stopping)|].Token;
                    else
                        cancelToken = _stopping;

                    await to.WriteAsync(data, 0, data.Length, cancelToken);
                }

                void HandedOn(Func<CancellationToken, Task> work, CancellationToken token)
                {
                    _kept = new CancellationTokenSource(TimeSpan.FromMinutes(1)).Token;
                    var later = new CancellationTokenSource(1000).Token;
                    _ = work(later);
                    token = CancellationTokenSource.CreateLinkedTokenSource(token).Token;
                    Task.Run(() => work(token));
                }
            """);
        await new Verify.Test { TestCode = code, FixedCode = code }.RunAsync();
    }

    /// <summary>
    /// Before C# 8 a using block holds the source and the statement; a local the statement declares is declared before
    /// the block, with the type it was written with or the one <c>var</c> stood for, and the block assigns it.
    /// </summary>
    [Fact]
    public async Task ASourceNothingHolds_BeforeCSharp8_IsHeldInAUsingBlock()
    {
        var code = Class("""
                async Task Read(Func<CancellationToken, Task> work)
                {
                    await work([|new CancellationTokenSource(100)|].Token);
                }

                async Task<int> Count(Func<CancellationToken, Task<int>> count)
                {
                    // Counted within a second.
                    var counted = await count([|new CancellationTokenSource(1000)|].Token);
                    return counted + 1;
                }

                async Task<bool> Check(Func<CancellationToken, Task<bool>> check)
                {
                    if (await check([|new CancellationTokenSource(1000)|].Token))
                    {
                        return true;
                    }

                    return false;
                }
            """);
        var fixedCode = Class("""
                async Task Read(Func<CancellationToken, Task> work)
                {
                    using (var timeoutSource = new CancellationTokenSource(100))
                    {
                        await work(timeoutSource.Token);
                    }
                }

                async Task<int> Count(Func<CancellationToken, Task<int>> count)
                {
                    // Counted within a second.
                    int counted;
                    using (var timeoutSource = new CancellationTokenSource(1000))
                    {
                        counted = await count(timeoutSource.Token);
                    }
                    return counted + 1;
                }

                async Task<bool> Check(Func<CancellationToken, Task<bool>> check)
                {
                    using (var timeoutSource = new CancellationTokenSource(1000))
                    {
                        if (await check(timeoutSource.Token))
                        {
                            return true;
                        }
                    }

                    return false;
                }
            """);
        await new Verify.Test { TestCode = code, FixedCode = fixedCode, OnCSharp73NetFramework = true }.RunAsync();
    }

    /// <summary>
    /// Before C# 8, a statement that declares a variable in an expression (<c>is var n</c>, <c>out var x</c>) is reported
    /// without a fix: the variable is in scope after the statement, and the using block would hide it from there.
    /// </summary>
    [Fact]
    public async Task ASourceNothingHolds_BeforeCSharp8_InAStatementThatDeclaresAVariable_IsReportedWithoutAFix()
    {
        var code = Class("""
                async Task<int> Count(Func<CancellationToken, Task<int>> count)
                {
                    var counted = await count([|new CancellationTokenSource(1000)|].Token) is var n ? n + 1 : 0;
                    return counted + n;
                }
            """);
        await new Verify.Test { TestCode = code, FixedCode = code, OnCSharp73NetFramework = true }.RunAsync();
    }

    /// <summary>
    /// A library's two targets: a netstandard2.0 copy at C# 8 (a using declaration compiles there) beside net10.0 with
    /// nullable warnings on gets the using declaration in both copies; beside a netstandard2.0 copy at C# 7.3, where none
    /// compiles, every copy gets the using block.
    /// </summary>
    [Fact]
    public async Task ASourceNothingHolds_InAMultiTargetedLibrary()
    {
        var before = Class("""
                async Task<int> Read(Stream stream, byte[] buffer, CancellationToken outer)
                {
                    return await stream.ReadAsync(buffer, 0, buffer.Length, [|CancellationTokenSource.CreateLinkedTokenSource(outer)|].Token).ConfigureAwait(false);
                }
            """);
        var after = Class("""
                async Task<int> Read(Stream stream, byte[] buffer, CancellationToken outer)
                {
                    using var linkedSource = CancellationTokenSource.CreateLinkedTokenSource(outer);
                    return await stream.ReadAsync(buffer, 0, buffer.Length, linkedSource.Token).ConfigureAwait(false);
                }
            """);
        await new Verify.Test
        {
            TestCode = before,
            FixedCode = after,
            Target = TestTarget.NetStandard20,
            LanguageVersion = LanguageVersion.CSharp8,
            NullableContext = NullableContextOptions.Disable,
            LinkedTargets = { new LinkedTarget(TestTarget.Net100, LanguageVersion.CSharp12, NullableContextOptions.Enable) },
        }.RunAsync();
        var inABlock = Class("""
                async Task<int> Read(Stream stream, byte[] buffer, CancellationToken outer)
                {
                    using (var linkedSource = CancellationTokenSource.CreateLinkedTokenSource(outer))
                    {
                        return await stream.ReadAsync(buffer, 0, buffer.Length, linkedSource.Token).ConfigureAwait(false);
                    }
                }
            """);
        await new Verify.Test { TestCode = before, FixedCode = inABlock, SharedByNetStandardAndNet10 = true }.RunAsync();
    }

    /// <summary>The top-level local takes another name: the lambda's one above would clash with it (CS0136).</summary>
    [Fact]
    public async Task ASourceNothingHolds_InNestedLambdasAndTopLevelStatements()
    {
        var before = Usings + """
            Func<Func<CancellationToken, Task>, Task> run = async work =>
            {
                Func<Task> inner = async () =>
                {
                    await work([|new CancellationTokenSource(50)|].Token);
                };
                await inner();
            };
            await Task.Delay(10, [|new CancellationTokenSource(1000)|].Token);
            await run(token => Task.Delay(1, token));
            """;
        var after = Usings + """
            Func<Func<CancellationToken, Task>, Task> run = async work =>
            {
                Func<Task> inner = async () =>
                {
                    using var timeoutSource = new CancellationTokenSource(50);
                    await work(timeoutSource.Token);
                };
                await inner();
            };
            using var timeoutSource2 = new CancellationTokenSource(1000);
            await Task.Delay(10, timeoutSource2.Token);
            await run(token => Task.Delay(1, token));
            """;
        await new Verify.Test { TestCode = before, FixedCode = after, TestState = { OutputKind = OutputKind.ConsoleApplication } }.RunAsync();
    }

    /// <summary>
    /// A local source that a lambda or local function captures cannot take a using (the capture may run after the block),
    /// but where nothing there disposes it either, nothing ever does: reported without a fix (found in Discord.Net's
    /// interaction helper, a linked source only canceled by an event handler). One the capture disposes is not reported.
    /// </summary>
    [Fact]
    public async Task ACapturedSourceNothingDisposes_IsReportedWithoutAFix()
    {
        var code = Class("""
                async Task<int> WaitForEvent(Action<Action<int>> subscribe, TimeSpan timeout, CancellationToken outer)
                {
                    var result = new TaskCompletionSource<int>();
                    var wait = {|#0:CancellationTokenSource.CreateLinkedTokenSource(outer)|};
                    _ = Task.Delay(timeout, wait.Token).ContinueWith(t => result.TrySetResult(-1));
                    subscribe(Handle);
                    return await result.Task;

                    void Handle(int value)
                    {
                        wait.Cancel();
                        result.TrySetResult(value);
                    }
                }

                void Timer(Func<CancellationToken, Task> work)
                {
                    var source = {|#1:new CancellationTokenSource(100)|};
                    Task.Run(() => source.Cancel());
                }

                void DisposedByTheContinuation(Func<CancellationToken, Task> work)
                {
                    var source = new CancellationTokenSource(100);
                    work(source.Token).ContinueWith(_ => source.Dispose());
                }
            """);
        var test = new Verify.Test { TestCode = code, FixedCode = code };
        test.ExpectedDiagnostics.Add(Verify.Diagnostic().WithLocation(0).WithArguments("wait", DisposeTokenSource.Registration, WhenTheWorkEnds));
        test.ExpectedDiagnostics.Add(Verify.Diagnostic().WithLocation(1).WithArguments("source", DisposeTokenSource.Timer, WhenTheWorkEnds));
        await test.RunAsync();
    }
}
