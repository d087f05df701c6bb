using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp;
using Microsoft.CodeAnalysis.Testing;
using TplPractices.Analyzers.Tests.Verifiers;
using Verify = TplPractices.Analyzers.Tests.Verifiers.CSharpCodeFixVerifier<
    TplPractices.Analyzers.Rules.CallbackStateAnalyzer,
    TplPractices.Analyzers.CodeFixes.Rules.CallbackStateFixer>;

namespace TplPractices.Analyzers.Tests.Rules;

/// <summary>TPL0006: the rewrites, per API and target, and that the rewritten code behaves like the original.</summary>
public sealed class CallbackStateFixTests
{
    [Fact]
    public async Task EachApi_GetsItsStateForm()
    {
        var test = new Verify.Test { TestCode = CallbackStateCases.Before, FixedCode = CallbackStateCases.After };
        test.ExpectedDiagnostics.Add(Verify.Diagnostic().WithLocation(0).WithMessage("The callback captures 'seen' and 'value', so each call allocates a closure and a delegate; pass them as its state"));
        test.ExpectedDiagnostics.Add(Verify.Diagnostic().WithLocation(1).WithArguments("'done', 'text' and 'value'", "a closure and a delegate", "them"));
        test.ExpectedDiagnostics.Add(Verify.Diagnostic().WithLocation(2).WithArguments("'done' and 'text'", "a closure and a delegate", "them"));
        test.ExpectedDiagnostics.Add(Verify.Diagnostic().WithLocation(3).WithArguments("'done' and 'value'", "a closure and a delegate", "them"));
        await test.RunAsync();
    }

    [Theory]
    [InlineData("Register", new object[] { 7 })]
    [InlineData("Queue", new object[] { 3, "x" })]
    [InlineData("Timer", new object[] { "tick" })]
    [InlineData("QueueWithNullState", new object[] { 9 })]
    public async Task FixedCode_ReturnsWhatTheOriginalReturned(string method, object[] arguments)
    {
        var original = await CodeRunner.RunAsync(TestMarkup.Strip(CallbackStateCases.Before), "Api", method, arguments);
        var rewritten = await CodeRunner.RunAsync(CallbackStateCases.After, "Api", method, arguments);
        Assert.Equal(original, rewritten);
        Assert.StartsWith("returned", original, StringComparison.Ordinal);
    }

    /// <summary>
    /// Where the call already passes a null state, the values fill it in its place: named arguments, in any order, keep
    /// their names. Where the state would be inserted after the lambda, a named argument is still reported without a
    /// fix (ShapesWithoutAFix_AreReportedWithout).
    /// </summary>
    [Fact]
    public async Task NamedArguments_KeepTheirNames_WhereTheStateArgumentIsFilled()
    {
        await new Verify.Test
        {
            TestCode = /* lang=c#-test */ """
                using System;
                using System.Threading;

                class C
                {
                    Timer Start(string name) => new Timer(callback: [|_ => Console.WriteLine(name)|], state: null, dueTime: 10, period: Timeout.Infinite);
                    Timer Reordered(string name) => new Timer(state: null, period: Timeout.Infinite, callback: [|_ => Console.WriteLine(name)|], dueTime: 10);
                    bool Queue(string name) => ThreadPool.QueueUserWorkItem(state: null, callBack: [|_ => Console.WriteLine(name)|]);
                }
                """,
            FixedCode = /* lang=c#-test */ """
                using System;
                using System.Threading;

                class C
                {
                    Timer Start(string name) => new Timer(
                        callback: static state =>
                        {
                            var name = (string)state!;
                            Console.WriteLine(name);
                        },
                        state: name,
                        dueTime: 10,
                        period: Timeout.Infinite);
                    Timer Reordered(string name) => new Timer(state: name, period: Timeout.Infinite, callback: static state =>
                    {
                        var name = (string)state!;
                        Console.WriteLine(name);
                    }, dueTime: 10);
                    bool Queue(string name) => ThreadPool.QueueUserWorkItem(state: name, callBack: static state =>
                    {
                        var name = (string)state!;
                        Console.WriteLine(name);
                    });
                }
                """,
        }.RunAsync();
    }

    /// <summary>
    /// Named arguments after an unnamed lambda stay as written, with the values inserted right after the lambda: the
    /// state overload keeps their names (<c>useSynchronizationContext</c>), and positional-then-named compiles in every
    /// C# version. A named lambda still has no fix (ShapesWithoutAFix_AreReportedWithout).
    /// </summary>
    [Fact]
    public async Task NamedArgumentsAfterTheLambda_StayNamed_TheValuesGoRightAfterIt()
    {
        await new Verify.Test
        {
            TestCode = /* lang=c#-test */ """
                using System.Threading;
                using System.Threading.Tasks;

                class C
                {
                    CancellationTokenRegistration Link(TaskCompletionSource<int> source, CancellationToken token) =>
                        token.Register([|() => source.TrySetCanceled(token)|], useSynchronizationContext: false);
                }
                """,
            FixedCode = /* lang=c#-test */ """
                using System.Threading;
                using System.Threading.Tasks;

                class C
                {
                    CancellationTokenRegistration Link(TaskCompletionSource<int> source, CancellationToken token) =>
                        token.Register(
                            static state =>
                            {
                                var (source, token) = ((TaskCompletionSource<int>, CancellationToken))state!;
                                source.TrySetCanceled(token);
                            },
                            (source, token),
                            useSynchronizationContext: false);
                }
                """,
        }.RunAsync();
    }

    private const string QueueOne = /* lang=c#-test */ """
        using System;
        using System.Threading;

        class C
        {
            bool M(int x) => ThreadPool.QueueUserWorkItem([|_ => Console.WriteLine(x)|]);
        }
        """;

    /// <summary>netstandard2.0 has no QueueUserWorkItem&lt;TState&gt;: the object overload, which every target has.</summary>
    [Theory]
    [InlineData(TestTarget.NetStandard20)]
    [InlineData(TestTarget.Net472)]
    public async Task QueueUserWorkItem_OnOlderTargets_UsesTheObjectOverload(TestTarget target)
    {
        await new Verify.Test
        {
            Target = target,
            TestCode = QueueOne,
            FixedCode = QueueOne.Replace("[|_ => Console.WriteLine(x)|]", "static state =>\n    {\n        var x = (int)state!;\n        Console.WriteLine(x);\n    }, x", StringComparison.Ordinal),
        }.RunAsync();
    }

    [Fact]
    public async Task QueueUserWorkItem_OnNet100_UsesTheTypedOverload()
    {
        await Verify.VerifyCodeFixAsync(
            QueueOne,
            QueueOne.Replace("[|_ => Console.WriteLine(x)|]", "static x => Console.WriteLine(x), x, preferLocal: false", StringComparison.Ordinal));
    }

    /// <summary>net10.0 would take the typed overload, netstandard2.0 cannot: the shared file gets the object one.</summary>
    [Fact]
    public async Task MultiTargetedProject_GetsTheFormEveryTargetCompiles()
    {
        var test = new Verify.Test
        {
            TestCode = QueueOne,
            FixedCode = QueueOne.Replace("[|_ => Console.WriteLine(x)|]", "static state =>\n    {\n        var x = (int)state!;\n        Console.WriteLine(x);\n    }, x", StringComparison.Ordinal),
        };
        test.LinkedTargets.Add(TestTarget.NetStandard20);
        await test.RunAsync();
    }

    /// <summary>
    /// Method groups in a file netstandard2.0 (C# 7.3) and net10.0 share: fixed in the form both copies compile (no
    /// 'static', no '!'), on 'this' and on a readonly field only its initializer sets.
    /// </summary>
    [Fact]
    public async Task MultiTargetedProject_FixesMethodGroupsInTheOldestLanguageVersion()
    {
        const string code = /* lang=c#-test */ """
            using System.Threading;

            class Watcher
            {
                private readonly CancellationTokenSource _stopping = new CancellationTokenSource();

                CancellationTokenRegistration Own(CancellationToken token) => token.Register([|Stop|]);
                CancellationTokenRegistration Linked(CancellationToken token) => token.Register([|_stopping.Cancel|]);

                void Stop() { }
            }
            """;
        await new Verify.Test
        {
            NullableContext = NullableContextOptions.Disable,
            TestCode = code,
            FixedCode = code
                .Replace("[|Stop|]", "state => ((Watcher)state).Stop(), this", StringComparison.Ordinal)
                .Replace("[|_stopping.Cancel|]", "state => ((CancellationTokenSource)state).Cancel(), _stopping", StringComparison.Ordinal),
            LinkedTargets = { new LinkedTarget(TestTarget.NetStandard20, LanguageVersion.CSharp7_3, NullableContextOptions.Disable) },
        }.RunAsync();
    }

    /// <summary>netstandard2.0 at its default C# 7.3: no static lambda, no '!', read-back locals renamed.</summary>
    [Fact]
    public async Task CSharp73_WritesWhatItAccepts()
    {
        await new Verify.Test
        {
            Target = TestTarget.NetStandard20,
            LanguageVersion = LanguageVersion.CSharp7_3,
            NullableContext = NullableContextOptions.Disable,
            TestCode = /* lang=c#-test */ """
                using System;
                using System.Threading;

                class C
                {
                    CancellationTokenRegistration M(CancellationToken token, string name) => token.Register([|() => Console.WriteLine(name)|]);
                }
                """,
            FixedCode = /* lang=c#-test */ """
                using System;
                using System.Threading;

                class C
                {
                    CancellationTokenRegistration M(CancellationToken token, string name) => token.Register(state =>
                    {
                        var myName = (string)state;
                        Console.WriteLine(myName);
                    }, name);
                }
                """,
        }.RunAsync();
    }

    /// <summary>
    /// The lambda written for a method group is spaced as the file's settings say, as a rewritten lambda is: a project
    /// with <c>csharp_space_after_cast = true</c> (Quartz.NET's) gets <c>((C) state!)</c>, not <c>((C)state!)</c>.
    /// </summary>
    [Fact]
    public async Task MethodGroupLambda_FollowsTheFilesSpacingSettings()
    {
        var test = new Verify.Test
        {
            TestCode = /* lang=c#-test */ """
                using System.Threading;

                class C
                {
                    CancellationTokenRegistration Own(CancellationToken token) => token.Register([|Stop|]);
                    CancellationTokenRegistration Lambda(CancellationToken token, int n) => token.Register([|() => Show(n)|]);

                    void Stop() { }
                    static void Show(int n) { }
                }
                """,
            FixedCode = /* lang=c#-test */ """
                using System.Threading;

                class C
                {
                    CancellationTokenRegistration Own(CancellationToken token) => token.Register(static state => ((C) state!).Stop(), this);
                    CancellationTokenRegistration Lambda(CancellationToken token, int n) => token.Register(static state =>
                    {
                        var n = (int) state!;
                        Show(n);
                    }, n);

                    void Stop() { }
                    static void Show(int n) { }
                }
                """,
        };
        test.TestState.AnalyzerConfigFiles.Add(("/.editorconfig", "root = true\n[*.cs]\ncsharp_space_after_cast = true\n"));
        await test.RunAsync();
    }

    /// <summary>
    /// A local function registered as the callback has no receiver a state could carry (its group's 'this' is implicit,
    /// there even where it captures nothing): not reported, as a lambda that calls one is not followed either.
    /// </summary>
    [Fact]
    public async Task LocalFunctionGroups_AreNotReported()
    {
        const string Source = /* lang=c#-test */ """
            using System;
            using System.Threading;

            class C
            {
                private int _stops;

                CancellationTokenRegistration CapturesNothing(CancellationToken token)
                {
                    return token.Register(Stop);
                    void Stop() => Console.WriteLine("stop");
                }

                CancellationTokenRegistration CapturesThis(CancellationToken token)
                {
                    return token.Register(Stop);
                    void Stop() => _stops++;
                }
            }
            """;
        await Verify.VerifyCodeFixAsync(Source, Source);
    }

    /// <summary>
    /// An instance method group allocates a delegate bound to its receiver on every call. Where the receiver cannot be
    /// null ('this', a local made with new that nothing writes again, a readonly field of a class only its initializer
    /// sets with new), it becomes the state form exactly, the receiver passed as the state. Any other receiver may be
    /// null, and a null receiver throws at the call where the state form would throw in the callback: reported
    /// without a fix.
    /// </summary>
    [Fact]
    public async Task MethodGroups_AreReported_AndThoseWhoseReceiverCannotBeNullFixed()
    {
        const string code = /* lang=c#-test */ """
                using System;
                using System.Threading;

                class C
                {
                    private readonly CancellationTokenSource _cts = new CancellationTokenSource();
                    private readonly CancellationTokenSource _given;
                    private readonly CancellationTokenSource _made = Make();
                    private CancellationTokenSource _writable = new();

                    C(CancellationTokenSource given) { _given = given; }

                    CancellationTokenRegistration Linked(CancellationToken token) => token.Register({|#0:_cts.Cancel|});
                    CancellationTokenRegistration Own(CancellationToken token) => token.Register({|#1:Stop|});
                    CancellationTokenRegistration OwnSync(CancellationToken token) => token.Register({|#2:this.Stop|}, true);
                    CancellationTokenRegistration Static(CancellationToken token) => token.Register(Reset);
                    CancellationTokenRegistration Lambda(CancellationToken token) => token.Register(static () => Reset());

                    void Local(CancellationToken token)
                    {
                        using var source = new CancellationTokenSource();
                        using var registration = token.Register({|#3:source.Cancel|});
                    }

                    CancellationTokenRegistration Given(CancellationToken token) => token.Register({|#4:_given.Cancel|});
                    CancellationTokenRegistration Made(CancellationToken token) => token.Register({|#5:_made.Cancel|});
                    CancellationTokenRegistration Writable(CancellationToken token) => token.Register({|#6:_writable.Cancel|});
                    CancellationTokenRegistration Parameter(CancellationToken token, CancellationTokenSource other) => token.Register({|#7:other.Cancel|});
                    CancellationTokenRegistration Another(CancellationToken token, C other) => token.Register({|#8:other._cts.Cancel|});

                    CancellationTokenRegistration Rewritten(CancellationToken token)
                    {
                        var source = new CancellationTokenSource();
                        source = Make();
                        return token.Register({|#9:source.Cancel|});
                    }

                    void Stop() { }
                    static void Reset() { }
                    static CancellationTokenSource Make() => new CancellationTokenSource();
                }

                struct S
                {
                    // default(S) skips the initializer: the field may be null.
                    private readonly CancellationTokenSource _cts = new CancellationTokenSource();

                    public S() { }

                    CancellationTokenRegistration Linked(CancellationToken token) => token.Register({|#10:_cts.Cancel|});
                }
                """;
        var test = new Verify.Test
        {
            TestCode = code,
            FixedCode = code
                .Replace("{|#0:_cts.Cancel|}", "static state => ((CancellationTokenSource)state!).Cancel(), _cts", StringComparison.Ordinal)
                .Replace("{|#1:Stop|}", "static state => ((C)state!).Stop(), this", StringComparison.Ordinal)
                .Replace("{|#2:this.Stop|}", "static state => ((C)state!).Stop(), this", StringComparison.Ordinal)
                .Replace("{|#3:source.Cancel|}", "static state => ((CancellationTokenSource)state!).Cancel(), source", StringComparison.Ordinal),
        };
        test.ExpectedDiagnostics.Add(Verify.Diagnostic().WithLocation(0).WithMessage("The callback captures '_cts', so each call allocates a delegate; pass it as its state"));
        test.ExpectedDiagnostics.Add(Verify.Diagnostic().WithLocation(1).WithArguments("'this'", "a delegate", "it"));
        test.ExpectedDiagnostics.Add(Verify.Diagnostic().WithLocation(2).WithArguments("'this'", "a delegate", "it"));
        test.ExpectedDiagnostics.Add(Verify.Diagnostic().WithLocation(3).WithArguments("'source'", "a delegate", "it"));
        var unfixed = new[] { (4, "'_given'"), (5, "'_made'"), (6, "'_writable'"), (7, "'other'"), (8, "'other._cts'"), (9, "'source'"), (10, "'_cts'") };
        foreach (var (location, receiver) in unfixed)
        {
            test.ExpectedDiagnostics.Add(Verify.Diagnostic().WithLocation(location).WithArguments(receiver, "a delegate", "it"));
            test.FixedState.ExpectedDiagnostics.Add(Verify.Diagnostic().WithLocation(location).WithArguments(receiver, "a delegate", "it"));
        }

        await test.RunAsync();
    }

    private const string GroupsOnReceiversThatCannotBeNull = /* lang=c#-test */ """
        using System.Threading;

        public class Api
        {
            private readonly CancellationTokenSource _own = new CancellationTokenSource();

            /// <summary>Cancels the caller's token source: both registered sources must follow it.</summary>
            public static string Follow(int unused)
            {
                var api = new Api();
                using (var caller = new CancellationTokenSource())
                {
                    var linked = new CancellationTokenSource();
                    using (caller.Token.Register([|linked.Cancel|]))
                    using (caller.Token.Register([|api._own.Cancel|]))
                    using (api.Watch(caller.Token))
                    {
                        caller.Cancel();
                        return linked.IsCancellationRequested + "," + api._own.IsCancellationRequested;
                    }
                }
            }

            private CancellationTokenRegistration Watch(CancellationToken token) => token.Register([|_own.Cancel|]);
        }
        """;

    /// <summary>
    /// A method group on a local made with new or on a readonly field only its initializer sets: the fixed code
    /// compiles and cancels the same sources as the original when the caller's token is cancelled. Another object's
    /// field (api._own) may be null: no fix.
    /// </summary>
    [Fact]
    public async Task MethodGroupsOnReceiversThatCannotBeNull_CancelTheSameSources()
    {
        var fixedCode = GroupsOnReceiversThatCannotBeNull
            .Replace("[|linked.Cancel|]", "static state => ((CancellationTokenSource)state!).Cancel(), linked", StringComparison.Ordinal)
            .Replace("[|api._own.Cancel|]", "{|#0:api._own.Cancel|}", StringComparison.Ordinal)
            .Replace("[|_own.Cancel|]", "static state => ((CancellationTokenSource)state!).Cancel(), _own", StringComparison.Ordinal);
        var test = new Verify.Test
        {
            TestCode = GroupsOnReceiversThatCannotBeNull,
            FixedCode = fixedCode,
        };
        test.FixedState.ExpectedDiagnostics.Add(Verify.Diagnostic().WithLocation(0).WithArguments("'api._own'", "a delegate", "it"));
        await test.RunAsync();

        var original = await CodeRunner.RunAsync(TestMarkup.Strip(GroupsOnReceiversThatCannotBeNull), "Api", "Follow", 0);
        Assert.Equal("returned True,True", original);
        Assert.Equal(original, await CodeRunner.RunAsync(TestMarkup.Strip(fixedCode), "Api", "Follow", 0));
    }

    [Fact]
    public async Task ThisAndOtherArguments_AreKept()
    {
        await Verify.VerifyCodeFixAsync(
            /* lang=c#-test */ """
            using System;
            using System.Threading;

            class C
            {
                int _count;

                CancellationTokenRegistration Sync(CancellationToken token) => token.Register([|() => _count++|], true);
                void Post(SynchronizationContext context, int x) => context.Post([|_ => Console.WriteLine(x + _count)|], null);
                RegisteredWaitHandle Wait(WaitHandle handle, int x) =>
                    ThreadPool.RegisterWaitForSingleObject(handle, [|(_, timedOut) => Console.WriteLine(timedOut ? x : 0)|], null, 100, true);
            }
            """,
            /* lang=c#-test */ """
            using System;
            using System.Threading;

            class C
            {
                int _count;

                CancellationTokenRegistration Sync(CancellationToken token) => token.Register(
                    static state =>
                    {
                        var self = (C)state!;
                        self._count++;
                    },
                    this,
                    true);
                void Post(SynchronizationContext context, int x) => context.Post(static state =>
                {
                    var (x, self) = ((int, C))state!;
                    Console.WriteLine(x + self._count);
                }, (x, this));
                RegisteredWaitHandle Wait(WaitHandle handle, int x) =>
                    ThreadPool.RegisterWaitForSingleObject(
                        handle,
                        static (state, timedOut) =>
                        {
                            var x = (int)state!;
                            Console.WriteLine(timedOut ? x : 0);
                        },
                        x,
                        100,
                        true);
            }
            """);
    }

    [Fact]
    public async Task FixAll_FixesEverySiteAndNestedLambdas()
    {
        await Verify.VerifyCodeFixAsync(
            /* lang=c#-test */ """
            using System;
            using System.Threading;

            class C
            {
                Action<int> Nested(CancellationToken token) => x => token.Register([|() => Console.WriteLine(x)|]);
                void Twice(CancellationToken token, int a, int b)
                {
                    token.Register([|() => Console.WriteLine(a)|]);
                    token.Register([|() => Console.WriteLine(b)|]);
                }
            }
            """,
            /* lang=c#-test */ """
            using System;
            using System.Threading;

            class C
            {
                Action<int> Nested(CancellationToken token) => x => token.Register(static state =>
                {
                    var x = (int)state!;
                    Console.WriteLine(x);
                }, x);
                void Twice(CancellationToken token, int a, int b)
                {
                    token.Register(static state =>
                    {
                        var a = (int)state!;
                        Console.WriteLine(a);
                    }, a);
                    token.Register(static state =>
                    {
                        var b = (int)state!;
                        Console.WriteLine(b);
                    }, b);
                }
            }
            """);
    }

    /// <summary>
    /// A source just made and then completed by a registration: the compiler knows the nullable field non-null inside the
    /// callback, and the fix says so with <c>!</c> (it was withheld, the read through the state warning CS8602), also in
    /// a file a netstandard2.0 copy shares (a library that builds every target with nullable warnings).
    /// </summary>
    [Fact]
    public async Task NullableFieldKnownNonNull_IsReadWithBang_AlsoBesideANetStandardCopy()
    {
        const string Source = /* lang=c#-test */ """
            using System.Threading;
            using System.Threading.Tasks;

            sealed class Waiter
            {
                private TaskCompletionSource<bool>? _source;

                public Task<bool> WaitAsync(CancellationToken token)
                {
                    _source = new TaskCompletionSource<bool>();
                    token.Register([|() => _source.TrySetCanceled()|]);
                    return _source.Task;
                }
            }
            """;
        foreach (var linked in new[] { false, true })
        {
            var test = new Verify.Test
            {
                TestCode = Source,
                FixedCode = NullableFieldFixed,
            };
            if (linked)
            {
                test.LinkedTargets.Add(TestTarget.NetStandard20);
            }

            await test.RunAsync();
        }
    }

    private const string NullableFieldFixed = /* lang=c#-test */ """
            using System.Threading;
            using System.Threading.Tasks;

            sealed class Waiter
            {
                private TaskCompletionSource<bool>? _source;

                public Task<bool> WaitAsync(CancellationToken token)
                {
                    _source = new TaskCompletionSource<bool>();
                    token.Register(static state =>
                    {
                        var self = (Waiter)state!;
                        self._source!.TrySetCanceled();
                    }, this);
                    return _source.Task;
                }
            }
            """;

    /// <summary>
    /// A project without nullable (C# 12, the default for code older than the feature) gets no warning to forgive, so
    /// the state is read back without <c>!</c>, in a lambda and a method group alike (found on an application
    /// without nullable, whose registrations all got <c>(T)state!</c>); a <c>#nullable enable</c> region in it, and a
    /// project whose other target warns, still get it.
    /// </summary>
    [Fact]
    public async Task StateIsReadWithBang_OnlyWhereNullableWarnings()
    {
        const string Code = /* lang=c#-test */ """
            using System;
            using System.Threading;

            class Watcher
            {
                CancellationTokenRegistration Lambda(CancellationToken token, string name) => token.Register([|() => Console.WriteLine(name)|]);
                CancellationTokenRegistration Group(CancellationToken token) => token.Register([|Stop|]);
            #nullable enable
                CancellationTokenRegistration Enabled(CancellationToken token, string name) => token.Register([|() => Console.WriteLine(name)|]);
            #nullable restore

                void Stop() { }
            }
            """;
        const string Fixed = /* lang=c#-test */ """
            using System;
            using System.Threading;

            class Watcher
            {
                CancellationTokenRegistration Lambda(CancellationToken token, string name) => token.Register(static state =>
                {
                    var name = (string)state;
                    Console.WriteLine(name);
                }, name);
                CancellationTokenRegistration Group(CancellationToken token) => token.Register(static state => ((Watcher)state).Stop(), this);
            #nullable enable
                CancellationTokenRegistration Enabled(CancellationToken token, string name) => token.Register(static state =>
                {
                    var name = (string)state!;
                    Console.WriteLine(name);
                }, name);
            #nullable restore

                void Stop() { }
            }
            """;
        await new Verify.Test { NullableContext = NullableContextOptions.Disable, TestCode = Code, FixedCode = Fixed }.RunAsync();

        // The same file compiled a second time with nullable warnings on: every read back takes '!'.
        await new Verify.Test
        {
            NullableContext = NullableContextOptions.Disable,
            TestCode = Code,
            FixedCode = Fixed.Replace("(string)state;", "(string)state!;", StringComparison.Ordinal).Replace("((Watcher)state)", "((Watcher)state!)", StringComparison.Ordinal),
            LinkedTargets = { new LinkedTarget(TestTarget.Net80, LanguageVersion.CSharp12, NullableContextOptions.Enable) },
        }.RunAsync();
    }

    [Fact]
    public async Task TopLevelStatements_AreFixed()
    {
        await new Verify.Test
        {
            TestState = { OutputKind = OutputKind.ConsoleApplication },
            TestCode = /* lang=c#-test */ """
                using System;
                using System.Threading;

                var name = args.Length > 0 ? args[0] : "none";
                ThreadPool.QueueUserWorkItem([|_ => Console.WriteLine(name)|]);
                """,
            FixedCode = /* lang=c#-test */ """
                using System;
                using System.Threading;

                var name = args.Length > 0 ? args[0] : "none";
                ThreadPool.QueueUserWorkItem(static name => Console.WriteLine(name), name, preferLocal: false);
                """,
        }.RunAsync();
    }
}
