using System.Threading;
using BenchmarkDotNet.Attributes;
using BenchmarkDotNet.Configs;
using TplPractices.Benchmarks.Reporting;

namespace TplPractices.Benchmarks.Rules;

/// <summary>
/// TPL0006: a capturing callback against the state form the fix writes, for each API the rule covers:
/// CancellationToken.Register and UnsafeRegister, ThreadPool.QueueUserWorkItem (object and generic overloads),
/// UnsafeQueueUserWorkItem and RegisterWaitForSingleObject, the Timer constructor, SynchronizationContext.Post and Send,
/// and ExecutionContext.Run.
/// Each operation does the whole round trip (register and dispose, queue and wait, create and dispose), so the
/// bytes shown include what the API itself allocates on both sides.
/// </summary>
[MemoryDiagnoser]
[SmokeInvocations(1024)]
[GroupBenchmarksBy(BenchmarkLogicalGroupRule.ByCategory)]
[CategoriesColumn]
[SeedSource(
    "TPL whitepaper (.NET 4.5), \"Encode closure information into a Task's state object\" (no figures published)",
    "The advice holds for every callback API with a state parameter; .NET Core 3.0 added QueueUserWorkItem<TState>, which carries the state without a box or a cast.")]
[ReportSection(115, "TPL0006: callback APIs with a state instead of capturing closures", "one call")]
public class TPL0006_CallbackStateBenchmarks
{
    private readonly CancellationTokenSource _source = new();
    private readonly CancellationTokenSource _linked = new();
    private readonly ManualResetEventSlim _done = new();
    private readonly ManualResetEvent _signaled = new(true); // stays set: every registration fires at once
    private readonly SynchronizationContext _context = new();
    private readonly ExecutionContext _executionContext = ExecutionContext.Capture()!;
    private int _value = 42;
    private int _sink;

    [Benchmark(Baseline = true, Description = "Register(() => use value)")]
    [BenchmarkCategory("CancellationToken.Register")]
    public void Before_Register()
    {
        var value = _value;
        var self = this;
        _source.Token.Register(() => self._sink = value).Dispose();
    }

    [Benchmark(Description = "Register(static state => use it, (this, value))")]
    [BenchmarkCategory("CancellationToken.Register")]
    public void After_Register()
    {
        var value = _value;
        _source.Token.Register(static state =>
        {
            var (self, value) = ((TPL0006_CallbackStateBenchmarks, int))state!;
            self._sink = value;
        }, (this, value)).Dispose();
    }

    // A method group bound to a source that cannot be null (TPL0006's fix since 0.2.0): the group makes a delegate per
    // call, the state form's lambda is cached. The token is never canceled, so neither callback runs.
    [Benchmark(Baseline = true, Description = "Register(_linked.Cancel)")]
    [BenchmarkCategory("CancellationToken.Register, a method group")]
    public void Before_RegisterGroup() => _source.Token.Register(_linked.Cancel).Dispose();

    [Benchmark(Description = "Register(static state => ((CancellationTokenSource)state!).Cancel(), _linked)")]
    [BenchmarkCategory("CancellationToken.Register, a method group")]
    public void After_RegisterGroup() => _source.Token.Register(static state => ((CancellationTokenSource)state!).Cancel(), _linked).Dispose();

    [Benchmark(Baseline = true, Description = "QueueUserWorkItem(_ => signal)")]
    [BenchmarkCategory("ThreadPool.QueueUserWorkItem")]
    public void Before_Queue()
    {
        var done = _done;
        done.Reset();
        ThreadPool.QueueUserWorkItem(_ => done.Set());
        done.Wait();
    }

    [Benchmark(Description = "QueueUserWorkItem(static state => signal, done)")]
    [BenchmarkCategory("ThreadPool.QueueUserWorkItem")]
    public void AfterObject_Queue()
    {
        var done = _done;
        done.Reset();
        ThreadPool.QueueUserWorkItem(static state => ((ManualResetEventSlim)state!).Set(), done);
        done.Wait();
    }

    [Benchmark(Description = "QueueUserWorkItem<TState>(static state => signal, done, preferLocal: false)")]
    [BenchmarkCategory("ThreadPool.QueueUserWorkItem")]
    public void AfterTyped_Queue()
    {
        var done = _done;
        done.Reset();
        ThreadPool.QueueUserWorkItem(static state => state.Set(), done, preferLocal: false);
        done.Wait();
    }

    [Benchmark(Baseline = true, Description = "QueueUserWorkItem(_ => use value, signal)")]
    [BenchmarkCategory("ThreadPool.QueueUserWorkItem, three values")]
    public void Before_QueueTwo()
    {
        var done = _done;
        var value = _value;
        var self = this;
        done.Reset();
        ThreadPool.QueueUserWorkItem(_ =>
        {
            self._sink = value;
            done.Set();
        });
        done.Wait();
    }

    [Benchmark(Description = "QueueUserWorkItem(static state => …, (this, value, done)): the tuple boxed")]
    [BenchmarkCategory("ThreadPool.QueueUserWorkItem, three values")]
    public void AfterObject_QueueTwo()
    {
        var done = _done;
        done.Reset();
        ThreadPool.QueueUserWorkItem(static state =>
        {
            var (self, value, done) = ((TPL0006_CallbackStateBenchmarks, int, ManualResetEventSlim))state!;
            self._sink = value;
            done.Set();
        }, (this, _value, done));
        done.Wait();
    }

    [Benchmark(Description = "QueueUserWorkItem<TState>(static state => …, (this, value, done), preferLocal: false)")]
    [BenchmarkCategory("ThreadPool.QueueUserWorkItem, three values")]
    public void AfterTyped_QueueTwo()
    {
        var done = _done;
        done.Reset();
        ThreadPool.QueueUserWorkItem(static state =>
        {
            var (self, value, done) = state;
            self._sink = value;
            done.Set();
        }, (this, _value, done), preferLocal: false);
        done.Wait();
    }

    [Benchmark(Baseline = true, Description = "new Timer(_ => use value, null, …)")]
    [BenchmarkCategory("Timer")]
    public void Before_Timer()
    {
        var value = _value;
        var self = this;
        new Timer(_ => self._sink = value, null, Timeout.Infinite, Timeout.Infinite).Dispose();
    }

    [Benchmark(Description = "new Timer(static state => use it, (this, value), …)")]
    [BenchmarkCategory("Timer")]
    public void After_Timer()
    {
        var value = _value;
        new Timer(static state =>
        {
            var (self, value) = ((TPL0006_CallbackStateBenchmarks, int))state!;
            self._sink = value;
        }, (this, value), Timeout.Infinite, Timeout.Infinite).Dispose();
    }

    [Benchmark(Baseline = true, Description = "UnsafeRegister(_ => use value, null)")]
    [BenchmarkCategory("CancellationToken.UnsafeRegister")]
    public void Before_UnsafeRegister()
    {
        var value = _value;
        var self = this;
        _source.Token.UnsafeRegister(_ => self._sink = value, null).Dispose();
    }

    [Benchmark(Description = "UnsafeRegister(static state => use it, (this, value))")]
    [BenchmarkCategory("CancellationToken.UnsafeRegister")]
    public void After_UnsafeRegister()
    {
        var value = _value;
        _source.Token.UnsafeRegister(static state =>
        {
            var (self, value) = ((TPL0006_CallbackStateBenchmarks, int))state!;
            self._sink = value;
        }, (this, value)).Dispose();
    }

    [Benchmark(Baseline = true, Description = "UnsafeQueueUserWorkItem(_ => signal, null)")]
    [BenchmarkCategory("ThreadPool.UnsafeQueueUserWorkItem")]
    public void Before_UnsafeQueue()
    {
        var done = _done;
        done.Reset();
        ThreadPool.UnsafeQueueUserWorkItem(_ => done.Set(), null);
        done.Wait();
    }

    [Benchmark(Description = "UnsafeQueueUserWorkItem(static state => signal, done)")]
    [BenchmarkCategory("ThreadPool.UnsafeQueueUserWorkItem")]
    public void After_UnsafeQueue()
    {
        var done = _done;
        done.Reset();
        ThreadPool.UnsafeQueueUserWorkItem(static state => ((ManualResetEventSlim)state!).Set(), done);
        done.Wait();
    }

    [Benchmark(Baseline = true, Description = "RegisterWaitForSingleObject(_ => signal, null) on a set event")]
    [BenchmarkCategory("ThreadPool.RegisterWaitForSingleObject")]
    public void Before_RegisterWait()
    {
        var done = _done;
        done.Reset();
        var registration = ThreadPool.RegisterWaitForSingleObject(_signaled, (_, _) => done.Set(), null, Timeout.Infinite, true);
        done.Wait();
        registration.Unregister(null);
    }

    [Benchmark(Description = "RegisterWaitForSingleObject(static (state, _) => signal, done)")]
    [BenchmarkCategory("ThreadPool.RegisterWaitForSingleObject")]
    public void After_RegisterWait()
    {
        var done = _done;
        done.Reset();
        var registration = ThreadPool.RegisterWaitForSingleObject(_signaled, static (state, _) => ((ManualResetEventSlim)state!).Set(), done, Timeout.Infinite, true);
        done.Wait();
        registration.Unregister(null);
    }

    [Benchmark(Baseline = true, Description = "SynchronizationContext.Post(_ => signal, null)")]
    [BenchmarkCategory("SynchronizationContext.Post")]
    public void Before_Post()
    {
        var done = _done;
        done.Reset();
        _context.Post(_ => done.Set(), null);
        done.Wait();
    }

    [Benchmark(Description = "SynchronizationContext.Post(static state => signal, done)")]
    [BenchmarkCategory("SynchronizationContext.Post")]
    public void After_Post()
    {
        var done = _done;
        done.Reset();
        _context.Post(static state => ((ManualResetEventSlim)state!).Set(), done);
        done.Wait();
    }

    [Benchmark(Baseline = true, Description = "SynchronizationContext.Send(_ => use value, null)")]
    [BenchmarkCategory("SynchronizationContext.Send")]
    public void Before_Send()
    {
        var value = _value;
        var self = this;
        _context.Send(_ => self._sink = value, null);
    }

    [Benchmark(Description = "SynchronizationContext.Send(static state => use it, (this, value))")]
    [BenchmarkCategory("SynchronizationContext.Send")]
    public void After_Send()
    {
        var value = _value;
        _context.Send(static state =>
        {
            var (self, value) = ((TPL0006_CallbackStateBenchmarks, int))state!;
            self._sink = value;
        }, (this, value));
    }

    [Benchmark(Baseline = true, Description = "ExecutionContext.Run(context, _ => use value, null)")]
    [BenchmarkCategory("ExecutionContext.Run")]
    public void Before_ExecutionContextRun()
    {
        var value = _value;
        var self = this;
        ExecutionContext.Run(_executionContext, _ => self._sink = value, null);
    }

    [Benchmark(Description = "ExecutionContext.Run(context, static state => use it, (this, value))")]
    [BenchmarkCategory("ExecutionContext.Run")]
    public void After_ExecutionContextRun()
    {
        var value = _value;
        ExecutionContext.Run(_executionContext, static state =>
        {
            var (self, value) = ((TPL0006_CallbackStateBenchmarks, int))state!;
            self._sink = value;
        }, (this, value));
    }

    [GlobalCleanup]
    public void Cleanup()
    {
        _source.Dispose();
        _done.Dispose();
        _signaled.Dispose();
        _value = _sink;
    }
}
