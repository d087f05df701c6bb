using System;
using System.Threading.Tasks;

namespace MultiTarget
{
    public class Continued
    {
        // TPL0018: a second continuation on the same task, reported on both targets and left as it is (no fix).
        public void Track(Task<int> work)
        {
            work.ContinueWith(t => Console.WriteLine(t.Status));
            work.ContinueWith(t => Console.WriteLine(t.Id));
        }
    }
}
