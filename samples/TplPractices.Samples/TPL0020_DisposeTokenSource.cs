using System;
using System.IO;
using System.Threading;
using System.Threading.Tasks;

namespace TplPractices.Samples;

/// <summary>
/// TPL0020: a CancellationTokenSource with a time-out queues a timer, and a linked one registers on its parent token.
/// Nothing disposes these here, so each call leaves its timer queued until it fires, or its registration on the
/// parent. A suggestion: shown in the IDE; this project raises it to a warning in .editorconfig.
/// </summary>
public class TPL0020_DisposeTokenSource
{
    // Reported. Fix: using var timeout = new CancellationTokenSource(TimeSpan.FromSeconds(5));
    public async Task<int> ReadAsync(Stream stream, byte[] buffer)
    {
        var timeout = new CancellationTokenSource(TimeSpan.FromSeconds(5));
        return await stream.ReadAsync(buffer, 0, buffer.Length, timeout.Token).ConfigureAwait(false);
    }

    // Reported: the linked source stays registered on 'stopping', which lives as long as the app.
    // Fix: using var linked = CancellationTokenSource.CreateLinkedTokenSource(stopping);
    public async Task CopyAsync(Stream from, Stream to, CancellationToken stopping)
    {
        var linked = CancellationTokenSource.CreateLinkedTokenSource(stopping);
        await from.CopyToAsync(to, 81920, linked.Token).ConfigureAwait(false);
    }

    // Reported without a fix: the work may still run when this method returns, and disposing the source here would
    // stop its time-out under it. Dispose it when the work ends.
    public void Start(Func<CancellationToken, Task> work)
    {
        var limit = new CancellationTokenSource(TimeSpan.FromMinutes(1));
        _ = work(limit.Token);
    }

    // Reported: nothing holds this source, so nothing can ever dispose it; a linked source per call stays registered
    // on 'stopping' after the write ends.
    // Fix: using var linkedSource = CancellationTokenSource.CreateLinkedTokenSource(stopping, ct);
    // before the statement, which reads linkedSource.Token.
    public async Task WriteAsync(Stream to, byte[] buffer, CancellationToken stopping, CancellationToken ct)
    {
        await to.WriteAsync(buffer, 0, buffer.Length, CancellationTokenSource.CreateLinkedTokenSource(stopping, ct).Token).ConfigureAwait(false);
    }

    // Reported: the same, in an expression body. Fix: the body becomes a block,
    // { using var timeoutSource = new CancellationTokenSource(1000); return await stream.ReadAsync(…, timeoutSource.Token); }
    // (a using block where the file is compiled before C# 8).
    public async Task<int> ReadBrieflyAsync(Stream stream, byte[] buffer) =>
        await stream.ReadAsync(buffer, 0, buffer.Length, new CancellationTokenSource(1000).Token).ConfigureAwait(false);

    // Reported, both: the time-out is in use only while the linked token is, and that one only during the read.
    // Fix: using var timeout = …; and using var linked = …; (the linked source is disposed first).
    public async Task<int> ReadLinkedAsync(Stream stream, byte[] buffer, CancellationToken ct)
    {
        var timeout = new CancellationTokenSource(TimeSpan.FromSeconds(5));
        var linked = CancellationTokenSource.CreateLinkedTokenSource(ct, timeout.Token);
        return await stream.ReadAsync(buffer, 0, buffer.Length, linked.Token).ConfigureAwait(false);
    }

    // Not reported: a time-out handed out is meant to fire later, and lets its timer go when it does.
    public static CancellationToken Deadline(TimeSpan after)
    {
        var source = new CancellationTokenSource(after);
        var token = source.Token;
        return token;
    }

    // Reported without a fix: the linked source stays registered on 'caller' once per call, and nothing here can
    // dispose it. Hand out the source instead and let the caller dispose it. The time-out it links is not reported.
    public static CancellationToken ForRequest(CancellationToken caller, TimeSpan timeout)
    {
        var limit = new CancellationTokenSource(timeout);
        var linked = CancellationTokenSource.CreateLinkedTokenSource(caller, limit.Token);
        return linked.Token;
    }

    // Not reported: disposed when the block ends.
    public async Task<int> DisposedAsync(Stream stream, byte[] buffer)
    {
        using var timeout = new CancellationTokenSource(TimeSpan.FromSeconds(5));
        return await stream.ReadAsync(buffer, 0, buffer.Length, timeout.Token).ConfigureAwait(false);
    }
}
