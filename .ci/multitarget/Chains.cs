using System.Threading.Tasks;

namespace MultiTarget
{
    public class Chains
    {
        private static Task Step() => Task.Delay(1);
        private static Task<int> Number() => Task.Run(() => 20);
        private static Task<string> Describe(int n) => Task.Run(() => "n=" + n);

        // ContinueWith runs on the default scheduler, never on the caller's context: the awaits must not either.
        public Task<string> Flow() => Number().ContinueWith(t => Describe(t.Result)).Unwrap();

        public Task Three() => Step().ContinueWith(_ => Step()).Unwrap().ContinueWith(_ => Step()).Unwrap();
    }
}
