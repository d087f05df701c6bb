using System;
using System.Collections.Generic;
using System.Threading.Tasks;

namespace MultiTarget
{
    public class Values
    {
        private readonly Dictionary<string, string> _cache = new Dictionary<string, string>();
        private readonly string _fallback = "none";

        // Delegate tasks of values the caller has: a completed task instead, on both targets.
        public Task<string> Lookup(string key)
        {
            if (_cache.TryGetValue(key, out var cached))
            {
                return Task.Run(() => cached); // the cached entry
            }

            return Task.Factory.StartNew(() => _fallback);
        }

        public Task Flush() => Task.Run(() => { });

#if NET
        public Task<object> Boxed(int value) => Task.Run<object>(() => value);
#else
        public Task<object> Boxed(int value) => Task.Factory.StartNew<object>(() => value);
#endif

        // The awaits of completed tasks go where something else is awaited; the only await stays.
        public async Task<string> Describe(string prefix, Func<Task<string>> body)
        {
            var header = await Task.FromResult(prefix).ConfigureAwait(false);
            await Task.CompletedTask;
            return header + await body().ConfigureAwait(false);
        }

        // The only await, of a completed task: TPL0016 returns the task (TPL0014 leaves the only await alone).
        public async Task<string> Only(string text) => await Task.FromResult(text);
    }
}
