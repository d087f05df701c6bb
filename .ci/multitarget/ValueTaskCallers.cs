using System.Threading.Tasks;

namespace MultiTarget
{
    // Calls an internal method of another type from another file: awaited once, directly, which ValueTask<T> keeps.
    internal static class ValueTaskCallers
    {
        public static async Task<int> LengthAsync(ValueTasks source) => (await source.FindAsync(5).ConfigureAwait(false)).Length;
    }
}
