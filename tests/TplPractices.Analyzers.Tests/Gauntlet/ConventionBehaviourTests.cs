using Microsoft.CodeAnalysis;

namespace TplPractices.Analyzers.Tests.Gauntlet;

/// <summary>
/// #56 classes 1 and 2, run: code whose meaning rests on what no signature says. An executor hands its two
/// <c>object</c> states to the callback as <c>(context, state)</c> by convention; a completer relies on the awaiting
/// code having run inside <c>TrySetResult</c>. After every bulk fix (what <c>dotnet format</c> applies) the program
/// prints the same; the fixes that were offered did run, on the sites whose binding the types prove.
/// </summary>
public sealed class ConventionBehaviourTests
{
    private const string Source = """
        using System;
        using System.Threading.Tasks;

        public sealed class Executor
        {
            public void Execute(Action action) => action();
            public void Execute(Action<object> action, object state) => action(state);
            // The convention: the context first, the state second.
            public void Execute(Action<object, object> action, object context, object state) => action(context, state);
            public void Post(Action action) => action();
            public void Post<TState>(Action<TState> action, TState state) => action(state);
        }

        public sealed class Job
        {
            private readonly Executor _executor = new Executor();
            private readonly string _name = "job";
            private string _log = "";

            public string RunWithState(int count)
            {
                _executor.Execute(state => _log += _name + ":" + (int)state, count);
                return _log;
            }

            public string RunGeneric(int count)
            {
                var job = this;
                _executor.Post(() => job._log += job._name + "/" + count);
                return _log;
            }
        }

        public sealed class Adapter
        {
            private TaskCompletionSource<int> _read = new TaskCompletionSource<int>();
            private Task _reader = Task.CompletedTask;
            private int _total;

            public string Deliver(int length)
            {
                _reader = ReadOnce();
                // Completed inline on purpose: the reader has run by the time TrySetResult returns.
                _read.TrySetResult(length);
                return _reader.IsCompleted ? "reader done: " + _total : "reader waits";

                async Task ReadOnce() => _total += await _read.Task;
            }
        }
        """;

    [Fact]
    public async Task AfterEveryBulkFix_TheProgramPrintsTheSame()
    {
        var fixedCode = await FormatRun.FixAsync(Source, [.. FormatRun.RuleIds.Where(FormatRun.FixesInBulk)]);

        var before = BehaviourRun.Run([Source], OutputKind.DynamicallyLinkedLibrary)!;
        var after = BehaviourRun.Run([fixedCode], OutputKind.DynamicallyLinkedLibrary)!;

        Assert.Equal("returned job:3", before["Job.RunWithState(1)"]);
        Assert.Equal("returned reader done: 3", before["Adapter.Deliver(1)"]);
        Assert.Equal(before, after);
        // The generic overload's binding is proven: that capture of this became state.
        Assert.NotEqual(Source, fixedCode);
        Assert.Equal("returned job/3", after["Job.RunGeneric(1)"]);
    }
}
