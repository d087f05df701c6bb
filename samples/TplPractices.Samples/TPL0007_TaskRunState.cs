using System.Threading;
using System.Threading.Tasks;

namespace TplPractices.Samples;

/// <summary>
/// TPL0007 (off by default; samples/.editorconfig turns it on for this file): Task.Run with a capturing lambda
/// allocates a closure and a delegate per call. Its exact equivalent, StartNew with DenyChildAttach and
/// TaskScheduler.Default, can carry the values as a state. Turn the rule on for hot paths only.
/// </summary>
public class TPL0007_TaskRunState
{
    // Reported: captures 'x'. Fix: Task.Factory.StartNew(static state => { var x = (int)state!; return x * x; }, x,
    // CancellationToken.None, TaskCreationOptions.DenyChildAttach, TaskScheduler.Default).
    public Task<int> Square(int x) => Task.Run(() => x * x);

    // Reported: captures 'path'; the token is kept. Fix: StartNew(…, path, token, DenyChildAttach, Default).
    public Task<int> Length(string path, CancellationToken token) => Task.Run(() => path.Length, token);

    // Reported: an async lambda. Fix: StartNew(static async state => …, delay, …).Unwrap(), as Task.Run unwraps.
    public Task<int> Later(int delay) => Task.Run(async () => { await Task.Delay(delay); return delay; });

    // Not reported: captures nothing.
    public Task<int> Constant() => Task.Run(() => System.Environment.ProcessorCount);
}
