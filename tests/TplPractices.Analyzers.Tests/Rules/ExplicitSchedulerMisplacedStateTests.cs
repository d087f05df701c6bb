using Microsoft.CodeAnalysis.Testing;
using TplPractices.Analyzers.CodeFixes.Rules;
using TplPractices.Analyzers.Rules;
using TplPractices.Analyzers.Tests.Gauntlet;
using TplPractices.Analyzers.Tests.Verifiers;
using Verify = TplPractices.Analyzers.Tests.Verifiers.CSharpCodeFixVerifier<
    TplPractices.Analyzers.Rules.ExplicitSchedulerAnalyzer,
    TplPractices.Analyzers.CodeFixes.Rules.ExplicitSchedulerFixer>;

namespace TplPractices.Analyzers.Tests.Rules;

/// <summary>
/// TPL0019 where a delegate with a parameter (<c>_ =&gt; Loop()</c>) made the call pick the overload with a state: the
/// token, options or scheduler written after it became the state, and the task runs without it (Websocket.Client's
/// long-running sender, MQTTnet's keep-alive monitor). The exact fix would write that mistake out as
/// <c>LongRunning, CancellationToken.None, TaskCreationOptions.None</c>, so these sites are not in Fix All; the site's
/// fix moves the argument to its own place under a title that says the task then runs differently.
/// </summary>
public sealed class ExplicitSchedulerMisplacedStateTests
{
    private const string Usings = """
        using System;
        using System.Threading;
        using System.Threading.Tasks;

        """;

    private static string Class(string members) => Usings + "class C\n{\n" + members + "\n    void Loop() { }\n}\n";

    private static DiagnosticResult Misplaced(int location, string name, string argument, string place, string outcome) =>
        Verify.Diagnostic().WithLocation(location).WithArguments(
            name,
            "passes '" + argument + "' to its delegate as the state, not as its " + place
                + ", because a delegate that takes a parameter picks the overload with a state: the task runs " + outcome + "; pass it in its own place");

    private static Task VerifyOneSiteAsync(string before, string after, params DiagnosticResult[] expected) =>
        VerifyOneSiteAsync(before, after, shared: false, expected);

    private static async Task VerifyOneSiteAsync(string before, string after, bool shared, params DiagnosticResult[] expected)
    {
        var test = new Verify.Test
        {
            SharedByNetStandardAndNet10 = shared,
            TestCode = before,
            FixedCode = after,
            CodeFixTestBehaviors = CodeFixTestBehaviors.SkipFixAllCheck,
            NumberOfIncrementalIterations = expected.Length,
            CodeActionEquivalenceKey = ExplicitSchedulerFixer.EquivalenceKey + "_OneSite",
            CodeActionVerifier = (action, verifier) => verifier.True(action.Title.EndsWith("(" + ExplicitScheduler.PassInPlaceReason + ")", StringComparison.Ordinal), action.Title),
        };
        test.ExpectedDiagnostics.AddRange(expected);
        await test.RunAsync();
    }

    [Fact]
    public async Task OptionsTakenAsTheState_MoveToTheOptions()
    {
        var before = Class("""
                Task Send(CancellationToken token) => Task.Factory.{|#0:StartNew|}(_ => Loop(), TaskCreationOptions.LongRunning, token);
            """);
        var after = Class("""
                Task Send(CancellationToken token) => Task.Factory.StartNew(_ => Loop(), null, token, TaskCreationOptions.LongRunning, TaskScheduler.Current);
            """);
        await VerifyOneSiteAsync(before, after, Misplaced(0, "StartNew", "TaskCreationOptions.LongRunning", "options", "without those options"));
    }

    /// <summary>A file netstandard2.0 compiles at C# 7.3 and net10.0 with nullable on takes the same text in both copies.</summary>
    [Fact]
    public async Task InAFileSharedWithNetStandard_TheSameFix()
    {
        var before = Class("""
                Task Send(CancellationToken token) => Task.Factory.{|#0:StartNew|}(_ => Loop(), TaskCreationOptions.LongRunning, token);
            """);
        var after = Class("""
                Task Send(CancellationToken token) => Task.Factory.StartNew(_ => Loop(), null, token, TaskCreationOptions.LongRunning, TaskScheduler.Current);
            """);
        await VerifyOneSiteAsync(before, after, shared: true, Misplaced(0, "StartNew", "TaskCreationOptions.LongRunning", "options", "without those options"));
    }

    [Fact]
    public async Task ATokenTakenAsTheState_MovesToTheToken()
    {
        var before = Class("""
                Task Monitor(CancellationToken token) => Task.Factory.{|#0:StartNew|}(_ => Loop(), token, TaskCreationOptions.LongRunning);
            """);
        var after = Class("""
                Task Monitor(CancellationToken token) => Task.Factory.StartNew(_ => Loop(), null, token, TaskCreationOptions.LongRunning, TaskScheduler.Current);
            """);
        await VerifyOneSiteAsync(before, after, Misplaced(0, "StartNew", "token", "cancellation token", "without that token"));
    }

    [Fact]
    public async Task ASchedulerTakenAsTheState_MovesToTheScheduler()
    {
        var before = Class("""
                Task Start() => Task.Factory.{|#0:StartNew|}(_ => Loop(), TaskScheduler.Default);
                Task Then(Task t) => t.{|#1:ContinueWith|}((_, __) => Loop(), TaskContinuationOptions.ExecuteSynchronously);
            """);
        var after = Class("""
                Task Start() => Task.Factory.StartNew(_ => Loop(), null, CancellationToken.None, TaskCreationOptions.None, TaskScheduler.Default);
                Task Then(Task t) => t.ContinueWith((_, __) => Loop(), null, CancellationToken.None, TaskContinuationOptions.ExecuteSynchronously, TaskScheduler.Current);
            """);
        await VerifyOneSiteAsync(
            before,
            after,
            Misplaced(0, "StartNew", "TaskScheduler.Default", "scheduler", "on TaskScheduler.Current"),
            Misplaced(1, "ContinueWith", "TaskContinuationOptions.ExecuteSynchronously", "options", "without those options"));
    }

    /// <summary>
    /// <c>_ =&gt; { _ = PumpAsync(); }</c> writes its lone parameter <c>_</c> (C# binds it to the parameter, not a
    /// discard) and never reads it: the options are still not meant for the delegate. (Written without the braces, the
    /// lambda returns the value it assigns, and picks <c>StartNew&lt;object&gt;</c>: that stays a read.)
    /// </summary>
    [Fact]
    public async Task ADelegateThatOnlyWritesItsParameter_IgnoresTheState()
    {
        var before = Class("""
                Task Pump() => Task.Factory.{|#0:StartNew|}(_ => { _ = PumpAsync(); }, TaskCreationOptions.LongRunning);
                static Task PumpAsync() => Task.CompletedTask;
            """);
        var after = Class("""
                Task Pump() => Task.Factory.StartNew(_ => { _ = PumpAsync(); }, null, CancellationToken.None, TaskCreationOptions.LongRunning, TaskScheduler.Current);
                static Task PumpAsync() => Task.CompletedTask;
            """);
        await VerifyOneSiteAsync(before, after, Misplaced(0, "StartNew", "TaskCreationOptions.LongRunning", "options", "without those options"));
    }

    /// <summary>
    /// No fix where moving the argument is not all it takes: options of the other enum (<c>StartNew</c> takes no
    /// continuation options), a place the call fills already, a state named as such, or a factory whose defaults the
    /// fix cannot spell.
    /// </summary>
    [Fact]
    public async Task WhereMovingIsNotEnough_ReportedWithoutAFix()
    {
        var code = Class("""
                private readonly TaskFactory _factory = new TaskFactory();

                Task D() => Task.Factory.{|#2:StartNew|}(_ => Loop(), TaskContinuationOptions.ExecuteSynchronously);
                Task E(CancellationToken first, CancellationToken second) => Task.Factory.{|#3:StartNew|}(_ => Loop(), first, second);
                Task F() => Task.Factory.{|#4:StartNew|}(_ => Loop(), state: TaskCreationOptions.LongRunning);
                Task G() => _factory.{|#5:StartNew|}(_ => Loop(), TaskCreationOptions.LongRunning);
            """);
        var test = new Verify.Test { TestCode = code, FixedCode = code };
        test.ExpectedDiagnostics.Add(Misplaced(2, "StartNew", "TaskContinuationOptions.ExecuteSynchronously", "options", "without those options"));
        test.ExpectedDiagnostics.Add(Misplaced(3, "StartNew", "first", "cancellation token", "without that token"));
        test.ExpectedDiagnostics.Add(Misplaced(4, "StartNew", "TaskCreationOptions.LongRunning", "options", "without those options"));
        test.ExpectedDiagnostics.Add(Misplaced(5, "StartNew", "TaskCreationOptions.LongRunning", "options", "without those options"));
        await test.RunAsync();
    }

    /// <summary>
    /// A state meant as one keeps the exact fix: a value or a string, and a token or options a delegate reads (TPL0001's
    /// fix passes a captured token as the state so, and the rules must agree in either order) or a method group receives.
    /// </summary>
    [Fact]
    public async Task AStateMeantAsOne_KeepsTheExactFix()
    {
        var before = Class("""
                Task A() => Task.Factory.[|StartNew|](s => Console.WriteLine(s), 42);
                Task B() => Task.Factory.[|StartNew|](_ => Loop(), "name");
                Task D(CancellationToken token) => Task.Factory.[|StartNew|](static state => Console.WriteLine(((CancellationToken)state!).IsCancellationRequested), token);
                Task E(Action<object?> work) => Task.Factory.[|StartNew|](work, TaskCreationOptions.LongRunning);
            """);
        var after = Class("""
                Task A() => Task.Factory.StartNew(s => Console.WriteLine(s), 42, CancellationToken.None, TaskCreationOptions.None, TaskScheduler.Current);
                Task B() => Task.Factory.StartNew(_ => Loop(), "name", CancellationToken.None, TaskCreationOptions.None, TaskScheduler.Current);
                Task D(CancellationToken token) => Task.Factory.StartNew(
                    static state => Console.WriteLine(((CancellationToken)state!).IsCancellationRequested),
                    token,
                    CancellationToken.None,
                    TaskCreationOptions.None,
                    TaskScheduler.Current);
                Task E(Action<object?> work) => Task.Factory.StartNew(
                    work,
                    TaskCreationOptions.LongRunning,
                    CancellationToken.None,
                    TaskCreationOptions.None,
                    TaskScheduler.Current);
            """);
        await Verify.VerifyCodeFixAsync(before, after);
    }

    private const string Runs = """
        using System;
        using System.Threading;
        using System.Threading.Tasks;

        public static class Api
        {
            // Whether the work got a thread of its own, as LongRunning asks.
            public static string OwnThread() =>
                Task.Factory.StartNew(_ => Thread.CurrentThread.IsThreadPoolThread ? "pool" : "own", TaskCreationOptions.LongRunning).Result;

            // Whether a token canceled before the start keeps the work from running.
            public static string Canceled()
            {
                using var source = new CancellationTokenSource();
                source.Cancel();
                var task = Task.Factory.StartNew(_ => "ran", source.Token);
                try { return task.Result; } catch (AggregateException) { return task.Status.ToString(); }
            }
        }
        """;

    /// <summary>The site's fix does what the call was written to do: a thread of its own, a start the token cancels.</summary>
    [Theory]
    [InlineData("OwnThread", "returned pool", "returned own")]
    [InlineData("Canceled", "returned ran", "returned Canceled")]
    public async Task TheMovedArgument_TakesEffect(string method, string before, string after)
    {
        var fixedCode = await FormatRun.FixEachSiteAsync(Runs, DiagnosticIds.ExplicitScheduler);
        var flat = string.Concat(fixedCode.Where(c => !char.IsWhiteSpace(c)));
        Assert.True(flat.Contains("null,CancellationToken.None,TaskCreationOptions.LongRunning,", StringComparison.Ordinal), fixedCode);
        Assert.True(flat.Contains("null,source.Token,TaskCreationOptions.None,", StringComparison.Ordinal), fixedCode);
        Assert.Equal(before, await CodeRunner.RunAsync(Runs, "Api", method));
        Assert.Equal(after, await CodeRunner.RunAsync(fixedCode, "Api", method));
    }
}
