using System;
using System.Collections.Generic;
using System.Diagnostics;
using System.Runtime.CompilerServices;
using System.Threading;

// TPL0012's two shapes as in TplPractices.Benchmarks/Rules/TPL0012_HotPathInliningBenchmarks.cs: the whitepaper's
// holder storing its first object (a lock after the fast path) and a created value read (a catch after), each whole
// and split. Time per call, the best of 15 rounds after 3 warm-up passes; the runtime and code generator are printed.
const int Calls = 1024, Rounds = 2000, Repeats = 15;
var whole = new Whole[Calls]; var split = new Split[Calls]; var item = new object();
for (var i = 0; i < Calls; i++) { whole[i] = new Whole(); split[i] = new Split(); }
var wl = new WholeLazy(); var sl = new SplitLazy(); wl.Value(); sl.Value();
double Best(Action round) { var best = double.MaxValue; for (var r = 0; r < Repeats; r++) { var sw = Stopwatch.StartNew(); for (var k = 0; k < Rounds; k++) round(); sw.Stop(); best = Math.Min(best, sw.Elapsed.TotalNanoseconds / Rounds / Calls); } return best; }
int sink = 0;
Action holderWhole = () => { foreach (var h in whole) { h.Add(item); h.Clear(); } };
Action holderSplit = () => { foreach (var h in split) { h.Add(item); h.Clear(); } };
Action lazyWhole = () => { for (var i = 0; i < Calls; i++) sink += wl.Value().Length; };
Action lazySplit = () => { for (var i = 0; i < Calls; i++) sink += sl.Value().Length; };
for (var w = 0; w < 3; w++) { Best(holderWhole); Best(holderSplit); Best(lazyWhole); Best(lazySplit); }
Console.WriteLine($"runtime: {System.Runtime.InteropServices.RuntimeInformation.FrameworkDescription}, dynamic code: {RuntimeFeature.IsDynamicCodeCompiled}, TieredPGO={Environment.GetEnvironmentVariable("DOTNET_TieredPGO") ?? "default"}");
Console.WriteLine($"holder first add: whole {Best(holderWhole):F2} ns, split {Best(holderSplit):F2} ns");
Console.WriteLine($"created value read: whole {Best(lazyWhole):F2} ns, split {Best(lazySplit):F2} ns");
GC.KeepAlive(sink);

sealed class Whole
{
    private object? _held;
    public void Add(object item)
    {
        if (_held == null && Interlocked.CompareExchange(ref _held, item, null) == null) return;
        var current = _held;
        if (current is not List<object>) Interlocked.CompareExchange(ref _held, new List<object> { current! }, current);
        var list = (List<object>)_held!;
        lock (list) { list.Add(item); }
    }
    public void Clear() => _held = null;
}
sealed class Split
{
    private object? _held;
    public void Add(object item)
    {
        if (_held == null && Interlocked.CompareExchange(ref _held, item, null) == null) return;
        AddSlow(item);
    }
    [MethodImpl(MethodImplOptions.NoInlining)]
    private void AddSlow(object item)
    {
        var current = _held;
        if (current is not List<object>) Interlocked.CompareExchange(ref _held, new List<object> { current! }, current);
        var list = (List<object>)_held!;
        lock (list) { list.Add(item); }
    }
    public void Clear() => _held = null;
}
sealed class WholeLazy
{
    private string? _value;
    public string Value()
    {
        if (_value != null) return _value;
        try { return _value = Environment.MachineName + "!"; } catch (InvalidOperationException) { return _value = ""; }
    }
}
sealed class SplitLazy
{
    private string? _value;
    public string Value()
    {
        if (_value != null) return _value;
        return ValueSlow();
    }
    [MethodImpl(MethodImplOptions.NoInlining)]
    private string ValueSlow()
    {
        try { return _value = Environment.MachineName + "!"; } catch (InvalidOperationException) { return _value = ""; }
    }
}
