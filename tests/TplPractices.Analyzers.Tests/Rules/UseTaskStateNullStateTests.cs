using TplPractices.Analyzers.Tests.Verifiers;
using Verify = TplPractices.Analyzers.Tests.Verifiers.CSharpCodeFixVerifier<
    TplPractices.Analyzers.Rules.UseTaskStateAnalyzer,
    TplPractices.Analyzers.CodeFixes.Rules.UseTaskStateFixer>;

namespace TplPractices.Analyzers.Tests.Rules;

/// <summary>
/// TPL0001 on a state overload given a null state while its lambda ignores the parameter and captures what it needs
/// (<c>StartNew(_ =&gt; Receive(id, socket), null, token)</c>, one of ten public <c>StartNew(_ =&gt; …)</c> calls a code
/// search found): the closure and delegate are paid on every call although the state could carry the values. The fix
/// puts them in the state argument, as TPL0006 does for <c>new Timer(_ =&gt; …, null, …)</c>.
/// </summary>
public sealed class UseTaskStateNullStateTests
{
    private const string Usings = """
        using System;
        using System.Threading;
        using System.Threading.Tasks;

        """;

    [Fact]
    public async Task ANullState_TakesTheCapturedValues()
    {
        var before = Usings + """
            static class C
            {
                static Task Receive(int id, string name, CancellationToken token) => Task.Factory.StartNew([|_ => Console.WriteLine(name + id)|], null, token);
                static Task Continue(Task t, int id) => t.ContinueWith([|(_, __) => Console.WriteLine(id)|], null);
                static Task<int> Next(int id) => Task<int>.Factory.StartNew([|_ => id + 1|], default(object));
            }
            """;
        var after = Usings + """
            static class C
            {
                static Task Receive(int id, string name, CancellationToken token) => Task.Factory.StartNew(
                    static state =>
                    {
                        var (name, id) = ((string, int))state!;
                        Console.WriteLine(name + id);
                    },
                    (name, id),
                    token);
                static Task Continue(Task t, int id) => t.ContinueWith(static (_, state) =>
                {
                    var id = (int)state!;
                    Console.WriteLine(id);
                }, id);
                static Task<int> Next(int id) => Task<int>.Factory.StartNew(static state =>
                {
                    var id = (int)state!;
                    return id + 1;
                }, id);
            }
            """;
        await Verify.VerifyCodeFixAsync(before, after);
    }

    /// <summary>
    /// C# 7.3 on .NET Framework: no static lambda, no <c>!</c>, and a local may not take an outer parameter's name. (Shared
    /// with a net10.0 copy under nullable warnings, TPL0001's documented limit holds: no fix, as for its other sites.)
    /// </summary>
    [Fact]
    public async Task OnCSharp73_TheFixCompiles()
    {
        var before = Usings + """
            static class C
            {
                static Task Receive(int id, CancellationToken token) => Task.Factory.StartNew([|_ => Console.WriteLine(id)|], null, token);
            }
            """;
        var after = Usings + """
            static class C
            {
                static Task Receive(int id, CancellationToken token) => Task.Factory.StartNew(
                    state =>
                    {
                        var myId = (int)state;
                        Console.WriteLine(myId);
                    },
                    id,
                    token);
            }
            """;
        await new Verify.Test { TestCode = before, FixedCode = after, OnCSharp73NetFramework = true }.RunAsync();
    }

    /// <summary>A lambda that reads the state it is given (null here) keeps its form: reported, as TPL0006 reports it, without a fix.</summary>
    [Fact]
    public async Task ALambdaReadingItsState_HasNoFix()
    {
        var code = Usings + """
            static class C
            {
                static Task Show(int id) => Task.Factory.StartNew([|state => Console.WriteLine(id + (state is null ? 0 : 1))|], null);
                static Task Named(int id) => Task.Factory.StartNew(_ => Console.WriteLine(id), "kept");
            }
            """;
        await Verify.VerifyCodeFixAsync(code, code);
    }

    private const string Runs = """
        using System.Threading;
        using System.Threading.Tasks;

        public static class Api
        {
            public static string Run()
            {
                var id = 7;
                var name = "n";
                var first = Task.Factory.StartNew(_ => name + id, null, CancellationToken.None).Result;
                var doubled = Task.Factory.StartNew(_ => id * 2, null);
                var second = doubled.ContinueWith((t, _) => t.Result + id, null).Result;
                return first + " " + second;
            }
        }
        """;

    /// <summary>The values the state carries are the ones the closure carried.</summary>
    [Fact]
    public async Task TheFixedCalls_ComputeWhatTheyComputedBefore()
    {
        var fixedCode = await Gauntlet.FormatRun.FixAsync(Runs, DiagnosticIds.UseTaskState);
        Assert.DoesNotContain("null", fixedCode, StringComparison.Ordinal);
        Assert.Equal("returned n7 21", await CodeRunner.RunAsync(Runs, "Api", "Run"));
        Assert.Equal("returned n7 21", await CodeRunner.RunAsync(fixedCode, "Api", "Run"));
    }
}
