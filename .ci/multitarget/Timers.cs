using System;
using System.Threading;
using System.Threading.Tasks;

namespace MultiTarget
{
    public class Timers
    {
        private int _polls;

        // TPL0017: netstandard2.0 has no PeriodicTimer, so the shared loop keeps its delay.
        public async Task Shared(CancellationToken token)
        {
            while (!token.IsCancellationRequested) { _polls++; await Task.Delay(1000); }
        }

        // TPL0017: a delay on the caller's token racing the work; the fix's source is linked to the token on both targets.
        public async Task<bool> InTime(Task work, CancellationToken token)
        {
            Task first;
            first = await Task.WhenAny(work, Task.Delay(1000, token));
            return first == work;
        }

        // TPL0017: the race comes first in the expression body; it moves into a local of a block body on both targets.
        public async Task<bool> Quick(Task work) => await Task.WhenAny(work, Task.Delay(100)) == work;

        // TPL0017: a soft and a hard limit raced at once: both delays take one source's token, on both targets.
        public async Task<bool> TwoLimits(Task work)
        {
            var first = await Task.WhenAny(Task.Delay(100), Task.Delay(5000), work);
            return first == work;
        }

        // TPL0017: a thread blocked on the race; the index comes back before the delay's source is canceled.
        public bool Blocked(Task work)
        {
            if (Task.WaitAny(work, Task.Delay(250)) != 0)
            {
                return false;
            }

            return true;
        }

        // TPL0017: a delay on the token of a source nothing cancels; the fix links the delay's source to that token.
        public async Task<bool> OwnSource(Task work)
        {
            using (var source = new CancellationTokenSource())
            {
                await Task.WhenAny(work, Task.Delay(400, source.Token));
                return work.IsCompleted;
            }
        }

        // TPL0017: a pass that awaits its work, on netstandard2.0 too, so the shared loop keeps its delay.
        public async Task SharedPoll(Func<Task> poll, CancellationToken token)
        {
            while (!token.IsCancellationRequested)
            {
                await poll();
                await Task.Delay(500);
            }
        }

#if NET
        // TPL0017: only net10.0 compiles this branch, and it has PeriodicTimer; the loop only waits, so its passes start
        // a period apart either way, and dotnet format gives it the timer.
        public async Task Idle(CancellationToken token)
        {
            try
            {
                while (!token.IsCancellationRequested)
                {
                    await Task.Delay(TimeSpan.FromSeconds(2), token);
                }
            }
            catch (OperationCanceledException)
            {
            }
        }

        // TPL0017: a pass that does work: the timer would start each pass a period after the last one began rather than
        // a period after its work, so the fix is the light bulb's alone and dotnet format keeps the delay.
        public async Task Modern(CancellationToken token)
        {
            try
            {
                while (!token.IsCancellationRequested)
                {
                    _polls++;
                    await Task.Delay(TimeSpan.FromSeconds(1), token);
                }
            }
            catch (OperationCanceledException)
            {
            }
        }

        // TPL0017: a race on a TimeProvider's delay, in net10.0's branch: the source's token goes after the provider.
        public async Task<bool> OnTheClock(Task work, TimeProvider clock)
        {
            await Task.WhenAny(work, Task.Delay(TimeSpan.FromMilliseconds(300), clock));
            return work.IsCompleted;
        }

        // TPL0017: a pass that awaits its work, in net10.0's branch: reported there, and left to the light bulb too.
        public async Task ModernPoll(Func<Task> poll, CancellationToken token)
        {
            try
            {
                while (!token.IsCancellationRequested)
                {
                    await poll();
                    await Task.Delay(TimeSpan.FromMilliseconds(500), token);
                }
            }
            catch (OperationCanceledException)
            {
            }
        }
#endif
    }
}
