using TplPractices.Analyzers.Rules;
using TplPractices.Analyzers.Tests.Verifiers;
using Verify = TplPractices.Analyzers.Tests.Verifiers.CSharpCodeFixVerifier<
    TplPractices.Analyzers.Rules.SecondContinuationAnalyzer,
    Microsoft.CodeAnalysis.Testing.EmptyCodeFixProvider>;

namespace TplPractices.Analyzers.Tests.Rules;

/// <summary>TPL0018: a second ContinueWith on the same task instance is reported, on the later call; nothing is fixed.</summary>
public sealed class SecondContinuationTests
{
    private static string Class(string members) => $$"""
        using System;
        using System.Threading.Tasks;

        class C
        {
            private readonly Task _started = Task.CompletedTask;
            private Task _current = Task.CompletedTask;
            private static void Log(object o) => Console.WriteLine(o);
        {{members}}
        }
        """;

    [Fact]
    public async Task SecondContinuations_OfALocalParameterOrField_AreReported()
    {
        var test = new Verify.Test { TestCode = Class("""
                void Local()
                {
                    var task = Task.Run(() => 1);
                    task.ContinueWith(t => Log(t.Result));
                    {|#0:task.ContinueWith(t => Log(t.Status))|};
                }

                Task Parameter(Task<int> work)
                {
                    work.ContinueWith(t => Log(t.Result), TaskContinuationOptions.OnlyOnRanToCompletion);
                    return {|#1:work.ContinueWith(t => Log(t.Exception!), TaskContinuationOptions.OnlyOnFaulted)|};
                }

                void Field()
                {
                    _started.ContinueWith(_ => Log(1));
                    {|#2:_started.ContinueWith(_ => Log(2))|};
                    {|#3:this._started.ContinueWith(_ => Log(3))|};
                }

                Func<Task, Task> Nested() => t =>
                {
                    t.ContinueWith(_ => Log(1));
                    return {|#4:t.ContinueWith(_ => Log(2))|};
                };
            """) };
        test.ExpectedDiagnostics.Add(Verify.Diagnostic().WithLocation(0).WithArguments("task", "12"));
        test.ExpectedDiagnostics.Add(Verify.Diagnostic().WithLocation(1).WithArguments("work", "18"));
        test.ExpectedDiagnostics.Add(Verify.Diagnostic().WithLocation(2).WithArguments("_started", "24"));
        test.ExpectedDiagnostics.Add(Verify.Diagnostic().WithLocation(3).WithArguments("this._started", "25"));
        test.ExpectedDiagnostics.Add(Verify.Diagnostic().WithLocation(4).WithArguments("t", "31"));
        await test.RunAsync();
    }

    /// <summary>
    /// The earlier call is first looked for in the text, before any operation is walked: a name spelled with a unicode
    /// escape or as a verbatim identifier is the same name, and is found.
    /// </summary>
    [Fact]
    public async Task EarlierContinuation_WithAnEscapedName_IsFound()
    {
        var test = new Verify.Test { TestCode = Class("""
                void Escaped(Task task)
                {
                    task.\u0043ontinueWith(_ => Log(1));
                    {|#0:task.ContinueWith(_ => Log(2))|};
                }

                void Verbatim(Task task)
                {
                    task.@ContinueWith(_ => Log(1));
                    {|#1:task.ContinueWith(_ => Log(2))|};
                }
            """) };
        test.ExpectedDiagnostics.Add(Verify.Diagnostic().WithLocation(0).WithArguments("task", "11"));
        test.ExpectedDiagnostics.Add(Verify.Diagnostic().WithLocation(1).WithArguments("task", "17"));
        await test.RunAsync();
    }

    [Fact]
    public async Task OneContinuationPerTask_AndTasksThatChange_AreNotReported()
    {
        await Verify.VerifyAnalyzerAsync(Class("""
                void Chain(Task task) => task.ContinueWith(_ => Log(1)).ContinueWith(_ => Log(2));

                void TwoTasks(Task a, Task b)
                {
                    a.ContinueWith(_ => Log(1));
                    b.ContinueWith(_ => Log(2));
                }

                void Reassigned()
                {
                    var task = Task.Run(() => 1);
                    task.ContinueWith(_ => Log(1));
                    task = Task.Run(() => 2);
                    task.ContinueWith(_ => Log(2));
                }

                void ReplacedByRef()
                {
                    var task = Task.Run(() => 1);
                    task.ContinueWith(_ => Log(1));
                    Replace(ref task);
                    task.ContinueWith(_ => Log(2));
                }

                static void Replace(ref Task<int> task) => task = Task.FromResult(2);

                void FieldReassigned()
                {
                    _current.ContinueWith(_ => Log(1));
                    _current = Task.Delay(1);
                    _current.ContinueWith(_ => Log(2));
                }

                void InALoop(Func<Task> next)
                {
                    var task = next();
                    for (var i = 0; i < 3; i++)
                    {
                        task.ContinueWith(_ => Log(i));
                        task = next();
                    }
                }

                void InsideALambda(Task task)
                {
                    task.ContinueWith(_ => Log(1));
                    Action later = () => task.ContinueWith(_ => Log(2));
                }

                void OtherObject(C other)
                {
                    other._started.ContinueWith(_ => Log(1));
                    other._started.ContinueWith(_ => Log(2));
                }
            """));
    }

    /// <summary>
    /// Only one of two calls on exclusive paths ever registers: branches of an if / else if / else, the arms of ?:, two
    /// switch sections or switch-expression arms, a branch that returns or throws before the later call. Two
    /// continuations on different schedulers or under different tokens cannot be one. None of these is reported.
    /// </summary>
    [Fact]
    public async Task ExclusivePathsAndContinuationsThatCannotMerge_AreNotReported()
    {
        await Verify.VerifyAnalyzerAsync(Class("""
                void IfElse(Task task, int kind)
                {
                    if (kind == 0) task.ContinueWith(_ => Log(0));
                    else if (kind == 1) task.ContinueWith(_ => Log(1));
                    else { task.ContinueWith(_ => Log(2)); }
                }

                Task Arms(Task task, bool fast) => fast ? task.ContinueWith(_ => Log(1)) : task.ContinueWith(_ => Log(2));

                void Sections(Task task, int kind)
                {
                    switch (kind)
                    {
                        case 0:
                            task.ContinueWith(_ => Log(0));
                            break;
                        default:
                            task.ContinueWith(_ => Log(1));
                            break;
                    }
                }

                Task SwitchArms(Task task, int kind) => kind switch
                {
                    0 => task.ContinueWith(_ => Log(0)),
                    _ => task.ContinueWith(_ => Log(1)),
                };

                Task Returned(Task task, bool early)
                {
                    if (early)
                    {
                        return task.ContinueWith(_ => Log(0));
                    }

                    if (task.IsFaulted) { task.ContinueWith(_ => Log(1)); throw new InvalidOperationException(); }
                    return task.ContinueWith(_ => Log(2));
                }

                void Schedulers(Task task, TaskScheduler ui, System.Threading.CancellationToken a, System.Threading.CancellationToken b)
                {
                    task.ContinueWith(_ => Log(1));
                    task.ContinueWith(_ => Log(2), ui);
                    task.ContinueWith(_ => Log(3), a);
                    task.ContinueWith(_ => Log(4), b);
                }
            """));
    }

    /// <summary><c>t?.ContinueWith(a); t?.ContinueWith(b);</c> continues one task twice; branches that meet again are one path.</summary>
    [Fact]
    public async Task ConditionalAccessAndBranchesThatMeetAgain_AreReported()
    {
        var test = new Verify.Test { TestCode = Class("""
                void Conditional(Task? task)
                {
                    task?.ContinueWith(_ => Log(1));
                    task?{|#0:.ContinueWith(_ => Log(2))|};
                }

                void AfterTheBranch(Task task, bool log)
                {
                    if (log) task.ContinueWith(_ => Log(1));
                    {|#1:task.ContinueWith(_ => Log(2))|};
                }

                void SameScheduler(Task task, TaskScheduler ui)
                {
                    task.ContinueWith(_ => Log(1), ui);
                    {|#2:task.ContinueWith(_ => Log(2), ui)|};
                }
            """) };
        test.ExpectedDiagnostics.Add(Verify.Diagnostic().WithLocation(0).WithArguments("task", "11"));
        test.ExpectedDiagnostics.Add(Verify.Diagnostic().WithLocation(1).WithArguments("task", "17"));
        test.ExpectedDiagnostics.Add(Verify.Diagnostic().WithLocation(2).WithArguments("task", "23"));
        await test.RunAsync();
    }

    [Fact]
    public async Task TopLevelStatements_AreReported()
    {
        await new Verify.Test
        {
            TestCode = """
                using System;
                using System.Threading.Tasks;

                var work = Task.Run(() => 42);
                work.ContinueWith(t => Console.WriteLine(t.Result));
                await [|work.ContinueWith(t => Console.WriteLine(t.Status))|];
                """,
            TestState = { OutputKind = Microsoft.CodeAnalysis.OutputKind.ConsoleApplication },
        }.RunAsync();
    }

    [Fact]
    public async Task GeneratedCode_DoesNotReport()
    {
        await Verify.VerifyAnalyzerAsync("// <auto-generated/>\n" + Class("""
                void Twice(Task task) { task.ContinueWith(_ => Log(1)); task.ContinueWith(_ => Log(2)); }
            """));
    }

    [Theory]
    [InlineData("Task t", "t.ContinueWith(_ => { }); t.ContinueWith(")]
    [InlineData("Task t", "t.ContinueWith(_ => { }); t.ContinueWith(_ => )")]
    [InlineData("Task t", "t.ContinueWith(); t.ContinueWith()")]
    [InlineData("", "missing.ContinueWith(_ => { }); missing.ContinueWith(_ => { })")]
    public async Task IncompleteCode_NeitherThrowsNorReports(string parameters, string statement)
    {
        Assert.Equal(0, await HalfTypedCode.CountDiagnosticsAsync(new SecondContinuationAnalyzer(), parameters, statement));
    }
}
