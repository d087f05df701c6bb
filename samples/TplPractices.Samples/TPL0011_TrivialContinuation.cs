using System;
using System.Threading.Tasks;

namespace TplPractices.Samples;

/// <summary>
/// TPL0011: a continuation that only completes a TaskCompletionSource, stores a value or returns the antecedent's
/// result is queued to the thread pool by default, and whoever waits for it waits for a pool thread too.
/// ExecuteSynchronously runs it in the call that completes the antecedent. A suggestion: shown in the IDE; this project
/// raises it to a warning in .editorconfig.
/// </summary>
public class TPL0011_TrivialContinuation
{
    private int _last;

    // Reported: completes another task's source and nothing else; the source queues its own awaiters.
    // Fix: ContinueWith(t => done.TrySetResult(t.Result), TaskContinuationOptions.ExecuteSynchronously).
    public Task<int> Forward(Task<int> source)
    {
        var done = new TaskCompletionSource<int>(TaskCreationOptions.RunContinuationsAsynchronously);
        source.ContinueWith(t => done.TrySetResult(t.Result));
        return done.Task;
    }

    // Reported without a fix: this source runs its awaiters inside the completion, so with the flag they would run
    // on whichever thread completes the antecedent. Make the source with RunContinuationsAsynchronously first (TPL0013).
    public Task<int> ForwardInline(Task<int> source)
    {
        var done = new TaskCompletionSource<int>();
        source.ContinueWith(t => done.TrySetResult(t.Result));
        return done.Task;
    }

    // Reported: stores the result; the options keep their other flag.
    // Fix: TaskContinuationOptions.OnlyOnRanToCompletion | TaskContinuationOptions.ExecuteSynchronously.
    public void Remember(Task<int> source) =>
        source.ContinueWith(t => { _last = t.Result; }, TaskContinuationOptions.OnlyOnRanToCompletion);

    // Not reported: the caller's await of the returned task would run inside whoever completes the source too.
    public Task Announce(Task<int> source) => source.ContinueWith(t => { _last = t.Result; });

    // Not reported: the continuation calls code of unknown length, which would then run on the completing thread.
    public Task Log(Task<int> source) => source.ContinueWith(t => Console.WriteLine(t.Result));

    public int Last => _last;
}
