using TplPractices.Analyzers.Tests.Verifiers;
using Verify = TplPractices.Analyzers.Tests.Verifiers.CSharpCodeFixVerifier<
    TplPractices.Analyzers.Rules.CallbackStateAnalyzer,
    TplPractices.Analyzers.CodeFixes.Rules.CallbackStateFixer>;

namespace TplPractices.Analyzers.Tests.Rules;

/// <summary>
/// TPL0006 on a watcher registry's cancellation callback that takes a lock held in a field of <c>this</c>, edits a
/// dictionary of <c>this</c> and completes the writer it captured (the shape of grpc-dotnet's health service, whose
/// watch call ends when the client cancels it). The state carries <c>this</c> and the two locals; the lock is taken
/// on the same object through <c>self</c>, so the callback still excludes the code that adds watchers.
/// </summary>
public sealed class CallbackStateWatcherTests
{
    private const string Shared = """
        using System.Collections.Generic;
        using System.Threading;

        public sealed class Writer
        {
            public bool Completed { get; private set; }

            public void Complete() => Completed = true;
        }

        public sealed class Registry
        {
            private readonly object _gate = new object();
            private readonly Dictionary<string, List<Writer>> _watchers = new Dictionary<string, List<Writer>>();

            public Writer Watch(string service, CancellationToken token)
            {
                var writer = new Writer();
                lock (_gate)
                {
                    if (!_watchers.TryGetValue(service, out var writers))
                    {
                        writers = new List<Writer>();
                        _watchers.Add(service, writers);
                    }

                    writers.Add(writer);
                }

        """;

    private const string Tail = """

                return writer;
            }

            public string Describe()
            {
                lock (_gate)
                {
                    var parts = new List<string>();
                    foreach (var pair in _watchers)
                    {
                        parts.Add(pair.Key + "=" + pair.Value.Count);
                    }

                    parts.Sort(System.StringComparer.Ordinal);
                    return string.Join(",", parts);
                }
            }
        }

        public static class Scenario
        {
            public static string Run()
            {
                var registry = new Registry();
                using var first = new CancellationTokenSource();
                using var second = new CancellationTokenSource();
                var a = registry.Watch("orders", first.Token);
                var b = registry.Watch("orders", second.Token);
                var c = registry.Watch("stock", first.Token);
                first.Cancel();
                return registry.Describe() + " " + a.Completed + b.Completed + c.Completed;
            }
        }
        """;

    private const string Before = Shared + """
                token.Register([|() => {
                    lock (_gate)
                    {
                        if (_watchers.TryGetValue(service, out var writers) && writers.Remove(writer) && writers.Count == 0)
                        {
                            _watchers.Remove(service);
                        }
                    }

                    writer.Complete();
                }|]);
        """ + Tail;

    private const string After = Shared + """
                token.Register(static state =>
                {
                    var (self, service, writer) = ((Registry, string, Writer))state!;
                    lock (self._gate)
                    {
                        if (self._watchers.TryGetValue(service, out var writers) && writers.Remove(writer) && writers.Count == 0)
                        {
                            self._watchers.Remove(service);
                        }
                    }

                    writer.Complete();
                }, (this, service, writer));
        """ + Tail;

    [Fact]
    public async Task ACallbackLockingAFieldOfThis_PassesThisAndTheLocals()
    {
        await Verify.VerifyCodeFixAsync(Before, After);
    }

    [Fact]
    public async Task FixedCallback_RemovesTheSameWatchers_AndCompletesTheSameWriters()
    {
        var original = await CodeRunner.RunAsync(TestMarkup.Strip(Before), "Scenario", "Run");
        Assert.Equal("returned orders=1 TrueFalseTrue", original);
        Assert.Equal(original, await CodeRunner.RunAsync(After, "Scenario", "Run"));
    }
}
