using Microsoft.CodeAnalysis.Diagnostics;
using TplPractices.Analyzers.Rules;
using TplPractices.Analyzers.Tests.Verifiers;

namespace TplPractices.Analyzers.Tests.Meta;

/// <summary>
/// Where async methods are runtime-async (runtime-async=on, on a runtime with AsyncHelpers), the rules whose payoff the
/// runtime removes go quiet: TPL0008, TPL0016, the await half of TPL0014, and TPL0003 on a task only awaited where it is
/// made. The other halves, and every other rule, keep reporting.
/// </summary>
public sealed class RuntimeAsyncTests
{
    private const string Code = """
        using System;
        using System.Threading.Tasks;

        public class Service
        {
            private readonly int[] _values = { 1, 2, 3 };

            // TPL0008: a private async method that often completes synchronously.
            private async Task<int> LookupAsync(int key) { if (key > 0) return key; await Task.Yield(); return -key; }
            public async Task<int> UseAsync(int key) => await LookupAsync(key) + 1;

            // TPL0016: a pass-through.
            private async Task<int> CoreAsync(int x) { await Task.Yield(); return x; }
            public async Task<int> ForwardAsync(int x) => await CoreAsync(x);

            // TPL0014, await half: an await of a completed task.
            public async Task<int> ReadAsync(int x) { await Task.Yield(); var v = await Task.FromResult(x); return v + 1; }

            // TPL0014, Task.Run half: stays.
            public Task<int[]> ValuesAsync() => Task.Run(() => _values);

            // TPL0003 on a task only awaited: quiet; on a returned task: stays.
            public async Task<int> AwaitedAsync() { await Task.Yield(); return await Task.FromResult(42) + 1; }
            public Task<int> Returned() => Task.FromResult(42);
        }
        """;

    private static readonly DiagnosticAnalyzer[] Analyzers =
        [new ValueTaskFastPathAnalyzer(), new PassThroughAsyncAnalyzer(), new AvailableValueAnalyzer(), new CacheConstantTaskResultAnalyzer()];

    private static async Task<string> ReportedAsync(bool runtimeAsync, TestTarget target)
    {
        var run = new AnalyzerRun([.. Analyzers]) { Sources = { ("Test0.cs", Code) }, RuntimeAsync = runtimeAsync, Target = target };
        return (await run.DiagnosticsAsync()).Select(d => $"{d.Id}@{d.Location.GetLineSpan().StartLinePosition.Line + 1}").OrderBy(s => s, StringComparer.Ordinal).Aggregate((a, b) => a + " " + b);
    }

    /// <summary>Without the feature each rule reports its site (the awaited Task.FromResult is TPL0014's, which removes it).</summary>
    [Fact]
    public async Task WithoutTheFeature_EveryRuleReports()
    {
        Assert.Equal("TPL0003@24 TPL0008@9 TPL0014@17 TPL0014@20 TPL0014@23 TPL0016@14", await ReportedAsync(runtimeAsync: false, TestTarget.Net100));
    }

    [Fact]
    public async Task RuntimeAsync_SilencesExactlyTheRulesItMakesObsolete()
    {
        Assert.Equal("TPL0003@24 TPL0014@20", await ReportedAsync(runtimeAsync: true, TestTarget.Net100));
    }

    /// <summary>netstandard2.0 has no AsyncHelpers: the compiler cannot build runtime-async methods there, the flag does nothing.</summary>
    [Fact]
    public async Task TheFlag_WithoutARuntimeThatHasIt_ChangesNothing()
    {
        Assert.Equal(await ReportedAsync(runtimeAsync: false, TestTarget.NetStandard20), await ReportedAsync(runtimeAsync: true, TestTarget.NetStandard20));
    }
}
