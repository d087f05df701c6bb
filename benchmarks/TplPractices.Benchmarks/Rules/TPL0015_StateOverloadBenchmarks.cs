using System;
using System.Collections.Concurrent;
using System.Collections.Immutable;
using BenchmarkDotNet.Attributes;
using BenchmarkDotNet.Configs;
using TplPractices.Benchmarks.Reporting;

namespace TplPractices.Benchmarks.Rules;

/// <summary>
/// TPL0015: a capturing lambda given to a method that has a state overload, against that overload with the static
/// lambda the fix writes: ConcurrentDictionary.GetOrAdd where the key is present (the callback never runs, the closure
/// is made anyway), the same with a factory that captures only the key (the fix reads it from the parameter), AddOrUpdate where it is present (the update runs), ImmutableInterlocked.Update, and string.Create
/// given a dummy null state while its lambda captures the text (the fix passes the text as the state).
/// </summary>
[MemoryDiagnoser]
[GroupBenchmarksBy(BenchmarkLogicalGroupRule.ByCategory)]
[CategoriesColumn]
[SeedSource(
    "TPL whitepaper (.NET 4.5), \"Encode closure information into a Task's state object\" (no figures published)",
    "The same cost, a closure and a delegate per call, for every API with a state overload; .NET Core 2.0 added ConcurrentDictionary's TArg overloads for it.")]
[ReportSection(128, "TPL0015: state overloads found by shape (ConcurrentDictionary, ImmutableInterlocked, a dummy state)", "one call")]
public class TPL0015_StateOverloadBenchmarks
{
    private readonly ConcurrentDictionary<string, int> _cache = new();
    private ImmutableList<int> _items = ImmutableList<int>.Empty;
    private int _factor = 3;
    private string _text = "a short text";
    private string _present = "present";

    [GlobalSetup]
    public void Setup() => _cache["present"] = 1;

    [Benchmark(Baseline = true, Description = "GetOrAdd(key, k => Make(k, factor)), key present")]
    [BenchmarkCategory("ConcurrentDictionary.GetOrAdd")]
    public int Before_GetOrAdd()
    {
        var factor = _factor;
        return _cache.GetOrAdd("present", k => Make(k, factor));
    }

    [Benchmark(Description = "GetOrAdd(key, static (k, factor) => Make(k, factor), factor)")]
    [BenchmarkCategory("ConcurrentDictionary.GetOrAdd")]
    public int After_GetOrAdd()
    {
        var factor = _factor;
        return _cache.GetOrAdd("present", static (k, factor) => Make(k, factor), factor);
    }

    [Benchmark(Baseline = true, Description = "GetOrAdd(key, _ => Make(key, 2)), key present")]
    [BenchmarkCategory("ConcurrentDictionary.GetOrAdd, the key captured")]
    public int Before_KeyCaptured()
    {
        var key = _present;
        return _cache.GetOrAdd(key, _ => Make(key, 2));
    }

    [Benchmark(Description = "GetOrAdd(key, static key => Make(key, 2))")]
    [BenchmarkCategory("ConcurrentDictionary.GetOrAdd, the key captured")]
    public int After_KeyCaptured()
    {
        var key = _present;
        return _cache.GetOrAdd(key, static key => Make(key, 2));
    }

    [Benchmark(Baseline = true, Description = "AddOrUpdate(key, k => …factor, (k, old) => …factor), key present")]
    [BenchmarkCategory("ConcurrentDictionary.AddOrUpdate")]
    public int Before_AddOrUpdate()
    {
        var factor = _factor;
        return _cache.AddOrUpdate("present", k => Make(k, factor), (k, old) => old % 1000 + factor);
    }

    [Benchmark(Description = "AddOrUpdate(key, static (k, factor) => …, static (k, old, factor) => …, factor)")]
    [BenchmarkCategory("ConcurrentDictionary.AddOrUpdate")]
    public int After_AddOrUpdate()
    {
        var factor = _factor;
        return _cache.AddOrUpdate("present", static (k, factor) => Make(k, factor), static (k, old, factor) => old % 1000 + factor, factor);
    }

    [Benchmark(Baseline = true, Description = "ImmutableInterlocked.Update(ref list, l => l.Add(item))")]
    [BenchmarkCategory("ImmutableInterlocked.Update")]
    public bool Before_Update()
    {
        var item = _factor;
        var changed = ImmutableInterlocked.Update(ref _items, l => l.Add(item));
        _items = ImmutableList<int>.Empty;
        return changed;
    }

    [Benchmark(Description = "ImmutableInterlocked.Update(ref list, static (l, item) => l.Add(item), item)")]
    [BenchmarkCategory("ImmutableInterlocked.Update")]
    public bool After_Update()
    {
        var item = _factor;
        var changed = ImmutableInterlocked.Update(ref _items, static (l, item) => l.Add(item), item);
        _items = ImmutableList<int>.Empty;
        return changed;
    }

    [Benchmark(Baseline = true, Description = "string.Create(n, (object?)null, (span, _) => …text…)")]
    [BenchmarkCategory("string.Create, a dummy state")]
    public string Before_DummyState()
    {
        var text = _text;
        return string.Create(text.Length, (object?)null, (span, _) => text.AsSpan().CopyTo(span));
    }

    [Benchmark(Description = "string.Create(n, text, static (span, text) => …text…)")]
    [BenchmarkCategory("string.Create, a dummy state")]
    public string After_DummyState()
    {
        var text = _text;
        return string.Create(text.Length, text, static (span, text) => text.AsSpan().CopyTo(span));
    }

    private static int Make(string key, int factor) => key.Length * factor;
}
