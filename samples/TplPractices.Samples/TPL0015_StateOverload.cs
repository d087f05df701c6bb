using System;
using System.Collections.Concurrent;

namespace TplPractices.Samples;

/// <summary>
/// TPL0015: a lambda that captures what it needs allocates a closure and a delegate on every call, even when
/// GetOrAdd finds the key and never runs it. The overload that passes the callback a state (found by its shape, for
/// ConcurrentDictionary and for any API written the same way) lets the lambda be static.
/// </summary>
public class TPL0015_StateOverload
{
    private readonly ConcurrentDictionary<string, Parser> _parsers = new ConcurrentDictionary<string, Parser>();
    private readonly ConcurrentDictionary<string, int> _counts = new ConcurrentDictionary<string, int>();

    // Reported on net10.0: 'culture' is captured. Fix: GetOrAdd(format, static (key, culture) => new Parser(key, culture), culture).
    // netstandard2.0 has no GetOrAdd<TArg>, so that target reports nothing, and the shared file gets no fix.
    public Parser ParserFor(string format, string culture) =>
        _parsers.GetOrAdd(format, key => new Parser(key, culture));

    // Reported on both targets: WorkQueue has the same shape (Enqueue(Action) and Enqueue<TState>(Action<TState>, TState)).
    // Fix: queue.Enqueue(static state => { var (name, attempt) = state; Console.WriteLine(name + attempt); }, (name, attempt)).
    public void Retry(WorkQueue queue, string name, int attempt) =>
        queue.Enqueue(() => Console.WriteLine(name + attempt));

    // Reported on both targets: Enqueue<TState> already takes a state, but is given a dummy the callback ignores.
    // Fix: queue.Enqueue(static name => Console.WriteLine(name), name).
    public void Announce(WorkQueue queue, string name) =>
        queue.Enqueue(_ => Console.WriteLine(name), default(object));

    // Reported on net10.0: the method group is a delegate bound to 'this', made on every call.
    // Fix: GetOrAdd(format, static (format, self) => self.Create(format), this).
    public Parser Plain(string format) => _parsers.GetOrAdd(format, Create);

    // Reported on net10.0: the update captures 'step', beside the value 'start'. Fix where one target builds the file:
    // AddOrUpdate(name, static (_, state) => state.Item1, static (k, old, state) => { var (_, step) = state; return old + step; }, (start, step)).
    public int Count(string name, int start, int step) => _counts.AddOrUpdate(name, start, (k, old) => old + step);

    // Reported on net10.0: the update captures 'step', and the add factory captures nothing. Fix where one target builds
    // the file: AddOrUpdate(name, static (k, _) => k.Length, static (k, old, step) => old + step, step).
    public int Grow(string name, int step) => _counts.AddOrUpdate(name, k => k.Length, (k, old) => old + step);

    // Reported on both targets: the factory captures only the key the dictionary hands it anyway.
    // Fix, on every target: GetOrAdd(format, static format => new Parser(format, "en")).
    public Parser ForKey(string format) => _parsers.GetOrAdd(format, _ => new Parser(format, "en"));

    // Not reported: the lambda captures nothing.
    public Parser Default(string format) => _parsers.GetOrAdd(format, key => new Parser(key, "en"));

    private Parser Create(string format) => new Parser(format, "en");

    public sealed class Parser
    {
        public Parser(string format, string culture)
        {
            Format = format;
            Culture = culture;
        }

        public string Format { get; }

        public string Culture { get; }
    }
}

/// <summary>A user API with a state overload, the shape the rule looks for.</summary>
public class WorkQueue
{
    public void Enqueue(Action work) => work();

    public void Enqueue<TState>(Action<TState> work, TState state) => work(state);
}
