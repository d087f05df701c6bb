using System;
using System.Threading.Tasks;

namespace MultiTarget
{
    public class Targets
    {
#if NET
        // Compiled by net10.0 only.
        public Task<int> Modern() => Task.FromResult(4242);
        public Task ModernLog(string text) => Task.Factory.StartNew(() => Console.WriteLine(text));
#else
        // Compiled by netstandard2.0 only.
        public Task<bool> Legacy() => Task.FromResult(true);
        public Task LegacyLog(string text) => Task.Factory.StartNew(() => Console.WriteLine(text));
#endif

        // Both targets; net10.0 would await with SuppressThrowing, netstandard2.0 cannot; the await is a light-bulb fix
        // only, so dotnet format leaves the wait.
        public async Task<string> Wait(Task task)
        {
            ((IAsyncResult)task).AsyncWaitHandle.WaitOne();
            await Task.Yield();
            return task.Status.ToString();
        }

        // Both targets report; the two targets rewrite it differently on their own.
        public Task<string> Name() => Task.FromResult("multi");
    }
}
