using System.Threading.Tasks;

namespace MultiTarget
{
    public class Chains
    {
        private static Task Step() => Task.Delay(1);
        private static Task<int> Number() => Task.Run(() => 20);
        private static Task<string> Describe(int n) => Task.Run(() => "n=" + n);

        // TPL0002 reports both; its awaits (ConfigureAwait(false), as ContinueWith never runs on the caller's context)
        // stop at the first fault, so only the light bulb offers them and dotnet format leaves the chains.
        public Task<string> Flow() => Number().ContinueWith(t => Describe(t.Result)).Unwrap();

        public Task Three() => Step().ContinueWith(_ => Step()).Unwrap().ContinueWith(_ => Step()).Unwrap();
    }
}
