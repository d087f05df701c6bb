using System;
using System.Collections.Concurrent;

namespace MultiTarget
{
    /// <summary>A user API with a state overload: both targets have it.</summary>
    public static class Work
    {
        public static int Run(Func<int> work) => work();

        public static int Run<TState>(Func<TState, int> work, TState state) => work(state);
    }

    public class StateOverloads
    {
        private readonly ConcurrentDictionary<string, int> _cache = new ConcurrentDictionary<string, int>();

        // TPL0015: netstandard2.0 has no GetOrAdd<TArg>, so the shared call keeps its closure.
        public int Shared(string key, int factor) => _cache.GetOrAdd(key, k => k.Length * factor);

        // TPL0015: the dictionary hands the factory its key, so both targets read it from the parameter (no overload
        // needed); C# 7.3 may not hide the variable, so there the parameter takes a new name.
        public int Length(string name) => _cache.GetOrAdd(name, _ => name.Length + 1);

#if NET
        // TPL0015: only net10.0 compiles this branch, and it has the overload.
        public int Modern(string key, int factor) => _cache.GetOrAdd(key, k => k.Length * factor);
#endif

        // TPL0015: both targets have Work.Run<TState>; two values travel as a tuple.
        public int Both(int a, int b) => Work.Run(() => a + b);
    }
}
