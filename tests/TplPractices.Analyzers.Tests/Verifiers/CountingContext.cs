namespace TplPractices.Analyzers.Tests.Verifiers;

/// <summary>
/// Source of a SynchronizationContext that counts what is posted to it (a UI thread's, say), for the behaviour tests
/// that check where code resumes: <c>CountingContext.Run(() => work())</c> starts the work on it and returns the
/// count once the work is done.
/// </summary>
public static class CountingContext
{
    public const string Source = """

        public sealed class CountingContext : System.Threading.SynchronizationContext
        {
            public int Posts;

            public override void Post(System.Threading.SendOrPostCallback callback, object? state)
            {
                System.Threading.Interlocked.Increment(ref Posts);
                System.Threading.ThreadPool.QueueUserWorkItem(_ =>
                {
                    SetSynchronizationContext(this);
                    callback(state);
                });
            }

            public static async System.Threading.Tasks.Task<int> Run(System.Func<System.Threading.Tasks.Task> start)
            {
                var context = new CountingContext();
                var previous = Current;
                SetSynchronizationContext(context);
                System.Threading.Tasks.Task work;
                try
                {
                    work = start();
                }
                finally
                {
                    SetSynchronizationContext(previous);
                }

                await work;
                return context.Posts;
            }
        }
        """;
}
