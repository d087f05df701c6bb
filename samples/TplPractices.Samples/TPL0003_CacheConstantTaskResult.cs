using System;
using System.Threading.Tasks;

namespace TplPractices.Samples;

/// <summary>
/// TPL0003: Task.FromResult with a constant allocates the same finished task on every call.
/// Build this project to see which calls are reported on each target.
/// </summary>
public class TPL0003_CacheConstantTaskResult
{
    private readonly int _capacity = 16;

    // Reported on both targets: no runtime caches a task for 42.
    public Task<int> GetAnswerAsync() => Task.FromResult(42);

    // Reported on both targets: strings are never cached (only null is).
    public Task<string> GetStatusAsync() => Task.FromResult("ready");

    // Reported on both targets; the fix is Task.CompletedTask because the caller only sees a Task.
    public Task FlushAsync() => Task.FromResult(-5);

    // Reported on netstandard2.0 only: .NET 6+ returns a cached task for true, false and ints -1..8.
    public Task<bool> IsEnabledAsync() => Task.FromResult(true);

    // Reported on netstandard2.0 only: .NET 8+ also caches zero of small value types.
    public Task<double> GetRateAsync() => Task.FromResult(0.0);

    // Not reported: the value is not a constant.
    public Task<int> GetCapacityAsync() => Task.FromResult(_capacity);

    // Not reported: a static initializer runs once.
    private static readonly Task<int> s_ready = Task.FromResult(100);

    public Task<int> GetReadyAsync() => s_ready;

    // Reported on both targets: the lambda runs every time the delegate is invoked.
    public Func<Task<int>> CreateFactory() => () => Task.FromResult(1000);
}
