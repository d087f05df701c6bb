using System;
using System.Collections.Generic;
using System.Threading;
using System.Threading.Tasks;

namespace MultiTarget
{
    public class Promises
    {
        private readonly object _gate = new object();
        private readonly Queue<TaskCompletionSource<string>> _waiters = new Queue<TaskCompletionSource<string>>();
        private TaskCompletionSource<bool> _stopped = new TaskCompletionSource<bool>(TaskCreationOptions.None);

        // Handed out before Publish completes it under the lock.
        public Task<string> Next()
        {
            var waiter = new TaskCompletionSource<string>(/* who waits */ this);
            lock (_gate)
            {
                _waiters.Enqueue(waiter);
            }

            return waiter.Task;
        }

        public void Publish(string message)
        {
            lock (_gate)
            {
                while (_waiters.Count > 0)
                {
                    _waiters.Dequeue().TrySetResult(message);
                }
            }
        }

        public Task Stopped => _stopped.Task;

        public void Stop() => _stopped.TrySetResult(true);

        // Each target's branch makes its own source; both are fixed.
        public Task<int> Timed(int milliseconds)
        {
#if NETSTANDARD2_0
            var done = new TaskCompletionSource<int>();
#else
            TaskCompletionSource<int> done = new(milliseconds);
#endif
            ThreadPool.QueueUserWorkItem(_ => done.TrySetResult(milliseconds));
            return done.Task;
        }

        // Completed before its task is read: not reported, left as it is.
        public Task<string> Ready(string message)
        {
            var done = new TaskCompletionSource<string>();
            done.SetResult(message);
            return done.Task;
        }
    }
}
