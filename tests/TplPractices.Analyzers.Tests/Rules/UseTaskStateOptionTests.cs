using Microsoft.CodeAnalysis.Testing;
using Verify = TplPractices.Analyzers.Tests.Verifiers.CSharpCodeFixVerifier<
    TplPractices.Analyzers.Rules.UseTaskStateAnalyzer,
    TplPractices.Analyzers.CodeFixes.Rules.UseTaskStateFixer>;

namespace TplPractices.Analyzers.Tests.Rules;

/// <summary>TPL0001's threshold option: how many captured values the fix may pack into the state.</summary>
public sealed class UseTaskStateOptionTests
{
    private const string FourCaptures = /* lang=c#-test */ """
        using System;
        using System.Threading.Tasks;

        class C
        {
            Task M(int a, int b, int c, int d) => Task.Factory.StartNew([|() => Console.WriteLine(a + b + c + d)|]);
        }
        """;

    private const string FourInTheState = /* lang=c#-test */ """
        using System;
        using System.Threading.Tasks;

        class C
        {
            Task M(int a, int b, int c, int d) => Task.Factory.StartNew(static state =>
            {
                var (a, b, c, d) = ((int, int, int, int))state!;
                Console.WriteLine(a + b + c + d);
            }, (a, b, c, d));
        }
        """;

    [Fact]
    public async Task MaxStateValuesRaised_FixesFourValues()
    {
        var test = new Verify.Test { TestCode = FourCaptures, FixedCode = FourInTheState };
        test.TestState.AnalyzerConfigFiles.Add(("/.editorconfig", "root = true\n[*.cs]\ntpl_practices.TPL0001.max_state_values = 4\n"));
        await test.RunAsync();
    }

    [Theory]
    [InlineData("tpl_practices.TPL0001.max_state_values = 1")] // lowered: two captures get no fix
    [InlineData("tpl_practices.max_state_values = 1")] // the package-wide key works for this option too
    public async Task MaxStateValuesLowered_ReportsTwoValuesWithoutFix(string option)
    {
        const string Source = /* lang=c#-test */ """
            using System;
            using System.Threading.Tasks;

            class C
            {
                Task M(int a, int b) => Task.Factory.StartNew([|() => Console.WriteLine(a + b)|]);
            }
            """;
        var test = new Verify.Test { TestCode = Source, FixedCode = Source, FixedState = { MarkupHandling = MarkupMode.Allow } };
        test.TestState.AnalyzerConfigFiles.Add(("/.editorconfig", "root = true\n[*.cs]\n" + option + "\n"));
        await test.RunAsync();
    }

    /// <summary>Out of range or not a number: the default (three) stays, so four values get no fix.</summary>
    [Theory]
    [InlineData("0")]
    [InlineData("8")]
    [InlineData("four")]
    [InlineData("")]
    public async Task MaxStateValuesInvalid_KeepsTheDefault(string value)
    {
        var test = new Verify.Test { TestCode = FourCaptures, FixedCode = FourCaptures, FixedState = { MarkupHandling = MarkupMode.Allow } };
        test.TestState.AnalyzerConfigFiles.Add(("/.editorconfig", "root = true\n[*.cs]\ntpl_practices.TPL0001.max_state_values = " + value + "\n"));
        await test.RunAsync();
    }

    /// <summary>
    /// Each file keeps its own settings, however the compiler interleaves the files: the options are remembered for
    /// the file asked about last, and must not leak into the next one.
    /// </summary>
    [Fact]
    public async Task MaxStateValuesSetForOneFile_AppliesThereOnly()
    {
        const string TwoCaptures = /* lang=c#-test */ """
            using System;
            using System.Threading.Tasks;

            class C{0}
            {{
                Task M(int a, int b) => Task.Factory.StartNew([|() => Console.WriteLine(a + b)|]);
                Task N(int a, int b) => Task.Factory.StartNew([|() => Console.WriteLine(a - b)|]);
            }}
            """;
        const string TwoInTheState = /* lang=c#-test */ """
            using System;
            using System.Threading.Tasks;

            class C0
            {
                Task M(int a, int b) => Task.Factory.StartNew(static state =>
                {
                    var (a, b) = ((int, int))state!;
                    Console.WriteLine(a + b);
                }, (a, b));
                Task N(int a, int b) => Task.Factory.StartNew(static state =>
                {
                    var (a, b) = ((int, int))state!;
                    Console.WriteLine(a - b);
                }, (a, b));
            }
            """;
        var test = new Verify.Test
        {
            TestState = { Sources = { string.Format(TwoCaptures, 0), string.Format(TwoCaptures, 1) } },
            FixedState = { Sources = { TwoInTheState, string.Format(TwoCaptures, 1) }, MarkupHandling = MarkupMode.Allow },
        };
        test.TestState.AnalyzerConfigFiles.Add(("/.editorconfig", "root = true\n[Test1.cs]\ntpl_practices.TPL0001.max_state_values = 1\n"));
        await test.RunAsync();
    }
}
