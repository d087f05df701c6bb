using System.Collections.Immutable;
using System.IO;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp;
using Microsoft.CodeAnalysis.Testing;
using TplPractices.Analyzers.Tests.Verifiers;
using Verify = TplPractices.Analyzers.Tests.Verifiers.CSharpCodeFixVerifier<
    TplPractices.Analyzers.Rules.PassThroughAsyncAnalyzer,
    TplPractices.Analyzers.CodeFixes.Rules.PassThroughAsyncFixer>;

namespace TplPractices.Analyzers.Tests.Rules;

/// <summary>
/// TPL0016 beyond one whole-body await: paths chosen by tests that cannot throw, each ending in one awaited task; the
/// two-statement form; parentheses; lambdas and local functions; the Task factories whose checks provably pass; async
/// methods of referenced assemblies.
/// </summary>
public sealed class PassThroughAsyncPathTests
{
    /// <summary>Each shape, and a program that runs them, so the behaviour run compares before and after.</summary>
    private const string Before = /* lang=c#-test */ """
        using System;
        using System.Threading;
        using System.Threading.Tasks;

        public enum Kind { Small, Large, Other }

        public class Router
        {
            private readonly string _prefix = "r";
            private int _saved;

            public async Task<int> ChooseAsync(bool fast, int x)
            {
                if (fast)
                {
                    return {|#0:await|} FastAsync(x);
                }
                else
                {
                    return await SlowAsync(x);
                }
            }

            public async Task<string> LookUpAsync(string? key)
            {
                if (key is null) return {|#1:await|} DefaultAsync();
                if (key == "") return await DefaultAsync().ConfigureAwait(false);
                return await FindAsync(key);
            }

            public async Task SaveAsync(Kind kind, string name)
            {
                switch (kind)
                {
                    case Kind.Small:
                        {|#2:await|} SaveCoreAsync(name, 1);
                        break;
                    case Kind.Large when _saved >= 0:
                        await SaveCoreAsync(name, 10);
                        return;
                    default:
                        await SaveCoreAsync(_prefix, 0);
                        break;
                }
            }

            public async Task<int> PickAsync(int count) => count > 0 ? {|#3:await|} FastAsync(count) : await SlowAsync(count);

            public async Task<int> EitherAsync(bool fast, int x) => {|#4:await|} (fast ? FastAsync(x) : SlowAsync(x));

            public async Task<int> NamedAsync(int x)
            {
                var result = {|#5:await|} SlowAsync(x);
                return result;
            }

            public async Task<int> WrappedAsync(int x) => ({|#6:await|} FastAsync(x));

            public Func<Task<int>> Later(int x)
            {
                Func<Task<int>> run = async () => {|#7:await|} SlowAsync(x);
                return run;
            }

            public Task<int> OnPool(int x) => Task.Run(async () => {|#8:await|} FastAsync(x));

            public async Task PauseAsync(CancellationToken token) => {|#9:await|} Task.Delay(1, token);

            public async Task<int> KnownAsync() => {|#10:await|} Task.FromResult(_saved);

            public async Task NothingAsync()
            {
                {|#11:await|} Task.CompletedTask;
            }

            public async Task<int[]> BothAsync(int x) => {|#12:await|} Task.WhenAll(FastAsync(x), SlowAsync(x));

            public async Task<int> ComputeAsync(int x) => {|#13:await|} Task.Run(() => checked(x * 1000));

            private async Task<int> FastAsync(int x)
            {
                await Task.Yield();
                return checked(x * 2);
            }

            private async Task<int> SlowAsync(int x)
            {
                await Task.Delay(1);
                if (x < 0) throw new ArgumentOutOfRangeException(nameof(x));
                return x + 1;
            }

            private async Task<string> DefaultAsync()
            {
                await Task.Yield();
                return _prefix;
            }

            private async Task<string> FindAsync(string key)
            {
                await Task.Yield();
                return key.Length > 3 ? throw new InvalidOperationException(key) : key + _prefix;
            }

            private async Task SaveCoreAsync(string name, int copies)
            {
                await Task.Yield();
                if (name.Length == 0) throw new InvalidOperationException("empty");
                _saved += copies;
            }
        }

        public static class Api
        {
            public static async Task<string> Run(int step, string name)
            {
                var router = new Router();
                var results = new System.Collections.Generic.List<string>();
                async Task Try(Func<Task<string>> action)
                {
                    try { results.Add(await action()); }
                    catch (Exception e) { results.Add(e.GetType().Name); }
                }

                await Try(async () => (await router.ChooseAsync(step > 0, step)).ToString());
                await Try(async () => (await router.ChooseAsync(false, step)).ToString());
                await Try(async () => await router.LookUpAsync(step > 1 ? null : name));
                await Try(async () => { var t = router.SaveAsync((Kind)(step & 3), name); await t; return t.Status.ToString(); });
                await Try(async () => (await router.PickAsync(step)).ToString());
                await Try(async () => (await router.EitherAsync(step % 2 == 0, step * 1_000_000_000)).ToString());
                await Try(async () => (await router.NamedAsync(step)).ToString());
                await Try(async () => (await router.WrappedAsync(step * 1_500_000_000)).ToString());
                await Try(async () => (await router.Later(step)()).ToString());
                await Try(async () => (await router.OnPool(step)).ToString());
                await Try(async () => { using var source = new CancellationTokenSource(); if (step < 0) source.Cancel(); await router.PauseAsync(source.Token); return "paused"; });
                await Try(async () => (await router.KnownAsync()).ToString());
                await Try(async () => { await router.NothingAsync(); return "nothing"; });
                await Try(async () => string.Join("+", await router.BothAsync(step)));
                await Try(async () => (await router.ComputeAsync(step * 10_000_000)).ToString());
                return string.Join(",", results);
            }
        }
        """;

    private static readonly string After = TestMarkup.Strip(Before)
        .Replace("public async Task<int> ChooseAsync", "public Task<int> ChooseAsync", StringComparison.Ordinal)
        .Replace("return await FastAsync(x);\n        }\n        else\n        {\n            return await SlowAsync(x);", "return FastAsync(x);\n        }\n        else\n        {\n            return SlowAsync(x);", StringComparison.Ordinal)
        .Replace("public async Task<string> LookUpAsync", "public Task<string> LookUpAsync", StringComparison.Ordinal)
        .Replace("if (key is null) return await DefaultAsync();", "if (key is null) return DefaultAsync();", StringComparison.Ordinal)
        .Replace("if (key == \"\") return await DefaultAsync().ConfigureAwait(false);", "if (key == \"\") return DefaultAsync();", StringComparison.Ordinal)
        .Replace("return await FindAsync(key);", "return FindAsync(key);", StringComparison.Ordinal)
        .Replace("public async Task SaveAsync", "public Task SaveAsync", StringComparison.Ordinal)
        .Replace("await SaveCoreAsync(name, 1);\n                break;", "return SaveCoreAsync(name, 1);", StringComparison.Ordinal)
        .Replace("await SaveCoreAsync(name, 10);\n                return;", "return SaveCoreAsync(name, 10);", StringComparison.Ordinal)
        .Replace("await SaveCoreAsync(_prefix, 0);\n                break;", "return SaveCoreAsync(_prefix, 0);", StringComparison.Ordinal)
        .Replace("public async Task<int> PickAsync(int count) => count > 0 ? await FastAsync(count) : await SlowAsync(count);", "public Task<int> PickAsync(int count) => count > 0 ? FastAsync(count) : SlowAsync(count);", StringComparison.Ordinal)
        .Replace("public async Task<int> EitherAsync(bool fast, int x) => await (fast ? FastAsync(x) : SlowAsync(x));", "public Task<int> EitherAsync(bool fast, int x) => fast ? FastAsync(x) : SlowAsync(x);", StringComparison.Ordinal)
        .Replace("public async Task<int> NamedAsync(int x)\n    {\n        var result = await SlowAsync(x);\n        return result;", "public Task<int> NamedAsync(int x)\n    {\n        return SlowAsync(x);", StringComparison.Ordinal)
        .Replace("public async Task<int> WrappedAsync(int x) => (await FastAsync(x));", "public Task<int> WrappedAsync(int x) => FastAsync(x);", StringComparison.Ordinal)
        .Replace("Func<Task<int>> run = async () => await SlowAsync(x);", "Func<Task<int>> run = () => SlowAsync(x);", StringComparison.Ordinal)
        .Replace("Task.Run(async () => await FastAsync(x));", "Task.Run(() => FastAsync(x));", StringComparison.Ordinal)
        .Replace("public async Task PauseAsync(CancellationToken token) => await Task.Delay(1, token);", "public Task PauseAsync(CancellationToken token) => Task.Delay(1, token);", StringComparison.Ordinal)
        .Replace("public async Task<int> KnownAsync() => await Task.FromResult(_saved);", "public Task<int> KnownAsync() => Task.FromResult(_saved);", StringComparison.Ordinal)
        .Replace("public async Task NothingAsync()\n    {\n        await Task.CompletedTask;", "public Task NothingAsync()\n    {\n        return Task.CompletedTask;", StringComparison.Ordinal)
        .Replace("public async Task<int[]> BothAsync(int x) => await Task.WhenAll(FastAsync(x), SlowAsync(x));", "public Task<int[]> BothAsync(int x) => Task.WhenAll(FastAsync(x), SlowAsync(x));", StringComparison.Ordinal)
        .Replace("public async Task<int> ComputeAsync(int x) => await Task.Run(() => checked(x * 1000));", "public Task<int> ComputeAsync(int x) => Task.Run(() => checked(x * 1000));", StringComparison.Ordinal);

    [Fact]
    public async Task EveryPathEndingInOnePassThrough_ReturnsTheTasks()
    {
        var test = new Verify.Test { TestCode = Before, FixedCode = After };
        test.ExpectedDiagnostics.Add(Verify.Diagnostic().WithLocation(0).WithMessage("'ChooseAsync' only awaits 'FastAsync' or 'SlowAsync': drop 'async' and return a task directly, saving a state machine and a second task"));
        test.ExpectedDiagnostics.Add(Verify.Diagnostic().WithLocation(1).WithArguments("'LookUpAsync'", "'DefaultAsync' or 'FindAsync'"));
        test.ExpectedDiagnostics.Add(Verify.Diagnostic().WithLocation(2).WithArguments("'SaveAsync'", "'SaveCoreAsync'"));
        test.ExpectedDiagnostics.Add(Verify.Diagnostic().WithLocation(3).WithArguments("'PickAsync'", "'FastAsync' or 'SlowAsync'"));
        test.ExpectedDiagnostics.Add(Verify.Diagnostic().WithLocation(4).WithArguments("'EitherAsync'", "'FastAsync' or 'SlowAsync'"));
        test.ExpectedDiagnostics.Add(Verify.Diagnostic().WithLocation(5).WithArguments("'NamedAsync'", "'SlowAsync'"));
        test.ExpectedDiagnostics.Add(Verify.Diagnostic().WithLocation(6).WithArguments("'WrappedAsync'", "'FastAsync'"));
        test.ExpectedDiagnostics.Add(Verify.Diagnostic().WithLocation(7).WithArguments("This lambda", "'SlowAsync'"));
        test.ExpectedDiagnostics.Add(Verify.Diagnostic().WithLocation(8).WithArguments("This lambda", "'FastAsync'"));
        test.ExpectedDiagnostics.Add(Verify.Diagnostic().WithLocation(9).WithArguments("'PauseAsync'", "'Delay'"));
        test.ExpectedDiagnostics.Add(Verify.Diagnostic().WithLocation(10).WithArguments("'KnownAsync'", "'FromResult'"));
        test.ExpectedDiagnostics.Add(Verify.Diagnostic().WithLocation(11).WithArguments("'NothingAsync'", "'CompletedTask'"));
        test.ExpectedDiagnostics.Add(Verify.Diagnostic().WithLocation(12).WithArguments("'BothAsync'", "'WhenAll'"));
        test.ExpectedDiagnostics.Add(Verify.Diagnostic().WithLocation(13).WithArguments("'ComputeAsync'", "'Run'"));
        await test.RunAsync();
    }

    /// <summary>Results, exceptions (overflows, bad arguments, an empty name, a cancelled delay) and task states stay the same.</summary>
    [Theory]
    [InlineData(3, "ab")]
    [InlineData(-1, "")]
    [InlineData(2, "abcdef")]
    [InlineData(0, "")]
    [InlineData(5, "x")]
    public async Task FixedCode_DoesWhatTheOriginalDid(int step, string name)
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
            private readonly List<int> _items = new();
            private int _count;
            private async Task<int> CoreAsync(int x) { await Task.Yield(); return x; }
            private async Task OtherAsync(int x) { await Task.Yield(); _count += x; }
            private Task<int> PlainAsync(int x) => x < 0 ? throw new ArgumentException() : Task.FromResult(x);
            private bool Check(int x) => x > _count;
            private static void Use(Func<Task<int>> f) { }
            private static void Use(Func<int> f) { }
        {{members}}
        }

        public sealed class Money
        {
            public static bool operator ==(Money? a, Money? b) => throw new InvalidOperationException();
            public static bool operator !=(Money? a, Money? b) => throw new InvalidOperationException();
            public override bool Equals(object? o) => false;
            public override int GetHashCode() => 0;
        }
        """;

    /// <summary>Each shape where some path would change: a test that can throw, a path without an await or with more, a callee whose checks can fail.</summary>
    [Fact]
    public async Task PathsTheRewriteWouldChange_AreNotReported()
    {
        await Verify.VerifyAnalyzerAsync(Class("""
                async Task<int> Called(int x) { if (Check(x)) return await CoreAsync(x); return await CoreAsync(0); }   // the test runs code
                async Task<int> Property(int x) { if (_items.Count > 0) return await CoreAsync(x); return await CoreAsync(0); }
                async Task<int> Operator(Money m, int x) { if (m == null) return await CoreAsync(x); return await CoreAsync(0); }
                async Task<int> Guarded(string? s) { if (s is null) throw new ArgumentNullException(nameof(s)); return await CoreAsync(s.Length); }
                async Task Sometimes(bool b) { if (b) await OtherAsync(1); }                                           // one path awaits nothing
                async Task Twice(bool b) { if (b) await OtherAsync(1); await OtherAsync(2); }                          // one path awaits twice
                async Task<int> Logged(int x) { _count++; return await CoreAsync(x); }                                  // code before
                async Task<int> NoDefault(int x) { switch (x) { case 1: return await CoreAsync(1); } return 0; }
                async Task NoDefaultAtEnd(int x) { switch (x) { case 1: await OtherAsync(1); break; } }
                async Task<int> Mixed(bool b, int x) => b ? await CoreAsync(x) : await PlainAsync(x);                   // one callee may throw first
                async Task<int> Converted(int x) { object r = await CoreAsync(x); return (int)r; }
                async Task<int> Negated(int x) => await CoreAsync(checked(-x));                                         // -int.MinValue overflows where checked
                async Task<int> Added(int x) { var r = await CoreAsync(x); return r + 1; }
                async Task<int> SwitchExpression(int x) => await (x switch { 1 => CoreAsync(1), > 1 => CoreAsync(x) }); // no discard: throws at the call
                async Task Delay(int ms) => await Task.Delay(ms);                                                       // -2 throws at the call
                async Task DelayOutOfRange() => await Task.Delay(-2);
                async Task<Task> None() => await Task.WhenAny();                                                        // no tasks: throws at the call
                async Task Given(Task t) => await Task.WhenAll(t, OtherAsync(1));                                       // t may be null
                async Task<int> RunOn(Func<int> f) => await Task.Run(f);                                                // f may be null
                async Task<int> Loop(int x) { while (x > 0) { return await CoreAsync(x); } return await CoreAsync(0); }
                void Overloaded(int x) => Use(async () => await CoreAsync(x));                                         // another overload may bind
                Func<Task<int>> Kept(int x) => async () => { _count++; return await CoreAsync(x); };
            """));
    }

    [Fact]
    public async Task FixAll_FixesEveryFunctionOfTheDocument()
    {
        var before = Class("""
                async Task<int> A(bool b, int x) { if (b) { return [|await|] CoreAsync(x); } return await CoreAsync(_count); }
                async Task B(int x) { switch (x) { case 0: [|await|] OtherAsync(0); break; default: await OtherAsync(x); break; } }
                async Task<int> D(int x) { var r = [|await|] CoreAsync(x); return r; }
                Func<Task> E(int x) => async () => [|await|] OtherAsync(x);
            """);
        var after = Class("""
                Task<int> A(bool b, int x) { if (b) { return CoreAsync(x); } return CoreAsync(_count); }
                Task B(int x) { switch (x) { case 0: return OtherAsync(0); default: return OtherAsync(x); } }
                Task<int> D(int x) { return CoreAsync(x); }
                Func<Task> E(int x) => () => OtherAsync(x);
            """);
        await new Verify.Test { TestCode = before, FixedCode = after, NumberOfFixAllIterations = 1 }.RunAsync();
    }

    /// <summary>C# 7.3 on netstandard2.0 beside net10.0 with nullable warnings: the rewrite of every path is plain C# in both.</summary>
    [Fact]
    public async Task OnCSharp73NetStandard_AndMultiTargeted_TheFixCompiles()
    {
        const string Code = """
            using System;
            using System.Threading.Tasks;

            public class C
            {
                private async Task<string> CoreAsync(string x) { await Task.Yield(); return x; }

                public async Task<string> Name(string x, int mode)
                {
                    switch (mode)
                    {
                        case 0:
                            return [|await|] CoreAsync(x);
                        default:
                            if (x == null) return await CoreAsync("none");
                            return await CoreAsync(x);
                    }
                }

                public Func<Task<string>> Later(string x)
                {
                    Func<Task<string>> later = async delegate { return [|await|] CoreAsync(x); };
                    return later;
                }
            }
            """;
        await new Verify.Test
        {
            SharedByNetStandardAndNet10 = true,
            TestCode = Code,
            FixedCode = Code
                .Replace("public async Task<string> Name", "public Task<string> Name", StringComparison.Ordinal)
                .Replace("return [|await|] CoreAsync(x);\n", "return CoreAsync(x);\n", StringComparison.Ordinal)
                .Replace("return await CoreAsync(\"none\");", "return CoreAsync(\"none\");", StringComparison.Ordinal)
                .Replace("return await CoreAsync(x);\n        }", "return CoreAsync(x);\n        }", StringComparison.Ordinal)
                .Replace("async delegate { return [|await|] CoreAsync(x); }", "delegate { return CoreAsync(x); }", StringComparison.Ordinal),
        }.RunAsync();
    }

    [Fact]
    public async Task TopLevelStatements_LocalFunctionsAndLambdas()
    {
        const string TopLevel = """
            using System;
            using System.Threading.Tasks;

            Func<int, Task<int>> twice = async x => [|await|] Core(x);
            Console.WriteLine(await Pick(args.Length) + await twice(1));

            async Task<int> Pick(int n)
            {
                if (n > 2) return [|await|] Core(n);
                return await Core(0);
            }

            async Task<int> Core(int x) { await Task.Yield(); return x * 2; }
            """;
        await new Verify.Test
        {
            TestCode = TopLevel,
            FixedCode = TopLevel
                .Replace("async x => [|await|] Core(x);", "x => Core(x);", StringComparison.Ordinal)
                .Replace("async Task<int> Pick(int n)", "Task<int> Pick(int n)", StringComparison.Ordinal)
                .Replace("if (n > 2) return [|await|] Core(n);\n    return await Core(0);", "if (n > 2) return Core(n);\n    return Core(0);", StringComparison.Ordinal),
            TestState = { OutputKind = OutputKind.ConsoleApplication },
        }.RunAsync();
    }

    /// <summary>
    /// A local function or lambda whose body ends in an <c>if</c>/<c>else</c> or a switch of awaited statements: the
    /// return the compiler adds at the end of such a body is the body falling off its end, as in a method (AsyncFixer's
    /// own inputs have the local function; it was missed while that return counted as a statement of its own).
    /// </summary>
    private const string EndingInAChoice = """
        using System;
        using System.Threading.Tasks;

        public static class Api
        {
            public static async Task<string> Run(int n)
            {
                var log = new System.Text.StringBuilder();
                async Task Step(int k) { await Task.Yield(); log.Append(k).Append(';'); }

                async Task Either(bool first)
                {
                    if (first)
                    {
                        [|await|] Step(1);
                    }
                    else
                    {
                        await Step(2);
                    }
                }

                async Task Choose(int kind)
                {
                    switch (kind)
                    {
                        case 0:
                            [|await|] Step(10);
                            break;
                        default:
                            await Step(kind);
                            break;
                    }
                }

                Func<bool, Task> pick = async first =>
                {
                    if (first) [|await|] Step(3);
                    else await Step(4);
                };

                await Either(n > 0);
                await Choose(n);
                await pick(n % 2 == 0);
                return log.ToString();
            }
        }
        """;

    [Fact]
    public async Task LocalFunctionsAndLambdas_EndingInAChoice_AreFixed()
    {
        await new Verify.Test
        {
            SharedByNetStandardAndNet10 = true,
            TestCode = EndingInAChoice,
            FixedCode = ChoiceFixed(),
        }.RunAsync();
    }

    [Theory]
    [InlineData(0)]
    [InlineData(3)]
    [InlineData(-4)]
    public async Task EndingInAChoice_FixedCode_DoesWhatTheOriginalDid(int n)
    {
        var original = await CodeRunner.RunAsync(TestMarkup.Strip(EndingInAChoice), "Api", "Run", n);
        Assert.Equal(original, await CodeRunner.RunAsync(ChoiceFixed(), "Api", "Run", n));
        Assert.Equal(3, original.Split(';', StringSplitOptions.RemoveEmptyEntries).Length);
    }

    private static string ChoiceFixed() => EndingInAChoice
        .Replace("async Task Either", "Task Either", StringComparison.Ordinal)
        .Replace("[|await|] Step(1);", "return Step(1);", StringComparison.Ordinal)
        .Replace("await Step(2);", "return Step(2);", StringComparison.Ordinal)
        .Replace("async Task Choose", "Task Choose", StringComparison.Ordinal)
        .Replace("[|await|] Step(10);\n                    break;", "return Step(10);", StringComparison.Ordinal)
        .Replace("await Step(kind);\n                    break;", "return Step(kind);", StringComparison.Ordinal)
        .Replace("async first =>", "first =>", StringComparison.Ordinal)
        .Replace("if (first) [|await|] Step(3);", "if (first) return Step(3);", StringComparison.Ordinal)
        .Replace("else await Step(4);", "else return Step(4);", StringComparison.Ordinal);

    /// <summary>
    /// A referenced assembly's method that the compiler built as an async state machine puts its exceptions in its task
    /// like this project's own; a plain one there may check its arguments first.
    /// </summary>
    [Fact]
    public async Task AsyncMethodsOfAReferencedAssembly_AreReported()
    {
        var library = Library("""
            using System;
            using System.Threading.Tasks;

            public static class Remote
            {
                public static async Task<int> LoadAsync(int id) { await Task.Yield(); return id < 0 ? throw new ArgumentException() : id; }
                public static Task<int> CheckedAsync(int id) => id < 0 ? throw new ArgumentException() : Task.FromResult(id);
            }
            """);
        const string Code = """
            using System.Threading.Tasks;

            public class C
            {
                public async Task<int> Load(int id) => [|await|] Remote.LoadAsync(id);

                public async Task<int> Checked(int id) => await Remote.CheckedAsync(id);
            }
            """;
        var test = new Verify.Test
        {
            TestCode = Code,
            FixedCode = Code.Replace("public async Task<int> Load(int id) => [|await|] Remote.LoadAsync(id);", "public Task<int> Load(int id) => Remote.LoadAsync(id);", StringComparison.Ordinal),
        };
        test.TestState.AdditionalReferences.Add(library);
        await test.RunAsync();
    }

    private static MetadataReference Library(string source)
    {
        var compilation = CSharpCompilation.Create(
            "Remote",
            [CSharpSyntaxTree.ParseText(source)],
            TestTarget.Net100.References(),
            new CSharpCompilationOptions(OutputKind.DynamicallyLinkedLibrary));
        using var image = new MemoryStream();
        Assert.True(compilation.Emit(image).Success);
        return MetadataReference.CreateFromImage(image.ToArray());
    }

    /// <summary>
    /// TPL0003 caches an awaited Task.FromResult of a constant, TPL0007 turns a Task.Run into StartNew with state, and
    /// TPL0014 takes the value of a completed task awaited on one path while another path awaits too;
    /// the task this rule would return would become their site only on a second dotnet format run. While they are on, the
    /// site is theirs, and this rule reports it once they are off. A constant the runtime caches (0 on net10.0) is never
    /// TPL0003's here, so it is this rule's, fixed only where the file has one target (PassThroughAsyncReachTests).
    /// </summary>
    [Fact]
    public async Task OneRuleOwnsASite_WithTheCacheRuleAndTheTaskRunStateRule()
    {
        const string Code = """
            using System.Threading.Tasks;

            public class C
            {
                public async Task<int> Answer() => await Task.FromResult(4242);

                public async Task<int> Cached() => await Task.FromResult(0);

                public Task<int> Later(int x) => Task.Run(async () => await Core(x));

                public async Task<int> Spare() => await Task.Run(() => Compute());

                private static int Compute() => 7;

                public async Task<int> Either(bool known, int x) { if (known) return await Task.FromResult(x); return await Core(x); }

                private static async Task<int> Core(int x) { await Task.Yield(); return x; }
            }
            """;
        var analyzers = ImmutableArray.Create<Microsoft.CodeAnalysis.Diagnostics.DiagnosticAnalyzer>(
            new TplPractices.Analyzers.Rules.CacheConstantTaskResultAnalyzer(),
            new TplPractices.Analyzers.Rules.PassThroughAsyncAnalyzer(),
            new TplPractices.Analyzers.Rules.TaskRunStateAnalyzer(),
            new TplPractices.Analyzers.Rules.AvailableValueAnalyzer());
        var run = new AnalyzerRun(analyzers) { Sources = { ("Test0.cs", Code) } };
        Assert.Equal(["TPL0003@Answer", "TPL0016@Cached", "TPL0016@Later", "TPL0016@Spare", "TPL0014@Either"], await IdsAsync(run));

        // A Task.Run whose lambda captures nothing is no site of TPL0007's: the pass-through stays this rule's.
        run.EditorConfig = "root = true\n[*.cs]\ndotnet_diagnostic.TPL0007.severity = warning\n";
        Assert.Equal(["TPL0003@Answer", "TPL0016@Cached", "TPL0007@Later", "TPL0016@Spare", "TPL0014@Either"], await IdsAsync(run));

        run.EditorConfig = "root = true\n[*.cs]\ndotnet_diagnostic.TPL0003.severity = none\ndotnet_diagnostic.TPL0014.severity = none\n";
        Assert.Equal(["TPL0016@Answer", "TPL0016@Cached", "TPL0016@Later", "TPL0016@Spare", "TPL0016@Either"], await IdsAsync(run));
    }

    private static async Task<List<string>> IdsAsync(AnalyzerRun run)
    {
        var (project, diagnostics) = await run.AnalyzeAsync();
        var root = await project.Documents.First().GetSyntaxRootAsync();
        return diagnostics
            .OrderBy(d => d.Location.SourceSpan.Start)
            .Select(d => d.Id + "@" + root!.FindNode(d.Location.SourceSpan).AncestorsAndSelf().OfType<Microsoft.CodeAnalysis.CSharp.Syntax.MethodDeclarationSyntax>().First().Identifier.ValueText)
            .ToList();
    }

    private const string Trust = "root = true\n[*.cs]\ntpl_practices.TPL0016.trust_injected_services = true\n";

    private const string Services = """
        using System;
        using System.Threading.Tasks;

        public interface IStore { Task<int> LoadAsync(int id); }

        public sealed class Checked
        {
            private readonly IStore _store;
            public Checked(IStore store) { _store = store ?? throw new ArgumentNullException(nameof(store)); }
            public async Task<int> Load(int id) => {|#0:await|} _store.LoadAsync(id);
        }

        public sealed class Guarded
        {
            private readonly IStore _store;
            public Guarded(IStore store) { ArgumentNullException.ThrowIfNull(store); this._store = store; }
            public Guarded() : this(new Memory()) { }
            public async Task<int> Load(int id) { return {|#1:await|} _store.LoadAsync(id).ConfigureAwait(false); }
        }

        public sealed class Annotated(IStore store)
        {
            private readonly IStore _store = store;
            private readonly Memory _own = new();
            public async Task<int> Load(int id) => {|#2:await|} _store.LoadAsync(id);
            public async Task<int> Own(int id) => {|#3:await|} _own.LoadAsync(id);
        }

        public sealed class Unsafe
        {
            private readonly IStore? _maybe;
            private IStore _mutable;
            private readonly IStore _late;
            private readonly IStore _unchecked;
            public Unsafe(IStore? maybe, IStore store, IStore late) { _maybe = maybe; _mutable = store; _late = late; _unchecked = store; }
            public Unsafe() { _mutable = new Memory(); _late = new Memory(); _unchecked = null!; }
            public async Task<int> Maybe(int id) => await _maybe!.LoadAsync(id);
            public async Task<int> Mutable(int id) => await _mutable.LoadAsync(id);
            public async Task<int> Late(int id) => {|#4:await|} _late.LoadAsync(id);
            public async Task<int> Unchecked(int id) => await _unchecked.LoadAsync(id);
            public async Task<int> Computed(int id) => {|#5:await|} _late.LoadAsync(id + 1);
        }

        public sealed class Memory : IStore
        {
            public Task<int> LoadAsync(int id) => Task.FromResult(id);
        }
        """;

    /// <summary>
    /// Off by default, an interface's method on a field is not reported, whatever set the field; a plain method that
    /// only returns a completed task, on a field made by <c>new</c>, is (the callee is known and the receiver never
    /// null). With <c>trust_injected_services</c>, a readonly field every constructor sets from a parameter checked for
    /// null (or non-nullable under nullable warnings), or from a <c>new</c>, is a receiver that cannot be null, and its
    /// callee is trusted (a field one constructor sets from a parameter and another from a <c>new</c> too); fields another
    /// constructor may leave null, that may be reassigned or declared nullable are not.
    /// </summary>
    [Fact]
    public async Task InjectedServices_AreReportedOnlyWithTheOption()
    {
        var off = new Verify.Test
        {
            TestCode = Services.Replace("{|#0:await|}", "await", StringComparison.Ordinal).Replace("{|#1:await|}", "await", StringComparison.Ordinal).Replace("{|#2:await|}", "await", StringComparison.Ordinal)
                .Replace("{|#4:await|}", "await", StringComparison.Ordinal).Replace("{|#5:await|}", "await", StringComparison.Ordinal),
            FixedCode = TestMarkup.Strip(Services).Replace("public async Task<int> Own(int id) => await _own.LoadAsync(id);", "public Task<int> Own(int id) => _own.LoadAsync(id);", StringComparison.Ordinal),
        };
        off.ExpectedDiagnostics.Add(Verify.Diagnostic().WithLocation(3).WithArguments("'Own'", "'LoadAsync'"));
        await off.RunAsync();

        var test = new Verify.Test
        {
            TestCode = Services,
            FixedCode = TestMarkup.Strip(Services)
                .Replace("public async Task<int> Load(int id) => await _store.LoadAsync(id);\n}\n\npublic sealed class Guarded", "public Task<int> Load(int id) => _store.LoadAsync(id);\n}\n\npublic sealed class Guarded", StringComparison.Ordinal)
                .Replace("public async Task<int> Load(int id) { return await _store.LoadAsync(id).ConfigureAwait(false); }", "public Task<int> Load(int id) { return _store.LoadAsync(id); }", StringComparison.Ordinal)
                .Replace("public async Task<int> Load(int id) => await _store.LoadAsync(id);\n    public async Task<int> Own(int id) => await _own.LoadAsync(id);", "public Task<int> Load(int id) => _store.LoadAsync(id);\n    public Task<int> Own(int id) => _own.LoadAsync(id);", StringComparison.Ordinal)
                .Replace("public async Task<int> Late(int id) => await _late.LoadAsync(id);", "public Task<int> Late(int id) => _late.LoadAsync(id);", StringComparison.Ordinal)
                .Replace("public async Task<int> Computed(int id) => await _late.LoadAsync(id + 1);", "public Task<int> Computed(int id) => _late.LoadAsync(id + 1);", StringComparison.Ordinal),
        };
        test.TestState.AnalyzerConfigFiles.Add(("/.editorconfig", Trust));
        test.FixedState.AnalyzerConfigFiles.Add(("/.editorconfig", Trust));
        test.ExpectedDiagnostics.Add(Verify.Diagnostic().WithLocation(0).WithArguments("'Load'", "'LoadAsync'"));
        test.ExpectedDiagnostics.Add(Verify.Diagnostic().WithLocation(1).WithArguments("'Load'", "'LoadAsync'"));
        test.ExpectedDiagnostics.Add(Verify.Diagnostic().WithLocation(2).WithArguments("'Load'", "'LoadAsync'"));
        test.ExpectedDiagnostics.Add(Verify.Diagnostic().WithLocation(3).WithArguments("'Own'", "'LoadAsync'"));
        test.ExpectedDiagnostics.Add(Verify.Diagnostic().WithLocation(4).WithArguments("'Late'", "'LoadAsync'"));
        test.ExpectedDiagnostics.Add(Verify.Diagnostic().WithLocation(5).WithArguments("'Computed'", "'LoadAsync'"));
        await test.RunAsync();
    }

    private const string PrimaryServices = """
        using System.Threading.Tasks;

        public interface IStore { Task<int> LoadAsync(int id); }

        public sealed class Taken(IStore store)
        {
            public async Task<int> Load(int id) => {|#0:await|} store.LoadAsync(id);
        }

        public class Rebound(IStore store)
        {
            public async Task<int> Load(int id) => await store.LoadAsync(id);
            public void Use(IStore other) => store = other;
        }

        public sealed class Optional(IStore? store)
        {
            public async Task<int> Load(int id) => await store!.LoadAsync(id);
        }

        public struct Held(IStore store)
        {
            public async Task<int> Load(int id) => await store.LoadAsync(id);
        }
        """;

    /// <summary>
    /// C# 12 code takes its services as primary constructor parameters. With <c>trust_injected_services</c>, one declared
    /// non-nullable under nullable warnings that no member writes is such a service (every other constructor chains to the
    /// primary one); one a member writes, one declared nullable, or a struct's (which <c>default</c> leaves null) is not.
    /// Without the option none is reported.
    /// </summary>
    [Fact]
    public async Task PrimaryConstructorServices_AreReportedOnlyWithTheOption()
    {
        await Verify.VerifyAnalyzerAsync(TestMarkup.Strip(PrimaryServices));

        var test = new Verify.Test
        {
            TestCode = PrimaryServices,
            FixedCode = TestMarkup.Strip(PrimaryServices).Replace(
                "public async Task<int> Load(int id) => await store.LoadAsync(id);\n}\n\npublic class Rebound",
                "public Task<int> Load(int id) => store.LoadAsync(id);\n}\n\npublic class Rebound",
                StringComparison.Ordinal),
        };
        test.TestState.AnalyzerConfigFiles.Add(("/.editorconfig", Trust));
        test.FixedState.AnalyzerConfigFiles.Add(("/.editorconfig", Trust));
        test.ExpectedDiagnostics.Add(Verify.Diagnostic().WithLocation(0).WithArguments("'Load'", "'LoadAsync'"));
        await test.RunAsync();
    }

    private const string ObliviousServices = """
        using System.Threading.Tasks;

        public interface IPostService { Task<string> GetAsync(int id); }

        public class PostController
        {
            private readonly IPostService _service;
            public PostController(IPostService service) { _service = service; }
            public async Task<string> Get(int id) { return {|#0:await|} _service.GetAsync(id); }
        }

        public class Defaulted
        {
            private readonly IPostService _service;
            public Defaulted(IPostService service = null) { _service = service; }
            public async Task<string> Get(int id) => await _service.GetAsync(id);
        }

        public class Primary(IPostService service)
        {
            public async Task<string> Get(int id) => {|#1:await|} service.GetAsync(id);
        }
        """;

    /// <summary>
    /// A project without nullable warnings (most code written before C# 8; a CMS's admin controllers, 17 sites) takes its
    /// services as oblivious parameters, never checked: a container fills them as it fills non-nullable ones, and a
    /// caller that passes null is the risk the option already accepts of <c>null!</c>. With <c>trust_injected_services</c>
    /// they are services; a parameter with a <c>null</c> default is not. Without the option nothing is reported.
    /// </summary>
    [Fact]
    public async Task ObliviousServices_WithoutNullableWarnings_AreReportedWithTheOption()
    {
        await new Verify.Test { TestCode = TestMarkup.Strip(ObliviousServices), NullableContext = NullableContextOptions.Disable }.RunAsync();

        var test = new Verify.Test
        {
            TestCode = ObliviousServices,
            FixedCode = TestMarkup.Strip(ObliviousServices)
                .Replace("public async Task<string> Get(int id) { return await _service.GetAsync(id); }", "public Task<string> Get(int id) { return _service.GetAsync(id); }", StringComparison.Ordinal)
                .Replace("public async Task<string> Get(int id) => await service.GetAsync(id);", "public Task<string> Get(int id) => service.GetAsync(id);", StringComparison.Ordinal),
            NullableContext = NullableContextOptions.Disable,
        };
        test.TestState.AnalyzerConfigFiles.Add(("/.editorconfig", Trust));
        test.FixedState.AnalyzerConfigFiles.Add(("/.editorconfig", Trust));
        test.ExpectedDiagnostics.Add(Verify.Diagnostic().WithLocation(0).WithArguments("'Get'", "'GetAsync'"));
        test.ExpectedDiagnostics.Add(Verify.Diagnostic().WithLocation(1).WithArguments("'Get'", "'GetAsync'"));
        await test.RunAsync();
    }
}
