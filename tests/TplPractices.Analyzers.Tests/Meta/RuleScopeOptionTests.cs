namespace TplPractices.Analyzers.Tests.Meta;

/// <summary>
/// The scope options every rule honours (docs/configuration.md): required and excluded attributes, excluded
/// namespaces, the package-wide key and the rule's own key. Each case runs every rule that is on by default over one hit per rule.
/// </summary>
public sealed class RuleScopeOptionTests
{
    /// <summary>One hit of each rule, as members of a class.</summary>
    private const string Hits = """
            Task<int> A() => Task.FromResult(42);
            Task B(ConcurrentQueue<int> q, int x) => Task.Factory.StartNew(() => q.Enqueue(x), default, TaskCreationOptions.None, TaskScheduler.Default);
            Task C(Task t) => t.ContinueWith(_ => Task.Delay(1)).Unwrap();
            bool D(Task t) => ((IAsyncResult)t).AsyncWaitHandle.WaitOne(10);
            async Task<int> E(int[] xs) { var s = 0; foreach (var x in xs) s += await Task.Run(() => x * 2); return s; }
            async Task<long> F(long n) { if (n > 0) return n; await Task.Yield(); return -n; }
            async Task<long> G() => await F(2) + 1;
            Task H() => Task.Factory.StartNew(() => { }, default, TaskCreationOptions.AttachedToParent, TaskScheduler.Default);
            class Counter { int _n; Counter() { System.Threading.Interlocked.Increment(ref _n); } }
            int K(Task<int> t) => t.ContinueWith(x => x.Result + 1, TaskScheduler.Default).Result;
            Task L(Task t) => t.ContinueWith(_ => Console.WriteLine());
        """;

    private static readonly string[] AllRules = ["TPL0001", "TPL0002", "TPL0003", "TPL0004", "TPL0005", "TPL0008", "TPL0009", "TPL0010", "TPL0011", "TPL0019"];

    private static string Code(string ns, string typeAttributes, string hits) => $$"""
        using System;
        using System.Collections.Concurrent;
        using System.Threading.Tasks;

        namespace Company { sealed class HotAttribute : Attribute { } sealed class ColdAttribute : Attribute { } }

        namespace {{ns}}
        {
            using Company;

            {{typeAttributes}}
            class Service
            {
        {{hits}}
            }
        }
        """;

    private static async Task<IEnumerable<string>> IdsAsync(string code, string? options)
    {
        var run = Repository.AllRulesTest("Test0.cs", code);
        run.EditorConfig = options is null ? null : "root = true\n[*.cs]\n" + options + "\n";
        return await Repository.IdsAsync(run);
    }

    [Fact]
    public async Task NoOptions_EveryRuleReports()
    {
        Assert.Equal(AllRules, await IdsAsync(Code("App", "", Hits), null));
    }

    [Theory]
    [InlineData("tpl_practices.required_attributes = Hot")]
    [InlineData("tpl_practices.required_attributes = HotAttribute")]
    [InlineData("tpl_practices.required_attributes = Company.HotAttribute")]
    [InlineData("tpl_practices.required_attributes = Other, Hot")]
    public async Task RequiredAttributes_ReportOnlyInMarkedCode(string option)
    {
        Assert.Empty(await IdsAsync(Code("App", "", Hits), option));
        Assert.Equal(AllRules, await IdsAsync(Code("App", "[Hot]", Hits), option));
        Assert.Equal(["TPL0003"], await IdsAsync(Code("App", "", Hits.Replace("Task<int> A()", "[Hot] Task<int> A()", StringComparison.Ordinal)), option));
    }

    [Fact]
    public async Task RequiredAttributes_OnAnOuterTypeOrOnAProperty_Count()
    {
        const string Option = "tpl_practices.required_attributes = Hot";
        var nested = Code("App", "[Hot]", "class Inner {\n" + Hits + "\n}");
        Assert.Equal(AllRules, await IdsAsync(nested, Option));
        var property = Code("App", "", "[Hot] Task<int> P { get { return Task.FromResult(42); } }\nTask<int> Q { get { return Task.FromResult(43); } }");
        Assert.Equal(["TPL0003"], await IdsAsync(property, Option));
    }

    [Fact]
    public async Task RequiredAttributes_NamedWrongOrOnAnotherMember_ReportNothing()
    {
        Assert.Empty(await IdsAsync(Code("App", "[Hot]", Hits), "tpl_practices.required_attributes = Company.Hot"));
        Assert.Empty(await IdsAsync(Code("App", "[Cold]", Hits), "tpl_practices.required_attributes = Hot"));
    }

    [Fact]
    public async Task ExcludedAttributes_SilenceMarkedCode_AndWinOverRequired()
    {
        Assert.Empty(await IdsAsync(Code("App", "[Cold]", Hits), "tpl_practices.excluded_attributes = Cold"));
        var oneCold = Code("App", "", Hits.Replace("Task<int> A()", "[Cold] Task<int> A()", StringComparison.Ordinal));
        Assert.Equal(["TPL0001", "TPL0002", "TPL0004", "TPL0005", "TPL0008", "TPL0009", "TPL0010", "TPL0011", "TPL0019"], await IdsAsync(oneCold, "tpl_practices.excluded_attributes = Cold"));
        var both = Code("App", "[Hot]", Hits.Replace("Task<int> A()", "[Cold] Task<int> A()", StringComparison.Ordinal));
        Assert.Equal(["TPL0001", "TPL0002", "TPL0004", "TPL0005", "TPL0008", "TPL0009", "TPL0010", "TPL0011", "TPL0019"], await IdsAsync(both, "tpl_practices.required_attributes = Hot\ntpl_practices.excluded_attributes = Cold"));
    }

    [Theory]
    [InlineData("App.Tooling", "")]
    [InlineData("App.Tooling.Import", "")]
    [InlineData("App.ToolingExtras", "TPL0001,TPL0002,TPL0003,TPL0004,TPL0005,TPL0008,TPL0009,TPL0010,TPL0011,TPL0019")] // a prefix of the name, not a parent namespace
    [InlineData("App", "TPL0001,TPL0002,TPL0003,TPL0004,TPL0005,TPL0008,TPL0009,TPL0010,TPL0011,TPL0019")]
    public async Task ExcludedNamespaces_SilenceTheNamespaceAndItsChildren(string ns, string expected)
    {
        var ids = await IdsAsync(Code(ns, "", Hits), "tpl_practices.excluded_namespaces = Other, App.Tooling");
        Assert.Equal(expected.Split(',', StringSplitOptions.RemoveEmptyEntries), ids);
    }

    [Theory]
    [InlineData("TPL0001")]
    [InlineData("TPL0002")]
    [InlineData("TPL0003")]
    [InlineData("TPL0004")]
    [InlineData("TPL0005")]
    [InlineData("TPL0008")]
    [InlineData("TPL0009")]
    [InlineData("TPL0010")]
    [InlineData("TPL0011")]
    [InlineData("TPL0019")]
    public async Task RuleKey_AppliesToThatRuleOnly_AndWinsOverThePackageKey(string id)
    {
        // TPL0019 leaves the chain (C) to TPL0002 only while TPL0002 is on there: where TPL0002 is out, TPL0019 reports it.
        var chainTo19 = id == "TPL0002" ? ["TPL0019"] : Array.Empty<string>();
        Assert.Equal(AllRules.Where(r => r != id).Concat(chainTo19).Order(StringComparer.Ordinal), await IdsAsync(Code("App", "", Hits), $"tpl_practices.{id}.excluded_namespaces = App"));
        var both = $"tpl_practices.excluded_namespaces = App\ntpl_practices.{id}.excluded_namespaces = Other";
        Assert.Equal(id == "TPL0019" ? [id, id] : [id], await IdsAsync(Code("App", "", Hits), both));
    }

    [Fact]
    public async Task EmptyOrBlankLists_ChangeNothing()
    {
        Assert.Equal(AllRules, await IdsAsync(Code("App", "", Hits), "tpl_practices.required_attributes = , ,\ntpl_practices.excluded_namespaces ="));
    }
}
