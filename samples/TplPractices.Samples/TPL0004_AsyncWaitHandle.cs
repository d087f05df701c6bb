using System;
using System.IO;
using System.Threading;
using System.Threading.Tasks;

namespace TplPractices.Samples;

/// <summary>
/// TPL0004: a task's AsyncWaitHandle inflates the task and creates a kernel event. Build this project to
/// see which accesses are reported: only those known to be on a task.
/// </summary>
public class TPL0004_AsyncWaitHandle
{
    // Reported: blocks on a kernel event the task had to create. Fix: Task.WaitAny(task).
    public void Block(Task task) => ((IAsyncResult)task).AsyncWaitHandle.WaitOne();

    // Reported: a local that only ever holds a task. Fix: Task.WaitAny(new Task[] { (Task)ar }, 100) == 0.
    public bool BlockBriefly(Task<int> task)
    {
        IAsyncResult ar = task;
        return ar.AsyncWaitHandle.WaitOne(100);
    }

    // Reported on each handle. Fix: Task.WaitAny(Task.WhenAll(first, second)).
    public void BlockOnBoth(Task first, Task second) =>
        WaitHandle.WaitAll(new[] { ((IAsyncResult)first).AsyncWaitHandle, ((IAsyncResult)second).AsyncWaitHandle });

    // Reported. Fix on net10.0: await with ConfigureAwaitOptions.SuppressThrowing; on netstandard2.0: await Task.WhenAny(task).ConfigureAwait(true).
    public async Task WaitThenContinueAsync(Task task)
    {
        ((IAsyncResult)task).AsyncWaitHandle.WaitOne();
        await Task.Yield();
    }

    // Not reported: a real APM result from Stream.BeginRead; its wait handle is how APM is meant to be waited on.
    public int ReadWithApm(Stream stream, byte[] buffer)
    {
        IAsyncResult pending = stream.BeginRead(buffer, 0, buffer.Length, null, null);
        pending.AsyncWaitHandle.WaitOne();
        return stream.EndRead(pending);
    }

    // Not reported: nothing says where this IAsyncResult came from.
    public bool WaitOnUnknown(IAsyncResult result) => result.AsyncWaitHandle.WaitOne(0);
}
