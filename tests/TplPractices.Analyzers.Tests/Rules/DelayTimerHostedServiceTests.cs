using Microsoft.CodeAnalysis.Testing;
using TplPractices.Analyzers.CodeFixes.Rules;
using TplPractices.Analyzers.Rules;
using TplPractices.Analyzers.Tests.Verifiers;
using Verify = TplPractices.Analyzers.Tests.Verifiers.CSharpCodeFixVerifier<
    TplPractices.Analyzers.Rules.DelayTimerAnalyzer,
    TplPractices.Analyzers.CodeFixes.Rules.DelayTimerFixer>;

namespace TplPractices.Analyzers.Tests.Rules;

/// <summary>
/// TPL0017's timer loop in a hosted service: <c>BackgroundService.ExecuteAsync</c> waiting on its stopping token, with
/// no catch. Elsewhere an uncaught token has no fix (the delay throws TaskCanceledException, the tick
/// OperationCanceledException, and a caller may tell them apart); here the only caller is the host, which cancels that
/// token when it stops the service and then passes over a canceled task whose exception is any
/// OperationCanceledException. The base type is declared here as Microsoft.Extensions.Hosting declares it.
/// </summary>
public sealed class DelayTimerHostedServiceTests
{
    private const string Hosting = """
        namespace Microsoft.Extensions.Hosting
        {
            public abstract class BackgroundService
            {
                protected abstract System.Threading.Tasks.Task ExecuteAsync(System.Threading.CancellationToken stoppingToken);

                public System.Threading.Tasks.Task Start(System.Threading.CancellationToken stoppingToken) => ExecuteAsync(stoppingToken);
            }
        }

        """;

    /// <summary>The base type, then the opening of the namespace the services below are declared in.</summary>
    private const string App = Hosting + """
        namespace App
        {
            using System;
            using System.Threading;
            using System.Threading.Tasks;
            using Microsoft.Extensions.Hosting;


        """;

    private const string Service = App + """
            public sealed class Poller : BackgroundService
            {
                public int Polls;

                protected override async Task ExecuteAsync(CancellationToken stoppingToken)
                {
                    while (!stoppingToken.IsCancellationRequested)
                    {
                        Polls++;
                        await [|Task.Delay(60000, stoppingToken)|];
                    }
                }
            }

            public static class Host
            {
                /// <summary>What the host makes of a service it stops: a canceled task with an OperationCanceledException is a quiet stop.</summary>
                public static async Task<string> StopAfter(int polls)
                {
                    var service = new Poller();
                    using var stopping = new CancellationTokenSource();
                    var running = service.Start(stopping.Token);
                    while (service.Polls < polls)
                    {
                        await Task.Yield();
                    }

                    stopping.Cancel();
                    try
                    {
                        await running;
                        return "ended on its own";
                    }
                    catch (Exception e)
                    {
                        return running.IsCanceled && e is OperationCanceledException ? "stopped quietly" : "faulted with " + e.GetType().Name;
                    }
                }
            }
        }
        """;

    private static readonly string ServiceFixed = Service
        .Replace("            while (!stoppingToken.IsCancellationRequested)\n            {\n                Polls++;", "            using var timer = new PeriodicTimer(TimeSpan.FromMilliseconds(60000));\n            while (!stoppingToken.IsCancellationRequested)\n            {\n                Polls++;", StringComparison.Ordinal)
        .Replace("[|Task.Delay(60000, stoppingToken)|]", "timer.WaitForNextTickAsync(stoppingToken)", StringComparison.Ordinal);

    /// <summary>
    /// Offered one site at a time, its title saying what changes: code that awaits the service's public ExecuteTask after
    /// a stop sees the other exception type (a test asserting <c>ThrowsAsync&lt;TaskCanceledException&gt;</c>, say).
    /// </summary>
    [Fact]
    public async Task ALoopOnTheStoppingToken_GetsOnePeriodicTimer_OneSiteAtATime()
    {
        Assert.NotEqual(Service, ServiceFixed);
        await new Verify.Test
        {
            TestCode = Service,
            FixedCode = ServiceFixed,
            CodeFixTestBehaviors = CodeFixTestBehaviors.SkipFixAllCheck,
            CodeActionEquivalenceKey = DelayTimerFixer.EquivalenceKey + "_OneSite",
            // The pass counts its polls: the rhythm changes too, and the title says both.
            CodeActionVerifier = (action, verifier) => verifier.True(
                action.Title.EndsWith("(" + DelayTimer.RhythmReason + "; " + DelayTimer.HostedServiceReason + ")", StringComparison.Ordinal), action.Title),
        }.RunAsync();
    }

    /// <summary>Fix All leaves the loop alone: a stopped service's task would hold another exception type.</summary>
    [Fact]
    public async Task FixAll_LeavesTheHostedServiceLoop()
    {
        await new Verify.Test
        {
            TestCode = Service,
            FixedCode = Service,
            CodeFixTestBehaviors = CodeFixTestBehaviors.SkipFixAllInDocumentCheck,
            CodeActionEquivalenceKey = DelayTimerFixer.EquivalenceKey,
        }.RunAsync();
    }

    /// <summary>
    /// Stopped after its first poll, the service's task ends as the host expects, before and after the fix. The period is
    /// a minute so that the stop always lands while the pass waits: with a short one, a stop between a tick and the loop's
    /// test ends the loop on its own, and the run would depend on the machine's load.
    /// </summary>
    [Fact]
    public async Task TheFixedService_StopsAsQuietlyAsBefore()
    {
        var original = await CodeRunner.RunAsync(TestMarkup.Strip(Service), "App.Host", "StopAfter", 1);
        Assert.Equal("returned stopped quietly", original);
        Assert.Equal(original, await CodeRunner.RunAsync(ServiceFixed, "App.Host", "StopAfter", 1));
    }

    /// <summary>
    /// A library of two targets, netstandard2.0 at C# 7.3 beside net10.0: the loop under <c>#if NET</c> gets the one-site
    /// fix, which compiles in both copies (netstandard2.0 has no PeriodicTimer, and never sees the loop).
    /// </summary>
    [Fact]
    public async Task MultiTargeted_TheLoopUnderIfNet_GetsTheFix()
    {
        const string Code = App + """
                public sealed class Poller : BackgroundService
                {
                    public int Polls;

                    protected override async Task ExecuteAsync(CancellationToken stoppingToken)
                    {
            #if NET
                        while (!stoppingToken.IsCancellationRequested)
                        {
                            Polls++;
                            await [|Task.Delay(5, stoppingToken)|];
                        }
            #else
                        await Task.Delay(5, stoppingToken);
            #endif
                    }
                }
            }
            """;
        var fixedCode = Code
            .Replace("#if NET\n            while", "#if NET\n            using var timer = new PeriodicTimer(TimeSpan.FromMilliseconds(5));\n            while", StringComparison.Ordinal)
            .Replace("[|Task.Delay(5, stoppingToken)|]", "timer.WaitForNextTickAsync(stoppingToken)", StringComparison.Ordinal);
        Assert.NotEqual(Code, fixedCode);
        await new Verify.Test
        {
            TestCode = Code,
            FixedCode = fixedCode,
            PreprocessorSymbols = { "NET" },
            LinkedTargets = { new LinkedTarget(TestTarget.NetStandard20, Microsoft.CodeAnalysis.CSharp.LanguageVersion.CSharp7_3, Microsoft.CodeAnalysis.NullableContextOptions.Disable, PreprocessorSymbols: []) },
            CodeFixTestBehaviors = CodeFixTestBehaviors.SkipFixAllCheck,
            CodeActionEquivalenceKey = DelayTimerFixer.EquivalenceKey + "_OneSite",
        }.RunAsync();
    }

    /// <summary>
    /// Reported without a fix, where another caller or another exception could tell the two apart: a token other than
    /// the stopping token, a loop in a lambda the method starts, a catch that keeps the exception, a stopping token the
    /// method assigns, and an ExecuteAsync of a type that is no hosted service.
    /// </summary>
    [Fact]
    public async Task OtherTokensCallersOrCatches_HaveNoFix()
    {
        const string Code = App + """
                public sealed class Services : BackgroundService
                {
                    private readonly CancellationTokenSource _own = new();

                    protected override async Task ExecuteAsync(CancellationToken stoppingToken)
                    {
                        while (!stoppingToken.IsCancellationRequested)
                        {
                            Console.WriteLine("own");
                            await [|Task.Delay(5, _own.Token)|];
                        }

                        await Task.Run(async () =>
                        {
                            while (!stoppingToken.IsCancellationRequested)
                            {
                                Console.WriteLine("inner");
                                await [|Task.Delay(5, stoppingToken)|];
                            }
                        });

                        try
                        {
                            while (!stoppingToken.IsCancellationRequested)
                            {
                                Console.WriteLine("caught");
                                await [|Task.Delay(5, stoppingToken)|];
                            }
                        }
                        catch (Exception e)
                        {
                            Console.WriteLine(e.GetType().Name);
                        }
                    }
                }

                public sealed class Reassigned : BackgroundService
                {
                    protected override async Task ExecuteAsync(CancellationToken stoppingToken)
                    {
                        stoppingToken = CancellationToken.None;
                        while (!stoppingToken.IsCancellationRequested)
                        {
                            Console.WriteLine("reassigned");
                            await [|Task.Delay(5, stoppingToken)|];
                        }
                    }
                }

                public sealed class NotHosted
                {
                    protected async Task ExecuteAsync(CancellationToken stoppingToken)
                    {
                        while (!stoppingToken.IsCancellationRequested)
                        {
                            Console.WriteLine("not hosted");
                            await [|Task.Delay(5, stoppingToken)|];
                        }
                    }
                }
            }
            """;
        await Verify.VerifyCodeFixAsync(Code, Code);
    }
}
