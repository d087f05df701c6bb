using System.Threading;

namespace MultiTarget
{
    public class Ctors
    {
        private readonly object _gate = new object();
        private int _created;
        private int _value;

        public Ctors(int start)
        {
            Interlocked.Increment(ref _created);
            lock (_gate)
            {
                _value = start;
            }
        }

        public int Next()
        {
            lock (_gate)
            {
                return ++_value;
            }
        }
    }
}
