using System;
using System.Collections.Generic;
using System.Threading;

namespace TplPractices.Samples;

/// <summary>Marks the members this project treats as hot paths; .editorconfig names it in required_attributes.</summary>
[AttributeUsage(AttributeTargets.Method | AttributeTargets.Class)]
public sealed class HotPathAttribute : Attribute
{
}

/// <summary>
/// TPL0012: a hot method whose first check usually returns, followed by code the JIT will not inline (a catch, more
/// than 100 bytes of IL; before .NET 10 also a lock, a loop, a finally), costs every caller a call even when the check
/// returns. Moving the rest out lets the
/// callers inline the check. Spoken only on members marked [HotPath] here; raised to a warning to show it in the build.
/// </summary>
public class TPL0012_HotPathInlining
{
    private object? _held;
    private readonly Dictionary<string, int> _lengths = new();

    // Reported in the netstandard2.0 build: before .NET 10 the lock keeps the whole method out of its callers (.NET 10
    // inlines it where the call is hot). Fix: the code after the first if moves into AddSlow(item), marked NoInlining.
    [HotPath]
    public void Add(object item)
    {
        if (_held == null && Interlocked.CompareExchange(ref _held, item, null) == null)
        {
            return;
        }

        var current = _held;
        if (current is not List<object>)
        {
            Interlocked.CompareExchange(ref _held, new List<object> { current! }, current);
        }

        var list = (List<object>)_held!;
        lock (list)
        {
            list.Add(item);
        }
    }

    // Reported on every target: no JIT inlines a method that catches.
    [HotPath]
    public int Length(string key)
    {
        if (_lengths.TryGetValue(key, out var known)) return known;
        try
        {
            return _lengths[key] = checked(key.Length * 2);
        }
        catch (OverflowException)
        {
            return -1;
        }
    }

    // Not reported: not marked as a hot path.
    public int Count()
    {
        if (_held is not List<object> list) return _held == null ? 0 : 1;
        lock (list)
        {
            return list.Count;
        }
    }
}
