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
            return Task.Run(() => Task.Factory.StartNew(() => Work(), TaskCreationOptions.AttachedToParent | TaskCreationOptions.LongRunning));
        }

        // Work for the child to do: a child that does nothing is TPL0014's (a completed task) as well.
        private static void Work() { }
    }
}
