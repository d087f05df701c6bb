using System;
using System.Collections.Generic;
using System.Runtime.CompilerServices;
using System.Threading;
using BenchmarkDotNet.Attributes;
using BenchmarkDotNet.Configs;
using TplPractices.Benchmarks.Reporting;

namespace TplPractices.Benchmarks.Rules;

/// <summary>
/// TPL0012: a hot method whose fast path is taken on every call, written whole or with the rest moved into a NoInlining
/// method. The whitepaper's object holder storing its first object (the rest takes a lock), and a value created once,
/// read after it exists (the rest catches a failure to create it). Each operation is one call; the disassembly
/// diagnoser's listing (-asm.md) shows which calls the JIT inlined. Run it with DOTNET_TieredPGO=0 too: without a
/// profile (and on runtimes before .NET 10) the JIT inlines no method with a lock.
/// </summary>
[MemoryDiagnoser]
[Config(typeof(BenchmarkConfig.ShowsInlining))]
[GroupBenchmarksBy(BenchmarkLogicalGroupRule.ByCategory)]
[CategoriesColumn]
[SeedSource(
    "Performance of the TPL in .NET 4.5 (whitepaper): provide fast, inlinable versions of methods on the hot path; 25,799 vs 16,798 ticks for 500,000 first adds",
    "A method with a lock after its first check is too complex to inline, so every call pays for the call; split, the check is inlined and the rest called only when needed.")]
[ReportSection(125, "TPL0012: inlinable fast paths", "one call of a hot method whose fast path is taken")]
public class TPL0012_HotPathInliningBenchmarks
{
    private const int Calls = 1024;
    private readonly WholeHolder[] _whole = new WholeHolder[Calls];
    private readonly SplitHolder[] _split = new SplitHolder[Calls];
    private readonly WholeLazy _wholeLazy = new();
    private readonly SplitLazy _splitLazy = new();
    private readonly object _item = new();

    [GlobalSetup]
    public void Setup()
    {
        for (var i = 0; i < Calls; i++)
        {
            _whole[i] = new WholeHolder();
            _split[i] = new SplitHolder();
        }

        _wholeLazy.Value();
        _splitLazy.Value();
    }

    [Benchmark(Baseline = true, OperationsPerInvoke = Calls, Description = "Add(item): fast path, then a lock")]
    [BenchmarkCategory("Object holder, first add")]
    public void Before_Holder()
    {
        foreach (var holder in _whole)
        {
            holder.Add(_item);
            holder.Clear();
        }
    }

    [Benchmark(OperationsPerInvoke = Calls, Description = "the same, rest in AddSlow")]
    [BenchmarkCategory("Object holder, first add")]
    public void After_Holder()
    {
        foreach (var holder in _split)
        {
            holder.Add(_item);
            holder.Clear();
        }
    }

    [Benchmark(Baseline = true, OperationsPerInvoke = Calls, Description = "Value(): created? return it; else try create")]
    [BenchmarkCategory("Created value, read")]
    public int Before_Lazy()
    {
        var sum = 0;
        for (var i = 0; i < Calls; i++)
        {
            sum += _wholeLazy.Value().Length;
        }

        return sum;
    }

    [Benchmark(OperationsPerInvoke = Calls, Description = "the same, rest in ValueSlow")]
    [BenchmarkCategory("Created value, read")]
    public int After_Lazy()
    {
        var sum = 0;
        for (var i = 0; i < Calls; i++)
        {
            sum += _splitLazy.Value().Length;
        }

        return sum;
    }

    /// <summary>The whitepaper's holder as TPL0012 reports it.</summary>
    private sealed class WholeHolder
    {
        private object? _held;

        public void Add(object item)
        {
            if (_held == null && Interlocked.CompareExchange(ref _held, item, null) == null)
            {
                return;
            }

            var current = _held;
            if (current is not List<object>)
            {
                Interlocked.CompareExchange(ref _held, new List<object> { current! }, current);
            }

            var list = (List<object>)_held!;
            lock (list)
            {
                list.Add(item);
            }
        }

        public void Clear() => _held = null;
    }

    /// <summary>The same holder as TPL0012's fix leaves it.</summary>
    private sealed class SplitHolder
    {
        private object? _held;

        public void Add(object item)
        {
            if (_held == null && Interlocked.CompareExchange(ref _held, item, null) == null)
            {
                return;
            }

            AddSlow(item);
        }

        [MethodImpl(MethodImplOptions.NoInlining)]
        private void AddSlow(object item)
        {
            var current = _held;
            if (current is not List<object>)
            {
                Interlocked.CompareExchange(ref _held, new List<object> { current! }, current);
            }

            var list = (List<object>)_held!;
            lock (list)
            {
                list.Add(item);
            }
        }

        public void Clear() => _held = null;
    }

    /// <summary>A value created once, falling back when creating it fails, then read: as TPL0012 reports it.</summary>
    private sealed class WholeLazy
    {
        private string? _value;

        public string Value()
        {
            if (_value is { } value)
            {
                return value;
            }

            try
            {
                return _value = new string('x', 16);
            }
            catch (OutOfMemoryException)
            {
                return string.Empty;
            }
        }
    }

    /// <summary>The same, as the fix leaves it.</summary>
    private sealed class SplitLazy
    {
        private string? _value;

        public string Value()
        {
            if (_value is { } value)
            {
                return value;
            }

            return ValueSlow();
        }

        [MethodImpl(MethodImplOptions.NoInlining)]
        private string ValueSlow()
        {
            try
            {
                return _value = new string('x', 16);
            }
            catch (OutOfMemoryException)
            {
                return string.Empty;
            }
        }
    }
}
