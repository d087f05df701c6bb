using Microsoft.CodeAnalysis.Testing;
using Verify = TplPractices.Analyzers.Tests.Verifiers.CSharpCodeFixVerifier<
    TplPractices.Analyzers.Rules.TaskRunStateAnalyzer,
    TplPractices.Analyzers.CodeFixes.Rules.TaskRunStateFixer>;

namespace TplPractices.Analyzers.Tests.Rules;

/// <summary>
/// TPL0007 inside a lambda that a call quotes: test frameworks' <c>Assert.Throws…(async () => { … })</c> take the
/// lambda's text through <c>[CallerArgumentExpression]</c> for their failure messages (found in an MQTT library's
/// tests, whose other Task.Run sites were fixed). Rewriting the lambda would change that text, so the shared layer
/// leaves the site reported without a fix; the same call outside the quoted lambda is fixed.
/// </summary>
public sealed class TaskRunStateQuotedTests
{
    private const string On = "root = true\n[*.cs]\ndotnet_diagnostic.TPL0007.severity = suggestion\n";

    private const string Code = /* lang=c#-test */ """
        using System;
        using System.Runtime.CompilerServices;
        using System.Threading;
        using System.Threading.Tasks;

        public sealed class Gate : IDisposable
        {
            public void Dispose() { }
        }

        public static class Checks
        {
            public static Task Throws(Func<Task> action, [CallerArgumentExpression(nameof(action))] string? text = null) => action();

            public static Task Quoted() => Throws(async () =>
            {
                var gate = new Gate();
                _ = Task.Run([|() => gate.Dispose()|], CancellationToken.None);
                await Task.Yield();
            });

            public static async Task Plain()
            {
                var gate = new Gate();
                _ = Task.Run([|() => gate.Dispose()|], CancellationToken.None);
                await Task.Yield();
            }
        }
        """;

    private const string PlainRun = """
            public static async Task Plain()
            {
                var gate = new Gate();
                _ = Task.Run([|() => gate.Dispose()|], CancellationToken.None);
        """;

    private const string PlainStartNew = """
            public static async Task Plain()
            {
                var gate = new Gate();
                _ = Task.Factory.StartNew(
                    static state =>
                    {
                        var gate = (Gate)state!;
                        gate.Dispose();
                    },
                    gate,
                    CancellationToken.None,
                    TaskCreationOptions.DenyChildAttach,
                    TaskScheduler.Default);
        """;

    [Fact]
    public async Task ATaskRunInALambdaACallQuotes_IsLeftAsWritten()
    {
        var test = new Verify.Test
        {
            TestCode = Code,
            FixedCode = Code
                .Replace(PlainRun, PlainStartNew, StringComparison.Ordinal)
                .Replace("[|() => gate.Dispose()|]", "{|TPL0007:() => gate.Dispose()|}", StringComparison.Ordinal),
        };
        test.TestState.AnalyzerConfigFiles.Add(("/.editorconfig", On));
        test.FixedState.AnalyzerConfigFiles.Add(("/.editorconfig", On));
        test.FixedState.MarkupHandling = MarkupMode.Allow;
        await test.RunAsync();
    }
}
