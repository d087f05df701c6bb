using System.Threading;
using System.Threading.Tasks;

namespace MultiTarget
{
    public class PassThroughs
    {
        private static readonly Journal s_journal = new Journal();
        private readonly Journal _journal = new Journal();
        private int _sent;

        // TPL0016: a static readonly field a new sets is never null, nor is a readonly one no constructor replaces.
        public async Task LogAsync(string line) => await s_journal.WriteAsync(line);

        public async Task NoteAsync(string line) => await _journal.WriteAsync(line);

        // TPL0016: an overload forwarding to another; the comment stays.
        public async Task<int> SendAsync(string message) => await SendAsync(message, CancellationToken.None); // forwards

        // TPL0016: the block form of a Task method becomes a return.
        public async Task FlushAsync(string reason)
        {
            await WriteAsync(reason, CancellationToken.None).ConfigureAwait(false);
        }

        // Not TPL0016: the argument runs code.
        public async Task<int> SendTrimmedAsync(string message) => await SendAsync(message.Trim(), CancellationToken.None);

        private async Task<int> SendAsync(string message, CancellationToken token)
        {
            await Task.Delay(message.Length, token).ConfigureAwait(false);
            return ++_sent;
        }

        public sealed class Journal
        {
            public async Task WriteAsync(string line)
            {
                await Task.Delay(line.Length).ConfigureAwait(false);
            }
        }

        private async Task WriteAsync(string message, CancellationToken token)
        {
            await Task.Delay(message.Length, token).ConfigureAwait(false);
            _sent += message.Length;
        }
    }
}
