using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp;
using TplPractices.Analyzers.Tests.Verifiers;
using Verify = TplPractices.Analyzers.Tests.Verifiers.CSharpCodeFixVerifier<
    TplPractices.Analyzers.Rules.PassThroughAsyncAnalyzer,
    TplPractices.Analyzers.CodeFixes.Rules.PassThroughAsyncFixer>;

namespace TplPractices.Analyzers.Tests.Rules;

/// <summary>
/// TPL0016 where a method or local function returning <c>ValueTask</c> or <c>ValueTask&lt;T&gt;</c> only awaits a
/// <c>Task</c> (a <c>DisposeAsync</c> that awaits a stop, an interface's <c>ValueTask&lt;T&gt;</c> over a <c>Task&lt;T&gt;</c>
/// call): <c>new ValueTask&lt;T&gt;(task)</c> awaits as the task does, without the state machine. A lambda keeps its
/// await: its body would decide its delegate type.
/// </summary>
public sealed class PassThroughAsyncValueTaskTests
{
    private const string Before = /* lang=c#-test */ """
        using System;
        using System.Threading.Tasks;

        public sealed class Store : IAsyncDisposable
        {
            private int _saved;

            private async Task<int> LoadAsync(int id)
            {
                await Task.Yield();
                if (id < 0) throw new ArgumentOutOfRangeException(nameof(id));
                return id * 10;
            }

            private async Task StopAsync()
            {
                await Task.Yield();
                _saved++;
            }

            private async ValueTask<int> CachedAsync(int id)
            {
                await Task.Yield();
                return id;
            }

            public async ValueTask<int> Get(int id) => [|await|] LoadAsync(id).ConfigureAwait(false);

            public async ValueTask<int> Either(int id, bool cached)
            {
                if (cached) return [|await|] CachedAsync(id);
                return await LoadAsync(id);
            }

            public async ValueTask DisposeAsync()
            {
                [|await|] StopAsync();
            }

            public ValueTask<int> Nested(int id)
            {
                return Inner();

                async ValueTask<int> Inner() => [|await|] LoadAsync(id + 1);
            }

            public int Saved => _saved;
        }

        public static class Api
        {
            public static async Task<string> Run(int id)
            {
                var store = new Store();
                try
                {
                    var text = await store.Get(id) + "," + await store.Either(id, true) + "," + await store.Either(id, false) + "," + await store.Nested(id);
                    await store.DisposeAsync();
                    return text + "," + store.Saved;
                }
                catch (ArgumentOutOfRangeException e)
                {
                    return "threw " + e.ParamName;
                }
            }
        }
        """;

    /// <summary>The fix's text: <c>async</c> gone, each awaited <c>Task</c> returned in a ValueTask, the ValueTask itself returned.</summary>
    private static readonly string After = TestMarkup.Strip(Before)
        .Replace("public async ValueTask<int> Get(int id) => await LoadAsync(id).ConfigureAwait(false);", "public ValueTask<int> Get(int id) => new ValueTask<int>(LoadAsync(id));", System.StringComparison.Ordinal)
        .Replace("public async ValueTask<int> Either", "public ValueTask<int> Either", System.StringComparison.Ordinal)
        .Replace("if (cached) return await CachedAsync(id);\n        return await LoadAsync(id);", "if (cached) return CachedAsync(id);\n        return new ValueTask<int>(LoadAsync(id));", System.StringComparison.Ordinal)
        .Replace("public async ValueTask DisposeAsync()\n    {\n        await StopAsync();", "public ValueTask DisposeAsync()\n    {\n        return new ValueTask(StopAsync());", System.StringComparison.Ordinal)
        .Replace("async ValueTask<int> Inner() => await LoadAsync(id + 1);", "ValueTask<int> Inner() => new ValueTask<int>(LoadAsync(id + 1));", System.StringComparison.Ordinal);

    [Fact]
    public async Task ATaskAwaitedInAValueTaskFunction_IsReturnedInOne()
    {
        await new Verify.Test { TestCode = Before, FixedCode = After }.RunAsync();
    }

    /// <summary>The same on netstandard2.0 with the ValueTask package at C# 7.3, beside net10.0.</summary>
    [Fact]
    public async Task OnNetStandard20WithTheValueTaskPackage_AtCSharp73()
    {
        const string Code = """
            using System.Threading.Tasks;

            public class Store
            {
                private async Task<int> LoadAsync(int id) { await Task.Yield(); return id; }

                private async Task StopAsync() { await Task.Yield(); }

                public async ValueTask<int> Get(int id) => [|await|] LoadAsync(id);

                public async ValueTask Stop() { [|await|] StopAsync(); }
            }
            """;
        const string Fixed = """
            using System.Threading.Tasks;

            public class Store
            {
                private async Task<int> LoadAsync(int id) { await Task.Yield(); return id; }

                private async Task StopAsync() { await Task.Yield(); }

                public ValueTask<int> Get(int id) => new ValueTask<int>(LoadAsync(id));

                public ValueTask Stop() { return new ValueTask(StopAsync()); }
            }
            """;
        await new Verify.Test
        {
            TestCode = Code,
            FixedCode = Fixed,
            Target = TestTarget.NetStandard20WithValueTask,
            LanguageVersion = LanguageVersion.CSharp7_3,
            NullableContext = NullableContextOptions.Disable,
            LinkedTargets = { new LinkedTarget(TestTarget.Net100, LanguageVersion.CSharp12, NullableContextOptions.Enable) },
        }.RunAsync();
    }

    /// <summary>A task held in a local before its await is returned in a ValueTask too.</summary>
    [Fact]
    public async Task AHeldTask_IsReturnedInOne()
    {
        await Verify.VerifyCodeFixAsync(
            """
            using System.Threading.Tasks;

            public class Store
            {
                private async Task<int> LoadAsync(int id) { await Task.Yield(); return id; }

                public async ValueTask Warm() { var pending = LoadAsync(1); [|await|] pending; }
            }
            """,
            """
            using System.Threading.Tasks;

            public class Store
            {
                private async Task<int> LoadAsync(int id) { await Task.Yield(); return id; }

                public ValueTask Warm() { var pending = LoadAsync(1); return new ValueTask(pending); }
            }
            """);
    }

    /// <summary>Each value, and the exception of a failing load, reaches the caller as before.</summary>
    [Theory]
    [InlineData(3)]
    [InlineData(-1)]
    public async Task FixedCode_DoesWhatTheOriginalDid(int id)
    {
        var original = await CodeRunner.RunAsync(TestMarkup.Strip(Before), "Api", "Run", id);
        Assert.StartsWith("returned", original, System.StringComparison.Ordinal);
        Assert.Equal(original, await CodeRunner.RunAsync(After, "Api", "Run", id));
    }

    /// <summary>
    /// Not reported: a lambda (its body decides its delegate type), another result type (<c>ValueTask&lt;object&gt;</c> over
    /// a <c>Task&lt;string&gt;</c>), or another nullability (<c>ValueTask&lt;string?&gt;</c> over a <c>Task&lt;string&gt;</c>).
    /// </summary>
    [Fact]
    public async Task OtherTypesAndLambdas_AreNotReported()
    {
        await Verify.VerifyAnalyzerAsync(/* lang=c#-test */ """
            #nullable enable
            using System;
            using System.Threading.Tasks;

            public class Quiet
            {
                private async Task<string> NameAsync() { await Task.Yield(); return "n"; }

                public Func<ValueTask<string>> Lambda() => async () => await NameAsync();

                public async ValueTask<object> Widened() => await NameAsync();

                public async ValueTask<string?> Nullable() => await NameAsync();
            }
            """);
    }
}
