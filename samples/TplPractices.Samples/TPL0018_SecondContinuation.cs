using System;
using System.Threading.Tasks;

namespace TplPractices.Samples;

/// <summary>
/// TPL0018: a task keeps its first continuation in a field; a second ContinueWith on the same task makes it allocate a
/// list for them. One continuation that does both costs less. Reported without a fix: merging changes what a throwing
/// continuation does to the other, and runs them one after the other.
/// </summary>
public class TPL0018_SecondContinuation
{
    // Reported on the second call. By hand: one continuation that logs and then counts, if a failing log may skip the count.
    public void Track(Task<int> work)
    {
        work.ContinueWith(t => Console.WriteLine("done: " + t.Status));
        work.ContinueWith(t => Console.WriteLine("result: " + (t.Status == TaskStatus.RanToCompletion ? t.Result : -1)));
    }

    // Not reported: a chain continues a new task at each link.
    public Task Chain(Task work) =>
        work.ContinueWith(t => Console.WriteLine("first")).ContinueWith(t => Console.WriteLine("second"));
}
