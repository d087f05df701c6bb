using System.Threading.Tasks;

namespace MultiTarget
{
    public class Continuations
    {
        private int _last;

        public int Last => _last;

        // Trivial continuations: a stored result (its other option kept), a completed source that queues its awaiters.
        public void Remember(Task<int> source) =>
            source.ContinueWith(t => { _last = t.Result; }, TaskContinuationOptions.OnlyOnRanToCompletion);

        public Task<int> Forward(Task<int> source)
        {
            var queued = new TaskCompletionSource<int>(TaskCreationOptions.RunContinuationsAsynchronously);
            source.ContinueWith(t => queued.TrySetResult(t.Result));
            return queued.Task;
        }

        // A source that runs its awaiters inside the completion: inline, they would run on the antecedent's thread.
        public Task<int> ForwardInline(Task<int> source)
        {
            var done = new TaskCompletionSource<int>();
            source.ContinueWith(t => done.TrySetResult(t.Result));
            return done.Task;
        }
    }
}
