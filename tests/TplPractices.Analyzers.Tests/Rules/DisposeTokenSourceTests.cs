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
                void Captured() { var source = new CancellationTokenSource(100); Task.Run(() => source.Cancel()); }
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
            """);
        await Verify.VerifyAnalyzerAsync(code);
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
        test.ExpectedDiagnostics.Add(Verify.Diagnostic().WithLocation(0).WithArguments("source", DisposeTokenSource.Timer, "dispose it when the work that uses its token ends"));
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
    /// A request's token made of a time-out and the caller's token, returned to the code that sends the request (seen
    /// in a REST client): both sources leak, neither can be disposed where it is made.
    /// </summary>
    [Fact]
    public async Task ATokenReturnedFromAHelper_ReportsBothSourcesWithoutAFix()
    {
        var code = Class("""
                static CancellationToken ForRequest(TimeSpan timeout, CancellationToken caller)
                {
                    var token = caller;
                    if (timeout != TimeSpan.Zero)
                    {
                        var limit = {|#0:new CancellationTokenSource(timeout)|};
                        var both = {|#1:CancellationTokenSource.CreateLinkedTokenSource(caller, limit.Token)|};
                        token = both.Token;
                    }

                    return token;
                }
            """);
        var test = new Verify.Test { TestCode = code, FixedCode = code };
        test.ExpectedDiagnostics.Add(Verify.Diagnostic().WithLocation(0).WithArguments("limit", DisposeTokenSource.Timer, "dispose it when the work that uses its token ends"));
        test.ExpectedDiagnostics.Add(Verify.Diagnostic().WithLocation(1).WithArguments("both", DisposeTokenSource.Registration, "dispose it when the work that uses its token ends"));
        await test.RunAsync();
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
}
