using System.Threading.Tasks;

namespace TplPractices.Samples;

/// <summary>
/// TPL0002: every ContinueWith(...).Unwrap() link costs a continuation task and a proxy task. Build this
/// project to see which chains are reported, and which of them the fix can turn into awaits.
/// </summary>
public class TPL0002_ContinueWithUnwrap
{
    private static Task Step(int number) => Task.Run(() => System.Math.Max(number, 0));

    private static Task<int> Load() => Task.Run(() => System.Math.Abs(-20));

    private static Task<string> Save(int value) => Task.Run(() => "saved " + value);

    // Reported once (one chain of two links). Fix: async Task Steps() { await Step(1).ConfigureAwait(false); … await Step(3).ConfigureAwait(false); }
    public Task Steps() => Step(1).ContinueWith(_ => Step(2)).Unwrap().ContinueWith(_ => Step(3)).Unwrap();

    // Reported. Fix: var result = await Load().ConfigureAwait(false); return await Save(result + 1).ConfigureAwait(false);
    public Task<string> LoadAndSave() => Load().ContinueWith(loaded => Save(loaded.Result + 1)).Unwrap();

    // Reported, no fix: the continuation looks at how its antecedent ended, which await cannot express.
    public Task<string> SaveEvenIfLoadFails() =>
        Load().ContinueWith(loaded => Save(loaded.IsFaulted ? -1 : loaded.Result)).Unwrap();

    // Reported on the link, no fix: a chain built in a loop. Write the loop with await by hand.
    public Task Many(int count)
    {
        Task current = Step(0);
        for (var i = 1; i < count; i++)
        {
            var number = i;
            current = current.ContinueWith(_ => Step(number)).Unwrap();
        }

        return current;
    }

    // Not reported: Unwrap of a StartNew that returns a task is how such work is started; there is no chain.
    public Task Started() => Task.Factory.StartNew(() => Step(7)).Unwrap();

    // Not reported: ContinueWith without Unwrap.
    public Task<int> Continued() => Load().ContinueWith(loaded => loaded.Result + 1);
}
