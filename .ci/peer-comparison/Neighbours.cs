// Patterns next to our rules, for the peer comparison only (.ci/peer-comparison/run.sh): each line says which of
// our rules it is near and whether we report it. Built with the samples, every peer rule raised to a warning.
using System;
using System.Collections.Concurrent;
using System.Threading;
using System.Threading.Tasks;

namespace Peers;

public class Neighbours
{
    private readonly ConcurrentDictionary<int, string> _cache = new();

    // TPL0007 when turned on (off by default); not TPL0001: Task.Run has no state overload
    public Task RunCapturing(int value) => Task.Run(() => Console.WriteLine(value));

    // TPL0006
    public CancellationTokenRegistration RegisterCapturing(CancellationToken token, int value) => token.Register(() => Console.WriteLine(value));

    // TPL0006
    public bool QueueCapturing(int value) => ThreadPool.QueueUserWorkItem(_ => Console.WriteLine(value));

    // near TPL0001, ours: TPL0015 on net10.0 (the TArg overload of GetOrAdd); none on netstandard2.0, which lacks it
    public string FactoryCapturing(int key, string prefix) => _cache.GetOrAdd(key, k => prefix + k);

    // near TPL0001, ours: yes
    public Task<int> ContinueCapturing(Task<int> task, int step) => task.ContinueWith(t => t.Result + step, TaskScheduler.Default);

    // near TPL0002, ours: no (one ContinueWith, no Unwrap)
    public Task<int> ContinueOnce(Task<int> task) => task.ContinueWith(static t => t.Result + 1, TaskScheduler.Default);

    // near TPL0002, ours: no (nested task returned without Unwrap)
    public Task<Task> NestedTask() => Task.Factory.StartNew(static () => Task.Delay(1), CancellationToken.None, TaskCreationOptions.None, TaskScheduler.Default);

    // near TPL0003, ours: no on net10.0 (cached there), yes on netstandard2.0
    public Task<bool> CachedByRuntime() => Task.FromResult(true);

    // near TPL0003, ours: yes
    public Task<string> ConstantString() => Task.FromResult("done");

    // near TPL0003, ours: no on net10.0 (null is cached there), yes on netstandard2.0
    public Task<string?> NullResult() => Task.FromResult<string?>(null);

    // near TPL0003, ours: no (returning null instead of a task is a bug, not a cost)
    public Task? NullTask() => null;

    // near TPL0004, ours: no (blocking on the task itself)
    public int BlockOnResult(Task<int> task) => task.Result;

    // near TPL0004, ours: no
    public void BlockOnWait(Task task) => task.Wait();

    // near TPL0004, ours: no
    public void BlockOnAll(Task first, Task second) => Task.WaitAll(first, second);

    // near TPL0005, ours: no (one await, not in a loop)
    public async Task<int> AwaitOnce(int value) => await Task.Run(() => value * 2).ConfigureAwait(false);

    // near TPL0005, ours: no (the only await is the last statement: async/await could be elided)
    public async Task ElidableAwait() => await Task.Delay(1).ConfigureAwait(false);

    // near TPL0005, ours: yes
    public async Task<int> CompletedInLoop(int[] values)
    {
        var total = 0;
        foreach (var value in values) total += await Task.FromResult(value).ConfigureAwait(false);
        return total;
    }

    // near TPL0005, ours: no (an async method that never awaits, called once)
#pragma warning disable CS1998
    public async Task<int> NeverAwaits() => 1;
#pragma warning restore CS1998
}
