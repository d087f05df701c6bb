using TplPractices.Analyzers.Rules;
using TplPractices.Analyzers.Tests.Verifiers;

namespace TplPractices.Analyzers.Tests.Rules;

/// <summary>
/// TPL0017's race whose tasks are first put in a local (<c>var tasks = new[] { work, Task.Delay(t) }; await
/// Task.WhenAny(tasks);</c>): the delay is raced as surely as one written in the call, and the source goes before the
/// local as before a held delay.
/// </summary>
public sealed class DelayTimerHeldTasksTests
{
    private const string Races = /* lang=c#-test */ """
        using System;
        using System.Collections.Generic;
        using System.Threading;
        using System.Threading.Tasks;

        public static class Api
        {
            private static Task<int> Work(bool done) => done ? Task.FromResult(1) : new TaskCompletionSource<int>().Task;

            public static async Task<string> All() => string.Join(";", await Task.WhenAll(InArray(true), InArray(false), InList(true), InList(false)));

            public static async Task<string> InArray(bool done)
            {
                var work = Work(done);
                var tasks = new[] { work, {|#0:Task.Delay(200)|} };
                var first = await Task.WhenAny(tasks);
                return first == work ? "work" : "timeout";
            }

            public static async Task<string> InList(bool done)
            {
                var work = Work(done);
                var tasks = new List<Task> { work, {|#1:Task.Delay(200)|} };
                if (await Task.WhenAny(tasks) != work) return "timeout";
                return "work";
            }
        }
        """;

    private const string RacesFixed = /* lang=c#-test */ """
        using System;
        using System.Collections.Generic;
        using System.Threading;
        using System.Threading.Tasks;

        public static class Api
        {
            private static Task<int> Work(bool done) => done ? Task.FromResult(1) : new TaskCompletionSource<int>().Task;

            public static async Task<string> All() => string.Join(";", await Task.WhenAll(InArray(true), InArray(false), InList(true), InList(false)));

            public static async Task<string> InArray(bool done)
            {
                var work = Work(done);
                using var delayCancellation = new CancellationTokenSource();
                var tasks = new[] { work, Task.Delay(200, delayCancellation.Token) };
                var first = await Task.WhenAny(tasks);
                delayCancellation.Cancel();
                return first == work ? "work" : "timeout";
            }

            public static async Task<string> InList(bool done)
            {
                var work = Work(done);
                using var delayCancellation = new CancellationTokenSource();
                var tasks = new List<Task> { work, Task.Delay(200, delayCancellation.Token) };
                var winner = await Task.WhenAny(tasks);
                delayCancellation.Cancel();
                if (winner != work) return "timeout";
                return "work";
            }
        }
        """;

    [Fact]
    public async Task TasksHeldForTheRace_TakeTheSourceBeforeTheirLocal()
    {
        await DelayTimerRaceChecks.FixesAsync(Races, RacesFixed, DelayTimer.RaceMessage, DelayTimer.RaceMessage);
    }

    [Fact]
    public async Task FixedHeldTasks_DecideTheSame()
    {
        await DelayTimerRaceChecks.DecidesTheSameAsync(Races, RacesFixed, "work;timeout;work;timeout");
    }

    /// <summary>
    /// A delay held in a local, other work started after it, and the race awaited with ConfigureAwait(false) straight in
    /// an <c>if</c> inside a <c>try</c> (a gateway's handler time-out in real code): the source goes before the delay, the
    /// race's winner into a local so the cancel can follow it, and the comparison reads the local.
    /// </summary>
    private const string GuardedRace = /* lang=c#-test */ """
        using System;
        using System.Threading;
        using System.Threading.Tasks;

        public static class Api
        {
            private static Task Work(bool done) => done ? Task.CompletedTask : new TaskCompletionSource<bool>().Task;

            public static async Task<string> All() => string.Join(";", await Task.WhenAll(Guarded(true), Guarded(false)));

            public static async Task<string> Guarded(bool done)
            {
                try
                {
                    var limit = {|#0:Task.Delay(300)|};
                    var work = Work(done);
                    if (await Task.WhenAny(limit, work).ConfigureAwait(false) == limit)
                    {
                        return "late";
                    }

                    await work.ConfigureAwait(false);
                    return "done";
                }
                catch (InvalidOperationException)
                {
                    return "failed";
                }
            }
        }
        """;

    private static readonly string GuardedRaceFixed = TestMarkup.Strip(GuardedRace).Replace(
        """
                    var limit = Task.Delay(300);
                    var work = Work(done);
                    if (await Task.WhenAny(limit, work).ConfigureAwait(false) == limit)

        """,
        """
                    using var delayCancellation = new CancellationTokenSource();
                    var limit = Task.Delay(300, delayCancellation.Token);
                    var work = Work(done);
                    var winner = await Task.WhenAny(limit, work).ConfigureAwait(false);
                    delayCancellation.Cancel();
                    if (winner == limit)

        """,
        StringComparison.Ordinal);

    [Fact]
    public async Task ARaceInAnIfInsideATry_TakesALocalForItsWinner()
    {
        Assert.NotEqual(TestMarkup.Strip(GuardedRace), GuardedRaceFixed);
        await DelayTimerRaceChecks.FixesAsync(GuardedRace, GuardedRaceFixed, DelayTimer.RaceMessage);
    }

    [Fact]
    public async Task FixedGuardedRace_DecidesTheSame()
    {
        await DelayTimerRaceChecks.DecidesTheSameAsync(GuardedRace, GuardedRaceFixed, "done;late");
    }

    /// <summary>
    /// Reported without a fix: tasks read again after the race (the delay's task, canceled, would read differently).
    /// Not reported: a collection that is never raced, and one delay alone in it.
    /// </summary>
    [Fact]
    public async Task TasksReadAfterTheRace_KeepTheirTimer()
    {
        const string Code = """
            using System.Threading.Tasks;

            class C
            {
                async Task<bool> ReadAgain(Task work)
                {
                    var tasks = new[] { work, {|#0:Task.Delay(1000)|} };
                    await Task.WhenAny(tasks);
                    return tasks[1].IsCompleted;
                }

                Task[] NeverRaced(Task work)
                {
                    var tasks = new[] { work, Task.Delay(1000) };
                    return tasks;
                }

                async Task Alone()
                {
                    var tasks = new[] { Task.Delay(1000) };
                    await Task.WhenAny(tasks);
                }
            }
            """;
        await DelayTimerRaceChecks.HasNoFixAsync(Code, DelayTimer.RaceMessage);
    }
}
