using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp;
using Microsoft.CodeAnalysis.Testing;
using TplPractices.Analyzers.Tests.Verifiers;
using Verify = TplPractices.Analyzers.Tests.Verifiers.CSharpCodeFixVerifier<
    TplPractices.Analyzers.Rules.TaskRunStateAnalyzer,
    TplPractices.Analyzers.CodeFixes.Rules.TaskRunStateFixer>;

namespace TplPractices.Analyzers.Tests.Rules;

/// <summary>
/// TPL0007 on a background loop started with the token of the object's own source (grpc-dotnet's polling resolver,
/// <c>Task.Run(() =&gt; ResolveNowAsync(_cts.Token))</c>). Reading <c>Token</c> throws only ObjectDisposedException, never
/// cancellation, and Task.Run and StartNew(…).Unwrap() end alike on any other exception: the lambda gets the StartNew
/// fix. An argument that calls a method could throw cancellation, and keeps no fix.
/// </summary>
public sealed class TaskRunStateSourceTokenTests
{
    private const string On = "root = true\n[*.cs]\ndotnet_diagnostic.TPL0007.severity = suggestion\n";

    private const string Shared = """
        using System;
        using System.Threading;
        using System.Threading.Tasks;

        public sealed class Poller
        {
            private readonly CancellationTokenSource _cts = new CancellationTokenSource();
            private Task _loop = Task.CompletedTask;
            private int _polls;

        """;

    private const string Members = """

            public CancellationToken Next() => _cts.Token;

            private async Task PollAsync(CancellationToken token)
            {
                _polls++;
                await Task.Delay(1, token);
            }

            public static string Run(bool dispose)
            {
                var poller = new Poller();
                if (dispose)
                {
                    poller._cts.Dispose();
                }

                poller.Start();
                try { poller._loop.Wait(); } catch (AggregateException e) { return poller._loop.Status + " " + e.InnerException!.GetType().Name + " " + poller._polls; }
                return poller._loop.Status + " " + poller._polls;
            }
        }
        """;

    private const string Before = Shared + """
            public void Start() => _loop = Task.Run({|#0:() => PollAsync(_cts.Token)|});

            public Task Again() => Task.Run({|#1:() => PollAsync(Next())|});
        """ + Members;

    private const string After = Shared + """
            public void Start() => _loop = Task.Factory.StartNew(
                static state =>
                {
                    var self = (Poller)state!;
                    return self.PollAsync(self._cts.Token);
                },
                this,
                CancellationToken.None,
                TaskCreationOptions.DenyChildAttach,
                TaskScheduler.Default).Unwrap();

            public Task Again() => Task.Run({|#1:() => PollAsync(Next())|});
        """ + Members;

    [Fact]
    public async Task ASourcesToken_AsTheArgument_IsFixed_ACallIsNot()
    {
        await RunAsync(new Verify.Test { TestCode = Before, FixedCode = After, FixedState = { MarkupHandling = MarkupMode.Allow } });
    }

    /// <summary>grpc-dotnet's setup: one file for net10.0, netstandard2.0 and net462, C# 12 and nullable warnings in each.</summary>
    [Fact]
    public async Task InAProjectForNet10NetStandardAndNet462_EveryCopyCompilesTheSameFix()
    {
        var test = new Verify.Test { TestCode = Before, FixedCode = After, FixedState = { MarkupHandling = MarkupMode.Allow } };
        test.LinkedTargets.Add(new LinkedTarget(TestTarget.NetStandard20, LanguageVersion.CSharp12, NullableContextOptions.Enable));
        test.LinkedTargets.Add(new LinkedTarget(TestTarget.Net462, LanguageVersion.CSharp12, NullableContextOptions.Enable));
        await RunAsync(test);
    }

    private static Task RunAsync(Verify.Test test)
    {
        test.TestState.AnalyzerConfigFiles.Add(("/.editorconfig", On));
        test.FixedState.AnalyzerConfigFiles.Add(("/.editorconfig", On));
        test.ExpectedDiagnostics.Add(Verify.Diagnostic().WithSeverity(DiagnosticSeverity.Info).WithLocation(0).WithArguments("'this'", "a delegate", "it"));
        test.ExpectedDiagnostics.Add(Verify.Diagnostic().WithSeverity(DiagnosticSeverity.Info).WithLocation(1).WithArguments("'this'", "a delegate", "it"));
        test.FixedState.ExpectedDiagnostics.Add(Verify.Diagnostic().WithSeverity(DiagnosticSeverity.Info).WithLocation(1).WithArguments("'this'", "a delegate", "it"));
        return test.RunAsync();
    }

    /// <summary>A live source polls once; a disposed one fails the loop with ObjectDisposedException, in both forms.</summary>
    [Theory]
    [InlineData(false, "returned RanToCompletion 1")]
    [InlineData(true, "returned Faulted ObjectDisposedException 0")]
    public async Task FixedStart_EndsTheLoopAsTheOriginalDid(bool dispose, string expected)
    {
        Assert.Equal(expected, await CodeRunner.RunAsync(TestMarkup.Strip(Before), "Poller", "Run", dispose));
        Assert.Equal(expected, await CodeRunner.RunAsync(TestMarkup.Strip(After), "Poller", "Run", dispose));
    }
}
