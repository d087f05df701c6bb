using TplPractices.Analyzers.Tests.Verifiers;
using Verify = TplPractices.Analyzers.Tests.Verifiers.CSharpCodeFixVerifier<
    TplPractices.Analyzers.Rules.StateOverloadAnalyzer,
    TplPractices.Analyzers.CodeFixes.Rules.StateOverloadFixer>;

namespace TplPractices.Analyzers.Tests.Rules;

/// <summary>
/// TPL0015 where the callback is an <c>async</c> lambda that opens a transaction with <c>await using</c> and reads a
/// field of <c>this</c> and a parameter, handed to a retry helper's extension that has a state sibling in the same
/// class (the shape of EF Core's execution strategy, found in eShop's resilient transaction helper). The state carries
/// <c>this</c> and the parameter; the lambda stays <c>async</c>, so the transaction still commits and is disposed after
/// the work, inside each attempt.
/// </summary>
public sealed class StateOverloadAsyncCallbackTests
{
    private const string Library = """
        using System;
        using System.Collections.Generic;
        using System.Threading;
        using System.Threading.Tasks;

        public interface IRetryStrategy
        {
            Task<TResult> RunAsync<TState, TResult>(TState state, Func<TState, CancellationToken, Task<TResult>> operation, CancellationToken token);
        }

        public static class RetryStrategyExtensions
        {
            public static Task RunAsync(this IRetryStrategy strategy, Func<Task> operation) =>
                strategy.RunAsync(operation, static async (op, _) => { await op(); return true; }, CancellationToken.None);

            public static Task RunAsync<TState>(this IRetryStrategy strategy, TState state, Func<TState, Task> operation) =>
                strategy.RunAsync((state, operation), static async (s, _) => { await s.operation(s.state); return true; }, CancellationToken.None);
        }

        public sealed class OnceStrategy : IRetryStrategy
        {
            public Task<TResult> RunAsync<TState, TResult>(TState state, Func<TState, CancellationToken, Task<TResult>> operation, CancellationToken token) =>
                operation(state, token);
        }

        public sealed class Store
        {
            public List<string> Log { get; } = new();

            public IRetryStrategy Strategy { get; } = new OnceStrategy();

            public async Task<Transaction> BeginAsync()
            {
                await Task.Yield();
                Log.Add("begin");
                return new Transaction(Log);
            }
        }

        public sealed class Transaction(List<string> log) : IAsyncDisposable
        {
            public Task CommitAsync()
            {
                log.Add("commit");
                return Task.CompletedTask;
            }

            public ValueTask DisposeAsync()
            {
                log.Add("dispose");
                return default;
            }
        }

        """;

    private const string UnitOfWork = """
        public sealed class UnitOfWork
        {
            private readonly Store _store;

            public UnitOfWork(Store store) => _store = store;

        """;

    /// <summary>Runs the unit of work once and returns what the store saw, in order.</summary>
    private const string Scenario = """
            public static async Task<string> Run()
            {
                var store = new Store();
                await new UnitOfWork(store).RunAsync(() =>
                {
                    store.Log.Add("work");
                    return Task.CompletedTask;
                });
                return string.Join(",", store.Log);
            }
        }
        """;

    private const string Before = Library + UnitOfWork + "\n" + """
            public async Task RunAsync(Func<Task> work)
            {
                var strategy = _store.Strategy;
                await strategy.RunAsync({|#0:async () =>
                {
                    await using var transaction = await _store.BeginAsync();
                    await work();
                    await transaction.CommitAsync();
                }|});
            }

        """ + "\n" + Scenario;

    private const string After = Library + UnitOfWork + "\n" + """
            public async Task RunAsync(Func<Task> work)
            {
                var strategy = _store.Strategy;
                await strategy.RunAsync((this, work), static async state =>
                {
                    var (self, work) = state;
                    await using var transaction = await self._store.BeginAsync();
                    await work();
                    await transaction.CommitAsync();
                });
            }

        """ + "\n" + Scenario;

    [Fact]
    public async Task AnAsyncCallbackWithAwaitUsing_TakesThisAndTheParameterAsItsState()
    {
        var test = new Verify.Test { TestCode = Before, FixedCode = After };
        test.ExpectedDiagnostics.Add(Verify.Diagnostic().WithLocation(0).WithArguments("'this' and 'work'", "a closure and a delegate", "the overload with a state parameter can pass them instead"));
        await test.RunAsync();
    }

    /// <summary>The transaction begins, the work runs, the commit and the disposal follow it, in both texts.</summary>
    [Fact]
    public async Task TheFixedCallback_CommitsAndDisposesAfterTheWork()
    {
        var original = await CodeRunner.RunAsync(TestMarkup.Strip(Before), "UnitOfWork", "Run");
        Assert.Equal("returned begin,work,commit,dispose", original);
        Assert.Equal(original, await CodeRunner.RunAsync(After, "UnitOfWork", "Run"));
    }
}
