namespace TplPractices.Analyzers.Tests.Rules;

/// <summary>TPL0008's shared sources: the reported shapes, before and after the fix.</summary>
internal static class ValueTaskFastPathCases
{
    public const string Before = /* lang=c#-test */ """
        using System.Collections.Generic;
        using System.Threading.Tasks;

        public sealed class Prices
        {
            private readonly Dictionary<string, decimal> _cache = new();

            public async Task<decimal> TotalAsync(string[] items)
            {
                var total = 0m;
                foreach (var item in items)
                {
                    total += await PriceAsync(item).ConfigureAwait(false);
                }

                return total;
            }

            private async Task<decimal> PriceAsync(string item)
            {
                if (_cache.TryGetValue(item, out var price))
                {
                    {|#0:return price;|}
                }

                price = await LoadAsync(item).ConfigureAwait(false);
                _cache[item] = price;
                return price;
            }

            public async Task<string> NameAsync(int id)
            {
                async Task<string> Lookup(int key)
                {
                    if (key < 0)
                    {
                        {|#1:return "none";|}
                    }

                    await Task.Yield();
                    return key.ToString();
                }

                return await Lookup(id) + await Lookup(-id);
            }

            private static async Task<long> SizeAsync(long size) => {|#2:size|};

            public static async Task<long> Twice(long size) => await SizeAsync(size) + await SizeAsync(size * 2);

            private static Task<decimal> LoadAsync(string item) => Task.FromResult((decimal)item.Length);
        }
        """;

    public const string After = /* lang=c#-test */ """
        using System.Collections.Generic;
        using System.Threading.Tasks;

        public sealed class Prices
        {
            private readonly Dictionary<string, decimal> _cache = new();

            public async Task<decimal> TotalAsync(string[] items)
            {
                var total = 0m;
                foreach (var item in items)
                {
                    total += await PriceAsync(item).ConfigureAwait(false);
                }

                return total;
            }

            private async ValueTask<decimal> PriceAsync(string item)
            {
                if (_cache.TryGetValue(item, out var price))
                {
                    return price;
                }

                price = await LoadAsync(item).ConfigureAwait(false);
                _cache[item] = price;
                return price;
            }

            public async Task<string> NameAsync(int id)
            {
                async ValueTask<string> Lookup(int key)
                {
                    if (key < 0)
                    {
                        return "none";
                    }

                    await Task.Yield();
                    return key.ToString();
                }

                return await Lookup(id) + await Lookup(-id);
            }

            private static async ValueTask<long> SizeAsync(long size) => size;

            public static async Task<long> Twice(long size) => await SizeAsync(size) + await SizeAsync(size * 2);

            private static Task<decimal> LoadAsync(string item) => Task.FromResult((decimal)item.Length);
        }
        """;
}
