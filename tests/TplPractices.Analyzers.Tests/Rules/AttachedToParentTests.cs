using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp;
using Microsoft.CodeAnalysis.Testing;
using TplPractices.Analyzers.Rules;
using TplPractices.Analyzers.Tests.Verifiers;
using Verify = TplPractices.Analyzers.Tests.Verifiers.CSharpCodeFixVerifier<
    TplPractices.Analyzers.Rules.AttachedToParentAnalyzer,
    TplPractices.Analyzers.CodeFixes.Rules.AttachedToParentFixer>;

namespace TplPractices.Analyzers.Tests.Rules;

/// <summary>TPL0009: AttachedToParent passed to a TPL API; a fix only where the flag does nothing.</summary>
public sealed class AttachedToParentTests
{
    private const string Usings = """
        using System;
        using System.Threading;
        using System.Threading.Tasks;

        """;

    private static string Class(string members) => Usings + "class C\n{\n" + members + "\n}\n";

    private const string Attaching = "makes the running task wait for this one and inflates both; await the task instead";
    private const string NoOp = "does nothing here: the task that runs this code denies child attachment; remove it";

    [Fact]
    public async Task EveryApi_IsReported_WithoutAFixOutsideADenyingTask()
    {
        var code = Class("""
                Task A() => Task.Factory.StartNew(() => { }, {|#0:TaskCreationOptions.AttachedToParent|});
                Task B(Task t) => t.ContinueWith(_ => { }, TaskContinuationOptions.ExecuteSynchronously | {|#1:TaskContinuationOptions.AttachedToParent|});
                Task D() => new Task(() => { }, {|#2:TaskCreationOptions.AttachedToParent|});
                TaskFactory E() => new TaskFactory({|#3:TaskCreationOptions.AttachedToParent|}, TaskContinuationOptions.None);
                TaskCompletionSource<int> F() => new TaskCompletionSource<int>({|#4:TaskCreationOptions.AttachedToParent|});
                Task<int> G(Task<int> t) => t.ContinueWith(x => x.Result, CancellationToken.None, {|#5:TaskContinuationOptions.AttachedToParent|}, TaskScheduler.Default);
            """);
        var test = new Verify.Test { TestCode = code, FixedCode = code };
        test.ExpectedDiagnostics.Add(Verify.Diagnostic().WithLocation(0).WithMessage("'TaskCreationOptions.AttachedToParent' " + Attaching));
        test.ExpectedDiagnostics.Add(Verify.Diagnostic().WithLocation(1).WithArguments("TaskContinuationOptions", Attaching));
        for (var i = 2; i <= 4; i++)
        {
            test.ExpectedDiagnostics.Add(Verify.Diagnostic().WithLocation(i).WithArguments("TaskCreationOptions", Attaching));
        }

        test.ExpectedDiagnostics.Add(Verify.Diagnostic().WithLocation(5).WithArguments("TaskContinuationOptions", Attaching));
        await test.RunAsync();
    }

    /// <summary>
    /// The rule starts from the TPL's calls that take options (2026-12-06, for build cost): each of them reports, a
    /// constructor initializer of a derived type too, and a call in a field initializer; a flag passed to a method of
    /// the user's, or stored, does not.
    /// </summary>
    [Fact]
    public async Task EveryCallTakingOptions_IsReported_FromTheCall()
    {
        var code = Usings + """
            sealed class Promise : TaskCompletionSource<int>
            {
                public Promise() : base({|#0:TaskCreationOptions.AttachedToParent|}) { }
            }

            class C
            {
                static readonly Task Started = Task.Factory.StartNew(() => { }, {|#1:TaskCreationOptions.AttachedToParent|});
                Task A(IAsyncResult r) => Task.Factory.FromAsync(r, _ => { }, {|#2:TaskCreationOptions.AttachedToParent|});
                Task B(Task[] t) => Task.Factory.ContinueWhenAll(t, _ => { }, CancellationToken.None, {|#3:TaskContinuationOptions.AttachedToParent|}, TaskScheduler.Default);
                Task E(Task[] t) => Task.Factory.ContinueWhenAny(t, _ => { }, {|#4:TaskContinuationOptions.AttachedToParent|});
                TaskFactory<int> F() => new TaskFactory<int>({|#5:TaskCreationOptions.AttachedToParent|} | TaskCreationOptions.LongRunning, TaskContinuationOptions.None);
                void Mine(TaskCreationOptions options) { }
                void G() => Mine(TaskCreationOptions.AttachedToParent);
                TaskCreationOptions H() { var o = TaskCreationOptions.AttachedToParent; return o; }
            }
            """;
        var test = new Verify.Test { TestCode = code, FixedCode = code };
        foreach (var (location, type) in new[] { (0, "TaskCreationOptions"), (1, "TaskCreationOptions"), (2, "TaskCreationOptions"), (3, "TaskContinuationOptions"), (4, "TaskContinuationOptions"), (5, "TaskCreationOptions") })
        {
            test.ExpectedDiagnostics.Add(Verify.Diagnostic().WithLocation(location).WithArguments(type, Attaching));
        }

        await test.RunAsync();
    }

    [Fact]
    public async Task InsideTaskRunOrADenyingTask_TheFlagIsRemoved()
    {
        var before = Class("""
                Task Run() => Task.Run(() => Task.Factory.StartNew(() => { }, {|#0:TaskCreationOptions.AttachedToParent|}));
                Task RunAsync() => Task.Run(async () => { await Task.Yield(); await Task.Factory.StartNew(() => { }, TaskCreationOptions.LongRunning | {|#1:TaskCreationOptions.AttachedToParent|}); });
                Task Denied() => Task.Factory.StartNew(() => { Task.Factory.StartNew(() => { }, {|#2:TaskCreationOptions.AttachedToParent|} | TaskCreationOptions.PreferFairness); }, TaskCreationOptions.DenyChildAttach);
                Task Continued(Task t) => t.ContinueWith(_ => { t.ContinueWith(_ => { }, ({|#3:TaskContinuationOptions.AttachedToParent|})); }, TaskContinuationOptions.DenyChildAttach | TaskContinuationOptions.ExecuteSynchronously);
            """);
        var after = Class("""
                Task Run() => Task.Run(() => Task.Factory.StartNew(() => { }, TaskCreationOptions.None));
                Task RunAsync() => Task.Run(async () => { await Task.Yield(); await Task.Factory.StartNew(() => { }, TaskCreationOptions.LongRunning); });
                Task Denied() => Task.Factory.StartNew(() => { Task.Factory.StartNew(() => { }, TaskCreationOptions.PreferFairness); }, TaskCreationOptions.DenyChildAttach);
                Task Continued(Task t) => t.ContinueWith(_ => { t.ContinueWith(_ => { }, (TaskContinuationOptions.None)); }, TaskContinuationOptions.DenyChildAttach | TaskContinuationOptions.ExecuteSynchronously);
            """);
        var test = new Verify.Test { TestCode = before, FixedCode = after };
        test.ExpectedDiagnostics.Add(Verify.Diagnostic().WithLocation(0).WithArguments("TaskCreationOptions", NoOp));
        test.ExpectedDiagnostics.Add(Verify.Diagnostic().WithLocation(1).WithArguments("TaskCreationOptions", NoOp));
        test.ExpectedDiagnostics.Add(Verify.Diagnostic().WithLocation(2).WithArguments("TaskCreationOptions", NoOp));
        test.ExpectedDiagnostics.Add(Verify.Diagnostic().WithLocation(3).WithArguments("TaskContinuationOptions", NoOp));
        await test.RunAsync();
    }

    /// <summary>Code in a nested lambda, or in a local function, may run outside the denying task: no fix.</summary>
    [Fact]
    public async Task NestedFunctionsInsideTaskRun_HaveNoFix()
    {
        var code = Class("""
                Task Nested() => Task.Run(() => { Action later = () => Task.Factory.StartNew(() => { }, [|TaskCreationOptions.AttachedToParent|]); later(); });
                Task Local() => Task.Run(() => { Start(); void Start() => Task.Factory.StartNew(() => { }, [|TaskCreationOptions.AttachedToParent|]); });
                Task Parent() => Task.Factory.StartNew(() => { Task.Factory.StartNew(() => { }, [|TaskCreationOptions.AttachedToParent|]); }, [|TaskCreationOptions.AttachedToParent|]);
            """);
        await Verify.VerifyCodeFixAsync(code, code);
    }

    /// <summary>
    /// The flag chosen at the call, or held by a constant of the user's, attaches all the same. A constant has no
    /// fix even where the flag does nothing: it may have other uses.
    /// </summary>
    [Fact]
    public async Task FlagsChosenAtTheCall_AndConstantsHoldingTheFlag_Report()
    {
        var code = Class("""
                const TaskCreationOptions Attach = TaskCreationOptions.AttachedToParent | TaskCreationOptions.LongRunning;
                const TaskCreationOptions Plain = TaskCreationOptions.LongRunning;
                Task Chosen(bool attach) => Task.Factory.StartNew(() => { }, attach ? {|#0:TaskCreationOptions.AttachedToParent|} : TaskCreationOptions.None);
                Task Constant() => Task.Factory.StartNew(() => { }, {|#1:Attach|});
                Task LocalConstant(Task t) { const TaskContinuationOptions options = TaskContinuationOptions.AttachedToParent; return t.ContinueWith(_ => { }, {|#2:options|}); }
                Task InTaskRun() => Task.Run(() => Task.Factory.StartNew(() => { }, {|#3:Attach|}));
                Task NotHolding() => Task.Factory.StartNew(() => { }, Plain);
                Task Condition(TaskCreationOptions o) => Task.Factory.StartNew(() => { }, (o & TaskCreationOptions.AttachedToParent) != 0 ? TaskCreationOptions.None : o);
            """);
        var test = new Verify.Test { TestCode = code, FixedCode = code };
        test.ExpectedDiagnostics.Add(Verify.Diagnostic().WithLocation(0).WithArguments("TaskCreationOptions", Attaching));
        test.ExpectedDiagnostics.Add(Verify.Diagnostic().WithLocation(1).WithArguments("TaskCreationOptions", Attaching));
        test.ExpectedDiagnostics.Add(Verify.Diagnostic().WithLocation(2).WithArguments("TaskContinuationOptions", Attaching));
        test.ExpectedDiagnostics.Add(Verify.Diagnostic().WithLocation(3).WithArguments("TaskCreationOptions", NoOp));
        await test.RunAsync();
    }

    [Fact]
    public async Task AFlagChosenAtTheCall_WhereItDoesNothing_BecomesNone()
    {
        const string Before = """
            using System.Threading.Tasks;

            class C
            {
                Task Run(bool attach) => Task.Run(() => Task.Factory.StartNew(() => { }, attach ? [|TaskCreationOptions.AttachedToParent|] : TaskCreationOptions.PreferFairness));
            }
            """;
        await Verify.VerifyCodeFixAsync(Before, Before.Replace("[|TaskCreationOptions.AttachedToParent|]", "TaskCreationOptions.None", StringComparison.Ordinal));
    }

    /// <summary>
    /// An extension method named for attaching exists to attach: the flag there is its job, and a warning would leave
    /// nothing to do but suppress it. Other extension methods, and ordinary methods whatever their name, still report.
    /// </summary>
    [Fact]
    public async Task ApisWhoseJobIsToAttach_AreNotReported()
    {
        await Verify.VerifyAnalyzerAsync(Usings + """
            static class TaskFactoryExtensions
            {
                public static Task StartAttached(this TaskFactory factory, Action work) =>
                    factory.StartNew(work, CancellationToken.None, TaskCreationOptions.AttachedToParent, TaskScheduler.Default);

                public static Task ContinueAsAttachedChild(this Task task, Action<Task> next) =>
                    task.ContinueWith(t => { next(t); return Task.Factory.StartNew(() => { }, TaskCreationOptions.AttachedToParent); }, TaskContinuationOptions.AttachedToParent).Unwrap();

                public static Task Start(this TaskFactory factory, Action work) =>
                    factory.StartNew(work, [|TaskCreationOptions.AttachedToParent|]);
            }

            class Service
            {
                public Task Attach() => Task.Factory.StartNew(() => { }, [|TaskCreationOptions.AttachedToParent|]);
            }
            """);
    }

    [Fact]
    public async Task OtherUses_AreNotReported()
    {
        var code = Class("""
                TaskCreationOptions Stored = TaskCreationOptions.AttachedToParent;
                Task Variable(TaskCreationOptions options) => Task.Factory.StartNew(() => { }, options);
                Task Numeric() => Task.Factory.StartNew(() => { }, (TaskCreationOptions)4);
                Task Plain() => Task.Factory.StartNew(() => { }, TaskCreationOptions.LongRunning);
                bool Check(Task t) => (t.CreationOptions & TaskCreationOptions.AttachedToParent) != 0;
                enum Mine { AttachedToParent = 4 }
                void Other(Action<Mine> use) => use(Mine.AttachedToParent);
            """);
        await Verify.VerifyAnalyzerAsync(code);
    }

    [Fact]
    public async Task UsingStatic_FlagAloneBecomesNone()
    {
        const string Before = """
            using System.Threading.Tasks;
            using static System.Threading.Tasks.TaskCreationOptions;

            class C
            {
                Task Run() => Task.Run(() => Task.Factory.StartNew(() => { }, [|AttachedToParent|]));
            }
            """;
        await Verify.VerifyCodeFixAsync(Before, Before.Replace("[|AttachedToParent|]", "None", StringComparison.Ordinal));
    }

    [Fact]
    public async Task OnCSharp73NetStandard_AndMultiTargeted_TheFixCompiles()
    {
        const string Before = """
            using System.Threading.Tasks;

            class C
            {
                public Task Run() { return Task.Run(() => Task.Factory.StartNew(() => { }, [|TaskCreationOptions.AttachedToParent|] | TaskCreationOptions.LongRunning)); }
            }
            """;
        var after = Before.Replace("[|TaskCreationOptions.AttachedToParent|] | ", "", StringComparison.Ordinal);
        await new Verify.Test
        {
            SharedByNetStandardAndNet10 = true,
            TestCode = Before,
            FixedCode = after,
        }.RunAsync();
    }

    /// <summary>
    /// Usings inside #if: another target may lack one, so the fix cannot lean on them. A name that binds without any
    /// using (a type of the namespace the code is in) is still written short, never as global::System.Threading.Tasks….
    /// </summary>
    [Theory]
    [InlineData(false)]
    [InlineData(true)]
    public async Task GuardedUsings_InTheTypesOwnNamespace_GetTheShortName(bool sharedByNetStandardAndNet10)
    {
        const string Code = """
            #if NET
            using System;
            #endif

            namespace System.Threading.Tasks.Extras
            {
                class C
                {
                    Task Run() => Task.Run(() => Task.Factory.StartNew(() => { }, [|TaskCreationOptions.AttachedToParent|]));
                }
            }
            """;
        await new Verify.Test
        {
            SharedByNetStandardAndNet10 = sharedByNetStandardAndNet10,
            TestCode = Code,
            FixedCode = Code.Replace("[|TaskCreationOptions.AttachedToParent|]", "TaskCreationOptions.None", StringComparison.Ordinal),
        }.RunAsync();
    }

    [Fact]
    public async Task TopLevelStatements_AreReported()
    {
        const string Code = """
            using System.Threading.Tasks;

            await Task.Factory.StartNew(() => { }, [|TaskCreationOptions.AttachedToParent|]);
            await Task.Run(() => Task.Factory.StartNew(() => { }, [|TaskCreationOptions.AttachedToParent|]));
            """;
        await new Verify.Test
        {
            TestCode = Code,
            FixedCode = Code.Replace("(() => { }, [|TaskCreationOptions.AttachedToParent|]));", "(() => { }, TaskCreationOptions.None));", StringComparison.Ordinal),
            TestState = { OutputKind = OutputKind.ConsoleApplication },
            FixedState = { MarkupHandling = MarkupMode.Allow },
        }.RunAsync();
    }

    [Fact]
    public void Rule_IsAWarning()
    {
        Assert.Equal(DiagnosticSeverity.Warning, AttachedToParentAnalyzer.Rule.DefaultSeverity);
    }

    /// <summary>A comment between the flags survives, above the member the removed flag was in.</summary>
    [Fact]
    public async Task CommentBetweenFlags_Survives()
    {
        await Verify.VerifyCodeFixAsync(
            Class("""
                Task M() => Task.Run(() => Task.Factory.StartNew(() => { }, TaskCreationOptions.LongRunning | /* why */ [|TaskCreationOptions.AttachedToParent|]));
            """),
            Class("""
                /* why */
                Task M() => Task.Run(() => Task.Factory.StartNew(() => { }, TaskCreationOptions.LongRunning));
            """));
    }
}
