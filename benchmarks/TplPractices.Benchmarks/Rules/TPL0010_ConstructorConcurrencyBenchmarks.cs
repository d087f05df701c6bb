using System.Collections.Generic;
using System.Threading;
using BenchmarkDotNet.Attributes;
using BenchmarkDotNet.Configs;
using TplPractices.Benchmarks.Reporting;

namespace TplPractices.Benchmarks.Rules;

/// <summary>
/// TPL0010: constructing a small object whose constructor protects its own fields, against the plain constructor
/// the fix (or the whitepaper's split) leaves. The third pair is the whitepaper's example: a list created lazily
/// with LazyInitializer and filled under a lock, from the constructor, against its needsProtection: false path.
/// </summary>
[MemoryDiagnoser]
[GroupBenchmarksBy(BenchmarkLogicalGroupRule.ByCategory)]
[CategoriesColumn]
[SeedSource(
    "TPL whitepaper (.NET 4.5), \"Avoid concurrency measures in constructor paths\" (no figures published)",
    "The advice holds on .NET 10: an uncontended lock or interlocked operation is cheap but not free, and in a constructor it protects nothing.")]
[ReportSection(119, "TPL0010: concurrency measures in constructors", "one construction")]
public class TPL0010_ConstructorConcurrencyBenchmarks
{
    private int _seed = 3;

    [Benchmark(Baseline = true, Description = "lock (_gate) { _value = x; } in the constructor")]
    [BenchmarkCategory("lock on an own field")]
    public object Before_Lock() => new Locked(_seed);

    [Benchmark(Description = "_value = x; (the lock's body)")]
    [BenchmarkCategory("lock on an own field")]
    public object After_Lock() => new Plain(_seed);

    [Benchmark(Baseline = true, Description = "Interlocked.Increment(ref _count)")]
    [BenchmarkCategory("Interlocked on an own field")]
    public object Before_Interlocked() => new Counted(_seed);

    [Benchmark(Description = "_count++")]
    [BenchmarkCategory("Interlocked on an own field")]
    public object After_Interlocked() => new CountedPlain(_seed);

    [Benchmark(Baseline = true, Description = "seed: AddItem (EnsureInitialized + lock)")]
    [BenchmarkCategory("Whitepaper example")]
    public object Before_Seed() => new SeedFoo(true);

    [Benchmark(Description = "seed: AddItemInternal(0, needsProtection: false)")]
    [BenchmarkCategory("Whitepaper example")]
    public object After_Seed() => new SeedFooSplit(true);

    [GlobalCleanup]
    public void Cleanup() => _seed++;

    private sealed class Locked
    {
        private readonly object _gate = new object();
        private int _value;

        public Locked(int x)
        {
            lock (_gate)
            {
                _value = x;
            }
        }

        public int Value => _value;
    }

    private sealed class Plain
    {
        private readonly object _gate = new object();
        private int _value;

        public Plain(int x) => _value = x;

        public int Value { get { lock (_gate) { return _value; } } }
    }

    private sealed class Counted
    {
        private int _count;

        public Counted(int x)
        {
            Interlocked.Increment(ref _count);
            _count += x;
        }

        public int Count => _count;
    }

    private sealed class CountedPlain
    {
        private int _count;

        public CountedPlain(int x)
        {
            _count++;
            _count += x;
        }

        public int Count => _count;
    }

    // The whitepaper's class, in our own words: a list created on first use, thread-safely.
    private sealed class SeedFoo
    {
        private List<int>? _items;

        public SeedFoo(bool add)
        {
            if (add)
            {
                AddItem(0);
            }
        }

        public void AddItem(int item)
        {
            var list = LazyInitializer.EnsureInitialized(ref _items, static () => new List<int>());
            lock (list)
            {
                list.Add(item);
            }
        }
    }

    private sealed class SeedFooSplit
    {
        private List<int>? _items;

        public SeedFooSplit(bool add)
        {
            if (add)
            {
                AddItemInternal(0, needsProtection: false);
            }
        }

        public void AddItem(int item) => AddItemInternal(item, needsProtection: true);

        private void AddItemInternal(int item, bool needsProtection)
        {
            if (needsProtection)
            {
                var list = LazyInitializer.EnsureInitialized(ref _items, static () => new List<int>());
                lock (list)
                {
                    list.Add(item);
                }
            }
            else
            {
                _items ??= new List<int>();
                _items.Add(item);
            }
        }
    }
}
