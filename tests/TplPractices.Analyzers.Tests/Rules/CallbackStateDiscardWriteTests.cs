using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp;
using Microsoft.CodeAnalysis.Testing;
using TplPractices.Analyzers.Tests.Verifiers;
using Verify = TplPractices.Analyzers.Tests.Verifiers.CSharpCodeFixVerifier<
    TplPractices.Analyzers.Rules.CallbackStateAnalyzer,
    TplPractices.Analyzers.CodeFixes.Rules.CallbackStateFixer>;

namespace TplPractices.Analyzers.Tests.Rules;

/// <summary>
/// TPL0006 on the fire-and-forget callback <c>_ =&gt; _ = WorkAsync()</c>: a lone parameter named <c>_</c> is a
/// parameter, so the statement writes the state the callback is given (found on MySqlConnector, whose data source starts
/// its password-refresh timer that way). It is never read, and once the fix renames the parameter the same text is a
/// discard, so the site is fixed, unless another <c>_</c> is in scope where the lambda stands.
/// </summary>
public sealed class CallbackStateDiscardWriteTests
{
    private const string Before = /* lang=c#-test */ """
        using System;
        using System.Threading;
        using System.Threading.Tasks;

        public sealed class Refresher : IDisposable
        {
            private readonly Timer _timer;
            private readonly TaskCompletionSource<string> _refreshed = new TaskCompletionSource<string>();

            public Refresher(string name)
            {
                _timer = new Timer([|_ => _ = RefreshAsync(name)|], null, 0, Timeout.Infinite);
            }

            private async Task RefreshAsync(string name)
            {
                await Task.Yield();
                _refreshed.TrySetResult(name);
            }

            public void Dispose() => _timer.Dispose();

            public static bool Queue(string text, TaskCompletionSource<string> done) =>
                ThreadPool.QueueUserWorkItem([|_ => _ = SendAsync(text, done)|]);

            private static async Task SendAsync(string text, TaskCompletionSource<string> done)
            {
                await Task.Yield();
                done.TrySetResult(text);
            }

            public static async Task<string> Run()
            {
                using var refresher = new Refresher("refreshed");
                var sent = new TaskCompletionSource<string>();
                Queue("sent", sent);
                return await refresher._refreshed.Task + " " + await sent.Task;
            }
        }
        """;

    private static readonly string After = Before
        .Replace("new Timer([|_ => _ = RefreshAsync(name)|], null, 0, Timeout.Infinite)", """
            new Timer(
                        static state =>
                        {
                            var (self, name) = ((Refresher, string))state!;
                            _ = self.RefreshAsync(name);
                        },
                        (this, name),
                        0,
                        Timeout.Infinite)
            """, StringComparison.Ordinal)
        .Replace("ThreadPool.QueueUserWorkItem([|_ => _ = SendAsync(text, done)|])", """
            ThreadPool.QueueUserWorkItem(
                        static state =>
                        {
                            var (text, done) = state;
                            _ = SendAsync(text, done);
                        },
                        (text, done),
                        preferLocal: false)
            """, StringComparison.Ordinal);

    [Fact]
    public async Task WritesOfTheUnreadParameter_BecomeDiscards()
    {
        await Verify.VerifyCodeFixAsync(Before, After);
    }

    [Fact]
    public async Task FixedCode_RunsTheSameWork()
    {
        var original = await CodeRunner.RunAsync(TestMarkup.Strip(Before), "Refresher", "Run");
        Assert.Equal("returned refreshed sent", original);
        Assert.Equal(original, await CodeRunner.RunAsync(After, "Refresher", "Run"));
    }

    /// <summary>
    /// netstandard2.0 at C# 7.3 has discards too: a file it shares with net10.0 gets the same fix, in the form that
    /// version accepts.
    /// </summary>
    [Fact]
    public async Task AFileSharedWithCSharp73_GetsTheSameDiscard()
    {
        const string code = /* lang=c#-test */ """
            using System.Threading;
            using System.Threading.Tasks;

            class Pinger
            {
                Timer Start(string host) => new Timer([|_ => _ = PingAsync(host)|], null, 0, 1000);

                Task PingAsync(string host) => Task.CompletedTask;
            }
            """;
        await new Verify.Test
        {
            NullableContext = NullableContextOptions.Disable,
            LinkedTargets = { new LinkedTarget(TestTarget.NetStandard20, LanguageVersion.CSharp7_3, NullableContextOptions.Disable) },
            TestCode = code,
            FixedCode = code.Replace("new Timer([|_ => _ = PingAsync(host)|], null, 0, 1000)", """
                new Timer(
                        state =>
                        {
                            var (self, myHost) = ((Pinger, string))state;
                            _ = self.PingAsync(myHost);
                        },
                        (this, host),
                        0,
                        1000)
                """, StringComparison.Ordinal),
        }.RunAsync();
    }

    /// <summary>
    /// Where the renamed text would not be a discard (a field named <c>_</c>, which the statement would then write), or
    /// where the write's value is used, or the parameter is read, the site keeps its report and gets no fix.
    /// </summary>
    [Fact]
    public async Task OtherUsesOfTheParameter_AreReportedWithoutAFix()
    {
        const string code = /* lang=c#-test */ """
            using System.Threading;
            using System.Threading.Tasks;

            class Field
            {
                private object? _;

                Timer Start(string name) => new Timer([|_ => _ = SendAsync(name)|], null, 0, Timeout.Infinite);

                static Task SendAsync(string name) => Task.CompletedTask;
            }

            class Uses
            {
                Timer Kept(string name) => new Timer([|_ => Keep(_ = SendAsync(name))|], null, 0, Timeout.Infinite);
                Timer Read(string name) => new Timer([|_ => Keep(_ ?? name)|], null, 0, Timeout.Infinite);

                static void Keep(object? value) { }
                static Task SendAsync(string name) => Task.CompletedTask;
            }
            """;
        await new Verify.Test { TestCode = code, FixedCode = code, FixedState = { MarkupHandling = MarkupMode.Allow } }.RunAsync();
    }
}
