using System;
using System.Threading;

namespace TplPractices.Samples;

/// <summary>
/// TPL0006: callback APIs that can hand their callback a state. A capturing lambda makes each call allocate a
/// closure and a delegate; the state form allocates neither. Build this project to see which calls are reported.
/// </summary>
public class TPL0006_CallbackState
{
    private int _ticks;

    // Reported: captures 'name'. Fix: token.Register(static state => { var name = (string)state!; ... }, name).
    public CancellationTokenRegistration OnCancel(CancellationToken token, string name) =>
        token.Register(() => Console.WriteLine(name + " canceled"));

    // Reported: captures 'item'. Fix on net10.0: QueueUserWorkItem(static state => …, item, preferLocal: false), the
    // generic overload (no box, no cast); on netstandard2.0, and in this two-target project: the object overload.
    public bool Enqueue(int item) => ThreadPool.QueueUserWorkItem(_ => Console.WriteLine(item * 2));

    // Reported: captures 'this' (through _ticks). Fix: the null state becomes 'this'.
    public Timer StartTicking() => new Timer(_ => _ticks++, null, 0, 1000);

    // Reported: captures 'message', passed null as state. Fix: the message becomes the state.
    public void Show(SynchronizationContext context, string message) => context.Post(_ => Console.WriteLine(message), null);

    // Reported: the method group is bound to 'linked', a delegate per call. The local is made with new and never
    // written again, so it cannot be null. Fix: token.Register(static state => ((CancellationTokenSource)state!).Cancel(), linked).
    public bool CancelOnEither(CancellationToken token)
    {
        using var linked = new CancellationTokenSource();
        using var registration = token.Register(linked.Cancel);
        return linked.IsCancellationRequested;
    }

    // Not reported: the state form already.
    public CancellationTokenRegistration Quiet(CancellationToken token, string name) =>
        token.Register(static state => Console.WriteLine(state), name);

    // Not reported: the closure must share 'count', which changes after the callback is registered.
    public int Shared(CancellationToken token)
    {
        var count = 0;
        token.Register(() => Console.WriteLine(count));
        count++;
        return count;
    }
}
