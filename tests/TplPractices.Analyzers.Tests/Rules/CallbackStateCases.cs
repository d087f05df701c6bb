namespace TplPractices.Analyzers.Tests.Rules;

/// <summary>TPL0006: each callback API before and after its fix on .NET 10, shared by the fix and behaviour tests.</summary>
internal static class CallbackStateCases
{
    public const string Before = /* lang=c#-test */ """
        using System;
        using System.Collections.Concurrent;
        using System.Threading;
        using System.Threading.Tasks;

        public static class Api
        {
            public static string Register(int value)
            {
                var seen = new ConcurrentQueue<int>();
                using var source = new CancellationTokenSource();
                using (source.Token.Register({|#0:() => seen.Enqueue(value)|}))
                {
                    source.Cancel();
                }

                return string.Join(",", seen);
            }

            public static async Task<string> Queue(int value, string text)
            {
                var done = new TaskCompletionSource<string>();
                ThreadPool.QueueUserWorkItem({|#1:_ => done.SetResult(text + value)|});
                return await done.Task;
            }

            public static async Task<string> Timer(string text)
            {
                var done = new TaskCompletionSource<string>();
                using var timer = new Timer({|#2:_ => done.TrySetResult(text)|}, null, 0, Timeout.Infinite);
                return await done.Task;
            }

            public static async Task<string> QueueWithNullState(int value)
            {
                var done = new TaskCompletionSource<string>();
                ThreadPool.QueueUserWorkItem({|#3:_ => done.SetResult("v" + value)|}, null);
                return await done.Task;
            }
        }
        """;

    public const string After = /* lang=c#-test */ """
        using System;
        using System.Collections.Concurrent;
        using System.Threading;
        using System.Threading.Tasks;

        public static class Api
        {
            public static string Register(int value)
            {
                var seen = new ConcurrentQueue<int>();
                using var source = new CancellationTokenSource();
                using (source.Token.Register(static state =>
                {
                    var (seen, value) = ((ConcurrentQueue<int>, int))state!;
                    seen.Enqueue(value);
                }, (seen, value)))
                {
                    source.Cancel();
                }

                return string.Join(",", seen);
            }

            public static async Task<string> Queue(int value, string text)
            {
                var done = new TaskCompletionSource<string>();
                ThreadPool.QueueUserWorkItem(
                    static state =>
                    {
                        var (done, text, value) = state;
                        done.SetResult(text + value);
                    },
                    (done, text, value),
                    preferLocal: false);
                return await done.Task;
            }

            public static async Task<string> Timer(string text)
            {
                var done = new TaskCompletionSource<string>();
                using var timer = new Timer(
                    static state =>
                    {
                        var (done, text) = ((TaskCompletionSource<string>, string))state!;
                        done.TrySetResult(text);
                    },
                    (done, text),
                    0,
                    Timeout.Infinite);
                return await done.Task;
            }

            public static async Task<string> QueueWithNullState(int value)
            {
                var done = new TaskCompletionSource<string>();
                ThreadPool.QueueUserWorkItem(static state =>
                {
                    var (done, value) = ((TaskCompletionSource<string>, int))state!;
                    done.SetResult("v" + value);
                }, (done, value));
                return await done.Task;
            }
        }
        """;
}
