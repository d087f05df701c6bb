namespace TplPractices.Analyzers.Tests.Meta;

/// <summary>
/// A lambda converted to <c>Expression&lt;T&gt;</c> is data for a query provider, never run as written: no rule reports
/// inside one (RuleOptions.Report asks, for every rule). Each hit is checked outside a tree too, so the test cannot pass
/// by reporting nothing.
/// </summary>
public sealed class ExpressionTreeTests
{
    private const string EveryRuleOn = "root = true\n[*.cs]\ndotnet_diagnostic.TPL0007.severity = warning\ndotnet_diagnostic.TPL0011.severity = warning\n"
        + "dotnet_diagnostic.TPL0013.severity = warning\ndotnet_diagnostic.TPL0015.severity = warning\ndotnet_diagnostic.TPL0016.severity = warning\ndotnet_diagnostic.TPL0017.severity = warning\ndotnet_diagnostic.TPL0018.severity = warning\n";

    public static TheoryData<string, string> Hits => new()
    {
        { "Task.Factory.StartNew(() => Console.WriteLine(x))", "TPL0001" },
        { "t.ContinueWith(_ => Task.Delay(1)).Unwrap().ContinueWith(_ => Task.Delay(2)).Unwrap()", "TPL0002" },
        { "((IAsyncResult)t).AsyncWaitHandle.WaitOne(10)", "TPL0004" },
        { "token.Register(() => Console.WriteLine(x))", "TPL0006" },
        { "Task.Run(() => Console.WriteLine(x))", "TPL0007" },
        { "Task.Factory.StartNew(() => Console.WriteLine(), TaskCreationOptions.AttachedToParent)", "TPL0009" },
        { "counted.ContinueWith(c => c.Result + 1).Result", "TPL0011" },
        { "Keep(new TaskCompletionSource<int>())", "TPL0013" },
        { "Task.Run(() => x)", "TPL0014" },
        { "new System.Collections.Concurrent.ConcurrentDictionary<int, int>().GetOrAdd(1, k => k + x)", "TPL0015" },
        { "Task.WhenAny(t, Task.Delay(x))", "TPL0017" },
        { "t.ContinueWith(_ => 1) == t.ContinueWith(_ => 2)", "TPL0018" },
    };

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

    [Theory]
    [MemberData(nameof(Hits))]
    public async Task AHit_IsReportedInCode_AndNotInAnExpressionTree(string expression, string id)
    {
        async Task<IEnumerable<string>> IdsAsync(bool inTree)
        {
            var run = Repository.AllRulesTest("Test0.cs", Source(expression, inTree));
            run.EditorConfig = EveryRuleOn;
            return await Repository.IdsAsync(run);
        }

        Assert.Contains(id, await IdsAsync(inTree: false));
        Assert.Empty(await IdsAsync(inTree: true));
    }
}
