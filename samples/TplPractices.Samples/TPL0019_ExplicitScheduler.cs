using System;
using System.Threading;
using System.Threading.Tasks;

namespace TplPractices.Samples;

/// <summary>
/// TPL0019: StartNew and ContinueWith without a scheduler argument run on TaskScheduler.Current. Called from code that a
/// UI or exclusive scheduler runs, this library's work would queue behind that scheduler's. A suggestion: shown in the
/// IDE; this project raises it to a warning in .editorconfig.
/// </summary>
public class TPL0019_ExplicitScheduler
{
    // Reported. Fix (exact, Fix All): StartNew(() => Checksum(data), CancellationToken.None, TaskCreationOptions.None,
    // TaskScheduler.Current). The second action passes TaskScheduler.Default instead, which is what a library usually
    // means, and says that it changes where the work runs.
    public Task<int> ChecksumAsync(byte[] data) => Task.Factory.StartNew(() => Checksum(data));

    // Reported; the token stays: ContinueWith(…, token, TaskContinuationOptions.None, TaskScheduler.Current).
    public Task<string> DescribeAsync(Task<int> checksum, CancellationToken token) =>
        checksum.ContinueWith(t => t.Result.ToString("x8"), token);

    // Reported: the continuation of all of them runs on Task.Factory's scheduler, which is none, so Current. Fix:
    // ContinueWhenAll(parts, …, CancellationToken.None, TaskContinuationOptions.None, TaskScheduler.Current).
    public Task<int> TotalAsync(Task<int>[] parts) => Task.Factory.ContinueWhenAll(parts, done => done.Length);

    // Reported: Start() queues the task to TaskScheduler.Current. Fix: Start(TaskScheduler.Current).
    public Task<int> StartChecksum(byte[] data)
    {
        var task = new Task<int>(state => Checksum((byte[])state!), data);
        task.Start();
        return task;
    }

    // Reported with another message: the lambda takes a parameter, so StartNew takes LongRunning as the delegate's
    // state and the loop runs on a pool thread. Not in Fix All; the site's fix (which says it changes how the task
    // runs): StartNew(_ => SendLoop(), null, CancellationToken.None, TaskCreationOptions.LongRunning,
    // TaskScheduler.Current).
    public Task StartSender() => Task.Factory.StartNew(_ => SendLoop(), TaskCreationOptions.LongRunning);

    // Not reported: the scheduler is explicit.
    public Task<int> OnPoolAsync(byte[] data) =>
        Task.Factory.StartNew(() => Checksum(data), CancellationToken.None, TaskCreationOptions.None, TaskScheduler.Default);

    // Not reported: Task.Run always uses the thread pool.
    public Task<int> RunAsync(byte[] data) => Task.Run(() => Checksum(data));

    private static void SendLoop()
    {
    }

    private static int Checksum(byte[] data)
    {
        var sum = 0;
        foreach (var b in data)
        {
            sum = (sum * 31) + b;
        }

        return sum;
    }
}
