namespace TplPractices.Analyzers.Tests.Rules;

/// <summary>TPL0005 sources shared by the fix tests and the behaviour tests, which run both versions.</summary>
internal static class AwaitInLoopCases
{
    public const string Before = /* lang=c#-test */ """
        using System.Collections.Generic;
        using System.Threading.Tasks;

        public static class Loops
        {
            private static int Square(int i) => i * i;

            // The article's shape: short work awaited once per iteration, accumulated.
            public static async Task<int> Sum(int n)
            {
                var total = 0;
                for (var i = 0; i < n; i++)
                {
                    total += [|await Task.Run(() => Square(i))|];
                }

                return total;
            }

            // Nested loops move as one; ConfigureAwait is kept.
            public static async Task<int> Grid(int n)
            {
                var total = 0;
                for (var i = 0; i < n; i++)
                    for (var j = 0; j < n; j++)
                        total += [|await Task.Run(() => i * j).ConfigureAwait(false)|];
                return total;
            }

            // A statement lambda whose statements take the await's place.
            public static async Task<string> Collect(int[] values)
            {
                var seen = new List<int>();
                foreach (var value in values)
                {
                    if (value < 0) continue;
                    [|await Task.Run(() => { seen.Add(value); seen.Add(-value); })|];
                }

                return string.Join(",", seen);
            }

            // Completed tasks: the value is used directly; an await of nothing goes away.
            public static async Task<int> Completed(int n)
            {
                var total = 0;
                for (var i = 0; i < n; i++)
                {
                    total += [|await Task.FromResult(i)|];
                    object boxed = [|await Task.FromResult<object>(i)|];
                    total += boxed is int b ? b : 0;
                    [|await Task.CompletedTask|];
                    total += [|await new ValueTask<int>(i * 2)|];
                }

                await Task.Yield();
                return total;
            }
        }
        """;

    public const string After = /* lang=c#-test */ """
        using System.Collections.Generic;
        using System.Threading.Tasks;

        public static class Loops
        {
            private static int Square(int i) => i * i;

            // The article's shape: short work awaited once per iteration, accumulated.
            public static async Task<int> Sum(int n)
            {
                var total = 0;
                await Task.Run(() =>
                {
                    for (var i = 0; i < n; i++)
                    {
                        total += Square(i);
                    }
                });

                return total;
            }

            // Nested loops move as one; ConfigureAwait is kept.
            public static async Task<int> Grid(int n)
            {
                var total = 0;
                await Task.Run(() =>
                {
                    for (var i = 0; i < n; i++)
                        for (var j = 0; j < n; j++)
                            total += i * j;
                }).ConfigureAwait(false);
                return total;
            }

            // A statement lambda whose statements take the await's place.
            public static async Task<string> Collect(int[] values)
            {
                var seen = new List<int>();
                await Task.Run(() =>
                {
                    foreach (var value in values)
                    {
                        if (value < 0) continue;
                        seen.Add(value); seen.Add(-value);
                    }
                });

                return string.Join(",", seen);
            }

            // Completed tasks: the value is used directly; an await of nothing goes away.
            public static async Task<int> Completed(int n)
            {
                var total = 0;
                for (var i = 0; i < n; i++)
                {
                    total += i;
                    object boxed = i;
                    total += boxed is int b ? b : 0;
                    total += i * 2;
                }

                await Task.Yield();
                return total;
            }
        }
        """;
}
