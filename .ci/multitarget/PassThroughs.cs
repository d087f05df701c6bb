using System.Threading;
using System.Threading.Tasks;

namespace MultiTarget
{
    public class PassThroughs
    {
        private int _sent;

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

        private async Task WriteAsync(string message, CancellationToken token)
        {
            await Task.Delay(message.Length, token).ConfigureAwait(false);
            _sent += message.Length;
        }
    }
}
