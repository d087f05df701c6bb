using Microsoft.CodeAnalysis;

namespace TplPractices.Analyzers.Tests.Gauntlet;

/// <summary>
/// The behaviour run tells which thread completed a task that was still running when the call returned: the
/// gauntlet compares that for the fixes whose pages promise it, so it must tell the three apart. The source is a
/// gauntlet input too: a continuation an await or a caller resumes on, which TPL0011 must leave queued (#46 class 4),
/// and one that completes a source running its awaiters inside the completion, whose caller would then resume on the
/// completer (found in StackExchange.Redis).
/// </summary>
public class BehaviourRunTests
{
    private const string Source = """
        using System.Threading;
        using System.Threading.Tasks;

        public static class Steps
        {
            public static Task<int> Queued(Task<int> first) => first.ContinueWith(t => t.Result + 1);

            public static Task<int> Inline(Task<int> first) =>
                first.ContinueWith(t => t.Result + 1, CancellationToken.None, TaskContinuationOptions.ExecuteSynchronously, TaskScheduler.Default);

            public static async Task<int> OnContext(Task<int> first) => await first + 1;

            public static async Task<int> Awaited(Task<int> first)
            {
                var next = await first.ContinueWith(t => t.Result + 1).ConfigureAwait(false);
                return next * 2;
            }

            public static Task<int> Forwarded(Task<int> first)
            {
                var done = new TaskCompletionSource<int>();
                first.ContinueWith(t => done.TrySetResult(t.Result + 1));
                return done.Task;
            }

            public static Task<int> Own() => Task.Run(() => 1);

            public static Task<int> Done(Task<int> first) => Task.FromResult(1);
        }
        """;

    [Fact]
    public void PendingArguments_RecordTheThreadThatCompletedTheReturnedTask()
    {
        var run = BehaviourRun.Run([Source], OutputKind.DynamicallyLinkedLibrary, new BehaviourRun.Setting(OnContext: true, PendingTasks: true))!;

        Assert.Equal("returned Task 22", run["Steps.Queued(1)"]);
        Assert.Equal("on the pool", run["Steps.Queued(1) thread"]);
        Assert.Equal("on the completer", run["Steps.Inline(1) thread"]);
        Assert.Equal("on the caller's context", run["Steps.OnContext(1) thread"]);
        Assert.Equal("on the pool", run["Steps.Awaited(1) thread"]);
        Assert.Equal("on the pool", run["Steps.Forwarded(1) thread"]);
        Assert.False(run.ContainsKey("Steps.Done(1) thread"));
        Assert.False(run.ContainsKey("Steps.Own(0) thread"));
    }

    [Fact]
    public void CompletedArguments_RecordNoThread()
    {
        var run = BehaviourRun.Run([Source], OutputKind.DynamicallyLinkedLibrary, new BehaviourRun.Setting(OnContext: true, PendingTasks: false))!;

        Assert.Equal("returned Task 22", run["Steps.Inline(1)"]);
        Assert.DoesNotContain(run.Keys, name => name.EndsWith(" thread", StringComparison.Ordinal));
    }

    /// <summary>
    /// A method that calls a race by name is as timing-bound as the race (found where a 3 ms work raced a delay the
    /// caller canceled at once, and a loaded machine let the work win): neither is run, while an unrelated one is.
    /// </summary>
    [Fact]
    public void CallersOfATimingBoundMethod_AreNotRun()
    {
        const string races = """
            using System.Threading;
            using System.Threading.Tasks;

            public static class Races
            {
                public static async Task<string> Race(Task work)
                {
                    var first = await Task.WhenAny(work, Task.Delay(400));
                    return first == work ? "work" : "timeout";
                }

                public static Task<string> Caller(int millis) => Outer(Task.Delay(millis));

                private static Task<string> Outer(Task work) => Race(work);

                public static int Unrelated(int n) => n + 1;
            }
            """;

        var run = BehaviourRun.Run([races], OutputKind.DynamicallyLinkedLibrary)!;

        Assert.Equal(["Races.Unrelated(1)"], run.Keys);
    }
}
