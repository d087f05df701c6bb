using Microsoft.CodeAnalysis.Diagnostics;
using TplPractices.Analyzers.Rules;
using TplPractices.Analyzers.Tests.Verifiers;
using Verify = TplPractices.Analyzers.Tests.Verifiers.CSharpCodeFixVerifier<
    TplPractices.Analyzers.Rules.CallbackStateAnalyzer,
    TplPractices.Analyzers.CodeFixes.Rules.CallbackStateFixer>;

namespace TplPractices.Analyzers.Tests.Rules;

/// <summary>
/// A primary constructor's parameter captured by a callback (TPL0001, TPL0006, TPL0007, TPL0015) or returned by a
/// delegate task (TPL0014): it lives in a field of the object for as long as the object, so the callback reads its value
/// when it runs. Copied into a state, or read into <c>Task.FromResult</c>, at the call, it would miss what any member of
/// the type writes in between; the walk of the calling member alone used to miss those writes, and the fixes copied a
/// counter another method bumps.
/// </summary>
public sealed class PrimaryConstructorCaptureTests
{
    private static readonly DiagnosticAnalyzer[] StateRules =
        [new UseTaskStateAnalyzer(), new CallbackStateAnalyzer(), new TaskRunStateAnalyzer(), new StateOverloadAnalyzer()];

    private static async Task<string> ReportedAsync(string code)
    {
        var run = new AnalyzerRun([.. StateRules])
        {
            Sources = { ("Test0.cs", code) },
            EditorConfig = "root = true\n[*.cs]\ndotnet_diagnostic.TPL0007.severity = warning\n",
        };
        var reported = (await run.DiagnosticsAsync()).Select(d => $"{d.Id}@{d.Location.GetLineSpan().StartLinePosition.Line + 1}");
        return string.Join(" ", reported.OrderBy(s => s, StringComparer.Ordinal));
    }

    private const string Callbacks = """
        using System;
        using System.Collections.Concurrent;
        using System.Threading;
        using System.Threading.Tasks;

        public sealed class Meter(int level, string label)
        {
            private readonly ConcurrentDictionary<string, int> _seen = new();

            public Task Print() => Task.Factory.StartNew(() => Console.WriteLine(level));
            public void OnStop(CancellationToken token) => token.Register(() => Console.WriteLine(level));
            public Task Later() => Task.Run(() => Console.WriteLine(level));
            public int Seen(string key) => _seen.GetOrAdd(key, _ => level);

            public Task PrintLabel() => Task.Factory.StartNew(() => Console.WriteLine(label));
            public void OnStopLabel(CancellationToken token) => token.Register(() => Console.WriteLine(label));
            public Task LaterLabel() => Task.Run(() => Console.WriteLine(label));
            public int SeenLabel(string key) => _seen.GetOrAdd(key, _ => label.Length);

            WRITE
        }
        """;

    /// <summary>
    /// Each spelling of a write in another member: the callbacks over <c>level</c> are left alone, those over
    /// <c>label</c>, which nothing writes, are reported.
    /// </summary>
    [Theory]
    [InlineData("public void Raise() => level++;")]
    [InlineData("public void Reset() { level = 0; }")]
    [InlineData("public void Swap(ref int other) => (level, other) = (other, level);")]
    [InlineData("public bool Parse(string text) => int.TryParse(text, out level);")]
    [InlineData("public void Alias() { ref int alias = ref level; alias = 3; }")]
    public async Task AParameterAnotherMemberWrites_IsNotCopiedIntoAState(string write)
    {
        Assert.Equal(
            "TPL0001@15 TPL0006@16 TPL0007@17 TPL0015@18",
            await ReportedAsync(Callbacks.Replace("WRITE", write)));
    }

    /// <summary>Where nothing writes it, the parameter's value is fixed for the object's life: every callback is reported.</summary>
    [Fact]
    public async Task AParameterNothingWrites_IsReportedByEveryRule()
    {
        Assert.Equal(
            "TPL0001@10 TPL0001@15 TPL0006@11 TPL0006@16 TPL0007@12 TPL0007@17 TPL0015@13 TPL0015@18",
            await ReportedAsync(Callbacks.Replace("WRITE", "public int Level => level;")));
    }

    /// <summary>
    /// <c>Task.Run(() => level)</c> returns the value the parameter holds when the delegate runs: with another member
    /// writing it, <c>Task.FromResult(level)</c> would return the value at the call. Left alone then, reported where
    /// nothing writes it.
    /// </summary>
    [Theory]
    [InlineData("public void Raise() => level++;", "TPL0014@6")]
    [InlineData("public int Level => level;", "TPL0014@5 TPL0014@6")]
    public async Task ADelegateTaskReturningAParameterAnotherMemberWrites_IsNotAnAvailableValue(string member, string expected)
    {
        var code = $$"""
            using System.Threading.Tasks;

            public sealed class Gauge(int level, int floor)
            {
                public Task<int> Current() => Task.Run(() => level);
                public Task<int> Floor() => Task.Run(() => floor);
                {{member}}
            }
            """;
        var reported = await new AnalyzerRun(new AvailableValueAnalyzer()) { Sources = { ("Test0.cs", code) } }.DiagnosticsAsync();
        Assert.Equal(expected, string.Join(" ", reported.Select(d => $"{d.Id}@{d.Location.GetLineSpan().StartLinePosition.Line + 1}").Order(StringComparer.Ordinal)));
    }

    /// <summary>
    /// A member reads the parameter from a field of <c>this</c>, so the lambda costs a delegate only (no closure of its
    /// own), and the fix passes the value, which nothing changes.
    /// </summary>
    [Fact]
    public async Task AParameterNothingWrites_CostsTheDelegate_AndIsFixed()
    {
        var test = new Verify.Test
        {
            TestCode = /* lang=c#-test */ """
                using System;
                using System.Threading;

                sealed class Watch(string name)
                {
                    public void Stop(CancellationToken token) => token.Register({|#0:() => Console.WriteLine(name)|});
                }
                """,
            FixedCode = /* lang=c#-test */ """
                using System;
                using System.Threading;

                sealed class Watch(string name)
                {
                    public void Stop(CancellationToken token) => token.Register(static state =>
                    {
                        var name = (string)state!;
                        Console.WriteLine(name);
                    }, name);
                }
                """,
        };
        test.ExpectedDiagnostics.Add(Verify.Diagnostic().WithLocation(0).WithArguments("'name'", "a delegate", "it"));
        await test.RunAsync();
    }
}
