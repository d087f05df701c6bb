using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp;
using Microsoft.CodeAnalysis.Testing;
using TplPractices.Analyzers.Rules;
using TplPractices.Analyzers.Tests.Verifiers;
using Verify = TplPractices.Analyzers.Tests.Verifiers.CSharpCodeFixVerifier<
    TplPractices.Analyzers.Rules.PassThroughAsyncAnalyzer,
    TplPractices.Analyzers.CodeFixes.Rules.PassThroughAsyncFixer>;

namespace TplPractices.Analyzers.Tests.Rules;

/// <summary>TPL0016: the pass-through shapes that are the same program without async, and those that are not.</summary>
public sealed class PassThroughAsyncTests
{
    /// <summary>Each shape, and a program that runs them, so the behaviour test and the gauntlet compare before and after.</summary>
    private const string Before = /* lang=c#-test */ """
        using System;
        using System.Threading;
        using System.Threading.Tasks;

        public class Store
        {
            private int _calls;

            public async Task<int> CountAsync(int step) => {|#0:await|} CountCoreAsync(step, CancellationToken.None);

            public async Task SaveAsync(string name)
            {
                {|#1:await|} SaveCoreAsync(name, 1);
            }

            public async ValueTask<string> NameAsync(int id)
            {
                return {|#2:await|} NameCoreAsync(id).ConfigureAwait(false);
            }

            public static async Task<int> TwiceAsync(int x) => {|#3:await|} Helpers.DoubleAsync(x);

            public Task<int> LocalAsync(int x)
            {
                return Run();

                async Task<int> Run() => {|#4:await|} CountCoreAsync(x, default);
            }

            private async Task<int> CountCoreAsync(int step, CancellationToken token)
            {
                await Task.Yield();
                token.ThrowIfCancellationRequested();
                if (step < 0) throw new ArgumentOutOfRangeException(nameof(step));
                return _calls += step;
            }

            private async Task SaveCoreAsync(string name, int copies)
            {
                await Task.Yield();
                if (name.Length == 0) throw new InvalidOperationException("empty");
                _calls += copies;
            }

            private async ValueTask<string> NameCoreAsync(int id)
            {
                await Task.Yield();
                return "item" + id;
            }
        }

        public static class Helpers
        {
            public static async Task<int> DoubleAsync(int x)
            {
                await Task.Yield();
                return checked(x * 2);
            }
        }

        public static class Api
        {
            public static async Task<string> Run(int step, string name)
            {
                var store = new Store();
                var results = new System.Collections.Generic.List<string>();
                async Task Try(Func<Task<string>> action)
                {
                    try { results.Add(await action()); }
                    catch (Exception e) { results.Add(e.GetType().Name); }
                }

                await Try(async () => (await store.CountAsync(step)).ToString());
                await Try(async () => { var t = store.SaveAsync(name); await t; return t.Status.ToString(); });
                await Try(async () => await store.NameAsync(step));
                await Try(async () => (await Store.TwiceAsync(step * 1_000_000_000)).ToString());
                await Try(async () => (await store.LocalAsync(step)).ToString());
                return string.Join(",", results);
            }
        }
        """;

    private static readonly string After = Before
        .Replace("public async Task<int> CountAsync(int step) => {|#0:await|} CountCoreAsync(step, CancellationToken.None);", "public Task<int> CountAsync(int step) => CountCoreAsync(step, CancellationToken.None);", StringComparison.Ordinal)
        .Replace("public async Task SaveAsync(string name)\n    {\n        {|#1:await|} SaveCoreAsync(name, 1);", "public Task SaveAsync(string name)\n    {\n        return SaveCoreAsync(name, 1);", StringComparison.Ordinal)
        .Replace("public async ValueTask<string> NameAsync(int id)\n    {\n        return {|#2:await|} NameCoreAsync(id).ConfigureAwait(false);", "public ValueTask<string> NameAsync(int id)\n    {\n        return NameCoreAsync(id);", StringComparison.Ordinal)
        .Replace("public static async Task<int> TwiceAsync(int x) => {|#3:await|} Helpers.DoubleAsync(x);", "public static Task<int> TwiceAsync(int x) => Helpers.DoubleAsync(x);", StringComparison.Ordinal)
        .Replace("async Task<int> Run() => {|#4:await|} CountCoreAsync(x, default);", "Task<int> Run() => CountCoreAsync(x, default);", StringComparison.Ordinal);

    [Fact]
    public async Task PassThroughs_ReturnTheTask()
    {
        var test = new Verify.Test { TestCode = Before, FixedCode = After };
        test.ExpectedDiagnostics.Add(Verify.Diagnostic().WithLocation(0).WithMessage("'CountAsync' only awaits 'CountCoreAsync': drop 'async' and return a task directly, saving a state machine and a second task"));
        test.ExpectedDiagnostics.Add(Verify.Diagnostic().WithLocation(1).WithArguments("'SaveAsync'", "'SaveCoreAsync'"));
        test.ExpectedDiagnostics.Add(Verify.Diagnostic().WithLocation(2).WithArguments("'NameAsync'", "'NameCoreAsync'"));
        test.ExpectedDiagnostics.Add(Verify.Diagnostic().WithLocation(3).WithArguments("'TwiceAsync'", "'DoubleAsync'"));
        test.ExpectedDiagnostics.Add(Verify.Diagnostic().WithLocation(4).WithArguments("'Run'", "'CountCoreAsync'"));
        await test.RunAsync();
    }

    /// <summary>Results, exceptions (an overflow, a bad argument, an empty name) and task states stay the same.</summary>
    [Theory]
    [InlineData(3, "a")]
    [InlineData(-1, "")]
    [InlineData(5, "")]
    public async Task FixedCode_ReturnsWhatTheOriginalReturned(int step, string name)
    {
        var original = await CodeRunner.RunAsync(TestMarkup.Strip(Before), "Api", "Run", step, name);
        Assert.Equal(original, await CodeRunner.RunAsync(After, "Api", "Run", step, name));
        Assert.StartsWith("returned", original, StringComparison.Ordinal);
    }

    private static string Class(string members) => $$"""
        using System;
        using System.Collections.Generic;
        using System.Threading;
        using System.Threading.Tasks;

        public class C
        {
            private readonly C _other = null!;
            private int _count;
            private async Task<int> CoreAsync(int x) { await Task.Yield(); return x; }
            private async Task<object> ObjectAsync(int x) { await Task.Yield(); return x; }
            private async Task<string?> MaybeAsync(int x) { await Task.Yield(); return null; }
            protected virtual async Task<int> VirtualAsync(int x) { await Task.Yield(); return x; }
            private Task<int> PlainAsync(int x) => x < 0 ? throw new ArgumentException() : Task.FromResult(x);
            private int Next() => ++_count;
        {{members}}
        }
        """;

    /// <summary>Each shape whose rewrite would be another program, and why (docs/rules/TPL0016.md, Not reported).</summary>
    [Fact]
    public async Task ShapesTheRewriteWouldChange_AreNotReported()
    {
        await Verify.VerifyAnalyzerAsync(Class("""
                async Task<int> Field(int x) => await _other.CoreAsync(x);                // a null receiver throws at the call
                async Task<int> Computed() => await CoreAsync(Next());                     // the argument runs code
                async Task<int> Other(C c) => await CoreAsync(c._count);                   // another object's field: it may be null
                async Task<int> NotAsync(int x) => await PlainAsync(x);                    // the callee may throw before its task exists
                async Task Delay(int ms) => await Task.Delay(ms);                          // so may a library's
                async Task<int> Virtual(int x) => await VirtualAsync(x);                   // an override may not be async
                async Task<object> Widened(int x) => await CoreAsync(x);                   // Task<int> is not Task<object>
                async Task<string> Narrowed(int x) => (await MaybeAsync(x))!;              // not the whole body
                async Task<int> After(int x) { var y = await CoreAsync(x); return y + 1; } // code after the await
                async Task<int> Guarded(int x) { try { return await CoreAsync(x); } catch (Exception) { return 0; } }
                async Task<int> Disposed(int x) { using (new System.IO.MemoryStream()) { return await CoreAsync(x); } }
                async Task<int> Suppressed(int x) => await CoreAsync(x).ConfigureAwait(ConfigureAwaitOptions.SuppressThrowing);
                async Task Yielded() => await Task.CompletedTask.ConfigureAwait(ConfigureAwaitOptions.ForceYielding);
                async Task<int> Chosen(int x, bool capture) => await CoreAsync(x).ConfigureAwait(capture); // not a constant
                async void Fire(int x) => await CoreAsync(x);
                Func<Task<int>> Lambda(int x) => async () => await _other.CoreAsync(x);    // a lambda, with a null receiver
                Task<int> Already(int x) => CoreAsync(x);
            """));
    }

    [Fact]
    public async Task BaseCalls_AndSealedOverrides_AreReported()
    {
        const string Code = """
            using System.Threading.Tasks;

            public class Base
            {
                public virtual async Task<int> GetAsync(int x) { await Task.Yield(); return x; }
            }

            public sealed class Derived : Base
            {
                public override async Task<int> GetAsync(int x) => [|await|] base.GetAsync(x);

                public async Task<int> ViaThis(int x) => [|await|] this.GetAsync(x);
            }
            """;
        await Verify.VerifyCodeFixAsync(Code, Code
            .Replace("public override async Task<int> GetAsync(int x) => [|await|] base.GetAsync(x);", "public override Task<int> GetAsync(int x) => base.GetAsync(x);", StringComparison.Ordinal)
            .Replace("public async Task<int> ViaThis(int x) => [|await|] this.GetAsync(x);", "public Task<int> ViaThis(int x) => this.GetAsync(x);", StringComparison.Ordinal));
    }

    /// <summary>
    /// The analyzer takes a method's symbol from the analysis rather than the semantic model: a partial method's
    /// implementing part (where 'async' is written) is the one it reads, and the fix drops 'async' there only.
    /// </summary>
    [Fact]
    public async Task PartialMethodImplementation_IsReported()
    {
        const string Code = """
            using System.Threading.Tasks;

            public partial class Store
            {
                public partial Task<int> GetAsync(int x);

                public partial async Task<int> GetAsync(int x) => [|await|] CoreAsync(x);

                private async Task<int> CoreAsync(int x) { await Task.Yield(); return x; }
            }
            """;
        await Verify.VerifyCodeFixAsync(Code, Code.Replace("public partial async Task<int> GetAsync(int x) => [|await|] CoreAsync(x);", "public partial Task<int> GetAsync(int x) => CoreAsync(x);", StringComparison.Ordinal));
    }

    /// <summary>What stood before 'async' and comments around the await stay; an #if in the method leaves it alone.</summary>
    [Fact]
    public async Task TriviaAndDirectives()
    {
        const string Code = """
            using System.Threading.Tasks;

            public class C
            {
                private async Task<int> CoreAsync(int x) { await Task.Yield(); return x; }

                /// <summary>Documented.</summary>
                async public Task<int> First(int x) => [|await|] CoreAsync(x); // keep me

                public async Task<int> Second(int x)
                {
                    // explained
                    return [|await|] /* why */ CoreAsync(x);
                }
            }
            """;
        var fixedCode = Code
            .Replace("async public Task<int> First(int x) => [|await|] CoreAsync(x); // keep me", "public Task<int> First(int x) => CoreAsync(x); // keep me", StringComparison.Ordinal)
            .Replace("public async Task<int> Second(int x)", "public Task<int> Second(int x)", StringComparison.Ordinal)
            .Replace("return [|await|] /* why */ CoreAsync(x);", "return /* why */ CoreAsync(x);", StringComparison.Ordinal);
        await Verify.VerifyCodeFixAsync(Code, fixedCode);
    }

    /// <summary>
    /// A body holding an #if is another function in another build of the file (another OS, Debug or Release, another
    /// target): a pass-through here may await more there. Seen in the GitHub Actions runner: a method whose work is all
    /// under <c>#if OS_WINDOWS</c> ends with <c>await Task.CompletedTask;</c> only to stay async on the other systems.
    /// Not reported, even where every branch would be a pass-through.
    /// </summary>
    [Fact]
    public async Task ABodyHoldingAnIf_IsNotReported()
    {
        const string Code = """
            using System.Threading.Tasks;

            public class C
            {
                private async Task<int> CoreAsync(int x) { await Task.Yield(); return x; }
                private static void Log() { }

                public async Task KeptAsync(int x)
                {
            #if OS_WINDOWS
                    await CoreAsync(x);
            #endif
                    await Task.CompletedTask;
                }

                public async Task<int> LoggedInDebug(int x)
                {
            #if DEBUG
                    Log();
            #endif
                    return await CoreAsync(x);
                }

                public async Task<int> EveryBranch(int x)
                {
            #if DEBUG
                    return await CoreAsync(x);
            #else
                    return await CoreAsync(0);
            #endif
                }

                public async Task<int> Lambda(int x)
                {
                    System.Func<Task<int>> run = async () =>
                    {
            #if OS_WINDOWS
                        await Task.Delay(1);
            #endif
                        return await CoreAsync(x);
                    };
                    return await run() + 1;
                }

            #if !OS_WINDOWS
                public async Task<int> WholeMethodUnderIf(int x) => [|await|] CoreAsync(x);
            #endif
            }
            """;
        var fixedCode = Code.Replace("public async Task<int> WholeMethodUnderIf(int x) => [|await|] CoreAsync(x);", "public Task<int> WholeMethodUnderIf(int x) => CoreAsync(x);", StringComparison.Ordinal);
        await Verify.VerifyCodeFixAsync(Code, fixedCode);
    }

    [Fact]
    public async Task FixAll_FixesEverySiteOfTheDocument()
    {
        var before = Class("""
                async Task<int> A(int x) => [|await|] CoreAsync(x);
                async Task<int> B(int x) { return [|await|] CoreAsync(x); }
                async Task<int> D(int x) => [|await|] CoreAsync(x).ConfigureAwait(false);
                async Task<int> E() => [|await|] CoreAsync(_count);
                async Task<int> F(int x) => [|await|] CoreAsync(x).ConfigureAwait(ConfigureAwaitOptions.None);
                async Task<int> G(int x) => [|await|] CoreAsync(x).ConfigureAwait(ConfigureAwaitOptions.ContinueOnCapturedContext);
            """);
        var after = Class("""
                Task<int> A(int x) => CoreAsync(x);
                Task<int> B(int x) { return CoreAsync(x); }
                Task<int> D(int x) => CoreAsync(x);
                Task<int> E() => CoreAsync(_count);
                Task<int> F(int x) => CoreAsync(x);
                Task<int> G(int x) => CoreAsync(x);
            """);
        await new Verify.Test { TestCode = before, FixedCode = after, NumberOfFixAllIterations = 1 }.RunAsync();
    }

    [Fact]
    public async Task TopLevelLocalFunctions_AreFixed()
    {
        const string TopLevel = """
            using System;
            using System.Threading.Tasks;

            Console.WriteLine(await Twice(args.Length));

            async Task<int> Twice(int x) => [|await|] Core(x);

            async Task<int> Core(int x) { await Task.Yield(); return x * 2; }
            """;
        await new Verify.Test
        {
            TestCode = TopLevel,
            FixedCode = TopLevel.Replace("async Task<int> Twice(int x) => [|await|] Core(x);", "Task<int> Twice(int x) => Core(x);", StringComparison.Ordinal),
            TestState = { OutputKind = OutputKind.ConsoleApplication },
        }.RunAsync();
    }

    /// <summary>netstandard2.0 on C# 7.3 beside net10.0 with nullable warnings: the rewrite is plain C# in both.</summary>
    [Fact]
    public async Task OnCSharp73NetStandard_AndMultiTargeted_TheFixCompiles()
    {
        const string Code = """
            using System.Threading.Tasks;

            public class C
            {
                private async Task<string> CoreAsync(string x) { await Task.Yield(); return x; }

                public async Task<string> Name(string x) => [|await|] CoreAsync(x);
            }
            """;
        await new Verify.Test
        {
            SharedByNetStandardAndNet10 = true,
            TestCode = Code,
            FixedCode = Code.Replace("public async Task<string> Name(string x) => [|await|] CoreAsync(x);", "public Task<string> Name(string x) => CoreAsync(x);", StringComparison.Ordinal),
        }.RunAsync();
    }

    /// <summary>
    /// TPL0008 would make CoreAsync return ValueTask&lt;int&gt; if every call awaited it, and Get's await would then not be
    /// its return type; TPL0016 would make Get return CoreAsync's task. The pass-through's await does not count for
    /// TPL0008, so the two reach one result in either order.
    /// </summary>
    [Fact]
    public async Task TheValueTaskRuleLeavesAPassThroughsCalleeToThisRule()
    {
        var code = """
            using System.Threading.Tasks;

            public class C
            {
                private int _cached;
                private async Task<int> CoreAsync(int x) { if (x == 0) return _cached; await Task.Yield(); return x; }

                public async Task<int> Get(int x) => await CoreAsync(x);
            }
            """;
        var run = new AnalyzerRun([new ValueTaskFastPathAnalyzer(), new PassThroughAsyncAnalyzer()]) { Sources = { ("Test0.cs", code) } };
        Assert.Equal(["TPL0016"], (await run.DiagnosticsAsync()).Select(d => d.Id));

        run.Sources[0] = ("Test0.cs", code.Replace("public async Task<int> Get(int x) => await CoreAsync(x);", "public async Task<int> Get(int x) => await CoreAsync(x) + 1;", StringComparison.Ordinal));
        Assert.Equal(["TPL0008"], (await run.DiagnosticsAsync()).Select(d => d.Id));
    }

    [Fact]
    public async Task GeneratedCode_DoesNotReport()
    {
        await Verify.VerifyAnalyzerAsync("// <auto-generated/>\n" + Class("""
                async Task<int> A(int x) => await CoreAsync(x);
            """));
    }

    [Theory]
    [InlineData("int x", "async Task<int> L() => await ")]
    [InlineData("int x", "async Task<int> L() => await Missing(x);")]
    [InlineData("int x", "async Task<int> L() { return await L2(x) } async Task<int> L2(int y) { await Task.Yield(); return y; }")]
    [InlineData("int x", "async Task<int> L() => await L2(x, ); async Task<int> L2(int y) { await Task.Yield(); return y; }")]
    [InlineData("int x", "async Task<Missing> L() => await L2(x); async Task<Missing> L2(int y) { await Task.Yield(); return default; }")]
    [InlineData("int x", "async Task L() { return await L(); }")]
    [InlineData("int x", "async Task L() { var r = await L2(x); return r; } async Task<int> L2(int y) { await Task.Yield(); return y; }")]
    [InlineData("bool b", "async Task L() { if (b) return await L2(1); else await L2(2); } async Task<int> L2(int y) { await Task.Yield(); return y; }")]
    public async Task IncompleteCode_NeitherThrowsNorReports(string parameters, string statement)
    {
        Assert.Equal(0, await HalfTypedCode.CountDiagnosticsAsync(new PassThroughAsyncAnalyzer(), parameters, statement));
    }
}
