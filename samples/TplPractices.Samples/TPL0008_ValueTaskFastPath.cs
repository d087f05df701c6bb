using System.Collections.Generic;
using System.Threading.Tasks;

namespace TplPractices.Samples;

/// <summary>
/// TPL0008: a private (or internal) async method that often returns before its first await (a cache hit) allocates a Task per
/// such call. Reported on both targets: netstandard2.0 gets ValueTask&lt;T&gt; from System.Threading.Tasks.Extensions
/// (the project file references it there).
/// </summary>
public class TPL0008_ValueTaskFastPath
{
    private readonly Dictionary<string, string> _cache = new Dictionary<string, string>();

    public async Task<int> TotalLengthAsync(string[] keys)
    {
        var total = 0;
        foreach (var key in keys)
        {
            total += (await LookupAsync(key).ConfigureAwait(false)).Length;
        }

        return total;
    }

    // Reported: returns the cached value before any await, and every caller awaits it directly.
    // Fix: private async ValueTask<string> LookupAsync(string key).
    private async Task<string> LookupAsync(string key)
    {
        if (_cache.TryGetValue(key, out var value))
        {
            return value;
        }

        value = await LoadAsync(key).ConfigureAwait(false);
        _cache[key] = value;
        return value;
    }

    // Not reported: a caller keeps the task (Task.WhenAll), which a ValueTask<T> must not be used for.
    private async Task<string> FetchAsync(string key)
    {
        if (_cache.TryGetValue(key, out var value))
        {
            return value;
        }

        return await LoadAsync(key).ConfigureAwait(false);
    }

    public Task<string[]> FetchAllAsync(string a, string b) => Task.WhenAll(FetchAsync(a), FetchAsync(b));

    // Not reported: its only fast-path result is a bool, which the runtime caches (no allocation to save).
    private async Task<bool> ContainsAsync(string key)
    {
        if (_cache.ContainsKey(key))
        {
            return true;
        }

        return (await LoadAsync(key).ConfigureAwait(false)).Length > 0;
    }

    public async Task<bool> HasAsync(string key) => await ContainsAsync(key).ConfigureAwait(false);

    private static async Task<string> LoadAsync(string key)
    {
        await Task.Yield();
        return key.ToUpperInvariant();
    }
}
