using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp;
using Microsoft.CodeAnalysis.Testing;
using TplPractices.Analyzers.Tests.Verifiers;
using Verify = TplPractices.Analyzers.Tests.Verifiers.CSharpCodeFixVerifier<
    TplPractices.Analyzers.Rules.PassThroughAsyncAnalyzer,
    TplPractices.Analyzers.CodeFixes.Rules.PassThroughAsyncFixer>;

namespace TplPractices.Analyzers.Tests.Rules;

/// <summary>
/// TPL0016: a function whose only await is of a task complete already, followed by the return of a value it has
/// (<c>await Task.CompletedTask; return _count;</c>), returns <c>Task.FromResult</c> of that value without async.
/// </summary>
public sealed class PassThroughAsyncCompletedTests
{
    private const string Before = /* lang=c#-test */ """
        using System;
        using System.Threading.Tasks;

        public class Stub
        {
            private int _count = 3;

            public async Task<int> CountAsync()
            {
                {|#0:await|} Task.CompletedTask;
                return _count;
            }

            public async Task<string> EchoAsync(string text)
            {
                {|#1:await|} Task.FromResult(text).ConfigureAwait(false);
                return text;
            }

            public Func<int, Task<int>> Later => async x =>
            {
                {|#2:await|} Task.Delay(0);
                return x;
            };
        }

        public static class Api
        {
            public static async Task<string> Run(int x)
            {
                var stub = new Stub();
                var count = stub.CountAsync();
                var echo = stub.EchoAsync("e" + x);
                var later = stub.Later(x);
                return count.Status.ToString() + await count + await echo + await later;
            }
        }
        """;

    private const string After = /* lang=c#-test */ """
        using System;
        using System.Threading.Tasks;

        public class Stub
        {
            private int _count = 3;

            public Task<int> CountAsync()
            {
                return Task.FromResult(_count);
            }

            public Task<string> EchoAsync(string text)
            {
                return Task.FromResult(text);
            }

            public Func<int, Task<int>> Later => x =>
            {
                return Task.FromResult(x);
            };
        }

        public static class Api
        {
            public static async Task<string> Run(int x)
            {
                var stub = new Stub();
                var count = stub.CountAsync();
                var echo = stub.EchoAsync("e" + x);
                var later = stub.Later(x);
                return count.Status.ToString() + await count + await echo + await later;
            }
        }
        """;

    [Fact]
    public async Task AwaitOfACompletedTask_ThenAValue_ReturnsTheValuesTask()
    {
        var test = new Verify.Test { TestCode = Before, FixedCode = After };
        test.ExpectedDiagnostics.Add(Verify.Diagnostic().WithLocation(0).WithMessage("'CountAsync' only awaits 'CompletedTask', complete already, then returns a value: drop 'async' and return a task directly, saving a state machine and a second task"));
        test.ExpectedDiagnostics.Add(Verify.Diagnostic().WithLocation(1).WithArguments("'EchoAsync'", "'FromResult', complete already, then returns a value"));
        test.ExpectedDiagnostics.Add(Verify.Diagnostic().WithLocation(2).WithArguments("This lambda", "'Delay', complete already, then returns a value"));
        await test.RunAsync();
    }

    /// <summary>
    /// One file compiled for netstandard2.0 (C# 7.3) and net10.0: a value that is no constant is fixed in both copies,
    /// and the shared layer builds each copy.
    /// </summary>
    [Fact]
    public async Task AValue_IsFixed_InAFileOfTwoTargets()
    {
        const string Source = """
            using System.Threading.Tasks;

            public class Stub
            {
                private int _count = 3;

                public async Task<int> CountAsync() { {|#0:await|} Task.CompletedTask; return _count; }
            }
            """;
        var test = new Verify.Test
        {
            TestCode = Source,
            FixedCode = Source.Replace("public async Task<int> CountAsync() { {|#0:await|} Task.CompletedTask; return _count; }", "public Task<int> CountAsync() { return Task.FromResult(_count); }", StringComparison.Ordinal),
        };
        test.LinkedTargets.Add(TestTarget.NetStandard20);
        test.ExpectedDiagnostics.Add(Verify.Diagnostic().WithLocation(0).WithArguments("'CountAsync'", "'CompletedTask', complete already, then returns a value"));
        await test.RunAsync();
    }

    /// <summary>
    /// A zero delay awaited alone is returned as Task.CompletedTask, the task it is: returned as written, it would be
    /// TPL0014's site on the next dotnet format run. A zero delay that is not alone keeps its spelling in the returned
    /// expression (TPL0014 fixes it there in the same run).
    /// </summary>
    [Fact]
    public async Task AnOnlyAwaitOfAZeroDelay_ReturnsTheCompletedTask()
    {
        const string Source = """
            using System;
            using System.Threading.Tasks;

            public class Stub
            {
                public async Task PauseAsync() { [|await|] Task.Delay(0); }
                public async Task SpanAsync() => [|await|] Task.Delay(TimeSpan.Zero).ConfigureAwait(false);
                public async Task RealAsync() => [|await|] Task.Delay(5);
            }
            """;
        await new Verify.Test
        {
            TestCode = Source,
            FixedCode = """
                using System;
                using System.Threading.Tasks;

                public class Stub
                {
                    public Task PauseAsync() { return Task.CompletedTask; }
                    public Task SpanAsync() => Task.CompletedTask;
                    public Task RealAsync() => Task.Delay(5);
                }
                """,
        }.RunAsync();
    }

    [Theory]
    [InlineData(1)]
    [InlineData(-7)]
    public async Task FixedCode_DoesWhatTheOriginalDid(int x)
    {
        var original = await CodeRunner.RunAsync(TestMarkup.Strip(Before), "Api", "Run", x);
        Assert.Equal(original, await CodeRunner.RunAsync(After, "Api", "Run", x));
        Assert.StartsWith("returned RanToCompletion", original, StringComparison.Ordinal);
    }

    /// <summary>
    /// Not reported: a value that runs code, a conversion to the result type, a task that may not be complete or whose
    /// await may throw, code before the await, a ValueTask, and a constant while TPL0003 is on (its fix caches the
    /// Task.FromResult this would write, which dotnet format would meet only on a second run).
    /// </summary>
    [Fact]
    public async Task ShapesThatWouldChangeOrMeetAnotherRule_AreNotReported()
    {
        await new Verify.Test
        {
            TestCode = /* lang=c#-test */ """
                using System.Threading.Tasks;

                public class Stub
                {
                    private int _count;

                    public async Task<int> Computed(int x) { await Task.CompletedTask; return x + 1; }
                    public async Task<long> Widened(int x) { await Task.CompletedTask; return x; }
                    public async Task<int> Yielded(int x) { await Task.Yield(); return x; }
                    public async Task<int> Delayed(int x) { await Task.Delay(5); return x; }
                    public async Task<int> Counted(int x) { _count++; await Task.CompletedTask; return x; }
                    public async ValueTask<int> Valued(int x) { await Task.CompletedTask; return x; }
                    public async Task<int> Constant() { await Task.CompletedTask; return 42; }
                    public async Task<string?> Nothing() { await Task.CompletedTask; return null; }
                    public async Task<int> Twice(int x) { await Task.CompletedTask; await Task.CompletedTask; return x; }
                }
                """,
        }.RunAsync();
    }

    /// <summary>The stub around one method: a cached constant returned after a completed await, or awaited in place.</summary>
    private static string Ready(string method) =>
        "using System.Threading.Tasks;\n\npublic class Stub\n{\n    " + method + "\n}\n";

    /// <summary>
    /// A constant the target's runtime caches (<c>true</c> on .NET) is this rule's: TPL0003 never reports its task there,
    /// whether the fix writes the Task.FromResult or the method awaited it already. The fix is made where the file has
    /// one target.
    /// </summary>
    [Theory]
    [InlineData("public async Task<bool> ReadyAsync() { {|#0:await|} Task.CompletedTask; return true; }", "public Task<bool> ReadyAsync() { return Task.FromResult(true); }", "'CompletedTask', complete already, then returns a value")]
    [InlineData("public async Task<bool> ReadyAsync() => {|#0:await|} Task.FromResult(true);", "public Task<bool> ReadyAsync() => Task.FromResult(true);", "'FromResult'")]
    public async Task ACachedConstant_IsFixed_OnOneTarget(string method, string fixedMethod, string callee)
    {
        var test = new Verify.Test { TestCode = Ready(method), FixedCode = Ready(fixedMethod) };
        test.ExpectedDiagnostics.Add(Verify.Diagnostic().WithLocation(0).WithArguments("'ReadyAsync'", callee));
        await test.RunAsync();
    }

    /// <summary>
    /// With a netstandard2.0 copy, whose runtime caches nothing (TPL0003 would then cache the task, on a second dotnet
    /// format run), the .NET copy reports it without a fix, in the light bulb and in Fix All.
    /// </summary>
    [Theory]
    [InlineData("public async Task<bool> ReadyAsync() { {|#0:await|} Task.CompletedTask; return true; }", "'CompletedTask', complete already, then returns a value")]
    [InlineData("public async Task<bool> ReadyAsync() => {|#0:await|} Task.FromResult(true);", "'FromResult'")]
    public async Task ACachedConstant_HasNoFix_WhereTheFileHasAnotherTarget(string method, string callee)
    {
        var test = new Verify.Test
        {
            TestCode = Ready(method),
            FixedCode = Ready(method),
            FixedState = { MarkupHandling = MarkupMode.Allow },
        };
        test.LinkedTargets.Add(TestTarget.NetStandard20);
        test.ExpectedDiagnostics.Add(Verify.Diagnostic().WithLocation(0).WithArguments("'ReadyAsync'", callee));
        await test.RunAsync();
    }

    /// <summary>
    /// Comments on either statement stay, C# 7.3 on netstandard2.0 gets the same rewrite, and a generic result is
    /// inferred from the value. (Under nullable annotations an unconstrained <c>T</c> is not reported: its read may be
    /// null by flow, and <c>Task.FromResult</c> would then infer <c>Task&lt;T?&gt;</c> and warn.)
    /// </summary>
    [Fact]
    public async Task Comments_OlderCSharp_AndGenericResults_AreKept()
    {
        const string Source = """
            using System.Threading.Tasks;

            public class Stub<T>
            {
                private readonly T _value;

                public Stub(T value) { _value = value; }

                public async Task<T> GetAsync()
                {
                    // A stub: the real store is asynchronous.
                    {|#0:await|} Task.CompletedTask; // keeps the signature
                    return _value; // the stored value
                }
            }
            """;
        var test = new Verify.Test
        {
            TestCode = Source,
            FixedCode = """
                using System.Threading.Tasks;

                public class Stub<T>
                {
                    private readonly T _value;

                    public Stub(T value) { _value = value; }

                    public Task<T> GetAsync()
                    {
                        // A stub: the real store is asynchronous.
                        // the stored value
                        return Task.FromResult(_value); // keeps the signature
                    }
                }
                """,
            Target = TestTarget.NetStandard20,
            LanguageVersion = LanguageVersion.CSharp7_3,
            NullableContext = NullableContextOptions.Disable,
        };
        test.ExpectedDiagnostics.Add(Verify.Diagnostic().WithLocation(0).WithArguments("'GetAsync'", "'CompletedTask', complete already, then returns a value"));
        await test.RunAsync();
    }

    /// <summary>With TPL0003 off, nothing caches the constant's task afterwards: the constant is this rule's too.</summary>
    [Fact]
    public async Task AConstant_IsReported_WhereTPL0003IsOff()
    {
        var test = new Verify.Test
        {
            TestCode = /* lang=c#-test */ """
                using System.Threading.Tasks;

                public class Stub
                {
                    public async Task<int> Constant() { {|#0:await|} Task.CompletedTask; return 42; }
                }
                """,
            FixedCode = /* lang=c#-test */ """
                using System.Threading.Tasks;

                public class Stub
                {
                    public Task<int> Constant() { return Task.FromResult(42); }
                }
                """,
        };
        test.TestState.AnalyzerConfigFiles.Add(("/.editorconfig", "root = true\n[*.cs]\ndotnet_diagnostic.TPL0003.severity = none\n"));
        test.FixedState.AnalyzerConfigFiles.Add(("/.editorconfig", "root = true\n[*.cs]\ndotnet_diagnostic.TPL0003.severity = none\n"));
        test.ExpectedDiagnostics.Add(Verify.Diagnostic().WithLocation(0).WithArguments("'Constant'", "'CompletedTask', complete already, then returns a value"));
        await test.RunAsync();
    }
}
