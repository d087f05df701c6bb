using TplPractices.Analyzers.Tests.Verifiers;
using Verify = TplPractices.Analyzers.Tests.Verifiers.CSharpCodeFixVerifier<
    TplPractices.Analyzers.Rules.UseTaskStateAnalyzer,
    TplPractices.Analyzers.CodeFixes.Rules.UseTaskStateFixer>;

namespace TplPractices.Analyzers.Tests.Rules;

/// <summary>
/// TPL0001 on a <c>StartNew</c> of a factory the method made with its own scheduler (a scheduler loop that runs each
/// due job through <c>new TaskFactory(TaskScheduler.Current)</c>, found in SimplCommerce's hosted scheduler): the async
/// job reads the loop's variable, the token and <c>this</c>, whose event it raises when the job fails. All three travel
/// in the state; the event is raised through the state's copy of <c>this</c>, with the same sender.
/// </summary>
public sealed class UseTaskStateFactoryTests
{
    private const string Types = """
        using System;
        using System.Collections.Generic;
        using System.Threading;
        using System.Threading.Tasks;

        public sealed class Job(string name, bool fails)
        {
            public string Name { get; } = name;

            public int Runs { get; set; }

            public async Task RunAsync(CancellationToken token)
            {
                if (fails)
                {
                    throw new InvalidOperationException(Name);
                }

                await Task.Delay(1, token);
            }
        }

        public sealed class Scheduler
        {
            public event EventHandler<UnobservedTaskExceptionEventArgs>? Failed;

            public async Task RunDueAsync(IEnumerable<Job> jobs, CancellationToken token)
            {
                var factory = new TaskFactory(TaskScheduler.Current);
                foreach (var job in jobs)
                {
                    job.Runs++;
                    await factory.StartNew(
        """;

    private const string Scenario = """
                        token);
                }
            }

            public static async Task<string> Run()
            {
                var scheduler = new Scheduler();
                var seen = new List<string>();
                scheduler.Failed += (sender, args) =>
                {
                    seen.Add((sender == scheduler ? "self:" : "other:") + args.Exception.InnerException!.Message);
                    args.SetObserved();
                };
                var jobs = new[] { new Job("a", false), new Job("b", true), new Job("c", false) };
                await scheduler.RunDueAsync(jobs, CancellationToken.None);
                return string.Join(",", seen) + ";" + jobs[0].Runs + jobs[1].Runs + jobs[2].Runs;
            }
        }
        """;

    private const string Before = Types + "\n" + """
                        {|#0:async () =>
                        {
                            try
                            {
                                await job.RunAsync(token);
                            }
                            catch (Exception ex)
                            {
                                var args = new UnobservedTaskExceptionEventArgs(new AggregateException(ex));
                                Failed?.Invoke(this, args);
                                if (!args.Observed)
                                {
                                    throw;
                                }
                            }
                        }|},
        """ + "\n" + Scenario;

    private const string After = Types + "\n" + """
                        static async state =>
                        {
                            var (job, token, self) = ((Job, CancellationToken, Scheduler))state!;
                            try
                            {
                                await job.RunAsync(token);
                            }
                            catch (Exception ex)
                            {
                                var args = new UnobservedTaskExceptionEventArgs(new AggregateException(ex));
                                self.Failed?.Invoke(self, args);
                                if (!args.Observed)
                                {
                                    throw;
                                }
                            }
                        },
                        (job, token, this),
        """ + "\n" + Scenario;

    [Fact]
    public async Task AnAsyncJobOnAFactoryOfItsOwnScheduler_TakesItsCapturesAsTheState()
    {
        var test = new Verify.Test { TestCode = Before, FixedCode = After };
        test.ExpectedDiagnostics.Add(Verify.Diagnostic().WithLocation(0).WithArguments("'job', 'token' and 'this'", "a closure and a delegate", "them"));
        await test.RunAsync();
    }

    /// <summary>
    /// Each job runs once; the failing one (which throws before its first await, so the job's catch runs before the
    /// outer task completes) raises the event with the scheduler as its sender, in both texts.
    /// </summary>
    [Fact]
    public async Task TheFixedJob_RaisesTheEventFromTheSameSender()
    {
        var original = await CodeRunner.RunAsync(TestMarkup.Strip(Before), "Scheduler", "Run");
        Assert.Equal("returned self:b;111", original);
        Assert.Equal(original, await CodeRunner.RunAsync(After, "Scheduler", "Run"));
    }
}
