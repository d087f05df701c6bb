using System;
using System.Collections.Concurrent;
using System.Threading;
using System.Threading.Tasks;

namespace TplPractices.Samples;

/// <summary>
/// TPL0001: a lambda that captures variables makes every StartNew/ContinueWith call allocate a closure and a
/// delegate. Build this project to see which calls are reported.
/// </summary>
public class TPL0001_UseTaskState
{
    private readonly string _prefix = "item ";

    // Reported: captures 'queue'. Fix: StartNew(static state => { var queue = (ConcurrentQueue<int>)state!; ... }, queue).
    public Task Fill(ConcurrentQueue<int> queue) => Task.Factory.StartNew(() =>
    {
        for (var i = 0; i < 10; i++) queue.Enqueue(i);
    });

    // Reported: captures 'task' and 'source'. Fix: the antecedent parameter replaces 'task'; 'source' is the state.
    public Task<int> ResultOrZero(Task<int> task)
    {
        var source = new TaskCompletionSource<int>();
        task.ContinueWith(_ => source.SetResult(task.Status == TaskStatus.RanToCompletion ? task.Result : 0));
        return source.Task;
    }

    // Reported: captures 'this' (through _prefix) and 'value'. Fix: a (this, value) tuple as the state.
    public Task<string> Describe(int value) => Task.Factory.StartNew(() => _prefix + value);

    // Reported: a null state while the lambda captures 'value'. Fix: StartNew(static state => { var value =
    // (int)state!; ... }, value, token).
    public Task Log(int value, CancellationToken token) => Task.Factory.StartNew(_ => Console.WriteLine(value), null, token);

    // Not reported: captures nothing.
    public Task Quiet() => Task.Factory.StartNew(static () => Console.WriteLine("quiet"));

    // Not reported: the closure must share 'count', which changes after the delegate is created.
    public Task Shared()
    {
        var count = 0;
        var task = Task.Factory.StartNew(() => Console.WriteLine(count));
        count++;
        return task;
    }

    // Not reported by TPL0001: Task.Run has no state overload. TPL0007 (off by default) rewrites it to StartNew.
    public Task Run(int value) => Task.Run(() => Console.WriteLine(value));
}
