using TplPractices.Analyzers.Tests.Verifiers;
using OverloadVerify = TplPractices.Analyzers.Tests.Verifiers.CSharpCodeFixVerifier<
    TplPractices.Analyzers.Rules.StateOverloadAnalyzer,
    TplPractices.Analyzers.CodeFixes.Rules.StateOverloadFixer>;
using TaskVerify = TplPractices.Analyzers.Tests.Verifiers.CSharpCodeFixVerifier<
    TplPractices.Analyzers.Rules.UseTaskStateAnalyzer,
    TplPractices.Analyzers.CodeFixes.Rules.UseTaskStateFixer>;

namespace TplPractices.Analyzers.Tests.Rules;

/// <summary>
/// A name in <c>nameof</c> inside a callback the state rules rewrite (TPL0001, TPL0006, TPL0007, TPL0015 share the
/// rewrite) is text, not a read. Found in Foundatio's cloner: <c>GetOrAdd(key, _ =&gt; { … nameof(CreateSafe) … })</c>
/// was reported with a fix that never came, because the rewrite wrote <c>nameof(self.CreateSafe)</c> where no
/// <c>self</c> exists, and the compile check dropped it. A captured variable read back under another name (C# 7.3's
/// <c>myId</c>) would have turned <c>nameof(id)</c> into <c>nameof(myId)</c>, another string.
/// </summary>
public sealed class StateNameofTests
{
    [Fact]
    public async Task MethodNamesInNameof_StayAsWritten()
    {
        await OverloadVerify.VerifyCodeFixAsync("""
            using System;
            using System.Collections.Concurrent;

            public sealed class Factories
            {
                private static readonly ConcurrentDictionary<int, string> Names = new();
                private readonly string _prefix = "p";

                public static string Pick(byte variant, Type type) => Names.GetOrAdd(variant, [|_ => (variant == 0 ? nameof(Safe) : nameof(Other)) + type|]);

                public string Own(int key) => Names.GetOrAdd(key, [|k => _prefix + nameof(Own) + nameof(Other) + k|]);

                private static object Safe<TKey, TValue>(int p) => p;

                private object Other(int p) => p;
            }
            """, """
            using System;
            using System.Collections.Concurrent;

            public sealed class Factories
            {
                private static readonly ConcurrentDictionary<int, string> Names = new();
                private readonly string _prefix = "p";

                public static string Pick(byte variant, Type type) => Names.GetOrAdd(variant, static (_, state) =>
                {
                    var (variant, type) = state;
                    return (variant == 0 ? nameof(Safe) : nameof(Other)) + type;
                }, (variant, type));

                public string Own(int key) => Names.GetOrAdd(key, static (k, self) => self._prefix + nameof(Own) + nameof(Other) + k, this);

                private static object Safe<TKey, TValue>(int p) => p;

                private object Other(int p) => p;
            }
            """);
    }

    /// <summary>C# 7.3 reads the value back as <c>myId</c> (a local may not take the parameter's name): <c>nameof(id)</c> keeps its text.</summary>
    [Fact]
    public async Task OnCSharp73_ARenamedValue_KeepsItsNameofText()
    {
        var before = """
            using System;
            using System.Threading.Tasks;

            static class C
            {
                static Task Check(int id) => Task.Factory.StartNew([|() => Console.WriteLine(nameof(id) + "=" + id)|]);
            }
            """;
        var after = """
            using System;
            using System.Threading.Tasks;

            static class C
            {
                static Task Check(int id) => Task.Factory.StartNew(state =>
                {
                    var myId = (int)state;
                    Console.WriteLine(nameof(id) + "=" + myId);
                }, id);
            }
            """;
        await new TaskVerify.Test { TestCode = before, FixedCode = after, OnCSharp73NetFramework = true }.RunAsync();
    }
}
