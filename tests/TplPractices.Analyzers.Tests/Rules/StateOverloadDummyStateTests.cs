using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp;
using Microsoft.CodeAnalysis.Testing;
using TplPractices.Analyzers.CodeFixes.Rules;
using TplPractices.Analyzers.Tests.Verifiers;
using Verify = TplPractices.Analyzers.Tests.Verifiers.CSharpCodeFixVerifier<
    TplPractices.Analyzers.Rules.StateOverloadAnalyzer,
    TplPractices.Analyzers.CodeFixes.Rules.StateOverloadFixer>;

namespace TplPractices.Analyzers.Tests.Rules;

/// <summary>
/// TPL0015 where the call is the state overload already but hands it a dummy (<c>null</c>, <c>default</c>, a constant) that its
/// lambda ignores while capturing the real values; and <c>TaskFactory.FromAsync</c>, whose <c>TArg</c> overloads are
/// state overloads of the same shape.
/// </summary>
public sealed class StateOverloadDummyStateTests
{
    [Fact]
    public async Task DummyStates_AreFilledWithTheCapturedValues()
    {
        const string Before = """
            using System;
            using System.Threading;

            class C
            {
                private readonly string _prefix = "p";

                string Pad(string text, char fill) => string.Create(text.Length + 1, (object?)null, {|#0:(span, _) =>
                {
                    span[0] = fill;
                    text.AsSpan().CopyTo(span.Slice(1));
                }|});

                string Prefixed(int length) => string.Create(length, default(object), {|#1:(span, ignored) => _prefix.AsSpan(0, span.Length).CopyTo(span)|});

                void Queue(int id) => ThreadPool.UnsafeQueueUserWorkItem<object?>({|#2:_ => Work(id)|}, null, preferLocal: false);

                static void Work(int id) { }
            }
            """;
        const string After = """
            using System;
            using System.Threading;

            class C
            {
                private readonly string _prefix = "p";

                string Pad(string text, char fill) => string.Create(text.Length + 1, (fill, text), static (span, state) =>
                {
                    var (fill, text) = state;
                    span[0] = fill;
                    text.AsSpan().CopyTo(span.Slice(1));
                });

                string Prefixed(int length) => string.Create(length, this, static (span, self) => self._prefix.AsSpan(0, span.Length).CopyTo(span));

                void Queue(int id) => ThreadPool.UnsafeQueueUserWorkItem(static id => Work(id), id, preferLocal: false);

                static void Work(int id) { }
            }
            """;
        var test = new Verify.Test { TestCode = Before, FixedCode = After };
        test.ExpectedDiagnostics.Add(Verify.Diagnostic().WithLocation(0).WithArguments("'fill' and 'text'", "a closure and a delegate", "the overload with a state parameter can pass them instead"));
        test.ExpectedDiagnostics.Add(Verify.Diagnostic().WithLocation(1).WithArguments("'this'", "a delegate", "the overload with a state parameter can pass it instead"));
        test.ExpectedDiagnostics.Add(Verify.Diagnostic().WithLocation(2).WithArguments("'id'", "a closure and a delegate", "the overload with a state parameter can pass it instead"));
        await test.RunAsync();
    }

    /// <summary>
    /// A lambda that only writes its lone parameter <c>_</c> (<c>_ =&gt; _ = SendAsync(id)</c>, a write C# binds to the
    /// parameter) ignores the dummy as much as one that never names it: renamed, the write is a discard. Not where
    /// another <c>_</c> is in scope, which the renamed write would change.
    /// </summary>
    [Fact]
    public async Task ALambdaThatOnlyWritesItsParameter_IgnoresTheDummy()
    {
        const string Before = """
            using System.Threading;
            using System.Threading.Tasks;

            class C
            {
                void Queue(int id) => ThreadPool.UnsafeQueueUserWorkItem<object?>({|#0:_ => _ = SendAsync(id)|}, null, preferLocal: false);

                static Task SendAsync(int id) => Task.CompletedTask;
            }

            class D
            {
                private int _;

                void Queue(int id) => ThreadPool.UnsafeQueueUserWorkItem<object?>(_ => _ = SendAsync(id), null, preferLocal: false);

                static Task SendAsync(int id) => Task.CompletedTask;
            }
            """;
        var after = Before.Replace(
            "UnsafeQueueUserWorkItem<object?>({|#0:_ => _ = SendAsync(id)|}, null, preferLocal: false)",
            "UnsafeQueueUserWorkItem(static id => _ = SendAsync(id), id, preferLocal: false)",
            StringComparison.Ordinal);
        var test = new Verify.Test { TestCode = Before, FixedCode = after };
        test.ExpectedDiagnostics.Add(Verify.Diagnostic().WithLocation(0).WithArguments("'id'", "a closure and a delegate", "the overload with a state parameter can pass it instead"));
        await test.RunAsync();
    }

    /// <summary>
    /// The change-token shape (found in Ocelot's configuration monitor): an interface's callback registration whose
    /// <c>object?</c> state is handed <c>null</c> while the lambda captures the listener and <c>this</c>. The state takes
    /// both; the property the lambda read on <c>this</c> is read on the state's copy of it when the callback runs. The
    /// fix is offered for this site alone, its title naming what it relies on: an implementation decides what the callback
    /// receives, and Ocelot's own test double of the interface calls it with null (Fix All made their test fail).
    /// Fix All, asked with that site's key first as dotnet format asks, leaves it and still fixes the dictionary's call.
    /// </summary>
    [Fact]
    public async Task ANullStateOfAnInterfacesRegistration_CarriesTheListenerAndThis()
    {
        const string Api = """
            using System;
            using System.Collections.Concurrent;

            public interface IChangeSignal
            {
                IDisposable RegisterChangeCallback(Action<object?> callback, object? state);
            }

            public sealed class Monitor
            {
                private readonly IChangeSignal _signal;
                private readonly ConcurrentDictionary<string, string> _names = new();
                public Monitor(IChangeSignal signal) => _signal = signal;

                public string Current => "now";

            """;
        const string Before = Api + """
                public IDisposable OnChange(Action<string> listener) =>
                    _signal.RegisterChangeCallback({|#0:_ => listener(Current)|}, null);

                public string Name(string key, string suffix) => _names.GetOrAdd(key, {|#1:k => k + suffix|});
            }
            """;
        const string FixedListener = """
                public IDisposable OnChange(Action<string> listener) =>
                    _signal.RegisterChangeCallback(static state =>
                    {
                        var (listener, self) = ((Action<string>, Monitor))state!;
                        listener(self.Current);
                    }, (listener, this));
            """;
        const string FixedName = """
                public string Name(string key, string suffix) => _names.GetOrAdd(key, static (k, suffix) => k + suffix, suffix);
            }
            """;
        var test = new Verify.Test
        {
            TestCode = Before,
            FixedCode = Api + FixedListener + "\n\n" + FixedName,
            BatchFixedCode = Api + """
                    public IDisposable OnChange(Action<string> listener) =>
                        _signal.RegisterChangeCallback({|#0:_ => listener(Current)|}, null);
                """ + "\n\n" + FixedName,
            CodeActionVerifier = (action, verifier) => verifier.True(
                action.Title.EndsWith("(relies on every implementation of 'IChangeSignal.RegisterChangeCallback' passing the state on)", StringComparison.Ordinal)
                    || action.EquivalenceKey == StateOverloadFixer.EquivalenceKey,
                action.Title),
            BatchFixedState = { MarkupHandling = MarkupMode.Allow },

            // The site left still offers its own action, so the verifier asks Fix All again: that pass changes nothing.
            NumberOfFixAllIterations = 2,
        };
        test.ExpectedDiagnostics.Add(Verify.Diagnostic().WithLocation(0).WithArguments("'listener' and 'this'", "a closure and a delegate", "the overload with a state parameter can pass them instead"));
        test.ExpectedDiagnostics.Add(Verify.Diagnostic().WithLocation(1).WithArguments("'suffix'", "a closure and a delegate", "the overload with a state parameter can pass it instead"));
        test.BatchFixedState.ExpectedDiagnostics.Add(Verify.Diagnostic().WithLocation(0).WithArguments("'listener' and 'this'", "a closure and a delegate", "the overload with a state parameter can pass them instead"));
        await test.RunAsync();
    }

    /// <summary>A user's API with both callbacks receiving the state, called with named arguments in another order.</summary>
    [Fact]
    public async Task UserApisWithTwoCallbacks_AndNamedArguments_KeepEveryName()
    {
        const string Api = """

            static class Retry
            {
                public static T Run<T, TState>(System.Func<TState, T> attempt, System.Func<System.Exception, TState, bool> retryOn, TState state) => attempt(state);
                public static void Post(System.Action<object?> callback, object? state) => callback(state);
            }
            """;
        var before = """
            class C
            {
                int Get(int limit, int key) => Retry.Run(state: (object?)null, retryOn: (e, _) => limit > 0, attempt: {|#0:_ => key * 2|});

                void Send(string message) => Retry.Post({|#1:_ => System.Console.WriteLine(message)|}, null);
            }
            """ + Api;
        var after = """
            class C
            {
                int Get(int limit, int key) => Retry.Run(state: (key, limit), retryOn: static (e, state) =>
                {
                    var (_, limit) = state;
                    return limit > 0;
                }, attempt: static state =>
                {
                    var (key, _) = state;
                    return key * 2;
                });

                void Send(string message) => Retry.Post(static state =>
                {
                    var message = (string)state!;
                    System.Console.WriteLine(message);
                }, message);
            }
            """ + Api;
        var test = new Verify.Test { TestCode = before, FixedCode = after };
        // Run<T, TState> names no type arguments here; its callbacks want different values, which the one state carries.
        test.ExpectedDiagnostics.Add(Verify.Diagnostic().WithLocation(0).WithArguments("'key'", "a closure and a delegate", "the overload with a state parameter can pass it instead"));
        test.ExpectedDiagnostics.Add(Verify.Diagnostic().WithLocation(1).WithArguments("'message'", "a closure and a delegate", "the overload with a state parameter can pass it instead"));
        await test.RunAsync();
    }

    /// <summary>
    /// A call that names its arguments gets the values last, named as the overload names its state; where the overload
    /// renames an argument the call names, it is reported without a fix.
    /// </summary>
    [Fact]
    public async Task NamedArguments_GetTheStateByName()
    {
        const string Api = """

            static class Jobs
            {
                public static void Post(System.Action<int> work, int priority) => work(priority);
                public static void Post<TArg>(System.Action<int, TArg> work, TArg arg, int priority) => work(priority, arg);

                public static void Send(System.Action work, int retries) => work();
                public static void Send<TState>(System.Action<TState> callback, TState state, int retries) => callback(state);
            }
            """;
        var before = """
            using System.Collections.Concurrent;

            class C
            {
                int Get(ConcurrentDictionary<string, int> cache, string name, int factor) =>
                    cache.GetOrAdd(key: name, valueFactory: {|#0:k => k.Length * factor|});

                void Queue(string text) => Jobs.Post(priority: 2, work: {|#1:p => System.Console.WriteLine(text + p)|});

                void Renamed(string text) => Jobs.Send(work: {|#2:() => System.Console.WriteLine(text)|}, retries: 1);
            }
            """ + Api;
        var after = """
            using System.Collections.Concurrent;

            class C
            {
                int Get(ConcurrentDictionary<string, int> cache, string name, int factor) =>
                    cache.GetOrAdd(key: name, valueFactory: static (k, factor) => k.Length * factor, factoryArgument: factor);

                void Queue(string text) => Jobs.Post(priority: 2, work: static (p, text) => System.Console.WriteLine(text + p), arg: text);

                void Renamed(string text) => Jobs.Send(work: {|#2:() => System.Console.WriteLine(text)|}, retries: 1);
            }
            """ + Api;
        var test = new Verify.Test { TestCode = before, FixedCode = after };
        test.ExpectedDiagnostics.Add(Verify.Diagnostic().WithLocation(0).WithArguments("'factor'", "a closure and a delegate", "the overload with a state parameter can pass it instead"));
        test.ExpectedDiagnostics.Add(Verify.Diagnostic().WithLocation(1).WithArguments("'text'", "a closure and a delegate", "the overload with a state parameter can pass it instead"));
        test.ExpectedDiagnostics.Add(Verify.Diagnostic().WithLocation(2).WithArguments("'text'", "a closure and a delegate", "the overload with a state parameter can pass it instead"));
        test.FixedState.ExpectedDiagnostics.Add(Verify.Diagnostic().WithLocation(2).WithArguments("'text'", "a closure and a delegate", "the overload with a state parameter can pass it instead"));
        await test.RunAsync();
    }

    /// <summary>
    /// One file compiled for netstandard2.0 under C# 7.3 and for net10.0 with nullable warnings: typed dummies (a default
    /// and a constant) filled and a named call given its state by name come out the same in both copies, and both compile.
    /// </summary>
    [Fact]
    public async Task DummyStatesAndNamedArguments_InALibraryOfTwoTargets_AreFixed()
    {
        const string Api = """

            public class Queue
            {
                public void Enqueue(Action work) => work();
                public void Enqueue<TState>(Action<TState> work, TState state) => work(state);
                public void Post(Action<int> work, int priority) => work(priority);
                public void Post<TArg>(Action<int, TArg> work, TArg arg, int priority) => work(priority, arg);
            }
            """;
        var before = """
            using System;

            class C
            {
                void Announce(Queue queue, string name) => queue.Enqueue([|_ => Console.WriteLine(name)|], default(object));

                void Count(Queue queue, int total) => queue.Enqueue([|_ => Console.WriteLine(total)|], false);

                void Send(Queue queue, string text) => queue.Post(priority: 2, work: [|p => Console.WriteLine(text + p)|]);
            }
            """ + Api;
        var after = """
            using System;

            class C
            {
                void Announce(Queue queue, string name) => queue.Enqueue(myName => Console.WriteLine(myName), name);

                void Count(Queue queue, int total) => queue.Enqueue(myTotal => Console.WriteLine(myTotal), total);

                void Send(Queue queue, string text) => queue.Post(priority: 2, work: (p, myText) => Console.WriteLine(myText + p), arg: text);
            }
            """ + Api;
        await new Verify.Test { TestCode = before, FixedCode = after, SharedByNetStandardAndNet10 = true }.RunAsync();
    }

    /// <summary>
    /// A constant the callback never reads is as much a dummy as <c>null</c>: nothing can see it, and it runs no code, so
    /// the captured values take its place (a written type argument for it goes with it).
    /// </summary>
    [Fact]
    public async Task ConstantStatesTheCallbackIgnores_AreFilledWithTheCapturedValues()
    {
        const string Before = """
            using System;
            using System.Threading;

            class C
            {
                string Join(string a, string b) => string.Create(a.Length + b.Length, 0, {|#0:(span, _) =>
                {
                    a.AsSpan().CopyTo(span);
                    b.AsSpan().CopyTo(span.Slice(a.Length));
                }|});

                void Queue(int x) => ThreadPool.UnsafeQueueUserWorkItem<int>({|#1:_ => Console.WriteLine(x)|}, 5, preferLocal: false);
            }
            """;
        const string After = """
            using System;
            using System.Threading;

            class C
            {
                string Join(string a, string b) => string.Create(a.Length + b.Length, (a, b), static (span, state) =>
                {
                    var (a, b) = state;
                    a.AsSpan().CopyTo(span);
                    b.AsSpan().CopyTo(span.Slice(a.Length));
                });

                void Queue(int x) => ThreadPool.UnsafeQueueUserWorkItem(static x => Console.WriteLine(x), x, preferLocal: false);
            }
            """;
        var test = new Verify.Test { TestCode = Before, FixedCode = After };
        test.ExpectedDiagnostics.Add(Verify.Diagnostic().WithLocation(0).WithArguments("'a' and 'b'", "a closure and a delegate", "the overload with a state parameter can pass them instead"));
        test.ExpectedDiagnostics.Add(Verify.Diagnostic().WithLocation(1).WithArguments("'x'", "a closure and a delegate", "the overload with a state parameter can pass it instead"));
        await test.RunAsync();
    }

    /// <summary>
    /// A state the callback reads, one a method group receives, a seed that comes back, a real state: no dummy. Nor an
    /// enum value, which names something: options a lambda with a parameter sent to the state by mistake (found beside
    /// Websocket.Client's <c>StartNew(_ =&gt; …, TaskCreationOptions.LongRunning, …)</c>), which filling would erase.
    /// </summary>
    [Fact]
    public async Task StatesThatMeanSomething_AreNotReported()
    {
        await Verify.VerifyAnalyzerAsync("""
            using System;
            using System.Collections.Generic;
            using System.Linq;
            using System.Threading;

            class C
            {
                void M(string text, IEnumerable<int> items, int x)
                {
                    _ = string.Create(text.Length, (object?)null, (span, s) => { if (s is null) text.AsSpan().CopyTo(span); });
                    _ = string.Create(text.Length, (string?)null, Fill);
                    _ = items.Aggregate((string?)null, (acc, i) => text + i);   // the seed comes back: no state
                    _ = string.Create(text.Length, text, (span, t) => t.AsSpan().CopyTo(span));
                    _ = string.Create(text.Length, (object?)null, static (span, _) => span.Fill('x'));
                    new System.Threading.Tasks.Task(_ => Console.WriteLine(x), System.Threading.Tasks.TaskCreationOptions.LongRunning).RunSynchronously();
                    ThreadPool.UnsafeQueueUserWorkItem(_ => Console.WriteLine(x), DayOfWeek.Monday, preferLocal: false);
                }

                static void Fill(Span<char> span, string? state) { }
            }
            """);
    }

    /// <summary>Where another type argument is written beside the dummy's, the fix could not drop it alone.</summary>
    [Fact]
    public async Task OtherTypeArgumentsWritten_AreReportedWithoutAFix()
    {
        const string Code = """
            class C
            {
                int Get(int key) => Api.Call<int, object?>([|_ => key|], null);
            }

            static class Api
            {
                public static T Call<T, TState>(System.Func<TState, T> work, TState state) => work(state);
            }
            """;
        await Verify.VerifyCodeFixAsync(Code, Code);
    }

    /// <summary>
    /// <c>FromAsync</c>'s begin lambda that captures its receiver and arguments: the <c>TArg1</c> overload carries them.
    /// netstandard2.0 has the same overloads, and C# 7.3 gets no <c>static</c>.
    /// </summary>
    [Theory]
    [InlineData(TestTarget.Net100)]
    [InlineData(TestTarget.NetStandard20)]
    public async Task FromAsync_PassesTheCapturesAsItsTArg(TestTarget target)
    {
        var staticModifier = target == TestTarget.Net100 ? "static " : "";
        var before = """
            using System.IO;
            using System.Threading.Tasks;

            class C
            {
                Task<int> Read(Stream stream, byte[] buffer) =>
                    Task.Factory.FromAsync({|#0:(callback, state) => stream.BeginRead(buffer, 0, buffer.Length, callback, state)|}, stream.EndRead, null);
            }
            """;
        // Before C# 8 the read-back locals may not shadow the method's parameters.
        var (stream, buffer) = target == TestTarget.Net100 ? ("stream", "buffer") : ("myStream", "myBuffer");
        var after = $$"""
            using System.IO;
            using System.Threading.Tasks;

            class C
            {
                Task<int> Read(Stream stream, byte[] buffer) =>
                    Task.Factory.FromAsync(
                        {{staticModifier}}(state2, callback, state) =>
                        {
                            var ({{stream}}, {{buffer}}) = state2;
                            return {{stream}}.BeginRead({{buffer}}, 0, {{buffer}}.Length, callback, state);
                        },
                        stream.EndRead,
                        (stream, buffer),
                        null);
            }
            """;
        var test = new Verify.Test { TestCode = before, FixedCode = after, Target = target };
        if (target == TestTarget.NetStandard20)
        {
            test.LanguageVersion = LanguageVersion.CSharp7_3;
            test.NullableContext = NullableContextOptions.Disable;
        }

        test.ExpectedDiagnostics.Add(Verify.Diagnostic().WithLocation(0).WithArguments("'stream' and 'buffer'", "a closure and a delegate", "the overload with a state parameter can pass them instead"));
        await test.RunAsync();
    }

    [Fact]
    public async Task DummyStates_InNestedLambdasAndTopLevelStatements_AreFixed()
    {
        const string Before = """
            using System;
            using System.Threading.Tasks;

            var name = args.Length > 0 ? args[0] : "x";
            Func<int, Task<string>> make = n => Task.Run(() => string.Create(n, (object?)null, [|(span, _) => span.Fill(name[0])|]));
            Console.WriteLine(await make(3));
            """;
        const string After = """
            using System;
            using System.Threading.Tasks;

            var name = args.Length > 0 ? args[0] : "x";
            Func<int, Task<string>> make = n => Task.Run(() => string.Create(n, name, static (span, name) => span.Fill(name[0])));
            Console.WriteLine(await make(3));
            """;
        await new Verify.Test { TestCode = Before, FixedCode = After, TestState = { OutputKind = OutputKind.ConsoleApplication } }.RunAsync();
    }
}
