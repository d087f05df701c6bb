using System.Collections.Generic;
using System.Threading.Tasks;

namespace MultiTarget
{
    public class ValueTasks
    {
        private readonly Dictionary<int, string> _cache = new Dictionary<int, string>();

        // TPL0008 on both targets (netstandard2.0 has ValueTask<T> from System.Threading.Tasks.Extensions): fixed.
        private async Task<string> LookupAsync(int key)
        {
            if (_cache.TryGetValue(key, out var hit)) return hit;
            await Task.Yield();
            return "loaded";
        }

        public async Task<string> Both() => await LookupAsync(1) + await LookupAsync(2).ConfigureAwait(false);

        // TPL0008 on net10.0 only: netstandard2.0's branch keeps the task, so the shared file is left alone.
        private async Task<string> KeptAsync(int key)
        {
            if (_cache.TryGetValue(key, out var hit)) return hit;
            await Task.Yield();
            return "kept";
        }

        public async Task<string> Once() => await KeptAsync(3);

        // TPL0008 on both targets: internal, and its only other call (ValueTaskCallers.cs) awaits it too: fixed.
        internal async Task<string> FindAsync(int key)
        {
            if (_cache.TryGetValue(key, out var hit)) return hit;
            await Task.Yield();
            return "found";
        }

#if NETSTANDARD2_0
        public Task<string> Legacy() => KeptAsync(4);
#endif
    }
}
