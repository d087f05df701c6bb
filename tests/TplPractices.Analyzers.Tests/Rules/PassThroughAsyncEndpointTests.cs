using TplPractices.Analyzers.Tests.Verifiers;
using Verify = TplPractices.Analyzers.Tests.Verifiers.CSharpCodeFixVerifier<
    TplPractices.Analyzers.Rules.PassThroughAsyncAnalyzer,
    TplPractices.Analyzers.CodeFixes.Rules.PassThroughAsyncFixer>;

namespace TplPractices.Analyzers.Tests.Rules;

/// <summary>
/// TPL0016 on the endpoint handlers of a web API (found in eShop's catalog API): static methods with attributes on
/// themselves and their parameters, each handing its parameters to one shared <c>async</c> query, with <c>null</c> for
/// the filters it does not take and an <c>int</c> that becomes an <c>int?</c> on the way. Nothing there runs code before
/// the query, so its exceptions stay in the task; a blank line between the parameter list and the body stays.
/// </summary>
public sealed class PassThroughAsyncEndpointTests
{
    private const string Before = /* lang=c#-test */ """
        using System;
        using System.Collections.Generic;
        using System.ComponentModel;
        using System.Threading.Tasks;

        public sealed record Paging(int Index, int Size);

        public static class CatalogEndpoints
        {
            [Description("All items, first version")]
            public static async Task<List<string>> AllItemsV1(
                [Description("Where the page starts")] Paging paging)
            {
                return {|#0:await|} Items(paging, null, null);
            }

            [Description("Items of one type")]
            public static async Task<List<string>> ItemsOfType(
                Paging paging,
                [Description("The type of items to return")] int typeId)

            {
                return {|#1:await|} Items(paging, null, typeId);
            }

            public static async Task<List<string>> Items(Paging paging, string? name, int? type)
            {
                await Task.Yield();
                if (paging.Size < 0)
                {
                    throw new ArgumentOutOfRangeException(nameof(paging));
                }

                var items = new List<string>();
                for (var i = paging.Index; i < paging.Index + paging.Size; i++)
                {
                    items.Add((name ?? "item") + i + (type is { } t ? ":" + t : ""));
                }

                return items;
            }
        }

        public static class Api
        {
            public static async Task<string> Run(int size)
            {
                var held = CatalogEndpoints.ItemsOfType(new Paging(1, size), 7);
                try
                {
                    return string.Join(",", await CatalogEndpoints.AllItemsV1(new Paging(0, size))) + ";" + string.Join(",", await held);
                }
                catch (ArgumentOutOfRangeException)
                {
                    return "the task threw";
                }
            }
        }
        """;

    private static readonly string After = TestMarkup.Strip(Before)
        .Replace("public static async Task<List<string>> AllItemsV1", "public static Task<List<string>> AllItemsV1", StringComparison.Ordinal)
        .Replace("public static async Task<List<string>> ItemsOfType", "public static Task<List<string>> ItemsOfType", StringComparison.Ordinal)
        .Replace("return await Items(", "return Items(", StringComparison.Ordinal);

    [Fact]
    public async Task HandlersThatOnlyCallTheSharedQuery_ReturnItsTask()
    {
        Assert.Equal(2, After.Split("return Items(").Length - 1);
        var test = new Verify.Test { TestCode = Before, FixedCode = After };
        test.ExpectedDiagnostics.Add(Verify.Diagnostic().WithLocation(0).WithArguments("'AllItemsV1'", "'Items'"));
        test.ExpectedDiagnostics.Add(Verify.Diagnostic().WithLocation(1).WithArguments("'ItemsOfType'", "'Items'"));
        await test.RunAsync();
    }

    /// <summary>
    /// The same items before and after; and a bad page still fails in the task, where the caller awaits it, not at the
    /// call that made the task.
    /// </summary>
    [Theory]
    [InlineData(2)]
    [InlineData(-1)]
    public async Task FixedHandlers_ReturnAndFailAsBefore(int size)
    {
        var original = await CodeRunner.RunAsync(TestMarkup.Strip(Before), "Api", "Run", size);
        Assert.Equal(size < 0 ? "returned the task threw" : "returned item0,item1;item1:7,item2:7", original);
        Assert.Equal(original, await CodeRunner.RunAsync(After, "Api", "Run", size));
    }
}
