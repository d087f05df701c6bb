using TplPractices.Analyzers.Tests.Verifiers;

namespace TplPractices.Analyzers.Tests.Rules;

/// <summary>
/// TPL0019's exact fix, run: work started from a task on a scheduler of the caller's runs on that scheduler before the
/// fix and after it (TaskScheduler.Current written out), for StartNew, ContinueWith, ContinueWhenAll and Task.Start.
/// </summary>
public sealed class ExplicitSchedulerBehaviourTests
{
    private const string Source = """
        using System;
        using System.Threading;
        using System.Threading.Tasks;

        public static class Api
        {
            private static readonly ConcurrentExclusiveSchedulerPair Pair = new ConcurrentExclusiveSchedulerPair();

            // Which scheduler ran the work a task on the caller's exclusive scheduler started.
            private static string RanOn(Func<Task<TaskScheduler>> start)
            {
                var started = Task.Factory.StartNew(start, CancellationToken.None, TaskCreationOptions.None, Pair.ExclusiveScheduler).Unwrap();
                var ran = started.Result;
                return ran == Pair.ExclusiveScheduler ? "caller's" : ran == TaskScheduler.Default ? "default" : "other";
            }

            public static string Started() => RanOn(() => Task.Factory.StartNew(() => TaskScheduler.Current));

            public static string Continued() => RanOn(() => Task.Delay(1).ContinueWith(_ => TaskScheduler.Current));

            public static string ContinuedAfterAll() => RanOn(() => Task.Factory.ContinueWhenAll(new[] { Task.Delay(1) }, _ => TaskScheduler.Current));

            public static string StartedByHand() => RanOn(() =>
            {
                var task = new Task<TaskScheduler>(() => TaskScheduler.Current);
                task.Start();
                return task;
            });
        }
        """;

    [Theory]
    [InlineData("Started")]
    [InlineData("Continued")]
    [InlineData("ContinuedAfterAll")]
    [InlineData("StartedByHand")]
    public async Task TheExactFix_RunsTheWorkWhereItRanBefore(string method)
    {
        await FixedBehaviour.AssertAsync(Source, DiagnosticIds.ExplicitScheduler, "Api", method, "returned caller's", "returned caller's");
    }
}
