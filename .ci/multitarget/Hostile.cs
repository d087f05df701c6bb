using System;
using System.Collections.Generic;
using System.Threading;
using System.Threading.Tasks;

namespace MultiTarget
{
    // Shapes where one fix could break another target, take another rule's site, or need a second run
    // (docs/rules and the gauntlet in tests/.../Gauntlet have them all; these are the ones a real library had).
    public class Hostile
    {
        // A static initializer that calls a method TPL0003 fixes: the cached task must be set before it runs.
        private static readonly Task<long> s_first = First();

        private readonly object _gate = new object();
        private int _count;

        private static Task<long> First() => Task.FromResult(42L);

        private static Task<int> Parse(string text) => Task.Run(() => int.Parse(text));

        // One chain, two rules: TPL0002 takes it (its awaits remove the closure TPL0001 would give a state); its fix is
        // the light bulb's only, so dotnet format leaves the chain and its comments.
        public Task<int> Chain(string text, int offset) =>
            Parse(text) // parse first
                .ContinueWith(t => Task.FromResult(t.Result + offset)) /* then add */ .Unwrap();

        // Task.Run awaited in a loop: TPL0005 moves the loop; TPL0007 leaves the Task.Run to it.
        public async Task<int> Sum(int[] values, int scale)
        {
            var total = 0;
            foreach (var value in values)
            {
                total += await Task.Run(() => value * scale);
            }

            return total;
        }

        // Nested closures: one run fixes both.
        public Task Nested(string a, string b) => Task.Factory.StartNew(() =>
        {
            Task.Factory.StartNew(() => Console.WriteLine(a.Length + b.Length)).Wait();
        });

#if NET
        // The timer disposes itself: the variable is assigned by the call's own statement, so it stays captured.
        public void Once(Action action)
        {
            Timer? timer = null;
            timer = new Timer(_ =>
            {
                action();
                timer?.Dispose();
            }, null, 10, Timeout.Infinite);
        }
#endif

        // A lock whose body differs by target keeps its lock: removing it would drop the other target's branch.
        public Hostile(int start)
        {
            lock (_gate)
            {
#if NET
                _count = start;
#else
                _count = start + 1;
#endif
            }
        }

        public int Count => _count + (int)s_first.Result;
    }
}
