using System.Collections.Generic;
using System.Threading;

namespace TplPractices.Samples;

/// <summary>
/// TPL0010 (a suggestion; samples/TplPractices.Samples/.editorconfig raises it to show it): a constructor that
/// protects its own fields before anything else can see the object pays for protection it cannot need.
/// </summary>
public class TPL0010_ConstructorConcurrency
{
    private readonly object _gate = new object();
    private readonly List<string> _names = new List<string>();
    private int _created;
    private List<int>? _items;

    public TPL0010_ConstructorConcurrency(string first, bool seed)
    {
        // Reported, no fix: Add takes the same lock, so the fix would leave a lock without its partner's pairing.
        lock (_gate)
        {
            _names.Add(first);
        }

        // Reported and fixed: _created++ (no other member names _created).
        Interlocked.Increment(ref _created);

        // Reported at the call, no fix: the helper's LazyInitializer runs on the constructor path. The whitepaper's
        // remedy, a private AddItemInternal(item, needsProtection: false) for the constructor, is in docs/rules/TPL0010.md.
        if (seed) AddItem(0);
    }

    public void Add(string name)
    {
        lock (_gate)
        {
            _names.Add(name);
        }
    }

    public void Add(int item) => AddItem(item);

    private void AddItem(int item)
    {
        var list = LazyInitializer.EnsureInitialized(ref _items, () => new List<int>())!;
        lock (list) list.Add(item);
    }
}
