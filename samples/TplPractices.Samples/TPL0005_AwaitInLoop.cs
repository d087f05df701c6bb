using System.Collections.Generic;
using System.IO;
using System.Threading.Tasks;

namespace TplPractices.Samples;

/// <summary>
/// TPL0005: an await in a loop that cannot be worth a suspension on every iteration. Build this project to
/// see which awaits are reported, and that sequential I/O, polling and Task.Yield are not.
/// </summary>
public class TPL0005_AwaitInLoop
{
    private static int Score(int item) => item * 31 % 7;

    // Reported (a): a pool hop per item for a little CPU work.
    // Fix: await Task.Run(() => { foreach (var item in items) total += Score(item); });
    public async Task<int> ScoreAll(int[] items)
    {
        var total = 0;
        foreach (var item in items)
        {
            total += await Task.Run(() => Score(item));
        }

        return total;
    }

    // Reported (b): the task is complete before it is awaited. Fix: total += item;
    public async Task<int> SumSlowly(IEnumerable<int> items, Stream log)
    {
        var total = 0;
        foreach (var item in items)
        {
            total += await Task.FromResult(item);
        }

        await log.FlushAsync();
        return total;
    }

    // Reported (c), no fix: Lookup is async but never awaits; make it synchronous by hand.
    public async Task<int> LookupAll(int count)
    {
        var found = 0;
        for (var i = 0; i < count; i++)
        {
            found += await Lookup(i);
        }

        return found;
    }

#pragma warning disable CS1998 // The point of the sample: an async method without await.
    private static async Task<int> Lookup(int key) => key % 2;
#pragma warning restore CS1998

    // Not reported: sequential I/O, a polling delay and a deliberate yield are real asynchronous work.
    public async Task<long> CopyAndPoll(Stream source, Stream target, Task done)
    {
        var buffer = new byte[4096];
        long copied = 0;
        int read;
        while ((read = await source.ReadAsync(buffer, 0, buffer.Length)) > 0)
        {
            await target.WriteAsync(buffer, 0, read);
            copied += read;
        }

        while (!done.IsCompleted)
        {
            await Task.Delay(100);
            await Task.Yield();
        }

        return copied;
    }
}
