using Verify = TplPractices.Analyzers.Tests.Verifiers.CSharpCodeFixVerifier<
    TplPractices.Analyzers.Rules.DelayTimerAnalyzer,
    TplPractices.Analyzers.CodeFixes.Rules.DelayTimerFixer>;

namespace TplPractices.Analyzers.Tests.Rules;

/// <summary>
/// TPL0017's wait-only loop that tests another object's state first is a poll until that work ends, in every spelling
/// of the test: <c>while (worker.Busy)</c> was left alone, but <c>while (!worker.Done)</c> and <c>worker.Done ==
/// false</c> were timed, as was a property of the class that computes the state (<c>!IsReady</c>). Most calls find the
/// work done and never wait, so a timer made before the loop costs one each time. A stop flag, an auto-property or a
/// token of the loop's own keeps a loop going for many passes: still a timer. The same holds for an exit before the
/// delay (<c>if (queue.IsEmpty) break;</c>, as <c>queue.Count == 0</c> already was).
/// </summary>
public sealed class DelayTimerPollSpellingTests
{
    [Fact]
    public async Task AWaitForAnothersState_IsAPollInEverySpelling()
    {
        await Verify.VerifyAnalyzerAsync(/* lang=c#-test */ """
            using System;
            using System.Threading;
            using System.Threading.Tasks;

            class Worker
            {
                public bool Busy { get; set; }
                public bool Done => !Busy;
            }

            class C
            {
                private readonly Worker _worker = new();
                private volatile bool _stopped;

                bool IsReady => _worker.Done;

                public bool Connected { get; set; }

                async Task Negated()
                {
                    while (!_worker.Done) { await Task.Delay(50); }
                }

                async Task ComparedWithFalse(Worker worker)
                {
                    while (worker.Done == false) { await Task.Delay(50); }
                }

                async Task PatternFalse()
                {
                    while (_worker.Done is false) { await Task.Delay(50); }
                }

                async Task BesideAStopFlag()
                {
                    while (!_stopped && _worker.Busy) { await Task.Delay(50); }
                }

                async Task ComputedHere()
                {
                    while (!IsReady) { await Task.Delay(50); }
                }

                async Task DrainedFirst(System.Collections.Concurrent.ConcurrentQueue<int> queue)
                {
                    while (true)
                    {
                        queue.TryDequeue(out _);
                        if (queue.IsEmpty) break;
                        await Task.Delay(50);
                    }
                }

                async Task OwnFlag()
                {
                    while (!_stopped) { await [|Task.Delay(50)|]; }
                }

                async Task OwnAutoProperty()
                {
                    while (!Connected) { await [|Task.Delay(50)|]; }
                }

                async Task OwnToken(CancellationTokenSource source)
                {
                    while (!source.Token.IsCancellationRequested) { await [|Task.Delay(50)|]; }
                }

                async Task NegatedWithWork()
                {
                    while (!_worker.Done) { Console.WriteLine("waiting"); await [|Task.Delay(50)|]; }
                }
            }
            """);
    }
}
