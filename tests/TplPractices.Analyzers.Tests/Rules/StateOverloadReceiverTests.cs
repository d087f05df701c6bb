using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp;
using Microsoft.CodeAnalysis.Testing;
using TplPractices.Analyzers.Tests.Verifiers;
using Verify = TplPractices.Analyzers.Tests.Verifiers.CSharpCodeFixVerifier<
    TplPractices.Analyzers.Rules.StateOverloadAnalyzer,
    TplPractices.Analyzers.CodeFixes.Rules.StateOverloadFixer>;

namespace TplPractices.Analyzers.Tests.Rules;

/// <summary>
/// TPL0015 where the capturing callback goes to an extension method and the receiver's type has the state overload as
/// an instance method (an interface's or a base class's), the state before or after the callback, declared by the same
/// library as the extension.
/// </summary>
public sealed class StateOverloadReceiverTests
{
    private const string Library = """
        using System;
        using System.Threading;
        using System.Threading.Tasks;

        public interface ILookup
        {
            T Get<TState, T>(string key, Func<string, TState, T> factory, TState state);
        }

        public static class LookupExtensions
        {
            public static T Get<T>(this ILookup lookup, string key, Func<string, T> factory) =>
                lookup.Get(key, static (k, f) => f(k), factory);
        }

        public abstract class Store
        {
            public abstract ValueTask<T> LoadAsync<TState, T>(string key, TState state, Func<TState, CancellationToken, ValueTask<T>> load, CancellationToken token = default);
        }

        public sealed class MemoryStore : Store
        {
            public override ValueTask<T> LoadAsync<TState, T>(string key, TState state, Func<TState, CancellationToken, ValueTask<T>> load, CancellationToken token = default) =>
                load(state, token);
        }

        public sealed class Lookup : ILookup
        {
            public T Get<TState, T>(string key, Func<string, TState, T> factory, TState state) => factory(key, state);
        }

        public static class StoreExtensions
        {
            public static ValueTask<T> LoadAsync<T>(this Store store, string key, Func<CancellationToken, ValueTask<T>> load, CancellationToken token = default) =>
                store.LoadAsync(key, load, static (l, t) => l(t), token);
        }
        """;

    private const string Before = Library + """

        public static class Api
        {
            public static int Length(ILookup lookup, int extra) => lookup.Get("key", {|#0:k => k.Length + extra|});

            public static ValueTask<int> Load(Store store, int seed, CancellationToken token) =>
                store.LoadAsync("key", {|#1:t => new ValueTask<int>(seed * 2)|}, token);

            public static async Task<string> Run(int x) =>
                Length(new Lookup(), x) + "," + await Load(new MemoryStore(), x, CancellationToken.None);
        }
        """;

    private const string After = Library + """

        public static class Api
        {
            public static int Length(ILookup lookup, int extra) => lookup.Get("key", static (k, extra) => k.Length + extra, extra);

            public static ValueTask<int> Load(Store store, int seed, CancellationToken token) =>
                store.LoadAsync("key", seed, static (seed, t) => new ValueTask<int>(seed * 2), token);

            public static async Task<string> Run(int x) =>
                Length(new Lookup(), x) + "," + await Load(new MemoryStore(), x, CancellationToken.None);
        }
        """;

    [Fact]
    public async Task AnExtensionBesideTheReceiversStateOverload_IsFixed()
    {
        var test = new Verify.Test { TestCode = Before, FixedCode = After };
        test.ExpectedDiagnostics.Add(Verify.Diagnostic().WithLocation(0).WithArguments("'extra'", "a closure and a delegate", "the overload with a state parameter can pass it instead"));
        test.ExpectedDiagnostics.Add(Verify.Diagnostic().WithLocation(1).WithArguments("'seed'", "a closure and a delegate", "the overload with a state parameter can pass it instead"));
        await test.RunAsync();
    }

    /// <summary>
    /// A file also compiled for netstandard2.0 at C# 7.3 (nullable off): one text for both copies, so the lambdas get no
    /// <c>static</c> and their state parameters new names (C# 7.3 lets no lambda parameter shadow a local), and the text
    /// builds in both.
    /// </summary>
    [Fact]
    public async Task OlderCSharp_OnTwoTargets_GetsOneFixForBoth()
    {
        const string Declarations = """
            using System;
            using System.Threading;
            using System.Threading.Tasks;

            public interface ILookup
            {
                T Get<TState, T>(string key, Func<string, TState, T> factory, TState state);
            }

            public static class LookupExtensions
            {
                public static T Get<T>(this ILookup lookup, string key, Func<string, T> factory) => lookup.Get(key, (k, f) => f(k), factory);
            }

            public abstract class Store
            {
                public abstract Task<T> LoadAsync<TState, T>(string key, TState state, Func<TState, CancellationToken, Task<T>> load, CancellationToken token = default(CancellationToken));
            }

            public static class StoreExtensions
            {
                public static Task<T> LoadAsync<T>(this Store store, string key, Func<CancellationToken, Task<T>> load, CancellationToken token = default(CancellationToken)) =>
                    store.LoadAsync(key, load, (l, t) => l(t), token);
            }

            """;
        var test = new Verify.Test
        {
            TestCode = Declarations + """
                public static class Api
                {
                    public static int Length(ILookup lookup, int extra) => lookup.Get("key", {|#0:k => k.Length + extra|});

                    public static Task<int> Load(Store store, int seed, CancellationToken token) => store.LoadAsync("key", {|#1:t => Task.FromResult(seed * 2)|}, token);
                }
                """,
            FixedCode = Declarations + """
                public static class Api
                {
                    public static int Length(ILookup lookup, int extra) => lookup.Get("key", (k, myExtra) => k.Length + myExtra, extra);

                    public static Task<int> Load(Store store, int seed, CancellationToken token) => store.LoadAsync(
                        "key",
                        seed,
                        (mySeed, t) => Task.FromResult(mySeed * 2),
                        token);
                }
                """,
            LinkedTargets = { new LinkedTarget(TestTarget.NetStandard20, LanguageVersion.CSharp7_3, NullableContextOptions.Disable) },
        };
        test.ExpectedDiagnostics.Add(Verify.Diagnostic().WithLocation(0).WithArguments("'extra'", "a closure and a delegate", "the overload with a state parameter can pass it instead"));
        test.ExpectedDiagnostics.Add(Verify.Diagnostic().WithLocation(1).WithArguments("'seed'", "a closure and a delegate", "the overload with a state parameter can pass it instead"));
        await test.RunAsync();
    }

    [Theory]
    [InlineData(3)]
    [InlineData(-8)]
    public async Task FixedCode_DoesWhatTheOriginalDid(int x)
    {
        var original = await CodeRunner.RunAsync(TestMarkup.Strip(Before), "Api", "Run", x);
        Assert.Equal(original, await CodeRunner.RunAsync(After, "Api", "Run", x));
        Assert.Equal("returned " + (3 + x) + "," + (2 * x), original);
    }

    /// <summary>
    /// Called in its static form, the extension has no instance overload the call could name: reported without a fix.
    /// </summary>
    [Fact]
    public async Task TheStaticForm_IsReportedWithoutAFix()
    {
        var code = Library + """

            public static class Api
            {
                public static int Length(ILookup lookup, int extra) => LookupExtensions.Get(lookup, "key", {|#0:k => k.Length + extra|});
            }
            """;
        var test = new Verify.Test { TestCode = code, FixedCode = code, FixedState = { MarkupHandling = MarkupMode.Allow } };
        test.ExpectedDiagnostics.Add(Verify.Diagnostic().WithLocation(0).WithArguments("'extra'", "a closure and a delegate", "the overload with a state parameter can pass it instead"));
        await test.RunAsync();
    }

    /// <summary>
    /// An extension that another library declares for the type is not taken as the type's own overload: it may do more
    /// than hand its callback on.
    /// </summary>
    [Fact]
    public async Task AnExtensionOfAnotherLibrary_IsNotReported()
    {
        var library = CSharpCompilation.Create(
            "Lookups",
            [CSharpSyntaxTree.ParseText("""
                using System;

                public interface ILookup
                {
                    T Get<TState, T>(string key, Func<string, TState, T> factory, TState state);
                }
                """)],
            TestTarget.Net100.References(),
            new CSharpCompilationOptions(OutputKind.DynamicallyLinkedLibrary));
        using var image = new MemoryStream();
        Assert.True(library.Emit(image).Success);
        var test = new Verify.Test
        {
            TestCode = """
                using System;

                public static class MyLookupExtensions
                {
                    public static T Get<T>(this ILookup lookup, string key, Func<string, T> factory)
                    {
                        Console.WriteLine(key);
                        return lookup.Get(key, static (k, f) => f(k), factory);
                    }
                }

                public static class Api
                {
                    public static int Length(ILookup lookup, int extra) => lookup.Get("key", k => k.Length + extra);
                }
                """,
        };
        test.TestState.AdditionalReferences.Add(MetadataReference.CreateFromImage(image.ToArray()));
        await test.RunAsync();
    }
}
