using System;
using System.Threading;
using System.Threading.Tasks;

namespace MultiTarget
{
    public class Callbacks
    {
        private int _ticks;

        // TPL0006: Register(Action) → the state overload; every target has it.
        public CancellationTokenRegistration OnCancel(CancellationToken token, string name) =>
            token.Register(() => Console.WriteLine(name));

        // TPL0006: net10.0 alone would take QueueUserWorkItem<TState>; netstandard2.0 needs the object overload.
        public bool Enqueue(int item) => ThreadPool.QueueUserWorkItem(_ => Console.WriteLine(item));

        // TPL0006: a null state filled with 'this'.
        public Timer Tick() => new Timer(_ => _ticks++, null, Timeout.Infinite, Timeout.Infinite);

        // TPL0007, turned on by the project's .editorconfig: the StartNew equivalent, with Unwrap for the async lambda.
        public Task<int> Later(int delay) => Task.Run(async () => { await Task.Delay(delay); return delay; });
    }
}
