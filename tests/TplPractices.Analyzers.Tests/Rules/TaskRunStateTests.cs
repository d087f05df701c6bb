using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp;
using Microsoft.CodeAnalysis.Testing;
using TplPractices.Analyzers.Rules;
using TplPractices.Analyzers.Tests.Verifiers;
using Verify = TplPractices.Analyzers.Tests.Verifiers.CSharpCodeFixVerifier<
    TplPractices.Analyzers.Rules.TaskRunStateAnalyzer,
    TplPractices.Analyzers.CodeFixes.Rules.TaskRunStateFixer>;

namespace TplPractices.Analyzers.Tests.Rules;

/// <summary>TPL0007 (off by default; the tests turn it on): Task.Run with a capturing lambda, and its StartNew equivalent.</summary>
public sealed class TaskRunStateTests
{
    private const string On = "root = true\n[*.cs]\ndotnet_diagnostic.TPL0007.severity = suggestion\n";

    internal const string Before = /* lang=c#-test */ """
        using System;
        using System.Threading;
        using System.Threading.Tasks;

        public static class Runs
        {
            public static Task<int> Value(int x) => Task.Run({|#0:() => x * 2|});

            public static Task<string> Cancellable(string text, CancellationToken token) => Task.Run({|#1:() => text + "!"|}, token);

            public static Task<int> Async(int x) => Task.Run({|#2:async () => { await Task.Yield(); return x + 1; }|});

            public static Task Plain(int[] box) => Task.Run({|#3:() => { box[0]++; }|});

            public static Task<long> Typed(int x) => Task.Run<long>({|#4:() => x + 1|});
        }
        """;

    internal const string After = /* lang=c#-test */ """
        using System;
        using System.Threading;
        using System.Threading.Tasks;

        public static class Runs
        {
            public static Task<int> Value(int x) => Task.Factory.StartNew(
                static state => { var x = (int)state!; return x * 2; },
                x,
                CancellationToken.None,
                TaskCreationOptions.DenyChildAttach,
                TaskScheduler.Default);

            public static Task<string> Cancellable(string text, CancellationToken token) => Task.Factory.StartNew(
                static state => { var text = (string)state!; return text + "!"; },
                text,
                token,
                TaskCreationOptions.DenyChildAttach,
                TaskScheduler.Default);

            public static Task<int> Async(int x) => Task.Factory.StartNew(
                static async state => { var x = (int)state!; await Task.Yield(); return x + 1; },
                x,
                CancellationToken.None,
                TaskCreationOptions.DenyChildAttach,
                TaskScheduler.Default).Unwrap();

            public static Task Plain(int[] box) => Task.Factory.StartNew(
                static state => { var box = (int[])state!; box[0]++; },
                box,
                CancellationToken.None,
                TaskCreationOptions.DenyChildAttach,
                TaskScheduler.Default);

            public static Task<long> Typed(int x) => Task.Factory.StartNew<long>(
                static state => { var x = (int)state!; return x + 1; },
                x,
                CancellationToken.None,
                TaskCreationOptions.DenyChildAttach,
                TaskScheduler.Default);
        }
        """;

    /// <summary>The rule turned on in the source and in the fixed code, as a user turns it on in .editorconfig.</summary>
    private static void TurnOn(Verify.Test test)
    {
        test.TestState.AnalyzerConfigFiles.Add(("/.editorconfig", On));
        test.FixedState.AnalyzerConfigFiles.Add(("/.editorconfig", On));
    }

    [Fact]
    public void Rule_IsOffByDefault()
    {
        Assert.False(TaskRunStateAnalyzer.Rule.IsEnabledByDefault);
    }

    [Fact]
    public async Task OffByDefault_ReportsNothing()
    {
        Assert.Empty(await AnalyzerRun.Of(new TaskRunStateAnalyzer(), TestMarkup.Strip(Before)).DiagnosticsAsync());
    }

    [Fact]
    public async Task TurnedOn_FixesEachFormToItsStartNewEquivalent()
    {
        var test = new Verify.Test { TestCode = Before, FixedCode = After };
        TurnOn(test);
        for (var i = 0; i < 5; i++)
        {
            test.ExpectedDiagnostics.Add(Verify.Diagnostic().WithSeverity(DiagnosticSeverity.Info).WithLocation(i).WithArguments(
                i switch { 1 => "'text'", 3 => "'box'", _ => "'x'" }, "a closure and a delegate", "it"));
        }

        await test.RunAsync();
    }

    /// <summary>
    /// A token written with the null-forgiving operator is the caller's token all the same: the fix passes it. The
    /// compiler marks such an argument implicit, and the fix took it for one the call left out and passed
    /// CancellationToken.None, so the work could no longer be canceled.
    /// </summary>
    [Fact]
    public async Task ATokenWrittenWithTheNullForgivingOperator_IsKept()
    {
        var test = new Verify.Test
        {
            TestCode = /* lang=c#-test */ """
                using System;
                using System.Threading;
                using System.Threading.Tasks;

                public static class Runs
                {
                    public static Task<string> Cancellable(string text, CancellationToken token) => Task.Run({|#0:() => text + "!"|}, token!);
                }
                """,
            FixedCode = /* lang=c#-test */ """
                using System;
                using System.Threading;
                using System.Threading.Tasks;

                public static class Runs
                {
                    public static Task<string> Cancellable(string text, CancellationToken token) => Task.Factory.StartNew(
                        static state =>
                        {
                            var text = (string)state!;
                            return text + "!";
                        },
                        text,
                        token!,
                        TaskCreationOptions.DenyChildAttach,
                        TaskScheduler.Default);
                }
                """,
        };
        TurnOn(test);
        test.ExpectedDiagnostics.Add(Verify.Diagnostic().WithSeverity(DiagnosticSeverity.Info).WithLocation(0).WithArguments("'text'", "a closure and a delegate", "it"));
        await test.RunAsync();
    }

    /// <summary>
    /// A comment after the lambda's comma speaks of the lambda, and one after the statement of the token: each stays
    /// beside its argument, every argument on a line of its own. The first went above the statement, and the second
    /// stayed below the arguments added after the token (found running the rule on Polly's pessimistic time-out, whose
    /// two comments explain the two tokens).
    /// </summary>
    [Fact]
    public async Task ACommentAfterTheLambdasComma_StaysBesideTheLambda()
    {
        var test = new Verify.Test
        {
            TestCode = /* lang=c#-test */ """
                using System;
                using System.Threading;
                using System.Threading.Tasks;

                public static class Runs
                {
                    public static Task<int> Guarded(Func<string, CancellationToken, int> work, string name, CancellationToken token)
                    {
                        var running = Task.Run({|#0:() =>
                            work(name, token)|},   // the work may watch the token itself
                            token);         // a canceled token keeps the work from starting
                        return running;
                    }
                }
                """,
            FixedCode = /* lang=c#-test */ """
                using System;
                using System.Threading;
                using System.Threading.Tasks;

                public static class Runs
                {
                    public static Task<int> Guarded(Func<string, CancellationToken, int> work, string name, CancellationToken token)
                    {
                        var running = Task.Factory.StartNew(
                            static state =>
                            {
                                var (work, name, token) = ((Func<string, CancellationToken, int>, string, CancellationToken))state!;
                                return work(name, token);
                            },   // the work may watch the token itself
                            (work, name, token),
                            token, // a canceled token keeps the work from starting
                            TaskCreationOptions.DenyChildAttach,
                            TaskScheduler.Default);
                        return running;
                    }
                }
                """,
        };
        TurnOn(test);
        test.ExpectedDiagnostics.Add(Verify.Diagnostic().WithSeverity(DiagnosticSeverity.Info).WithLocation(0).WithArguments("'work', 'name' and 'token'", "a closure and a delegate", "them"));
        await test.RunAsync();
    }

    /// <summary>
    /// A call whose ')' the author put on a line of its own after the lambda keeps it there, after the arguments the fix
    /// adds; the line break after the lambda began the next argument's line with a comma at column 0 (found running the
    /// rule on Garnet's replication code).
    /// </summary>
    [Fact]
    public async Task AParenthesisOnItsOwnLine_StaysAfterTheAddedArguments()
    {
        var test = new Verify.Test
        {
            TestCode = /* lang=c#-test */ """
                using System;
                using System.Threading.Tasks;

                static class Runs
                {
                    public static Task Later(int x)
                    {
                        return Task.Run(
                            [|() =>
                            {
                                Console.WriteLine(x);
                            }|]
                        );
                    }

                    public static Task Sooner(int x)
                    {
                        return Task.Run([|() =>
                        {
                            Console.WriteLine(x + 1);
                        }|]
                        );
                    }
                }
                """,
            FixedCode = /* lang=c#-test */ """
                using System;
                using System.Threading;
                using System.Threading.Tasks;

                static class Runs
                {
                    public static Task Later(int x)
                    {
                        return Task.Factory.StartNew(
                            static state =>
                            {
                                var x = (int)state!;
                                Console.WriteLine(x);
                            },
                            x,
                            CancellationToken.None,
                            TaskCreationOptions.DenyChildAttach,
                            TaskScheduler.Default
                        );
                    }

                    public static Task Sooner(int x)
                    {
                        return Task.Factory.StartNew(
                            static state =>
                            {
                                var x = (int)state!;
                                Console.WriteLine(x + 1);
                            },
                            x,
                            CancellationToken.None,
                            TaskCreationOptions.DenyChildAttach,
                            TaskScheduler.Default
                        );
                    }
                }
                """,
        };
        TurnOn(test);
        await test.RunAsync();
    }

    /// <summary>A token passed by name is read by its parameter, wherever it is written: the fix writes it in StartNew's place.</summary>
    [Fact]
    public async Task ANamedToken_IsPassedInItsPlace()
    {
        var test = new Verify.Test
        {
            TestCode = /* lang=c#-test */ """
                using System.Threading;
                using System.Threading.Tasks;

                static class Runs
                {
                    public static Task<int> Named(int x, CancellationToken token) => Task.Run([|() => x * 2|], cancellationToken: token);
                }
                """,
            FixedCode = /* lang=c#-test */ """
                using System.Threading;
                using System.Threading.Tasks;

                static class Runs
                {
                    public static Task<int> Named(int x, CancellationToken token) => Task.Factory.StartNew(
                        static state =>
                        {
                            var x = (int)state!;
                            return x * 2;
                        },
                        x,
                        token,
                        TaskCreationOptions.DenyChildAttach,
                        TaskScheduler.Default);
                }
                """,
        };
        TurnOn(test);
        await test.RunAsync();
    }

    [Theory]
    [InlineData("Value", new object[] { 21 })]
    [InlineData("Async", new object[] { 41 })]
    [InlineData("Typed", new object[] { 5 })]
    public async Task FixedCode_ReturnsWhatTheOriginalReturned(string method, object[] arguments)
    {
        var original = await CodeRunner.RunAsync(TestMarkup.Strip(Before), "Runs", method, arguments);
        Assert.Equal(original, await CodeRunner.RunAsync(After, "Runs", method, arguments));
        Assert.StartsWith("returned", original, StringComparison.Ordinal);
    }

    [Theory]
    [InlineData(false, "returned")]
    [InlineData(true, "threw")]
    public async Task Token_RunsOrCancelsBothTheSame(bool canceled, string outcome)
    {
        using var source = new CancellationTokenSource();
        if (canceled)
        {
            source.Cancel();
        }

        var original = await CodeRunner.RunAsync(TestMarkup.Strip(Before), "Runs", "Cancellable", "go", source.Token);
        Assert.Equal(original, await CodeRunner.RunAsync(After, "Runs", "Cancellable", "go", source.Token));
        Assert.StartsWith(outcome, original, StringComparison.Ordinal);
    }

    /// <summary>
    /// The compiler reads a lambda's body with the null states of where the lambda is written: a nullable field just
    /// assigned (a hosted service's <c>_cts = new …(); _loop = Task.Run(() =&gt; RunAsync(_cts.Token));</c>), or a nullable
    /// local tested for null, is known non-null inside it. Read back through the state it starts from its declared
    /// maybe-null, and would warn (CS8602, CS8604) under nullable warnings as errors, so the fix was withheld. The fix keeps
    /// what the compiler knew: a <c>!</c> on the member read, the local read back as non-nullable; neither changes what runs.
    /// </summary>
    [Fact]
    public async Task NullableValuesKnownNonNull_KeepWhatTheCompilerKnew()
    {
        const string Source = /* lang=c#-test */ """
            using System.Threading;
            using System.Threading.Tasks;

            sealed class Service
            {
                private CancellationTokenSource? _cts;
                private Task? _loop;
                private string? _name;

                public void Start()
                {
                    _cts = new CancellationTokenSource();
                    _loop = Task.Run({|#0:async () => await RunAsync(_cts.Token)|});
                }

                public Task<int> Named(string name)
                {
                    this._name = name;
                    return Task.Run({|#1:() => this._name.Length|});
                }

                public Task<int> Checked(string? text)
                {
                    if (text is null)
                    {
                        return Task.FromResult(0);
                    }

                    return Task.Run({|#2:() => text.Length|});
                }

                public Task<int> MaybeNull() => Task.Run({|#3:() => _name?.Length ?? 0|});

                public Task<int> Forgiven() => Task.Run({|#4:() => _name!.Length|});

                private static Task RunAsync(CancellationToken token) => Task.Delay(1, token);
            }
            """;
        const string Fixed = /* lang=c#-test */ """
            using System.Threading;
            using System.Threading.Tasks;

            sealed class Service
            {
                private CancellationTokenSource? _cts;
                private Task? _loop;
                private string? _name;

                public void Start()
                {
                    _cts = new CancellationTokenSource();
                    _loop = Task.Factory.StartNew(
                        static async state =>
                        {
                            var self = (Service)state!;
                            await RunAsync(self._cts!.Token);
                        },
                        this,
                        CancellationToken.None,
                        TaskCreationOptions.DenyChildAttach,
                        TaskScheduler.Default).Unwrap();
                }

                public Task<int> Named(string name)
                {
                    this._name = name;
                    return Task.Factory.StartNew(
                        static state =>
                        {
                            var self = (Service)state!;
                            return self._name!.Length;
                        },
                        this,
                        CancellationToken.None,
                        TaskCreationOptions.DenyChildAttach,
                        TaskScheduler.Default);
                }

                public Task<int> Checked(string? text)
                {
                    if (text is null)
                    {
                        return Task.FromResult(0);
                    }

                    return Task.Factory.StartNew(
                        static state =>
                        {
                            var text = (string)state!;
                            return text.Length;
                        },
                        text,
                        CancellationToken.None,
                        TaskCreationOptions.DenyChildAttach,
                        TaskScheduler.Default);
                }

                public Task<int> MaybeNull() => Task.Factory.StartNew(
                    static state =>
                    {
                        var self = (Service)state!;
                        return self._name?.Length ?? 0;
                    },
                    this,
                    CancellationToken.None,
                    TaskCreationOptions.DenyChildAttach,
                    TaskScheduler.Default);

                public Task<int> Forgiven() => Task.Factory.StartNew(
                    static state =>
                    {
                        var self = (Service)state!;
                        return self._name!.Length;
                    },
                    this,
                    CancellationToken.None,
                    TaskCreationOptions.DenyChildAttach,
                    TaskScheduler.Default);

                private static Task RunAsync(CancellationToken token) => Task.Delay(1, token);
            }
            """;
        var test = new Verify.Test { TestCode = Source, FixedCode = Fixed };
        TurnOn(test);
        test.ExpectedDiagnostics.Add(Verify.Diagnostic().WithSeverity(DiagnosticSeverity.Info).WithLocation(0).WithArguments("'this'", "a delegate", "it"));
        test.ExpectedDiagnostics.Add(Verify.Diagnostic().WithSeverity(DiagnosticSeverity.Info).WithLocation(1).WithArguments("'this'", "a delegate", "it"));
        test.ExpectedDiagnostics.Add(Verify.Diagnostic().WithSeverity(DiagnosticSeverity.Info).WithLocation(2).WithArguments("'text'", "a closure and a delegate", "it"));
        test.ExpectedDiagnostics.Add(Verify.Diagnostic().WithSeverity(DiagnosticSeverity.Info).WithLocation(3).WithArguments("'this'", "a delegate", "it"));
        test.ExpectedDiagnostics.Add(Verify.Diagnostic().WithSeverity(DiagnosticSeverity.Info).WithLocation(4).WithArguments("'this'", "a delegate", "it"));
        await test.RunAsync();
    }

    /// <summary>
    /// The same for a member of such a value (found in Foundatio's job runner: <c>_options.JobFactory(…)</c> after a null
    /// test, read in a <c>Task.Run</c> lambda): through the state its null state starts from the declared maybe-null, and
    /// the fix, which compiled with CS8602 under nullable warnings as errors, was dropped. The member read keeps a
    /// <c>!</c>; one tested inside the lambda, or one that may be null there, takes none.
    /// </summary>
    [Fact]
    public async Task MembersOfOuterValues_KnownNonNull_KeepWhatTheCompilerKnew()
    {
        var test = new Verify.Test
        {
            TestCode = /* lang=c#-test */ """
                using System;
                using System.Threading.Tasks;

                sealed class Options
                {
                    public Func<int, string>? Factory { get; set; }
                    public string? Name { get; set; }
                }

                sealed class Runner
                {
                    private readonly Options _options = new();

                    public Task<string> Run(int n)
                    {
                        if (_options.Factory is null || _options.Name is null)
                        {
                            throw new InvalidOperationException();
                        }

                        return Task.Run({|#0:() => _options.Factory(n) + _options.Name.Length|});
                    }

                    public Task<int> Given(Options options)
                    {
                        if (options.Name is null)
                        {
                            return Task.FromResult(0);
                        }

                        return Task.Run({|#1:() => options.Name.Length + (options.Factory?.Invoke(1).Length ?? 0)|});
                    }
                }
                """,
            FixedCode = /* lang=c#-test */ """
                using System;
                using System.Threading;
                using System.Threading.Tasks;

                sealed class Options
                {
                    public Func<int, string>? Factory { get; set; }
                    public string? Name { get; set; }
                }

                sealed class Runner
                {
                    private readonly Options _options = new();

                    public Task<string> Run(int n)
                    {
                        if (_options.Factory is null || _options.Name is null)
                        {
                            throw new InvalidOperationException();
                        }

                        return Task.Factory.StartNew(
                            static state =>
                            {
                                var (self, n) = ((Runner, int))state!;
                                return self._options.Factory!(n) + self._options.Name!.Length;
                            },
                            (this, n),
                            CancellationToken.None,
                            TaskCreationOptions.DenyChildAttach,
                            TaskScheduler.Default);
                    }

                    public Task<int> Given(Options options)
                    {
                        if (options.Name is null)
                        {
                            return Task.FromResult(0);
                        }

                        return Task.Factory.StartNew(
                            static state =>
                            {
                                var options = (Options)state!;
                                return options.Name!.Length + (options.Factory?.Invoke(1).Length ?? 0);
                            },
                            options,
                            CancellationToken.None,
                            TaskCreationOptions.DenyChildAttach,
                            TaskScheduler.Default);
                    }
                }
                """,
        };
        TurnOn(test);
        test.ExpectedDiagnostics.Add(Verify.Diagnostic().WithSeverity(DiagnosticSeverity.Info).WithLocation(0).WithArguments("'this' and 'n'", "a closure and a delegate", "them"));
        test.ExpectedDiagnostics.Add(Verify.Diagnostic().WithSeverity(DiagnosticSeverity.Info).WithLocation(1).WithArguments("'options'", "a closure and a delegate", "it"));
        await test.RunAsync();
    }

    /// <summary>
    /// A deconstruction's targets take no <c>!</c> (a written target has no non-null state to keep); a
    /// read after it does, where the compiler knew it non-null.
    /// </summary>
    [Fact]
    public async Task DeconstructionTargets_TakeNoBang()
    {
        var test = new Verify.Test
        {
            TestCode = /* lang=c#-test */ """
                using System;
                using System.Threading.Tasks;

                sealed class Pair
                {
                    private string? _left;
                    private string? _right;

                    public Task Swap()
                    {
                        _left = "l";
                        _right = "r";
                        return Task.Run({|#0:() =>
                        {
                            (_left, _right) = (_right, _left);
                            Console.WriteLine(_left.Length);
                        }|});
                    }
                }
                """,
            FixedCode = /* lang=c#-test */ """
                using System;
                using System.Threading;
                using System.Threading.Tasks;

                sealed class Pair
                {
                    private string? _left;
                    private string? _right;

                    public Task Swap()
                    {
                        _left = "l";
                        _right = "r";
                        return Task.Factory.StartNew(
                            static state =>
                            {
                                var self = (Pair)state!;
                                (self._left, self._right) = (self._right, self._left);
                                Console.WriteLine(self._left!.Length);
                            },
                            this,
                            CancellationToken.None,
                            TaskCreationOptions.DenyChildAttach,
                            TaskScheduler.Default);
                    }
                }
                """,
        };
        TurnOn(test);
        test.ExpectedDiagnostics.Add(Verify.Diagnostic().WithSeverity(DiagnosticSeverity.Info).WithLocation(0).WithArguments("'this'", "a delegate", "it"));
        await test.RunAsync();
    }

    /// <summary>
    /// A swap whose names the fix reads through <c>self</c> grows past the file's line length: its value goes to the next
    /// line, as a declared deconstruction's does (found by the gauntlet's comments context, on the test above).
    /// </summary>
    [Fact]
    public async Task RequalifiedSwapPastTheLineLength_GetsItsValueOnTheNextLine()
    {
        var test = new Verify.Test
        {
            TestCode = /* lang=c#-test */ """
                using System.Threading.Tasks;

                sealed class Pair
                {
                    private string _left = "l";
                    private string _right = "r";

                    public Task Swap()
                    {
                        return Task.Run({|#0:() =>
                        {
                            (_left, _right) = (_right, _left);
                        }|});
                    }
                }
                """,
            FixedCode = /* lang=c#-test */ """
                using System.Threading;
                using System.Threading.Tasks;

                sealed class Pair
                {
                    private string _left = "l";
                    private string _right = "r";

                    public Task Swap()
                    {
                        return Task.Factory.StartNew(
                            static state =>
                            {
                                var self = (Pair)state!;
                                (self._left, self._right) =
                                    (self._right, self._left);
                            },
                            this,
                            CancellationToken.None,
                            TaskCreationOptions.DenyChildAttach,
                            TaskScheduler.Default);
                    }
                }
                """,
        };
        test.TestState.AnalyzerConfigFiles.Add(("/.editorconfig", On + "max_line_length = 50\n"));
        test.FixedState.AnalyzerConfigFiles.Add(("/.editorconfig", On + "max_line_length = 50\n"));
        test.ExpectedDiagnostics.Add(Verify.Diagnostic().WithSeverity(DiagnosticSeverity.Info).WithLocation(0).WithArguments("'this'", "a delegate", "it"));
        await test.RunAsync();
    }

    /// <summary>
    /// The lambda moves to a line of its own and its body one level in; a call over several lines whose fields are read
    /// through <c>self</c> (some with <c>!</c>) moves with it, each line where the author put it relative to the call.
    /// </summary>
    [Fact]
    public async Task MovedBody_RequalifiedLinesKeepTheirPlaces()
    {
        var test = new Verify.Test
        {
            TestCode = /* lang=c#-test */ """
                using System.Threading;
                using System.Threading.Tasks;

                sealed class Writer
                {
                    private readonly int _size = 4;
                    private CancellationTokenSource? _cts;
                    private Task? _loop;

                    public void Reset()
                    {
                        _cts = new CancellationTokenSource();
                        _loop = Task.Run({|#0:async () =>
                        {
                            await LoopAsync(
                                _size,
                                _cts.Token)
                            .ConfigureAwait(false);
                        }|});
                    }

                    private static Task LoopAsync(int size, CancellationToken token) => Task.Delay(size, token);
                }
                """,
            FixedCode = /* lang=c#-test */ """
                using System.Threading;
                using System.Threading.Tasks;

                sealed class Writer
                {
                    private readonly int _size = 4;
                    private CancellationTokenSource? _cts;
                    private Task? _loop;

                    public void Reset()
                    {
                        _cts = new CancellationTokenSource();
                        _loop = Task.Factory.StartNew(
                            static async state =>
                            {
                                var self = (Writer)state!;
                                await LoopAsync(
                                    self._size,
                                    self._cts!.Token)
                                .ConfigureAwait(false);
                            },
                            this,
                            CancellationToken.None,
                            TaskCreationOptions.DenyChildAttach,
                            TaskScheduler.Default).Unwrap();
                    }

                    private static Task LoopAsync(int size, CancellationToken token) => Task.Delay(size, token);
                }
                """,
        };
        TurnOn(test);
        test.ExpectedDiagnostics.Add(Verify.Diagnostic().WithSeverity(DiagnosticSeverity.Info).WithLocation(0).WithArguments("'this'", "a delegate", "it"));
        await test.RunAsync();
    }

    [Fact]
    public async Task MultiTargetedCSharp73Project_GetsNoStaticAndNoBang()
    {
        const string Source = /* lang=c#-test */ """
            using System.Threading.Tasks;

            class C
            {
                Task<int> M(int x) => Task.Run([|() => x + 1|]);
            }
            """;
        var test = new Verify.Test
        {
            Target = TestTarget.NetStandard20,
            LanguageVersion = LanguageVersion.CSharp7_3,
            NullableContext = NullableContextOptions.Disable,
            TestCode = Source,
            FixedCode = /* lang=c#-test */ """
                using System.Threading;
                using System.Threading.Tasks;

                class C
                {
                    Task<int> M(int x) => Task.Factory.StartNew(
                        state =>
                        {
                            var myX = (int)state;
                            return myX + 1;
                        },
                        x,
                        CancellationToken.None,
                        TaskCreationOptions.DenyChildAttach,
                        TaskScheduler.Default);
                }
                """,
        };
        test.TestState.AnalyzerConfigFiles.Add(("/.editorconfig", On.Replace("suggestion", "warning", StringComparison.Ordinal)));
        test.FixedState.AnalyzerConfigFiles.Add(("/.editorconfig", On.Replace("suggestion", "warning", StringComparison.Ordinal)));
        test.LinkedTargets.Add(new LinkedTarget(TestTarget.NetStandard20, LanguageVersion.CSharp7_3, NullableContextOptions.Disable));
        await test.RunAsync();
    }

    /// <summary>
    /// A lambda that is not async but returns a task (or only throws, which binds Task.Run(Func&lt;Task&gt;)): Task.Run's
    /// own unwrap turns an OperationCanceledException thrown before the task exists into cancellation, where
    /// StartNew(…).Unwrap() faults (<see cref="ACalleeThrowingCancellation_EndsTheStartNewEquivalent"/>). No fix.
    /// </summary>
    [Fact]
    public async Task NonAsyncLambdaReturningATask_IsReportedWithoutFix()
    {
        const string Source = /* lang=c#-test */ """
            using System;
            using System.Threading.Tasks;

            class C
            {
                Task Block(int x) => Task.Run({|#0:() => { throw new InvalidOperationException(x.ToString()); }|});
                Task Expression(int x) => Task.Run({|#1:() => x > 0 ? Task.Delay(x) : Task.CompletedTask|});
            }
            """;
        var test = new Verify.Test { TestCode = Source, FixedCode = Source, FixedState = { MarkupHandling = MarkupMode.Allow } };
        TurnOn(test);
        test.ExpectedDiagnostics.Add(Verify.Diagnostic().WithSeverity(DiagnosticSeverity.Info).WithLocation(0).WithArguments("'x'", "a closure and a delegate", "it"));
        test.ExpectedDiagnostics.Add(Verify.Diagnostic().WithSeverity(DiagnosticSeverity.Info).WithLocation(1).WithArguments("'x'", "a closure and a delegate", "it"));
        await test.RunAsync();
    }

    /// <summary>
    /// A lambda that only returns a call of an <c>async</c> method on <c>this</c> (Garnet's log size tracker,
    /// <c>Task.Run(() =&gt; ResizerTask(cancellationToken))</c>) cannot throw before its task exists: the async method
    /// puts every exception in its task, which both unwraps report alike. Fixed; a plain callee keeps no fix.
    /// </summary>
    [Fact]
    public async Task ALambdaReturningAnAsyncCall_IsFixed()
    {
        const string Before = /* lang=c#-test */ """
            using System.Threading;
            using System.Threading.Tasks;

            class C
            {
                Task resizer = Task.CompletedTask;

                void Start(CancellationToken cancellationToken) => resizer = Task.Run({|#0:() => Resize(cancellationToken)|});
                Task Plain(CancellationToken token) => Task.Run({|#1:() => Check(token)|});

                async Task Resize(CancellationToken token) => await Task.Delay(1, token);
                static Task Check(CancellationToken token) { token.ThrowIfCancellationRequested(); return Task.CompletedTask; }
            }
            """;
        const string After = /* lang=c#-test */ """
            using System.Threading;
            using System.Threading.Tasks;

            class C
            {
                Task resizer = Task.CompletedTask;

                void Start(CancellationToken cancellationToken) => resizer = Task.Factory.StartNew(
                    static state => { var (self, cancellationToken) = ((C, CancellationToken))state!; return self.Resize(cancellationToken); },
                    (this, cancellationToken),
                    CancellationToken.None,
                    TaskCreationOptions.DenyChildAttach,
                    TaskScheduler.Default).Unwrap();
                Task Plain(CancellationToken token) => Task.Run({|#1:() => Check(token)|});

                async Task Resize(CancellationToken token) => await Task.Delay(1, token);
                static Task Check(CancellationToken token) { token.ThrowIfCancellationRequested(); return Task.CompletedTask; }
            }
            """;
        var test = new Verify.Test { TestCode = Before, FixedCode = After, FixedState = { MarkupHandling = MarkupMode.Allow } };
        TurnOn(test);
        test.ExpectedDiagnostics.Add(Verify.Diagnostic().WithSeverity(DiagnosticSeverity.Info).WithLocation(0).WithArguments("'this' and 'cancellationToken'", "a closure and a delegate", "them"));
        test.ExpectedDiagnostics.Add(Verify.Diagnostic().WithSeverity(DiagnosticSeverity.Info).WithLocation(1).WithArguments("'token'", "a closure and a delegate", "it"));
        test.FixedState.ExpectedDiagnostics.Add(Verify.Diagnostic().WithSeverity(DiagnosticSeverity.Info).WithLocation(1).WithArguments("'token'", "a closure and a delegate", "it"));
        await test.RunAsync();
    }

    /// <summary>
    /// Why a lambda that returns a task without being async gets no fix, and why one returning an async call does: a
    /// plain callee that throws OperationCanceledException ends Task.Run canceled and the StartNew equivalent faulted;
    /// an async callee puts it in its task, and both end canceled.
    /// </summary>
    [Theory]
    [InlineData("private static Task Work(int x) => x > 0 ? throw new OperationCanceledException() : Task.CompletedTask;", "returned Faulted")]
    [InlineData("private static async Task Work(int x) { await Task.Yield(); if (x > 0) throw new OperationCanceledException(); }", "returned Canceled")]
    public async Task ACalleeThrowingCancellation_EndsTheStartNewEquivalent(string work, string startNew)
    {
        var code = """
            using System;
            using System.Threading;
            using System.Threading.Tasks;

            public static class Ends
            {
                WORK

                public static string Run(int x) => Status(Task.Run(() => Work(x)));

                public static string StartNew(int x) =>
                    Status(Task.Factory.StartNew(static state => Work((int)state!), x, CancellationToken.None, TaskCreationOptions.DenyChildAttach, TaskScheduler.Default).Unwrap());

                private static string Status(Task task)
                {
                    try { task.Wait(); } catch (AggregateException) { }
                    return task.Status.ToString();
                }
            }
            """.Replace("WORK", work, StringComparison.Ordinal);
        Assert.Equal("returned Canceled", await CodeRunner.RunAsync(code, "Ends", "Run", 1));
        Assert.Equal(startNew, await CodeRunner.RunAsync(code, "Ends", "StartNew", 1));
    }

    /// <summary>The caveat docs/rules/TPL0007.md names: the task's AsyncState is the state (it was null).</summary>
    [Fact]
    public async Task Caveat_TheStateIsTheTasksAsyncState()
    {
        const string Code = """
            using System.Threading.Tasks;

            // Shows a documented caveat of a fix: not a gauntlet input (docs/rules name the difference).
            public static class States
            {
                public static Task Work(int x) => Task.Run(() => System.Console.Write(x));

                public static string StateOf() => Work(5).AsyncState?.ToString() ?? "null";
            }
            """;
        await FixedBehaviour.AssertAsync(Code, "TPL0007", "States", "StateOf", "returned null", "returned 5");
    }

    /// <summary>
    /// A lambda that runs a loop pays for its closure once for all the loop's passes: not reported, whether the user
    /// wrote it or TPL0005's fix did (an awaited Task.Run of a non-async lambda that is one loop, which a second dotnet
    /// format run must leave alone). A lambda without a loop beside them is reported.
    /// </summary>
    [Fact]
    public async Task LambdasThatRunALoop_AreLeftAlone()
    {
        var test = new Verify.Test
        {
            TestCode = /* lang=c#-test */ """
                using System;
                using System.Collections.Generic;
                using System.Threading.Tasks;

                class C
                {
                    async Task<int> Moved(int n) { var total = 0; await Task.Run(() => { for (var i = 0; i < n; i++) total += i; }); return total; }
                    async Task MovedConfigured(List<int> items, int n) => await Task.Run(() => { for (var i = 0; i < n; i++) items.Add(i); }).ConfigureAwait(false);
                    Task Fill(List<int> items, int n) => Task.Run(() => { for (var i = 0; i < n; i++) items.Add(i); });
                    Task Retry(int attempts, Func<Task> work) => Task.Run(async () => { for (var i = 0; i < attempts; i++) await work(); });
                    Task Drain(Queue<int> items) => Task.Run(() => { while (items.Count > 0) items.Dequeue(); });
                    Task Each(List<int> items, Action<int> use) => Task.Run(() => { foreach (var item in items) use(item); });
                    Task Once(List<int> items, int n) => Task.Run([|() => items.Add(n)|]);
                    Task Inner(List<int> items, int n) => Task.Run([|() => { Action fill = () => { for (var i = 0; i < n; i++) items.Add(i); }; fill(); }|]);
                }
                """,
        };
        TurnOn(test);
        test.FixedCode = /* lang=c#-test */ """
            using System;
            using System.Collections.Generic;
            using System.Threading;
            using System.Threading.Tasks;

            class C
            {
                async Task<int> Moved(int n) { var total = 0; await Task.Run(() => { for (var i = 0; i < n; i++) total += i; }); return total; }
                async Task MovedConfigured(List<int> items, int n) => await Task.Run(() => { for (var i = 0; i < n; i++) items.Add(i); }).ConfigureAwait(false);
                Task Fill(List<int> items, int n) => Task.Run(() => { for (var i = 0; i < n; i++) items.Add(i); });
                Task Retry(int attempts, Func<Task> work) => Task.Run(async () => { for (var i = 0; i < attempts; i++) await work(); });
                Task Drain(Queue<int> items) => Task.Run(() => { while (items.Count > 0) items.Dequeue(); });
                Task Each(List<int> items, Action<int> use) => Task.Run(() => { foreach (var item in items) use(item); });
                Task Once(List<int> items, int n) => Task.Factory.StartNew(
                    static state => { var (items, n) = ((List<int>, int))state!; items.Add(n); },
                    (items, n),
                    CancellationToken.None,
                    TaskCreationOptions.DenyChildAttach,
                    TaskScheduler.Default);
                Task Inner(List<int> items, int n) => Task.Factory.StartNew(
                    static state => { var (n, items) = ((int, List<int>))state!; Action fill = () => { for (var i = 0; i < n; i++) items.Add(i); }; fill(); },
                    (n, items),
                    CancellationToken.None,
                    TaskCreationOptions.DenyChildAttach,
                    TaskScheduler.Default);
            }
            """;
        await test.RunAsync();
    }

    /// <summary>
    /// In a file whose usings are not sorted and end with an alias, the using the fix needs goes after the last plain
    /// using, not after the alias, where StyleCop's SA1209 would object (Discord.Net's event handling got
    /// <c>using System.Threading;</c> below <c>using GameModel = …;</c>); the blank line before the alias stays.
    /// </summary>
    [Fact]
    public async Task AnAddedUsing_GoesBeforeTheAliases_OfAnUnsortedList()
    {
        var test = new Verify.Test
        {
            TestCode = /* lang=c#-test */ """
                using System.Threading.Tasks;
                using System;

                using Numbers = System.Collections.Generic.List<int>;

                class C
                {
                    Task Once(Numbers items, int n) => Task.Run([|() => items.Add(n)|]);
                }
                """,
        };
        TurnOn(test);
        test.FixedCode = /* lang=c#-test */ """
            using System.Threading.Tasks;
            using System;
            using System.Threading;

            using Numbers = System.Collections.Generic.List<int>;

            class C
            {
                Task Once(Numbers items, int n) => Task.Factory.StartNew(
                    static state =>
                    {
                        var (items, n) = ((Numbers, int))state!;
                        items.Add(n);
                    },
                    (items, n),
                    CancellationToken.None,
                    TaskCreationOptions.DenyChildAttach,
                    TaskScheduler.Default);
            }
            """;
        await test.RunAsync();
    }

    /// <summary>
    /// A global using alias of another file names Task: the simplifier would write it into a file that never mentions
    /// it (T4TaskAlias.Factory.StartNew); the shared layer writes the type's own name instead.
    /// </summary>
    [Fact]
    public async Task AliasOfAnotherFile_IsNotWrittenIntoThisOne()
    {
        var test = new Verify.Test
        {
            TestState =
            {
                Sources =
                {
                    /* lang=c#-test */ """
                    using System;
                    using System.Threading.Tasks;

                    class C
                    {
                        Task Show(int x) => Task.Run([|() => Console.WriteLine(x)|]);
                    }
                    """,
                    ("Aliases.cs", "global using T4TaskAlias = System.Threading.Tasks.Task;\n"),
                },
            },
            FixedState =
            {
                Sources =
                {
                    /* lang=c#-test */ """
                    using System;
                    using System.Threading;
                    using System.Threading.Tasks;

                    class C
                    {
                        Task Show(int x) => Task.Factory.StartNew(
                            static state =>
                            {
                                var x = (int)state!;
                                Console.WriteLine(x);
                            },
                            x,
                            CancellationToken.None,
                            TaskCreationOptions.DenyChildAttach,
                            TaskScheduler.Default);
                    }
                    """,
                    ("Aliases.cs", "global using T4TaskAlias = System.Threading.Tasks.Task;\n"),
                },
            },
        };
        TurnOn(test);
        await test.RunAsync();
    }

    /// <summary>
    /// A variable from outside the lambda or local function the call runs in already sits in a closure that function
    /// holds, made when the variable's scope began: each Task.Run adds only its delegate (a hedging callback's shape,
    /// where a returned lambda runs a Task.Run over its generator's argument). A local of that function is made anew
    /// with each of its calls, closure and all.
    /// </summary>
    [Fact]
    public async Task CapturesFromOutsideTheFunctionAround_CostOnlyTheDelegate()
    {
        var test = new Verify.Test
        {
            TestCode = /* lang=c#-test */ """
                using System;
                using System.Threading.Tasks;

                readonly struct Job
                {
                    public Job(int id) { Id = id; }
                    public int Id { get; }
                }

                class Runner
                {
                    static Func<Task> Later(Job job) => () => Task.Run({|#0:() => Console.WriteLine(job.Id)|});

                    static readonly Func<Job, Func<Task>> Make = job => () =>
                    {
                        return job.Id > 0 ? Task.Run({|#3:() => Console.WriteLine(job.Id)|}) : Task.CompletedTask;
                    };

                    static Task Each(int[] ids)
                    {
                        var last = Task.CompletedTask;
                        foreach (var _ in ids)
                        {
                            last = Start();
                        }

                        return last;

                        Task Start() => Task.Run({|#1:() => Console.WriteLine(ids.Length)|});
                    }

                    static Func<Task> Fresh(int seed) => () =>
                    {
                        var next = seed + 1;
                        return Task.Run({|#2:() => Console.WriteLine(next)|});
                    };
                }
                """,
            ExpectedDiagnostics =
            {
                Verify.Diagnostic().WithSeverity(DiagnosticSeverity.Info).WithLocation(0).WithArguments("'job'", "a delegate", "it"),
                Verify.Diagnostic().WithSeverity(DiagnosticSeverity.Info).WithLocation(1).WithArguments("'ids'", "a delegate", "it"),
                Verify.Diagnostic().WithSeverity(DiagnosticSeverity.Info).WithLocation(2).WithArguments("'next'", "a closure and a delegate", "it"),
                Verify.Diagnostic().WithSeverity(DiagnosticSeverity.Info).WithLocation(3).WithArguments("'job'", "a delegate", "it"),
            },
        };
        test.TestState.AnalyzerConfigFiles.Add(("/.editorconfig", On));
        await test.RunAsync();
    }

    [Fact]
    public async Task NotCapturing_OrMustShare_IsNotReported()
    {
        var test = new Verify.Test
        {
            TestCode = /* lang=c#-test */ """
                using System;
                using System.Threading.Tasks;

                class C
                {
                    Task A() => Task.Run(() => Console.WriteLine("none"));
                    Task B() => Task.Run(static () => Console.WriteLine("static"));
                    Task C2(Action work) => Task.Run(work);
                    Task D() { var n = 0; var t = Task.Run(() => Console.WriteLine(n)); n++; return t; }
                }
                """,
        };
        test.TestState.AnalyzerConfigFiles.Add(("/.editorconfig", On));
        await test.RunAsync();
    }

    /// <summary>
    /// A Task.Run awaited in a loop belongs to TPL0005, whose fix moves the loop into one Task.Run (see the rule page):
    /// reported here only while TPL0005 is off. Task.Run&lt;T&gt; keeps the type argument as written (string?, not an
    /// inferred annotation that draws CS8620).
    /// </summary>
    [Theory]
    [InlineData("", false)]
    [InlineData("dotnet_diagnostic.TPL0005.severity = none\n", true)]
    public async Task AwaitedInALoop_IsLeftToTPL0005_WhileItIsOn(string config, bool reported)
    {
        var lambda = reported ? "{|#0:() => Square(i)|}" : "() => Square(i)";
        var test = new Verify.Test
        {
            TestCode = $$"""
                using System.Threading.Tasks;

                class C
                {
                    static int Square(int i) => i * i;

                    async Task<int> Sum(int n)
                    {
                        var total = 0;
                        for (var i = 0; i < n; i++)
                        {
                            var k = i;
                            total += await Task.Run({{lambda.Replace("(i)", "(k)", StringComparison.Ordinal)}});
                        }

                        return total;
                    }
                }
                """,
        };
        if (reported)
        {
            test.ExpectedDiagnostics.Add(Verify.Diagnostic().WithSeverity(DiagnosticSeverity.Info).WithLocation(0).WithArguments("'k'", "a closure and a delegate", "it"));
        }

        test.TestState.AnalyzerConfigFiles.Add(("/.editorconfig", On + config));
        await test.RunAsync();
    }

    [Fact]
    public async Task TypedRun_KeepsTheTypeArgumentAsWritten()
    {
        var test = new Verify.Test
        {
            TestCode = /* lang=c#-test */ """
                using System.Threading.Tasks;

                class C
                {
                    Task<string?> M(string? s) => Task.Run<string?>({|#0:() => s ?? "none"|});
                }
                """,
            FixedCode = /* lang=c#-test */ """
                using System.Threading;
                using System.Threading.Tasks;

                class C
                {
                    Task<string?> M(string? s) => Task.Factory.StartNew<string?>(
                        static state =>
                        {
                            var s = (string?)state!;
                            return s ?? "none";
                        },
                        s,
                        CancellationToken.None,
                        TaskCreationOptions.DenyChildAttach,
                        TaskScheduler.Default);
                }
                """,
            CompilerDiagnostics = CompilerDiagnostics.Warnings,
        };
        TurnOn(test);
        test.ExpectedDiagnostics.Add(Verify.Diagnostic().WithSeverity(DiagnosticSeverity.Info).WithLocation(0).WithArguments("'s'", "a closure and a delegate", "it"));
        await test.RunAsync();
    }
}
