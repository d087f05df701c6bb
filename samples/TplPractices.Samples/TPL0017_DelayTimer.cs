using System;
using System.Threading;
using System.Threading.Tasks;

namespace TplPractices.Samples;

/// <summary>
/// TPL0017: a loop that ends each pass with await Task.Delay allocates a timer and a task every pass; one PeriodicTimer
/// ticks for the whole loop (.NET 6+). A Task.Delay racing a task in Task.WhenAny or Task.WaitAny, without a token or
/// on the caller's, keeps its timer queued until it fires.
/// </summary>
public class TPL0017_DelayTimer
{
    private int _polls;

    // Reported on net10.0 (netstandard2.0 has no PeriodicTimer, and the shared file gets no fix): the cancellation is
    // caught as OperationCanceledException, which takes the delay's and the tick's exception alike.
    // Fix: using var timer = new PeriodicTimer(TimeSpan.FromSeconds(5)); … await timer.WaitForNextTickAsync(token);
    public async Task PollAsync(CancellationToken token)
    {
        try
        {
            while (!token.IsCancellationRequested)
            {
                _polls++;
                await Task.Delay(TimeSpan.FromSeconds(5), token);
            }
        }
        catch (OperationCanceledException)
        {
        }
    }

    // Reported on net10.0, without a fix: each pass waits what is left of five seconds after its work, so passes start
    // five seconds apart, which is what one PeriodicTimer's ticks do; the arithmetic that measures the pass is removed by
    // hand. By hand: using var timer = new PeriodicTimer(TimeSpan.FromSeconds(5)); and
    // while (await timer.WaitForNextTickAsync(token)) { _polls++; }
    public async Task SampleEveryFiveSecondsAsync(CancellationToken token)
    {
        while (!token.IsCancellationRequested)
        {
            var watch = System.Diagnostics.Stopwatch.StartNew();
            _polls++;
            var left = TimeSpan.FromSeconds(5) - watch.Elapsed;
            if (left > TimeSpan.Zero)
            {
                await Task.Delay(left, token);
            }
        }
    }

    // Reported on both targets, fixed: the race is a statement of its own, so the delay can be canceled right after it.
    // Fix: using var delayCancellation = new CancellationTokenSource(); the delay takes delayCancellation.Token, and
    // delayCancellation.Cancel(); follows the race.
    public async Task<bool> WaitBrieflyAsync(Task work)
    {
        var first = await Task.WhenAny(work, Task.Delay(5_000));
        return first == work;
    }

    // Reported on both targets, fixed: the delay takes the caller's token, which outlives the race; the source is linked
    // to it, so the caller's cancellation still cancels the delay.
    // Fix: using var delayCancellation = CancellationTokenSource.CreateLinkedTokenSource(token); the delay takes
    // delayCancellation.Token, and delayCancellation.Cancel(); follows the race.
    public async Task<bool> WaitForCallerAsync(Task work, CancellationToken token)
    {
        var first = await Task.WhenAny(work, Task.Delay(5_000, token));
        return first == work;
    }

    // Not reported: the delay takes a source of this code's own, canceled once the race is decided.
    public async Task<bool> WaitCanceledAsync(Task work, CancellationToken token)
    {
        using var source = CancellationTokenSource.CreateLinkedTokenSource(token);
        var first = await Task.WhenAny(work, Task.Delay(5_000, source.Token));
        source.Cancel();
        return first == work;
    }

    // Reported on both targets, fixed: the race comes first in the expression body, so it moves into a local of a block
    // body, the cancel follows it, and the comparison reads the local.
    public async Task<bool> FinishesInTimeAsync(Task work) => await Task.WhenAny(work, Task.Delay(60_000)) == work;

    // Reported on both targets, without a fix: a test comes before the race, so the race cannot move ahead of it; the
    // delay's timer stays queued for a minute whoever wins.
    public async Task<bool> ReadyInTimeAsync(Task work, bool ready) => ready && await Task.WhenAny(work, Task.Delay(60_000)) == work;

    // Reported on both targets, fixed: WaitAny is the same race with a thread blocked on it. The fix cancels the delay
    // once WaitAny has returned the index of the first task done.
    public bool FinishedInTime(Task work) => Task.WaitAny(work, Task.Delay(1_000)) == 0;

    // Reported on both targets, fixed where the file is compiled for C# 8 or later: a race in a while condition makes a
    // delay every pass. The loop runs while (true), and each pass races with a source of its own, cancels it and breaks
    // where the condition no longer holds, before the body.
    public async Task<int> HeartbeatAsync(Task work)
    {
        var beats = 0;
        while (await Task.WhenAny(work, Task.Delay(1_000)) != work)
        {
            beats++;
        }

        return beats;
    }

    // Not reported: the delay grows each pass (a backoff), so no one period fits.
    public async Task RetryAsync(Func<Task<bool>> attempt, CancellationToken token)
    {
        var delay = 100;
        while (!token.IsCancellationRequested && !await attempt())
        {
            await Task.Delay(delay, token);
            delay *= 2;
        }
    }
}
