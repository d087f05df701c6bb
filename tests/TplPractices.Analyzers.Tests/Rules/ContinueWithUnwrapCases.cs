namespace TplPractices.Analyzers.Tests.Rules;

/// <summary>TPL0002 sources shared by the fix tests and the behaviour tests, which run both versions.</summary>
internal static class ContinueWithUnwrapCases
{
    public const string Before = /* lang=c#-test */ """
        using System;
        using System.Collections.Generic;
        using System.Threading.Tasks;

        public static class Chains
        {
            private static readonly List<string> Log = new List<string>();

            private static Task Step(string name) => Task.Run(() => { lock (Log) { Log.Add(name); } });

            private static Task<int> Parse(string text) => Task.Run(() => int.Parse(text));

            private static Task<string> Describe(int value) => Task.FromResult("value " + value);

            // The whitepaper's shape: three steps, one after another.
            public static Task Steps()
            {
                Log.Clear();
                return [|Step("one")
                    .ContinueWith(_ => Step("two")).Unwrap()
                    .ContinueWith(_ => Step("three")).Unwrap()|];
            }

            public static string Logged() => string.Join(",", Log);

            // Results flow from one link to the next through .Result.
            public static Task<string> Flow(string text) =>
                [|Parse(text).ContinueWith(t => Describe(t.Result * 2)).Unwrap()|];

            public static Task<int> StaticForm(string text)
            {
                var offset = 10;
                return [|TaskExtensions.Unwrap(Parse(text).ContinueWith(parsed => Task.FromResult(parsed.Result + offset)))|];
            }

            public static Task<string> InLambda(string text)
            {
                Func<Task<string>> work = () => [|Parse(text).ContinueWith(t => Describe(t.Result)).Unwrap()|];
                return work();
            }

            public static Task<int> InLocalFunction(string text)
            {
                var result = 1;
                return Local();

                Task<int> Local()
                {
                    return [|Parse(text).ContinueWith(t => Parse((t.Result + result).ToString())).Unwrap()|];
                }
            }

            public static Task<int> Mixed(string text) =>
                [|Step("start").ContinueWith(_ => Parse(text)).Unwrap().ContinueWith(t => Task.FromResult(t.Result + t.Result)).Unwrap()|];
        }
        """;

    public const string After = /* lang=c#-test */ """
        using System;
        using System.Collections.Generic;
        using System.Threading.Tasks;

        public static class Chains
        {
            private static readonly List<string> Log = new List<string>();

            private static Task Step(string name) => Task.Run(() => { lock (Log) { Log.Add(name); } });

            private static Task<int> Parse(string text) => Task.Run(() => int.Parse(text));

            private static Task<string> Describe(int value) => Task.FromResult("value " + value);

            // The whitepaper's shape: three steps, one after another.
            public static async Task Steps()
            {
                Log.Clear();
                await Step("one").ConfigureAwait(false);
                await Step("two").ConfigureAwait(false);
                await Step("three").ConfigureAwait(false);
            }

            public static string Logged() => string.Join(",", Log);

            // Results flow from one link to the next through .Result.
            public static async Task<string> Flow(string text)
            {
                var result = await Parse(text).ConfigureAwait(false);
                return await Describe(result * 2).ConfigureAwait(false);
            }

            public static async Task<int> StaticForm(string text)
            {
                var offset = 10;
                var result = await Parse(text).ConfigureAwait(false);
                return result + offset;
            }

            public static Task<string> InLambda(string text)
            {
                Func<Task<string>> work = async () =>
                {
                    var result = await Parse(text).ConfigureAwait(false);
                    return await Describe(result).ConfigureAwait(false);
                };
                return work();
            }

            public static Task<int> InLocalFunction(string text)
            {
                var result = 1;
                return Local();

                async Task<int> Local()
                {
                    var result2 = await Parse(text).ConfigureAwait(false);
                    return await Parse((result2 + result).ToString()).ConfigureAwait(false);
                }
            }

            public static async Task<int> Mixed(string text)
            {
                await Step("start").ConfigureAwait(false);
                var result = await Parse(text).ConfigureAwait(false);
                return result + result;
            }
        }
        """;
}
