namespace TplPractices.Analyzers.Tests.Meta;

/// <summary>
/// Hits written in forms the rules' own tests do not all use (a static import, type arguments, `?.`, a verbatim
/// name, a static call of an extension method, each loop kind, lambdas), run through all five rules at once, so
/// each case also checks that no other rule reports it. Kept from an experiment that filtered on names in the
/// syntax before asking for the operation (docs/performance.md): these are the forms such a filter must not miss.
/// </summary>
public sealed class HitFormsTests
{
    private const string Usings = """
        using System;
        using System.Collections.Concurrent;
        using System.Collections.Generic;
        using System.Threading.Tasks;
        using static System.Threading.Tasks.Task;

        """;

    public static TheoryData<string, string> Hits => new()
    {
        // Invocations: through a static import, with type arguments, behind ?., on a verbatim name.
        { "Task<int> M() => FromResult(42);", "TPL0003" },
        { "Task<int> M() => Task.FromResult<int>(42);", "TPL0003" },
        { "Task<int> M() => Task.@FromResult(42);", "TPL0003" },
        { "Task M(TaskFactory f, ConcurrentQueue<int> q) => f?.StartNew(() => q.Enqueue(1));", "TPL0001" },
        { "Task M(Task t, ConcurrentQueue<int> q) => t?.ContinueWith(_ => q.Enqueue(1), TaskScheduler.Default);", "TPL0001" },
        { "Task? M(Task? t) => t?.ContinueWith(_ => Console.WriteLine());", "TPL0019" },
        { "Task M() => Factory.StartNew(() => Console.WriteLine());", "TPL0019" },
        { "Task M(Task t) => t.ContinueWith(_ => Delay(1)).Unwrap().ContinueWith(_ => CompletedTask).Unwrap();", "TPL0002" },
        { "Task M(Task t) => TaskExtensions.Unwrap(TaskExtensions.Unwrap(t.ContinueWith(_ => Delay(1))).ContinueWith(_ => CompletedTask));", "TPL0002" },
        // Property references: behind a cast, in a lambda.
        { "bool M(Task t) => ((IAsyncResult)t).AsyncWaitHandle.WaitOne(10);", "TPL0004" },
        { "Func<Task, bool> M() => t => ((IAsyncResult)t).AsyncWaitHandle.WaitOne(10);", "TPL0004" },
        // Awaits: in each kind of loop, and in a loop inside a lambda.
        { "async Task<int> M(int[] xs) { var s = 0; foreach (var x in xs) s += await Run(() => x * 2); return s; }", "TPL0005" },
        { "async Task<int> M(int n) { var s = 0; for (var i = 0; i < n; i++) s += await Run(() => i * 2); return s; }", "TPL0005" },
        { "async Task<int> M(int n) { var s = 0; while (s < n) s += await Run(() => 2); return s; }", "TPL0005" },
        { "async Task<int> M(int n) { var s = 0; do { s += await Run(() => 2); } while (s < n); return s; }", "TPL0005" },
        { "async Task<int> M(int[][] xs) { var s = 0; foreach (var x in xs) foreach (var y in x) s += await Run(() => y); return s; }", "TPL0005" },
        { "Func<int[], Task<int>> M() => async xs => { var s = 0; foreach (var x in xs) s += await Run(() => x); return s; };", "TPL0005" },
        { "async Task M(List<int> xs) { foreach (var x in xs) { if (x > 0) { await FromResult(x); } } }", "TPL0005" },
    };

    public static TheoryData<string> NotHits => new()
    {
        // An await in a lambda inside the loop belongs to the lambda, not the loop.
        "void M(int[] xs) { foreach (var x in xs) { Func<Task<int>> f = async () => await Run(() => x + 1) + 1; } }",
        // The loop's collection is awaited once, before the loop.
        "async Task<int> M() { var s = 0; foreach (var x in await Run(() => new[] { 1 })) s += x; return s; }",
        // Another method of the same name.
        "Task<int> M() => FromResult(42); static Task<int> FromResult(int value) => Task.FromResult(value + 1);",
    };

    [Theory]
    [MemberData(nameof(Hits))]
    public async Task HitInThisForm_IsReported(string member, string id)
    {
        Assert.Equal([id], await IdsAsync(member));
    }

    [Theory]
    [MemberData(nameof(NotHits))]
    public async Task NotAHit_IsNotReported(string member)
    {
        Assert.Empty(await IdsAsync(member));
    }

    private static Task<IEnumerable<string>> IdsAsync(string member) =>
        Repository.IdsAsync(Repository.AllRulesTest("Test.cs", Usings + "class C\n{\n    " + member + "\n}\n"));
}
