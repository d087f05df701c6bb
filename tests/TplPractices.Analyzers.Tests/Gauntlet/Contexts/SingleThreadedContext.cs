using System.Collections.Immutable;

namespace TplPractices.Analyzers.Tests.Gauntlet.Contexts;

/// <summary>
/// The case as written, its behaviour run on a thread with a single-threaded SynchronizationContext (a UI thread's),
/// with the task arguments already completed or still pending. A fix that lets a continuation resume on the context,
/// or waits on it, changes results, task states or exceptions here (a deadlock shows as a time-out, which the
/// comparison does not count, so it surfaces as the lost result of the steps after it).
/// </summary>
internal sealed class SingleThreadedContext(bool pending) : GauntletContext
{
    public override string Name => pending ? "single-threaded context, antecedents pending" : "single-threaded context, antecedents completed";

    // The behaviour run compiles for .NET 10 whatever the setup; one setup is enough.
    public override ImmutableArray<GauntletSetup> Setups => [GauntletSetup.Single];

    public override Variant? Apply(GauntletCase gauntletCase, GauntletSetup setup) =>
        Single(gauntletCase, setup, gauntletCase.Code) with { Behaviour = new BehaviourRun.Setting(OnContext: true, PendingTasks: pending) };
}
