using System.Text.RegularExpressions;
using TplPractices.Analyzers.Rules;
using Verify = TplPractices.Analyzers.Tests.Verifiers.CSharpCodeFixVerifier<
    TplPractices.Analyzers.Rules.DelayTimerAnalyzer,
    TplPractices.Analyzers.CodeFixes.Rules.DelayTimerFixer>;

namespace TplPractices.Analyzers.Tests.Rules;

/// <summary>
/// TPL0017's race whose statement declares a local (<c>var first = await Task.WhenAny(…);</c>) where no using declaration
/// can stand: before C# 8 (a netstandard2.0 library's default) and directly in a switch section. A using block would
/// hide the local from the code after it, so the fix declares it first, without its value, and the block assigns it.
/// </summary>
public sealed class DelayTimerDeclaredWinnerTests
{
    private const string Races = /* lang=c#-test */ """
        using System;
        using System.Threading;
        using System.Threading.Tasks;

        public static class Api
        {
            private static Task Work(bool done) => done ? Task.CompletedTask : new TaskCompletionSource<bool>().Task;

            public static async Task<string> All()
            {
                var results = new[]
                {
                    await Closed(Work(true), 300), await Closed(Work(false), 30),
                    await InTime(Work(true)), await InTime(Work(false)),
                    await Linked(Work(true), CancellationToken.None), await Linked(Work(false), new CancellationToken(true)),
                    Blocked(Work(true)), Blocked(Work(false)),
                };
                return string.Join(",", results);
            }

            // Closing with a time-out: the race's winner is compared with the work after it.
            private static async Task<string> Closed(Task work, int timeout)
            {
                Task first = await Task.WhenAny(work, {|#0:Task.Delay(timeout)|}).ConfigureAwait(false);
                if (first != work)
                {
                    return "timeout";
                }

                return "closed";
            }

            private static async Task<string> InTime(Task work)
            {
                var inTime = await Task.WhenAny(work, {|#1:Task.Delay(30)|}) == work;
                return inTime ? "in time" : "late";
            }

            private static async Task<string> Linked(Task work, CancellationToken token)
            {
                var first = await Task.WhenAny(work, {|#2:Task.Delay(30, token)|});
                return first == work ? "work" : first.IsCanceled ? "canceled" : "timeout";
            }

            private static string Blocked(Task work)
            {
                var index = Task.WaitAny(work, {|#3:Task.Delay(30)|});
                return index == 0 ? "work" : "timeout";
            }
        }
        """;

    private const string RacesFixed = """
        using System;
        using System.Threading;
        using System.Threading.Tasks;

        public static class Api
        {
            private static Task Work(bool done) => done ? Task.CompletedTask : new TaskCompletionSource<bool>().Task;

            public static async Task<string> All()
            {
                var results = new[]
                {
                    await Closed(Work(true), 300), await Closed(Work(false), 30),
                    await InTime(Work(true)), await InTime(Work(false)),
                    await Linked(Work(true), CancellationToken.None), await Linked(Work(false), new CancellationToken(true)),
                    Blocked(Work(true)), Blocked(Work(false)),
                };
                return string.Join(",", results);
            }

            // Closing with a time-out: the race's winner is compared with the work after it.
            private static async Task<string> Closed(Task work, int timeout)
            {
                Task first;
                using (var delayCancellation = new CancellationTokenSource())
                {
                    first = await Task.WhenAny(work, Task.Delay(timeout, delayCancellation.Token)).ConfigureAwait(false);
                    delayCancellation.Cancel();
                }
                if (first != work)
                {
                    return "timeout";
                }

                return "closed";
            }

            private static async Task<string> InTime(Task work)
            {
                bool inTime;
                using (var delayCancellation = new CancellationTokenSource())
                {
                    var winner = await Task.WhenAny(work, Task.Delay(30, delayCancellation.Token));
                    delayCancellation.Cancel();
                    inTime = winner == work;
                }
                return inTime ? "in time" : "late";
            }

            private static async Task<string> Linked(Task work, CancellationToken token)
            {
                Task first;
                using (var delayCancellation = CancellationTokenSource.CreateLinkedTokenSource(token))
                {
                    first = await Task.WhenAny(work, Task.Delay(30, delayCancellation.Token));
                    delayCancellation.Cancel();
                }
                return first == work ? "work" : first.IsCanceled ? "canceled" : "timeout";
            }

            private static string Blocked(Task work)
            {
                int index;
                using (var delayCancellation = new CancellationTokenSource())
                {
                    index = Task.WaitAny(work, Task.Delay(30, delayCancellation.Token));
                    delayCancellation.Cancel();
                }
                return index == 0 ? "work" : "timeout";
            }
        }
        """;

    /// <summary>
    /// C# 7.3, in a file netstandard2.0 shares with net10.0: the local keeps the type it was written with, or takes the
    /// one <c>var</c> stood for (<c>Task</c>, WaitAny's <c>int</c>, a comparison's <c>bool</c>), and the statement after
    /// the block reads it as before. The comment above the race stays above the declaration.
    /// </summary>
    [Fact]
    public async Task OnCSharp73_ADeclaredWinner_IsDeclaredBeforeTheUsingBlock()
    {
        await DelayTimerRaceChecks.FixesBesideCSharp73Async(
            Races, RacesFixed, DelayTimer.RaceMessage, DelayTimer.RaceMessage, DelayTimer.TokenRaceMessage, DelayTimer.RaceMessage);
    }

    /// <summary>
    /// The same winners before and after: work done (the work wins), work that never ends (the delay wins), and a caller's
    /// token canceled before the race (the canceled delay wins, through the linked source as it did alone).
    /// </summary>
    [Fact]
    public async Task FixedDeclaredWinner_DecidesTheSame()
    {
        await DelayTimerRaceChecks.DecidesTheSameAsync(Races, RacesFixed, "closed,timeout,in time,late,work,canceled,work,timeout");
    }

    /// <summary>
    /// In a switch section under nullable annotations, a <c>var</c> winner that the code writes again keeps the <c>?</c>
    /// <c>var</c> gave it (<c>null</c> is assigned later, or deconstructed into it); one written once is declared
    /// <c>Task</c>, as a winner is never null.
    /// </summary>
    [Fact]
    public async Task InASwitchSection_AWinnerWrittenAgain_KeepsItsAnnotation()
    {
        const string Code = """
            using System.Threading.Tasks;

            class C
            {
                async Task<int> Pick(int kind, Task work)
                {
                    switch (kind)
                    {
                        case 1:
                            var first = await Task.WhenAny(work, [|Task.Delay(100)|]);
                            if (first != work)
                            {
                                first = null;
                            }

                            return first is null ? 0 : 1;
                        case 2:
                            var third = await Task.WhenAny(work, [|Task.Delay(100)|]);
                            (third, kind) = (null, 3);
                            return third is null ? kind : 0;
                        default:
                            var second = await Task.WhenAny(work, [|Task.Delay(100)|]);
                            return second == work ? 2 : 0;
                    }
                }
            }
            """;
        const string Fixed = """
            using System.Threading;
            using System.Threading.Tasks;

            class C
            {
                async Task<int> Pick(int kind, Task work)
                {
                    switch (kind)
                    {
                        case 1:
                            Task? first;
                            using (var delayCancellation = new CancellationTokenSource())
                            {
                                first = await Task.WhenAny(work, Task.Delay(100, delayCancellation.Token));
                                delayCancellation.Cancel();
                            }
                            if (first != work)
                            {
                                first = null;
                            }

                            return first is null ? 0 : 1;
                        case 2:
                            Task? third;
                            using (var delayCancellation2 = new CancellationTokenSource())
                            {
                                third = await Task.WhenAny(work, Task.Delay(100, delayCancellation2.Token));
                                delayCancellation2.Cancel();
                            }
                            (third, kind) = (null, 3);
                            return third is null ? kind : 0;
                        default:
                            Task second;
                            using (var delayCancellation3 = new CancellationTokenSource())
                            {
                                second = await Task.WhenAny(work, Task.Delay(100, delayCancellation3.Token));
                                delayCancellation3.Cancel();
                            }
                            return second == work ? 2 : 0;
                    }
                }
            }
            """;
        await new Verify.Test { TestCode = Code, FixedCode = Fixed }.RunAsync();
    }

    /// <summary>
    /// Not declared apart (reported without a fix): a <c>var</c> whose type has a type argument annotated <c>?</c> where
    /// annotations are off. Written there, the <c>?</c> would warn (CS8632); left out, the type would not be the one the
    /// value has.
    /// </summary>
    [Fact]
    public async Task AVarWithAnAnnotatedTypeArgument_WhereAnnotationsAreOff_IsNotFixed()
    {
        const string Code = """
            using System.Collections.Generic;
            using System.Threading.Tasks;

            class C
            {
                private readonly List<string?> _names = new List<string?>();

            #nullable disable
                async Task<int> Count(int kind, Task work)
                {
                    switch (kind)
                    {
                        case 1:
                            var names = await Task.WhenAny(work, [|Task.Delay(100)|]) == work ? _names : null;
                            return names == null ? 0 : names.Count;
                        default:
                            return 0;
                    }
                }
            }
            """;
        await new Verify.Test { TestCode = Code, FixedCode = Code }.RunAsync();
    }

    /// <summary>
    /// Before C# 8, a race's statement that declares a variable in an expression (<c>is var w</c>) is reported without a
    /// fix: the variable is in scope after the statement, and the using block would hide it from there.
    /// </summary>
    [Fact]
    public async Task OnCSharp73_AStatementThatDeclaresAVariable_IsNotFixed()
    {
        const string Code = """
            using System.Threading.Tasks;

            class C
            {
                async Task<bool> Raced(Task work)
                {
                    var first = await Task.WhenAny(work, {|#0:Task.Delay(100)|}) is var w ? w : null;
                    return first == work && w == work;
                }
            }
            """;
        await DelayTimerRaceChecks.FixesBesideCSharp73Async(Code, Code, DelayTimer.RaceMessage);
    }

    /// <summary>
    /// Before C# 8 a race in a loop's condition takes the loop fix too: each pass declares the winner (<c>Task</c>, or
    /// WaitAny's <c>int</c>), a using block assigns it and cancels, and the test follows. The loops of
    /// <see cref="DelayTimerLoopRaceTests"/> at C# 7.3, in a file netstandard2.0 shares with net10.0, and the passes
    /// they make before and after.
    /// </summary>
    [Theory]
    [InlineData("while", "0;3;13;2;2")]
    [InlineData("do", "3;2")]
    public async Task OnCSharp73_ALoopRace_DeclaresItsWinnerEachPass_AndMakesTheSamePasses(string loop, string passes)
    {
        var (code, fixedCode) = loop == "while"
            ? (DelayTimerLoopRaceTests.Loops, DelayTimerLoopRaceTests.LoopsFixed)
            : (DelayTimerLoopRaceTests.DoLoops, DelayTimerLoopRaceTests.DoLoopsFixed);
        code = code.Replace("Task? finished", "Task finished", System.StringComparison.Ordinal);
        fixedCode = InUsingBlocks(fixedCode.Replace("Task? finished", "Task finished", System.StringComparison.Ordinal));
        Assert.DoesNotContain("using var", fixedCode, System.StringComparison.Ordinal);

        var messages = loop == "while"
            ? new[] { DelayTimer.RaceMessage, DelayTimer.RaceMessage, DelayTimer.TokenRaceMessage, DelayTimer.RaceMessage }
            : new[] { DelayTimer.TokenRaceMessage, DelayTimer.RaceMessage };
        await DelayTimerRaceChecks.FixesBesideCSharp73Async(code, fixedCode, messages);

        await DelayTimerRaceChecks.DecidesTheSameAsync(code, fixedCode, passes);
    }

    /// <summary>The C# 8 pass (<c>using var</c> source, <c>var winner</c>, cancel) written as C# 7.3 has to.</summary>
    private static string InUsingBlocks(string fixedCode) => Regex.Replace(
        fixedCode,
        @"(?m)^(?<indent> +)using var delayCancellation = (?<source>.+);\n\k<indent>var winner = (?<race>.+);\n\k<indent>delayCancellation\.Cancel\(\);\n",
        match =>
        {
            var indent = match.Groups["indent"].Value;
            var race = match.Groups["race"].Value;
            var type = race.StartsWith("Task.WaitAny", System.StringComparison.Ordinal) ? "int" : "Task";
            return $"{indent}{type} winner;\n"
                + $"{indent}using (var delayCancellation = {match.Groups["source"].Value})\n"
                + $"{indent}{{\n"
                + $"{indent}    winner = {race};\n"
                + $"{indent}    delayCancellation.Cancel();\n"
                + $"{indent}}}\n";
        });

    // Delays held in a local for one race, the race right after the declaration (held races in DelayTimerReachTests).
    private const string HeldRaces = /* lang=c#-test */ """
        using System;
        using System.Threading;
        using System.Threading.Tasks;

        public static class Api
        {
            private static Task Work(bool done) => done ? Task.CompletedTask : new TaskCompletionSource<bool>().Task;

            public static async Task<string> All()
            {
                var results = new[]
                {
                    await Held(Work(true)), await Held(Work(false)),
                    await Compared(Work(true)), await Compared(Work(false)),
                    await Listed(Work(true)), await Listed(Work(false)),
                };
                return string.Join(",", results);
            }

            private static async Task<string> Held(Task work)
            {
                var timeout = {|#0:Task.Delay(30)|};
                // Whichever comes first.
                var first = await Task.WhenAny(work, timeout).ConfigureAwait(false); // the race
                return first == timeout ? "timeout" : "work";
            }

            private static async Task<string> Compared(Task work)
            {
                Task timeout = {|#1:Task.Delay(30)|};
                if (await Task.WhenAny(work, timeout) == timeout)
                {
                    return "timeout";
                }

                return "work";
            }

            private static async Task<string> Listed(Task work)
            {
                var tasks = new[] { work, {|#2:Task.Delay(30)|} };
                await Task.WhenAny(tasks);
                return work.IsCompleted ? "work" : "timeout";
            }
        }
        """;

    private const string HeldRacesFixed = """
        using System;
        using System.Threading;
        using System.Threading.Tasks;

        public static class Api
        {
            private static Task Work(bool done) => done ? Task.CompletedTask : new TaskCompletionSource<bool>().Task;

            public static async Task<string> All()
            {
                var results = new[]
                {
                    await Held(Work(true)), await Held(Work(false)),
                    await Compared(Work(true)), await Compared(Work(false)),
                    await Listed(Work(true)), await Listed(Work(false)),
                };
                return string.Join(",", results);
            }

            private static async Task<string> Held(Task work)
            {
                // Whichever comes first.
                // the race
                Task timeout;
                Task first;
                using (var delayCancellation = new CancellationTokenSource())
                {
                    timeout = Task.Delay(30, delayCancellation.Token);
                    first = await Task.WhenAny(work, timeout).ConfigureAwait(false);
                    delayCancellation.Cancel();
                }
                return first == timeout ? "timeout" : "work";
            }

            private static async Task<string> Compared(Task work)
            {
                Task timeout;
                using (var delayCancellation = new CancellationTokenSource())
                {
                    timeout = Task.Delay(30, delayCancellation.Token);
                    var winner = await Task.WhenAny(work, timeout);
                    delayCancellation.Cancel();
                    if (winner == timeout)
                    {
                        return "timeout";
                    }
                }

                return "work";
            }

            private static async Task<string> Listed(Task work)
            {
                Task[] tasks;
                using (var delayCancellation = new CancellationTokenSource())
                {
                    tasks = new[] { work, Task.Delay(30, delayCancellation.Token) };
                    await Task.WhenAny(tasks);
                    delayCancellation.Cancel();
                }
                return work.IsCompleted ? "work" : "timeout";
            }
        }
        """;

    /// <summary>
    /// C# 7.3: a delay held in a local (or an array) for the race right after its declaration goes into the using block
    /// with the race; the held local, and a local the race's statement declares, are declared first. A statement between
    /// the two would have to move into the block too: such a race has no fix (DelayTimerReachTests). The race's comments,
    /// which stood on a statement the block took apart, go above the new lines.
    /// </summary>
    [Fact]
    public async Task OnCSharp73_ADelayHeldForTheRace_GoesIntoTheUsingBlockWithIt()
    {
        await DelayTimerRaceChecks.FixesBesideCSharp73Async(HeldRaces, HeldRacesFixed, DelayTimer.RaceMessage, DelayTimer.RaceMessage, DelayTimer.RaceMessage);
    }

    [Fact]
    public async Task FixedHeldRace_DecidesTheSame()
    {
        await DelayTimerRaceChecks.DecidesTheSameAsync(HeldRaces, HeldRacesFixed, "work,timeout,work,timeout,work,timeout");
    }
}
