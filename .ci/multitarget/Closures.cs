using System;
using System.Collections.Concurrent;
using System.Threading;
using System.Threading.Tasks;

namespace MultiTarget
{
    public class Closures
    {
        private readonly int _offset = 3;

        // One capture.
        public Task Log(string message) => Task.Factory.StartNew(() => Console.WriteLine(message));

        // The antecedent, captured.
        public Task<int> Next(Task<int> task, int step) => task.ContinueWith(_ => task.Result + step);

        // Only 'this': a delegate, no closure.
        public Task<int> Offset() => Task.Factory.StartNew(() => _offset * 2);

        // A CancellationToken: immutable on every target, whatever its reference assembly says.
        public Task Watch(CancellationToken token, ConcurrentQueue<bool> seen) =>
            Task.Factory.StartNew(() => seen.Enqueue(token.IsCancellationRequested));

        // A name the rewrite must not reuse.
        public Task Named(int value)
        {
            var state = value * 2;
            Console.WriteLine(state);
            return Task.Factory.StartNew(() => Console.WriteLine(value));
        }

        // A multi-line call whose other lines must stay as they are.
        public Task<int> Spread(int left, int right, CancellationToken token) =>
            Task.Factory.StartNew(
                () => left + right,
                token,
                TaskCreationOptions.None,
                TaskScheduler.Default);

        // A capturing lambda inside another: fixed on the second run.
        public Task Nested(int outer) => Task.Factory.StartNew(() =>
        {
            var inner = outer + 1;
            Task.Factory.StartNew(() => Console.WriteLine(inner + outer)).Wait();
        });
    }
}
