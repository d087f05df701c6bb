using TplPractices.Analyzers.Tests.Verifiers;

namespace TplPractices.Analyzers.Tests.Rules;

/// <summary>
/// TPL0004: runs the original and the fixed code (the exact text the fix tests check) on completed,
/// faulted, canceled and unfinished tasks. WaitOne and WaitHandle.WaitAll/WaitAny never throw for a
/// faulted or canceled task; neither may the rewritten waits.
/// </summary>
public sealed class AsyncWaitHandleBehaviourTests
{
    public static TheoryData<string, string, string, string> Cases()
    {
        var data = new TheoryData<string, string, string, string>();
        var states = new[] { "completed", "faulted", "canceled" };
        foreach (var state in states)
        {
            foreach (var method in new[] { "Statement", "Value", "Negated", "Timeout", "TimeSpanTimeout", "Local" })
            {
                data.Add("sync", method, state, "");
            }

            foreach (var method in new[] { "Statement", "Typed" })
            {
                data.Add("async-net80", method, state, "");
                data.Add("async-netstandard", method, state, "");
            }

            foreach (var other in states.Append("pending"))
            {
                data.Add("many", "AllWithTimeout", state, other);
                if (other != "pending")
                {
                    data.Add("many", "All", state, other);
                    data.Add("many", "Any", state, other);
                }
            }
        }

        foreach (var method in new[] { "Timeout", "TimeSpanTimeout", "Local" })
        {
            data.Add("sync", method, "pending", "");
        }

        return data;
    }

    [Theory]
    [MemberData(nameof(Cases))]
    public async Task FixedCode_BehavesLikeTheOriginal(string pair, string method, string first, string second)
    {
        var (before, after) = pair switch
        {
            "sync" => (AsyncWaitHandleCases.SyncBefore, AsyncWaitHandleCases.SyncAfter),
            "async-net80" => (AsyncWaitHandleCases.AsyncBefore, AsyncWaitHandleCases.AsyncAfterNet80),
            "async-netstandard" => (AsyncWaitHandleCases.AsyncBefore, AsyncWaitHandleCases.AsyncAfterNetStandard),
            _ => (AsyncWaitHandleCases.ManyBefore, AsyncWaitHandleCases.ManyAfter),
        };
        object?[] Arguments() => second.Length == 0 ? [Make(first)] : [Make(first), Make(second)];

        var original = await CodeRunner.RunAsync(TestMarkup.Strip(before), "Waits", method, Arguments());
        var rewritten = await CodeRunner.RunAsync(TestMarkup.Strip(after), "Waits", method, Arguments());

        Assert.Equal(original, rewritten);
        Assert.StartsWith("returned", original, StringComparison.Ordinal);
    }

    private static Task<int> Make(string state)
    {
        var source = new TaskCompletionSource<int>();
        switch (state)
        {
            case "completed":
                source.SetResult(7);
                break;
            case "faulted":
                source.SetException(new InvalidOperationException("boom"));
                break;
            case "canceled":
                source.SetCanceled();
                break;
        }

        return source.Task;
    }

    private const string Caveats = """
        using System;
        using System.Threading;
        using System.Threading.Tasks;

        // Shows a documented caveat of a fix: not a gauntlet input (docs/rules name the difference).
        public static class Caveats
        {
            public static bool ResumesOnThePool()
            {
                var onPool = false;
                var thread = new Thread(() => onPool = Check(Task.Delay(100)));
                thread.Start();
                thread.Join();
                return onPool;
            }

            private static bool Check(Task task)
            {
                var check = FirstPart(task);
                check.Wait();
                return check.Result;
            }

            private static async Task<bool> FirstPart(Task task)
            {
                ((IAsyncResult)task).AsyncWaitHandle.WaitOne();
                return Thread.CurrentThread.IsThreadPoolThread;
            }

            public static string SameTaskTwice()
            {
                var task = Task.Delay(10);
                try
                {
                    WaitHandle.WaitAll(new[] { ((IAsyncResult)task).AsyncWaitHandle, ((IAsyncResult)task).AsyncWaitHandle });
                    return "waited";
                }
                catch (DuplicateWaitObjectException)
                {
                    return "duplicate";
                }
            }
        }
        """;

    /// <summary>
    /// The differences docs/rules/TPL0004.md names: the await form lets the blocked thread go (the code after it runs on
    /// the pool), and the task waits accept one task twice, where WaitHandle.WaitAll threw.
    /// </summary>
    [Theory]
    [InlineData("ResumesOnThePool", "returned False", "returned True")]
    [InlineData("SameTaskTwice", "returned duplicate", "returned waited")]
    public async Task Caveat_TheFixedCodeDiffersAsTheDocsSay(string method, string before, string after)
    {
        await FixedBehaviour.AssertAsync(Caveats, "TPL0004", "Caveats", method, before, after);
    }
}
