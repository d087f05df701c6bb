namespace TplPractices.Analyzers.Tests.Rules;

/// <summary>
/// TPL0004 sources shared by the fix tests (which check the fixer produces the "after" code) and the
/// behaviour tests (which run "before" and "after" on faulted, canceled and unfinished tasks).
/// </summary>
internal static class AsyncWaitHandleCases
{
    public const string SyncBefore = /* lang=c#-test */ """
        using System;
        using System.Threading.Tasks;

        public static class Waits
        {
            public static string Statement(Task t)
            {
                [|((IAsyncResult)t).AsyncWaitHandle|].WaitOne();
                return t.Status.ToString();
            }

            public static bool Value(Task<int> t) => [|((IAsyncResult)t).AsyncWaitHandle|].WaitOne();

            public static bool Negated(Task t) => ![|((IAsyncResult)t).AsyncWaitHandle|].WaitOne();

            public static bool Timeout(Task t) => [|(t as IAsyncResult).AsyncWaitHandle|].WaitOne(50);

            public static bool TimeSpanTimeout(Task t) => [|((IAsyncResult)t).AsyncWaitHandle|].WaitOne(TimeSpan.FromMilliseconds(50));

            public static bool Local(Task t)
            {
                IAsyncResult ar = t;
                return [|ar.AsyncWaitHandle|].WaitOne(50);
            }
        }
        """;

    public const string SyncAfter = /* lang=c#-test */ """
        using System;
        using System.Threading.Tasks;

        public static class Waits
        {
            public static string Statement(Task t)
            {
                Task.WaitAny(t);
                return t.Status.ToString();
            }

            public static bool Value(Task<int> t) => Task.WaitAny(t) == 0;

            public static bool Negated(Task t) => !(Task.WaitAny(t) == 0);

            public static bool Timeout(Task t) => Task.WaitAny(new Task[] { t }, 50) == 0;

            public static bool TimeSpanTimeout(Task t) => Task.WaitAny(new Task[] { t }, TimeSpan.FromMilliseconds(50)) == 0;

            public static bool Local(Task t)
            {
                IAsyncResult ar = t;
                return Task.WaitAny(new Task[] { (Task)ar }, 50) == 0;
            }
        }
        """;

    public const string AsyncBefore = /* lang=c#-test */ """
        using System;
        using System.Threading.Tasks;

        public static class Waits
        {
            public static async Task<string> Statement(Task t)
            {
                [|((IAsyncResult)t).AsyncWaitHandle|].WaitOne();
                await Task.Yield();
                return t.Status.ToString();
            }

            public static async Task<string> Typed(Task<int> t)
            {
                var ar = (IAsyncResult)t;
                [|ar.AsyncWaitHandle|].WaitOne();
                await Task.Yield();
                return t.Status.ToString();
            }
        }
        """;

    public const string AsyncAfterNet80 = /* lang=c#-test */ """
        using System;
        using System.Threading.Tasks;

        public static class Waits
        {
            public static async Task<string> Statement(Task t)
            {
                await t.ConfigureAwait(ConfigureAwaitOptions.ContinueOnCapturedContext | ConfigureAwaitOptions.SuppressThrowing);
                await Task.Yield();
                return t.Status.ToString();
            }

            public static async Task<string> Typed(Task<int> t)
            {
                var ar = (IAsyncResult)t;
                await ((Task)ar).ConfigureAwait(ConfigureAwaitOptions.ContinueOnCapturedContext | ConfigureAwaitOptions.SuppressThrowing);
                await Task.Yield();
                return t.Status.ToString();
            }
        }
        """;

    public const string AsyncAfterNetStandard = /* lang=c#-test */ """
        using System;
        using System.Threading.Tasks;

        public static class Waits
        {
            public static async Task<string> Statement(Task t)
            {
                await Task.WhenAny(t).ConfigureAwait(true);
                await Task.Yield();
                return t.Status.ToString();
            }

            public static async Task<string> Typed(Task<int> t)
            {
                var ar = (IAsyncResult)t;
                await Task.WhenAny((Task)ar).ConfigureAwait(true);
                await Task.Yield();
                return t.Status.ToString();
            }
        }
        """;

    public const string ManyBefore = /* lang=c#-test */ """
        using System;
        using System.Threading;
        using System.Threading.Tasks;

        public static class Waits
        {
            public static string All(Task a, Task b)
            {
                WaitHandle.WaitAll(new[] { [|((IAsyncResult)a).AsyncWaitHandle|], [|((IAsyncResult)b).AsyncWaitHandle|] });
                return a.Status + " " + b.Status;
            }

            public static bool AllWithTimeout(Task a, Task b) =>
                WaitHandle.WaitAll(new WaitHandle[] { [|((IAsyncResult)a).AsyncWaitHandle|], [|((IAsyncResult)b).AsyncWaitHandle|] }, 50);

            public static int Any(Task a, Task b) =>
                WaitHandle.WaitAny(new[] { [|((IAsyncResult)a).AsyncWaitHandle|], [|((IAsyncResult)b).AsyncWaitHandle|] });
        }
        """;

    public const string ManyAfter = /* lang=c#-test */ """
        using System;
        using System.Threading;
        using System.Threading.Tasks;

        public static class Waits
        {
            public static string All(Task a, Task b)
            {
                Task.WaitAny(Task.WhenAll(a, b));
                return a.Status + " " + b.Status;
            }

            public static bool AllWithTimeout(Task a, Task b) =>
                Task.WaitAny(new Task[] { Task.WhenAll(a, b) }, 50) == 0;

            public static int Any(Task a, Task b) =>
                Task.WaitAny(a, b);
        }
        """;
}
