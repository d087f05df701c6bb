using System.Collections.Generic;
using System.Threading.Tasks;

namespace TplPractices.Samples;

/// <summary>
/// TPL0013: a TaskCompletionSource made without RunContinuationsAsynchronously runs every continuation of its task
/// inside the call that completes it. Here that call holds the queue's lock, so the awaiting code runs under it. A
/// suggestion: shown in the IDE; this project raises it to a warning in .editorconfig.
/// </summary>
public class TPL0013_CompletionSourceContinuations
{
    private readonly object _gate = new object();
    private readonly Queue<TaskCompletionSource<string>> _waiters = new Queue<TaskCompletionSource<string>>();

    // Reported: the task is handed out before Publish completes the source, under _gate.
    // Fix: new TaskCompletionSource<string>(TaskCreationOptions.RunContinuationsAsynchronously).
    public Task<string> NextMessage()
    {
        var waiter = new TaskCompletionSource<string>();
        lock (_gate)
        {
            _waiters.Enqueue(waiter);
        }

        return waiter.Task;
    }

    public void Publish(string message)
    {
        lock (_gate)
        {
            while (_waiters.Count > 0)
            {
                _waiters.Dequeue().TrySetResult(message);
            }
        }
    }

    // Not reported: TaskCreationOptions.None written out is a choice. Whoever awaits this task runs inside the Close
    // that completes it, so Close returns only once that code has finished.
    public Task Closed => _closed.Task;

    private readonly TaskCompletionSource<bool> _closed = new TaskCompletionSource<bool>(TaskCreationOptions.None);

    public void Close() => _closed.TrySetResult(true);

    // Not reported: the source is completed before anyone can see its task, so its task has no continuations yet.
    public Task<string> Ready(string message)
    {
        var done = new TaskCompletionSource<string>();
        done.SetResult(message);
        return done.Task;
    }
}
