using Verify = TplPractices.Analyzers.Tests.Verifiers.CSharpCodeFixVerifier<
    TplPractices.Analyzers.Rules.TaskRunStateAnalyzer,
    TplPractices.Analyzers.CodeFixes.Rules.TaskRunStateFixer>;

namespace TplPractices.Analyzers.Tests.Rules;

/// <summary>
/// TPL0007's fix of a call whose chain goes on after a closing parenthesis the author put on a line of its own
/// (Proto.Actor's tests: <c>Task.Run(async () =&gt; { … }</c>, then <c>)</c>, then <c>.Wait();</c>). The arguments go a
/// line each, and the parenthesis and the rest of the chain stay where the author put them; they went one indent
/// further right, with the arguments, as if they continued the last argument's line.
/// </summary>
public sealed class TaskRunStateChainTests
{
    [Fact]
    public async Task AClosingParenthesisOnItsOwnLine_KeepsItsPlace()
    {
        const string before = /* lang=c#-test */ """
            using System;
            using System.Threading.Tasks;

            public class Checks
            {
                private readonly Action<string> _output = Console.WriteLine;

                public void InATask() =>
                    Task.Run({|#0:async () =>
                            {
                                await Task.Yield();
                                _output("done");
                            }|}
                        )
                        .Wait();
            }
            """;
        const string after = /* lang=c#-test */ """
            using System;
            using System.Threading;
            using System.Threading.Tasks;

            public class Checks
            {
                private readonly Action<string> _output = Console.WriteLine;

                public void InATask() =>
                    Task.Factory.StartNew(
                        static async state =>
                        {
                            var self = (Checks)state!;
                            await Task.Yield();
                            self._output("done");
                        },
                        this,
                        CancellationToken.None,
                        TaskCreationOptions.DenyChildAttach,
                        TaskScheduler.Default
                        ).Unwrap()
                        .Wait();
            }
            """;
        var test = new Verify.Test { TestCode = before, FixedCode = after };
        test.ExpectedDiagnostics.Add(Verify.Diagnostic().WithLocation(0).WithArguments("'this'", "a delegate", "it"));
        await test.RunAsync();
    }
}
