using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp;
using TplPractices.Analyzers.Rules;
using TplPractices.Analyzers.Tests.Verifiers;
using Verify = TplPractices.Analyzers.Tests.Verifiers.CSharpCodeFixVerifier<
    TplPractices.Analyzers.Rules.DelayTimerAnalyzer,
    TplPractices.Analyzers.CodeFixes.Rules.DelayTimerFixer>;

namespace TplPractices.Analyzers.Tests.Rules;

/// <summary>
/// TPL0017 on a loop that keeps its period by hand: each pass measures its work and waits what is left of the period,
/// so passes start a period apart, as one PeriodicTimer's ticks do. Reported, without a fix.
/// </summary>
public sealed class DelayTimerKeptPeriodTests
{
    private static string Class(string members) => $$"""
        using System;
        using System.Diagnostics;
        using System.Threading;
        using System.Threading.Tasks;

        class Sampler(TimeSpan cadence)
        {
            private static readonly TimeSpan Interval = TimeSpan.FromSeconds(5);
            private const int IntervalMillis = 5000;
            private int _samples;
            void Sample() => _samples++;
            Task SampleAsync() { _samples++; return Task.CompletedTask; }
        {{members}}
        }
        """;

    [Fact]
    public async Task APeriodLessThePassesTime_IsReportedWithoutAFix()
    {
        await DelayTimerRaceChecks.HasNoFixAsync(
            Class("""
                async Task ByClock(CancellationToken token)
                {
                    while (!token.IsCancellationRequested)
                    {
                        var started = DateTime.UtcNow;
                        Sample();
                        var left = Interval - (DateTime.UtcNow - started);
                        if (left > TimeSpan.Zero) await {|#0:Task.Delay(left, token)|};
                    }
                }

                async Task ByStopwatchInMilliseconds(CancellationToken token)
                {
                    for (;;)
                    {
                        var watch = Stopwatch.StartNew();
                        await SampleAsync();
                        await {|#1:Task.Delay(Math.Max(0, IntervalMillis - (int)watch.ElapsedMilliseconds), token)|};
                    }
                }

                async Task GuardedInBraces(CancellationToken token)
                {
                    while (true)
                    {
                        var watch = Stopwatch.StartNew();
                        try { await SampleAsync(); } catch (InvalidOperationException) { }
                        var left = cadence - watch.Elapsed;
                        if (left > TimeSpan.Zero)
                        {
                            await {|#2:Task.Delay(left, token)|}.ConfigureAwait(false);
                        }
                    }
                }

                // Behind time, the pass says so and goes on at once: still a pass a period.
                async Task LoggedWhenLate(CancellationToken token)
                {
                    var watch = new Stopwatch();
                    while (!token.IsCancellationRequested)
                    {
                        watch.Restart();
                        await SampleAsync();
                        var left = Interval - watch.Elapsed;
                        if (left > TimeSpan.FromMilliseconds(10))
                        {
                            Console.WriteLine(left);
                            await {|#4:Task.Delay(left, token)|};
                        }
                        else
                        {
                            Console.WriteLine("late");
                        }
                    }
                }

                // What is left, set in each branch of a try, or put back to the period where it came out negative.
                async Task SetInBranches(CancellationToken token)
                {
                    while (true)
                    {
                        var started = Environment.TickCount;
                        TimeSpan left;
                        try
                        {
                            await SampleAsync();
                            left = Interval - TimeSpan.FromMilliseconds(Environment.TickCount - started);
                        }
                        catch (InvalidOperationException)
                        {
                            left = cadence - TimeSpan.FromMilliseconds(Environment.TickCount - started);
                        }

                        if (left > TimeSpan.Zero) await {|#5:Task.Delay(left, token)|};
                    }
                }

                async Task PutBack(CancellationToken token)
                {
                    while (true)
                    {
                        var watch = Stopwatch.StartNew();
                        Sample();
                        var left = Interval - watch.Elapsed;
                        if (left < TimeSpan.Zero) left = Interval;
                        await {|#6:Task.Delay(left, token)|};
                    }
                }

                async Task AsATimeSpan(CancellationToken token)
                {
                    do
                    {
                        var watch = Stopwatch.StartNew();
                        Sample();
                        await {|#3:Task.Delay(TimeSpan.FromMilliseconds(Math.Max(0, IntervalMillis - watch.ElapsedMilliseconds)), token)|};
                    }
                    while (!token.IsCancellationRequested);
                }
            """),
            Enumerable.Repeat(DelayTimer.LoopMessage, 7).ToArray());
    }

    [Fact]
    public async Task WaitsThatKeepNoPeriod_AreNotReported()
    {
        await Verify.VerifyAnalyzerAsync(Class("""
                // A guarded wait of a fixed period is the pass's choice, not a rhythm.
                async Task WhenBusy(Func<bool> busy, CancellationToken token)
                {
                    while (true) { Sample(); if (busy()) await Task.Delay(1000, token); }
                }

                // A schedule the loop moves itself: the time left is to a mark the pass sets.
                async Task ToAMark(CancellationToken token)
                {
                    var next = DateTime.UtcNow;
                    while (true)
                    {
                        Sample();
                        next += Interval;
                        var left = next - DateTime.UtcNow;
                        if (left > TimeSpan.Zero) await Task.Delay(left, token);
                    }
                }

                // A period less something that is no clock: not the pass's time.
                private int _roundTrip;

                async Task LessAField(int interval)
                {
                    while (true)
                    {
                        await SampleAsync();
                        await Task.Delay(Math.Max(0, interval - _roundTrip));
                    }
                }

                // The wait in the middle of the pass, or in the else: not the pass's end.
                async Task WaitFirst(CancellationToken token)
                {
                    var last = DateTime.UtcNow;
                    while (true)
                    {
                        var left = Interval - (DateTime.UtcNow - last);
                        if (left > TimeSpan.Zero) await Task.Delay(left, token);
                        Sample();
                        last = DateTime.UtcNow;
                    }
                }

                async Task WithElse(CancellationToken token)
                {
                    while (true)
                    {
                        var watch = Stopwatch.StartNew();
                        Sample();
                        var left = Interval - watch.Elapsed;
                        if (left <= TimeSpan.Zero) Sample(); else await Task.Delay(left, token);
                    }
                }

                // A loop that counts is no timer, however it waits.
                async Task Counted(CancellationToken token)
                {
                    for (var i = 0; i < 3; i++)
                    {
                        var watch = Stopwatch.StartNew();
                        Sample();
                        var left = Interval - watch.Elapsed;
                        if (left > TimeSpan.Zero) await Task.Delay(left, token);
                    }
                }

                // What is left written again in the pass: not one value a pass.
                async Task Rewritten(CancellationToken token)
                {
                    while (true)
                    {
                        var watch = Stopwatch.StartNew();
                        Sample();
                        var left = Interval - watch.Elapsed;
                        left = left + left;
                        if (left > TimeSpan.Zero) await Task.Delay(left, token);
                    }
                }
            """));
    }

    [Fact]
    public async Task WithoutPeriodicTimer_AKeptPeriodIsNotReported()
    {
        await new Verify.Test
        {
            TestCode = Class("""
                async Task ByClock(CancellationToken token)
                {
                    while (!token.IsCancellationRequested)
                    {
                        var watch = Stopwatch.StartNew();
                        Sample();
                        var left = Interval - watch.Elapsed;
                        if (left > TimeSpan.Zero) await Task.Delay(left, token);
                    }
                }
            """).Replace("class Sampler(TimeSpan cadence)", "class Sampler"),
            Target = TestTarget.NetStandard20,
            LanguageVersion = LanguageVersion.CSharp7_3,
            NullableContext = NullableContextOptions.Disable,
        }.RunAsync();
    }
}
