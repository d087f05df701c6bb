namespace TplPractices.Analyzers.Tests.Rules;

/// <summary>
/// TPL0001 sources shared by the fix tests (the fixer must produce "after") and the behaviour tests (which
/// run "before" and "after" and compare). The first two are the whitepaper's examples.
/// </summary>
internal static class UseTaskStateCases
{
    public const string Before = /* lang=c#-test */ """
        using System.Collections.Concurrent;
        using System.Threading;
        using System.Threading.Tasks;

        public class Work
        {
            private readonly int _offset = 100;

            public static int Queue()
            {
                var queue = new ConcurrentQueue<int>();
                Task.Factory.StartNew([|() =>
                {
                    for (int i = 0; i < 10; i++) queue.Enqueue(i);
                }|]).Wait();
                return queue.Count;
            }

            public static int ResultOrZero(Task<int> task)
            {
                var source = new TaskCompletionSource<int>();
                task.ContinueWith([|_ =>
                {
                    if (task.Status == TaskStatus.RanToCompletion)
                        source.SetResult(task.Result);
                    else
                        source.SetResult(0);
                }|]);
                return source.Task.Result;
            }

            public static int Several(int left, string right, CancellationToken token) =>
                Task.Factory.StartNew([|() => left + right.Length|], token, TaskCreationOptions.None, TaskScheduler.Default).Result;

            public int Instance(int value) => Task.Factory.StartNew([|() => _offset + value|]).Result;

            public int OnlyThis() => Task<int>.Factory.StartNew([|() => this._offset * 2|]).Result;

            public static int Antecedent(Task<int> task) => task.ContinueWith([|t => t.Result + task.Result|]).Result;
        }
        """;

    public const string After = /* lang=c#-test */ """
        using System.Collections.Concurrent;
        using System.Threading;
        using System.Threading.Tasks;

        public class Work
        {
            private readonly int _offset = 100;

            public static int Queue()
            {
                var queue = new ConcurrentQueue<int>();
                Task.Factory.StartNew(static state =>
                {
                    var queue = (ConcurrentQueue<int>)state!;
                    for (int i = 0; i < 10; i++) queue.Enqueue(i);
                }, queue).Wait();
                return queue.Count;
            }

            public static int ResultOrZero(Task<int> task)
            {
                var source = new TaskCompletionSource<int>();
                task.ContinueWith(static (task, state) =>
                {
                    var source = (TaskCompletionSource<int>)state!;
                    if (task.Status == TaskStatus.RanToCompletion)
                        source.SetResult(task.Result);
                    else
                        source.SetResult(0);
                }, source);
                return source.Task.Result;
            }

            public static int Several(int left, string right, CancellationToken token) =>
                Task.Factory.StartNew(
                    static state =>
                    {
                        var (left, right) = ((int, string))state!;
                        return left + right.Length;
                    },
                    (left, right),
                    token,
                    TaskCreationOptions.None,
                    TaskScheduler.Default).Result;

            public int Instance(int value) => Task.Factory.StartNew(static state =>
            {
                var (self, value) = ((Work, int))state!;
                return self._offset + value;
            }, (this, value)).Result;

            public int OnlyThis() => Task<int>.Factory.StartNew(static state =>
            {
                var self = (Work)state!;
                return self._offset * 2;
            }, this).Result;

            public static int Antecedent(Task<int> task) => task.ContinueWith(static t => t.Result + t.Result).Result;
        }
        """;
}
