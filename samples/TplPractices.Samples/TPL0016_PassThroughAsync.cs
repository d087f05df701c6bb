using System;
using System.Threading;
using System.Threading.Tasks;

namespace TplPractices.Samples;

/// <summary>
/// TPL0016: an async method, local function or lambda whose every path awaits another method's task makes a state
/// machine and a task of its own to hand on a result its callee's task already holds. Where nothing before the await
/// can throw, returning the task is the same program.
/// </summary>
public class TPL0016_PassThroughAsync
{
    private readonly TPL0016_PassThroughAsync? _next;
    private readonly Journal _journal = new Journal();
    private int _sent;

    public TPL0016_PassThroughAsync(TPL0016_PassThroughAsync? next) => _next = next;

    // Reported: an overload that forwards to another. Fix: public Task<int> SendAsync(string message) => SendAsync(message, CancellationToken.None);
    public async Task<int> SendAsync(string message) => await SendAsync(message, CancellationToken.None);

    // Reported: every path ends in one awaited call, chosen by a test that cannot throw.
    // Fix: drop async, and each path returns its call's task: return urgent ? SendAsync(...) : SendAsync(...);
    public async Task<int> SendEitherAsync(string message, bool urgent)
    {
        if (urgent)
        {
            return await SendAsync(message, CancellationToken.None);
        }

        return await SendAsync(message, CancellationToken.None).ConfigureAwait(false);
    }

    // Reported: a lambda bound to a delegate type written down. Fix: Func<Task<int>> later = () => SendAsync(message);
    public Func<Task<int>> Later(string message)
    {
        Func<Task<int>> later = async () => await SendAsync(message);
        return later;
    }

    // Reported: its only await is of a task complete already, and it then returns a field. Fix: drop async and
    // return Task.FromResult(_sent).
    public async Task<int> SentAsync()
    {
        await Task.CompletedTask;
        return _sent;
    }

    // Reported: the pause is made by a call that cannot throw (a TimeSpan of constants) and only the await reads it.
    // Fix: drop async and return pause.
    public async Task PauseAsync()
    {
        var pause = Task.Delay(TimeSpan.FromMilliseconds(5));
        await pause;
    }

    // Reported: _journal is made by its initializer and no constructor replaces it, so it is never null, and its
    // WriteAsync is async. Fix: public Task LogAsync(string message) => _journal.WriteAsync(message);
    public async Task LogAsync(string message) => await _journal.WriteAsync(message);

    // Not reported: code after the await (the count) must wait for the send.
    public async Task<int> SendCountedAsync(string message)
    {
        var sent = await SendAsync(message, CancellationToken.None);
        _sent++;
        return sent;
    }

    // Not reported: _next may be null, and the NullReferenceException would then be thrown at the call instead of
    // being stored in the returned task.
    public async Task<int> ForwardAsync(string message) => await _next!.SendAsync(message, CancellationToken.None);

    // Not reported: the argument runs code (Trim may throw), which an async method would put in its task.
    public async Task<int> SendTrimmedAsync(string message) => await SendAsync(message.Trim(), CancellationToken.None);

    private async Task<int> SendAsync(string message, CancellationToken token)
    {
        await Task.Delay(1, token).ConfigureAwait(false);
        Console.WriteLine(message);
        return ++_sent;
    }

    public sealed class Journal
    {
        public async Task WriteAsync(string line)
        {
            await Task.Yield();
            Console.WriteLine(line);
        }
    }
}
