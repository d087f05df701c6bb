using System.Threading.Tasks;

namespace MultiTarget
{
    public class Attach
    {
        // TPL0009 without a fix: the parent would stop waiting for its child.
        public Task Parent()
        {
            return Task.Factory.StartNew(() =>
            {
                Task.Factory.StartNew(() => { }, TaskCreationOptions.AttachedToParent);
            });
        }

        // TPL0009, fixed: Task.Run denies child attachment, so the flag does nothing.
        public Task InRun()
        {
            return Task.Run(() => Task.Factory.StartNew(() => { }, TaskCreationOptions.AttachedToParent | TaskCreationOptions.LongRunning));
        }
    }
}
