using System.Threading.Tasks;

namespace MultiTarget
{
    public class Continuations
    {
        private int _last;

        public int Last => _last;

        // Trivial continuations: a stored result (its other option kept), a completed source.
        public void Remember(Task<int> source) =>
            source.ContinueWith(t => { _last = t.Result; }, TaskContinuationOptions.OnlyOnRanToCompletion);

        public Task<int> Forward(Task<int> source)
        {
            var done = new TaskCompletionSource<int>();
            source.ContinueWith(t => done.TrySetResult(t.Result));
            return done.Task;
        }
    }
}
