using System;
using System.Collections.Generic;
using System.Threading.Tasks;

namespace TplPractices.Samples;

/// <summary>
/// TPL0014: Task.Run(() => value) queues a work item, allocates a closure, a delegate and a task, and makes a pool
/// thread hand back a value the caller already had. Task.FromResult gives the same completed task at once. Awaiting a
/// task that is already complete does nothing that using its value does not.
/// </summary>
public class TPL0014_AvailableValue
{
    private readonly Dictionary<string, string> _cache = new Dictionary<string, string>();
    private readonly string _fallback = "unknown";

    // Reported twice: a cached value, and a fallback, each queued only to be handed back.
    // Fix: Task.FromResult(cached) and Task.FromResult(_fallback).
    public Task<string> LookupAsync(string key, Func<string, Task<string>> fetch)
    {
        if (_cache.TryGetValue(key, out var cached))
        {
            return Task.Run(() => cached);
        }

        return key.Length == 0 ? Task.Run(() => _fallback) : fetch(key);
    }

    // Reported: a delegate that does nothing. Fix: Task.CompletedTask.
    public Task FlushAsync() => Task.Run(() => { });

    // Reported: a zero delay is a task already complete on every runtime, no timer and no wait. Fix: Task.CompletedTask.
    public Task NoWaitAsync() => Task.Delay(0);

    // Reported: the first await gives a value the method already has. Fix: var header = prefix;
    public async Task<string> DescribeAsync(string prefix, Func<Task<string>> body)
    {
        var header = await Task.FromResult(prefix);
        return header + await body();
    }

    // Reported, without a fix: the only await is of a zero delay, which does not yield, so the parsing runs before the
    // caller gets the task. Write await Task.Yield() if the caller was meant to go on first.
    public async Task<int> ParseLaterAsync(string text)
    {
        await Task.Delay(0);
        return text.Trim().Length;
    }

    // Not reported: the delegate does real work (a call), so running it on the pool may be the point.
    public Task<int> MeasureAsync(string text) => Task.Run(() => text.Trim().Length);
}
