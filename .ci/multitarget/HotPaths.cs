using System;
using System.Collections.Generic;

namespace MultiTarget
{
    [AttributeUsage(AttributeTargets.Method)]
    public sealed class HotPathAttribute : Attribute
    {
    }

    public class HotPaths
    {
        private readonly Dictionary<string, int> _lengths = new Dictionary<string, int>();
        private readonly object _gate = new object();
        private int _total = -1;

        // A catch after the fast path: reported for both targets.
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

        // A lock after the fast path: reported in the netstandard2.0 copy only (.NET 10 inlines it where the call is hot).
        [HotPath]
        public int Total()
        {
            if (_total >= 0) return _total;
            lock (_gate)
            {
                return _total = _lengths.Count;
            }
        }

        // Static and generic, with a constraint the moved code needs.
        [HotPath]
        public static T First<T>(List<T> items, T fallback) where T : class
        {
            if (items.Count == 0) return fallback;
            try
            {
                return items[0];
            }
            catch (ArgumentOutOfRangeException)
            {
                return fallback;
            }
        }
    }

    public struct Counters
    {
        private readonly int[] _counts;

        public Counters(int size)
        {
            _counts = new int[size];
        }

        // A struct's member: the moved code must see the same struct, not a copy.
        [HotPath]
        public int Get(int index)
        {
            if (index < 0) return 0;
            try
            {
                return _counts[index];
            }
            catch (IndexOutOfRangeException)
            {
                return -1;
            }
        }
    }
}
