using System.Threading.Tasks;

namespace TplPractices.Samples;

/// <summary>
/// TPL0009: AttachedToParent makes the task that is running wait for the new one and inflates both. Inside Task.Run
/// (or a task created with DenyChildAttach) it does nothing, and the fix removes it; elsewhere there is no fix,
/// because the parent would stop waiting: await the child instead.
/// </summary>
public class TPL0009_AttachedToParent
{
    // Reported, no fix: the parent waits for these children. Await them (Task.WhenAll) instead.
    public Task Process(int[] items) => Task.Factory.StartNew(static state =>
    {
        foreach (var item in (int[])state!)
        {
            Task.Factory.StartNew(Handle, item, TaskCreationOptions.AttachedToParent);
        }
    }, items);

    // Reported and fixed: Task.Run denies child attachment, so the flag does nothing.
    // Fix: Task.Factory.StartNew(Handle, 7, TaskCreationOptions.LongRunning).
    public Task Background() => Task.Run(() =>
        Task.Factory.StartNew(Handle, 7, TaskCreationOptions.LongRunning | TaskCreationOptions.AttachedToParent));

    // Not reported: the options are not AttachedToParent.
    public Task Detached(int item) => Task.Factory.StartNew(Handle, item, TaskCreationOptions.DenyChildAttach);

    private static void Handle(object? item) => System.Console.WriteLine(item);
}
