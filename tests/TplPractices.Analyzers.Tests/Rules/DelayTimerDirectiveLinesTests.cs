using TplPractices.Analyzers.Tests.Verifiers;
using Verify = TplPractices.Analyzers.Tests.Verifiers.CSharpCodeFixVerifier<
    TplPractices.Analyzers.Rules.DelayTimerAnalyzer,
    TplPractices.Analyzers.CodeFixes.Rules.DelayTimerFixer>;

namespace TplPractices.Analyzers.Tests.Rules;

/// <summary>
/// TPL0017's timer loop holding <c>#pragma warning</c> or <c>#region</c> lines: a background loop silences the
/// catch-all analyzers (CA1031) around its <c>catch (Exception)</c>, and such a loop was reported without a fix. The
/// fix rewrites the delay where it stands and puts the timer before the loop, so each line keeps its code on each
/// side. An <c>#if</c> in the loop still leaves it alone.
/// </summary>
public sealed class DelayTimerDirectiveLinesTests
{
    private const string Before = /* lang=c#-test */ """
        using System;
        using System.Threading;
        using System.Threading.Tasks;

        class Poller
        {
            void Work() { }

            void Log(Exception e) { }

            async Task RunAsync(CancellationToken token)
            {
                while (true)
                {
                    if (token.IsCancellationRequested) break;
                    await [|Task.Delay(TimeSpan.FromSeconds(5))|];
                    #region one pass
                    try
                    {
                        Work();
                    }
        #pragma warning disable CA1031 // a failed pass must not end the loop
                    catch (Exception e)
        #pragma warning restore CA1031
                    {
                        Log(e);
                    }
                    #endregion
                }
            }
        }
        """;

    private static readonly string After = TestMarkup.Strip(Before)
        .Replace("        while (true)", "        using var timer = new PeriodicTimer(TimeSpan.FromSeconds(5));\n        while (true)", StringComparison.Ordinal)
        .Replace("await Task.Delay(TimeSpan.FromSeconds(5));", "await timer.WaitForNextTickAsync();", StringComparison.Ordinal);

    [Fact]
    public async Task LinesInTheLoop_LeaveTheFixOffered()
    {
        await DelayTimerLoopFix.OneLoopAtATime(Before, After).RunAsync();
    }

    [Fact]
    public async Task AnIfInTheLoop_LeavesItUnfixed()
    {
        var code = Before.Replace("        #region one pass\n", "#if DEBUG\n            Work();\n#endif\n", StringComparison.Ordinal)
            .Replace("        #endregion\n", string.Empty, StringComparison.Ordinal);
        await Verify.VerifyCodeFixAsync(code, code);
    }
}
