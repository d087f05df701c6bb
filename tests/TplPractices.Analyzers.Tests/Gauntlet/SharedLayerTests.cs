using System.Collections.Immutable;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.Text;
using TplPractices.Analyzers.CodeFixes.Internals;

namespace TplPractices.Analyzers.Tests.Gauntlet;

/// <summary>
/// The layer every fix goes through (<see cref="FixOutput"/>), on its own: a rewrite that adds a compiler warning in any
/// target's copy, or changes the preprocessor lines, is not applied; comments it drops are put back.
/// </summary>
public sealed class SharedLayerTests
{
    private const string Code = """
        class C
        {
            void M()
            {
                System.Console.WriteLine(1); // one
            }
        }
        """;

    [Fact]
    public async Task RewriteThatAddsAWarningInOneTargetsCopy_IsNotApplied()
    {
        // The warning (CS8600) exists only in the net10.0 copy, which has nullable warnings on.
        var result = await RewriteAsync(Code, "System.Console.WriteLine(1); // one", "string s = null; System.Console.WriteLine(s); // one");
        Assert.Equal(Code, result);
    }

    [Fact]
    public async Task RewriteThatChangesAPreprocessorLine_IsNotApplied()
    {
        var code = Code.Replace("        System.Console", "#if NET\n        System.Console", StringComparison.Ordinal).Replace("// one\n", "// one\n#endif\n", StringComparison.Ordinal);
        var result = await RewriteAsync(code, "#endif", "#endif // changed");
        Assert.Equal(code, result);
    }

    /// <summary>
    /// A call whose [CallerMemberName] the compiler fills would be told another name once moved into another member; a
    /// line moved down changes only [CallerLineNumber], as any edit above it does, and is applied.
    /// </summary>
    [Fact]
    public async Task RewriteThatMovesACallerMemberNameCall_IsNotApplied_ButOneThatShiftsItsLineIs()
    {
        var code = Code.Replace("System.Console.WriteLine(1); // one", "Log(); // one", StringComparison.Ordinal)
            .Replace("    void M()", "    static void Log([System.Runtime.CompilerServices.CallerMemberName] string m = \"\", [System.Runtime.CompilerServices.CallerLineNumber] int l = 0) { }\n\n    void M()", StringComparison.Ordinal);
        var moved = await RewriteAsync(code, "Log(); // one\n    }", "N(); // one\n    }\n\n    void N()\n    {\n        Log();\n    }");
        Assert.Equal(code, moved);
        var shifted = await RewriteAsync(code, "Log(); // one", "\n        Log(); // one");
        Assert.NotEqual(code, shifted);
    }

    /// <summary>A lambda's attribute goes with the lambda: a rewrite that removes the lambda (inlining its body) is not applied.</summary>
    [Fact]
    public async Task RewriteThatDropsALambdasAttribute_IsNotApplied()
    {
        var code = Code.Replace("System.Console.WriteLine(1); // one", "System.Action a = [System.Diagnostics.DebuggerStepThrough] () => System.Console.WriteLine(1); // one", StringComparison.Ordinal);
        Assert.Equal(code, await RewriteAsync(code, "[System.Diagnostics.DebuggerStepThrough] () =>", "() =>", modern: true));
        Assert.NotEqual(code, await RewriteAsync(code, "WriteLine(1)", "WriteLine(2)", modern: true));
    }

    [Fact]
    public async Task CommentsTheRewriteDrops_ArePutBack()
    {
        var result = await RewriteAsync(Code, "System.Console.WriteLine(1); // one", "System.Console.WriteLine(2);");
        Assert.Contains("// one", result, StringComparison.Ordinal);
        Assert.Contains("System.Console.WriteLine(2);", result, StringComparison.Ordinal);
    }

    /// <summary>
    /// Runs a rewrite that replaces <paramref name="from"/> by <paramref name="to"/> through the layer, in a
    /// netstandard2.0 + net10.0 project (C# 7.3 and the newest, or the newest in both with <paramref name="modern"/>);
    /// <paramref name="editorConfig"/> is added to the rules' .editorconfig.
    /// </summary>
    internal static async Task<string> RewriteAsync(string code, string from, string to, string editorConfig = "", bool modern = false)
    {
        var solution = GauntletSetup.WithEditorConfig(
            (modern ? GauntletSetup.Modern : GauntletSetup.Legacy).Create([("Test0.cs", code)], OutputKind.DynamicallyLinkedLibrary), editorConfig);

        var document = solution.Projects.OrderBy(p => p.Name, StringComparer.Ordinal).First().Documents.Single();
        var tree = (await document.GetSyntaxTreeAsync())!;
        var span = new TextSpan(code.IndexOf(" M(", StringComparison.Ordinal) + 1, 1);
        var diagnostic = Diagnostic.Create(Analyzers.Rules.CacheConstantTaskResultAnalyzer.Rule, Location.Create(tree, span), "42", "Task<int>");
        Task<Document> Rewrite(Document d, ImmutableArray<Diagnostic> _, CancellationToken __) =>
            Task.FromResult(d.WithText(SourceText.From(code.Replace(from, to, StringComparison.Ordinal))));
        var result = await FixOutput.RewriteAsync(document, [diagnostic], Rewrite, (_, _) => false, checkCompiler: true, CancellationToken.None);
        return (await result.GetTextAsync()).ToString();
    }
}
