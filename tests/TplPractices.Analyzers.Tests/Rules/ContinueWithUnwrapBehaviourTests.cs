using TplPractices.Analyzers.Tests.Verifiers;

namespace TplPractices.Analyzers.Tests.Rules;

/// <summary>
/// TPL0002: runs the original chains and the awaits the fix wrote (the exact text the fix test checks) on the
/// success path, where the two must give the same results in the same order. The fault path differs on
/// purpose (a ContinueWith runs after a fault, an await does not), as docs/rules/TPL0002.md states.
/// </summary>
public sealed class ContinueWithUnwrapBehaviourTests
{
    [Theory]
    [InlineData("Flow", "21")]
    [InlineData("StaticForm", "21")]
    [InlineData("InLambda", "21")]
    [InlineData("InLocalFunction", "21")]
    [InlineData("Mixed", "21")]
    public async Task FixedCode_ReturnsWhatTheChainReturned(string method, string argument)
    {
        var original = await CodeRunner.RunAsync(TestMarkup.Strip(ContinueWithUnwrapCases.Before), "Chains", method, argument);
        var rewritten = await CodeRunner.RunAsync(TestMarkup.Strip(ContinueWithUnwrapCases.After), "Chains", method, argument);

        Assert.Equal(original, rewritten);
        Assert.StartsWith("returned", original, StringComparison.Ordinal);
    }

    [Fact]
    public async Task FixedCode_RunsTheStepsInTheSameOrder()
    {
        const string Runner = """

            public static class Run
            {
                public static async System.Threading.Tasks.Task<string> Steps()
                {
                    await Chains.Steps();
                    return Chains.Logged();
                }
            }
            """;
        var original = await CodeRunner.RunAsync(TestMarkup.Strip(ContinueWithUnwrapCases.Before) + Runner, "Run", "Steps");
        var rewritten = await CodeRunner.RunAsync(TestMarkup.Strip(ContinueWithUnwrapCases.After) + Runner, "Run", "Steps");

        Assert.Equal("returned one,two,three", original);
        Assert.Equal(original, rewritten);
    }

    /// <summary>
    /// Started on a thread with a SynchronizationContext (a UI thread's, say), the chain's continuations never
    /// run on it, and neither may the fixed code after its awaits: nothing is posted to the context.
    /// </summary>
    [Theory]
    [InlineData("Flow")]
    [InlineData("Mixed")]
    public async Task FixedCode_DoesNotResumeOnTheCallersContext(string method)
    {
        var runner = $$"""

            public static class OnContext
            {
                public static async System.Threading.Tasks.Task<string> Posts() =>
                    (await CountingContext.Run(() => Chains.{{method}}("21"))).ToString();
            }
            """ + CountingContext.Source;
        var original = await CodeRunner.RunAsync(TestMarkup.Strip(ContinueWithUnwrapCases.Before) + runner, "OnContext", "Posts");
        var rewritten = await CodeRunner.RunAsync(TestMarkup.Strip(ContinueWithUnwrapCases.After) + runner, "OnContext", "Posts");

        Assert.Equal("returned 0", original);
        Assert.Equal(original, rewritten);
    }

    private const string Caveats = /* lang=c#-test */ """
        using System;
        using System.Collections.Generic;
        using System.Threading.Tasks;

        // Shows a documented caveat of a fix: not a gauntlet input (docs/rules name the difference).
        public static class Caveats
        {
            private static readonly List<string> Log = new List<string>();

            private static Task Fail() => Task.FromException(new InvalidOperationException("one"));

            private static Task Step(string name)
            {
                Log.Add(name);
                return Task.CompletedTask;
            }

            private static Task<int> Parse(string text) => Task.Run(() => int.Parse(text));

            public static Task GoesOn() => Fail().ContinueWith(_ => Step("two")).Unwrap();

            public static Task<int> Wrapped(string text) => Parse(text).ContinueWith(t => Task.FromResult(t.Result * 2)).Unwrap();

            public static Task Validated(string name)
            {
                if (name == null) throw new ArgumentNullException(nameof(name));
                return Step(name).ContinueWith(_ => Step(name + "!")).Unwrap();
            }

            public static async Task<string> AfterAFault()
            {
                Log.Clear();
                try { await GoesOn(); } catch (InvalidOperationException) { }
                return "[" + string.Join(",", Log) + "]";
            }

            public static async Task<string> FaultType()
            {
                try { await Wrapped("x"); return "none"; } catch (Exception e) { return e.GetType().Name; }
            }

            private sealed class Counting : TaskScheduler
            {
                public int Queued;

                protected override void QueueTask(Task task)
                {
                    System.Threading.Interlocked.Increment(ref Queued);
                    System.Threading.ThreadPool.QueueUserWorkItem(_ => TryExecuteTask(task));
                }

                protected override bool TryExecuteTaskInline(Task task, bool queued) => false;

                protected override IEnumerable<Task> GetScheduledTasks() => Array.Empty<Task>();
            }

            private static Task Twice() => Step("a").ContinueWith(_ => Step("b")).Unwrap();

            public static string OnCustomScheduler()
            {
                var scheduler = new Counting();
                Task.Factory.StartNew(Twice, System.Threading.CancellationToken.None, TaskCreationOptions.None, scheduler).Unwrap().Wait();
                return scheduler.Queued > 1 ? "continuations on the scheduler" : "only the first task";
            }

            private static int _nextStepThread;

            private static Task<int> Next(int value)
            {
                _nextStepThread = Environment.CurrentManagedThreadId;
                return Task.FromResult(value + 1);
            }

            private static Task<int> AfterDone() => Task.FromResult(1).ContinueWith(t => Next(t.Result)).Unwrap();

            public static string CompletedAntecedent()
            {
                var caller = Environment.CurrentManagedThreadId;
                AfterDone().Wait();
                return _nextStepThread == caller ? "the next step on the caller's thread" : "the next step on the pool";
            }

            private static int _completerThread;

            // Completed by a thread of its own a little later, as an I/O or timer callback completes a source.
            private static Task<int> CompletedLater()
            {
                var source = new TaskCompletionSource<int>();
                new System.Threading.Thread(() =>
                {
                    System.Threading.Thread.Sleep(100);
                    _completerThread = Environment.CurrentManagedThreadId;
                    source.SetResult(1);
                }).Start();
                return source.Task;
            }

            private static Task<int> AfterPending() => CompletedLater().ContinueWith(t => Next(t.Result)).Unwrap();

            public static string PendingAntecedent()
            {
                AfterPending().Wait();
                return _nextStepThread == _completerThread ? "the next step on the completing thread" : "the next step on the pool";
            }

            public static string WhenValidationFails()
            {
                try { return Validated(null!).IsFaulted ? "a faulted task" : "a task"; } catch (ArgumentNullException) { return "thrown at the call"; }
            }
        }
        """;

    /// <summary>The docs' caveats, shown: each runs the original and the code the fix writes, which differ as stated.</summary>
    [Theory]
    [InlineData("AfterAFault", "returned [two]", "returned []")]
    [InlineData("FaultType", "returned AggregateException", "returned FormatException")]
    [InlineData("WhenValidationFails", "returned thrown at the call", "returned a faulted task")]
    [InlineData("OnCustomScheduler", "returned continuations on the scheduler", "returned only the first task")]
    [InlineData("CompletedAntecedent", "returned the next step on the pool", "returned the next step on the caller's thread")]
    [InlineData("PendingAntecedent", "returned the next step on the pool", "returned the next step on the completing thread")]
    public async Task Caveat_TheFixedCodeDiffersAsTheDocsSay(string method, string before, string after)
    {
        await FixedBehaviour.AssertAsync(Caveats, "TPL0002", "Caveats", method, before, after);
    }
}
