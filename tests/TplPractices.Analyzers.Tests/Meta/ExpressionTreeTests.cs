using TplPractices.Analyzers.Tests.Verifiers;

namespace TplPractices.Analyzers.Tests.Meta;

/// <summary>
/// A lambda converted to <c>Expression&lt;T&gt;</c> is data for a query provider, never run as written: no rule reports
/// inside one (RuleOptions.Report asks, for every rule). Each hit is checked outside a tree too, so the test cannot pass
/// by reporting nothing.
/// </summary>
public sealed class ExpressionTreeTests
{
    /// <summary>
    /// One hit for each rule whose site can be an expression: every rule of the catalog but those that report a
    /// statement, a loop or a member, which an expression tree cannot hold.
    /// </summary>
    public static TheoryData<string> Hits => new()
    {
        "Task.Factory.StartNew(() => Console.WriteLine(x))",
        "t.ContinueWith(_ => Task.Delay(1)).Unwrap().ContinueWith(_ => Task.Delay(2)).Unwrap()",
        "((IAsyncResult)t).AsyncWaitHandle.WaitOne(10)",
        "token.Register(() => Console.WriteLine(x))",
        "Task.Run(() => Console.WriteLine(x))",
        "Task.Factory.StartNew(() => Console.WriteLine(), TaskCreationOptions.AttachedToParent)",
        "counted.ContinueWith(c => c.Result + 1).Result",
        "Keep(new TaskCompletionSource<int>())",
        "Task.Run(() => x)",
        "new System.Collections.Concurrent.ConcurrentDictionary<int, int>().GetOrAdd(1, k => k + x)",
        "Task.WhenAny(t, Task.Delay(x))",
        "t.ContinueWith(_ => 1) == t.ContinueWith(_ => 2)",
        "new SemaphoreSlim(1).Wait(1, new CancellationTokenSource(x).Token)",
    };

    /// <summary>
    /// Rules whose site is a statement, a loop or a member (a field initializer's cached task for TPL0003), never an
    /// expression a tree can hold.
    /// </summary>
    private static readonly string[] NotInExpressions =
    [
        DiagnosticIds.CacheConstantTaskResult, DiagnosticIds.AwaitInLoop, DiagnosticIds.ValueTaskFastPath,
        DiagnosticIds.ConstructorConcurrency, DiagnosticIds.HotPathInlining, DiagnosticIds.PassThroughAsync,
    ];

    private static string Source(string expression, bool inTree) => $$"""
        using System;
        using System.Linq.Expressions;
        using System.Threading;
        using System.Threading.Tasks;

        class C
        {
            static object Keep(object value) => value;

            object M(int x, Task t, Task<int> counted, CancellationToken token)
            {
                {{(inTree ? "Expression<Func<object>> e = () => " + expression + ";\n        return e;" : "return " + expression + ";")}}
            }
        }
        """;

    private static async Task<IEnumerable<string>> IdsAsync(string expression, bool inTree)
    {
        var run = Repository.AllRulesTest("Test0.cs", Source(expression, inTree));
        run.EditorConfig = CatalogRules.EveryRuleOn();
        return await Repository.IdsAsync(run);
    }

    [Theory]
    [MemberData(nameof(Hits))]
    public async Task AHit_IsReportedInCode_AndNotInAnExpressionTree(string expression)
    {
        Assert.NotEmpty(await IdsAsync(expression, inTree: false));
        Assert.Empty(await IdsAsync(expression, inTree: true));
    }

    /// <summary>A rule added to the catalog needs a hit above, or a place among the rules no expression holds.</summary>
    [Fact]
    public async Task TheHits_CoverEveryRuleThatAnExpressionCanHold()
    {
        var covered = new SortedSet<string>(StringComparer.Ordinal);
        foreach (var hit in Hits)
        {
            covered.UnionWith(await IdsAsync(hit, inTree: false));
        }

        Assert.Equal(CatalogRules.Ids.Except(NotInExpressions), covered);
    }
}
