using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp;
using Microsoft.CodeAnalysis.Testing;
using TplPractices.Analyzers.Tests.Verifiers;
using Verify = TplPractices.Analyzers.Tests.Verifiers.CSharpCodeFixVerifier<
    TplPractices.Analyzers.Rules.UseTaskStateAnalyzer,
    TplPractices.Analyzers.CodeFixes.Rules.UseTaskStateFixer>;

namespace TplPractices.Analyzers.Tests.Rules;

/// <summary>
/// TPL0001 in the projects libraries are: several targets sharing each file, older language versions, nullable
/// warnings as errors, fixes run more than once. Each case here broke a real library's build before.
/// </summary>
public sealed class UseTaskStateTargetTests
{
    private const string OneCapture = /* lang=c#-test */ """
        using System;
        using System.Threading.Tasks;

        class C
        {
            Task M(int x) => Task.Factory.StartNew([|() => Console.WriteLine(x)|]);
        }
        """;

    /// <summary>netstandard2.0 compiles the shared file as C# 7.3: no static lambda, no '!', no shadowing.</summary>
    [Fact]
    public async Task MultiTargetedProject_WritesWhatTheOldestLanguageVersionAccepts()
    {
        await new Verify.Test
        {
            NullableContext = NullableContextOptions.Disable,
            TestCode = OneCapture,
            FixedCode = /* lang=c#-test */ """
                using System;
                using System.Threading.Tasks;

                class C
                {
                    Task M(int x) => Task.Factory.StartNew(state =>
                    {
                        var myX = (int)state;
                        Console.WriteLine(myX);
                    }, x);
                }
                """,
            LinkedTargets = { new LinkedTarget(TestTarget.NetStandard20, LanguageVersion.CSharp7_3) },
        }.RunAsync();
    }

    /// <summary>
    /// Without '!' (C# 7.3) the read-back warns where nullable warnings are on (CS8600, CS8605); with it, C# 7.3
    /// does not compile. No form suits both copies, so no fix.
    /// </summary>
    [Fact]
    public async Task MultiTargetedProject_MixingCSharp73AndNullableWarnings_OffersNoFix()
    {
        await new Verify.Test
        {
            TestCode = OneCapture,
            FixedCode = OneCapture,
            LinkedTargets = { new LinkedTarget(TestTarget.NetStandard20, LanguageVersion.CSharp7_3, NullableContextOptions.Disable) },
        }.RunAsync();
    }

    /// <summary>
    /// .NET Framework 4.6.2 has no ValueTuple (NLog builds for it, as net46, beside netstandard2.1): one value still
    /// travels as the state, but several would need a tuple that copy cannot compile, so that site keeps its lambda.
    /// </summary>
    [Fact]
    public async Task MultiTargetedProject_WithNet462_PassesOneValue_AndLeavesSeveralAlone()
    {
        const string Before = /* lang=c#-test */ """
            using System;
            using System.Threading.Tasks;

            class C
            {
                Task One(int x) => Task.Factory.StartNew([|() => Console.WriteLine(x)|]);
                Task Two(int x, string name) => Task.Factory.StartNew([|() => Console.WriteLine(name + x)|]);
            }
            """;
        await new Verify.Test
        {
            NullableContext = NullableContextOptions.Disable,
            TestCode = Before,
            FixedCode = Before.Replace("[|() => Console.WriteLine(x)|]", "state =>\n    {\n        var myX = (int)state;\n        Console.WriteLine(myX);\n    }, x", StringComparison.Ordinal)
                .Replace("[|() => Console.WriteLine(name + x)|]", "() => Console.WriteLine(name + x)", StringComparison.Ordinal),
            LinkedTargets = { new LinkedTarget(TestTarget.Net462, LanguageVersion.CSharp7_3) },
            FixedState = { MarkupHandling = MarkupMode.Allow, ExpectedDiagnostics = { Verify.Diagnostic().WithSpan(11, 59, 11, 92).WithArguments("'name' and 'x'", "a closure and a delegate", "them") } },
        }.RunAsync();
    }

    /// <summary>
    /// The first pass writes <c>var (a, b) = ((string, string))state!;</c> and leaves the inner lambda, which now
    /// captures those locals; the second must read them back as <c>string</c>, not <c>string?</c>, or every use warns.
    /// Fix All takes both passes in one run (a second dotnet format run would otherwise change the file again).
    /// </summary>
    [Fact]
    public async Task SecondRun_ReadsDeconstructedLocalsBackWithoutNullableWarnings()
    {
        await new Verify.Test
        {
            CompilerDiagnostics = CompilerDiagnostics.Warnings,
            TestCode = /* lang=c#-test */ """
                using System;
                using System.Threading.Tasks;

                class C
                {
                    Task M(string a, string b) => Task.Factory.StartNew([|() =>
                    {
                        Task.Factory.StartNew([|() => Console.WriteLine(a.Length + b.Length)|]).Wait();
                    }|]);
                }
                """,
            FixedCode = /* lang=c#-test */ """
                using System;
                using System.Threading.Tasks;

                class C
                {
                    Task M(string a, string b) => Task.Factory.StartNew(static state =>
                    {
                        var (a, b) = ((string, string))state!;
                        Task.Factory.StartNew(static state =>
                        {
                            var (a, b) = ((string, string))state!;
                            Console.WriteLine(a.Length + b.Length);
                        }, (a, b)).Wait();
                    }, (a, b));
                }
                """,
            NumberOfIncrementalIterations = 2,
            NumberOfFixAllIterations = 1,
        }.RunAsync();
    }

    /// <summary>Before C# 8 a lambda parameter may not reuse a local's name: 'state' is taken, so 'state2'.</summary>
    [Fact]
    public async Task CSharp73_StateParameterAvoidsNamesOfTheEnclosingScope()
    {
        await new Verify.Test
        {
            OnCSharp73NetFramework = true,
            TestCode = /* lang=c#-test */ """
                using System;
                using System.Threading.Tasks;

                class C
                {
                    Task M(int value)
                    {
                        var state = value * 2;
                        Console.WriteLine(state);
                        return Task.Factory.StartNew([|() => Console.WriteLine(value)|]);
                    }
                }
                """,
            FixedCode = /* lang=c#-test */ """
                using System;
                using System.Threading.Tasks;

                class C
                {
                    Task M(int value)
                    {
                        var state = value * 2;
                        Console.WriteLine(state);
                        return Task.Factory.StartNew(state2 =>
                        {
                            var myValue = (int)state2;
                            Console.WriteLine(myValue);
                        }, value);
                    }
                }
                """,
        }.RunAsync();
    }

    /// <summary>The rewrite touches the delegate and adds the state; the call's other lines stay as they were.</summary>
    [Fact]
    public async Task MultiLineCall_KeepsItsOtherLines()
    {
        await Verify.VerifyCodeFixAsync(
            /* lang=c#-test */ """
            using System.Threading;
            using System.Threading.Tasks;

            class C
            {
                Task<int> M(int left, CancellationToken token) =>
                    Task.Factory.StartNew(
                        [|() => left * 2|],
                        token,
                        TaskCreationOptions.None,
                        TaskScheduler.Default);
            }
            """,
            /* lang=c#-test */ """
            using System.Threading;
            using System.Threading.Tasks;

            class C
            {
                Task<int> M(int left, CancellationToken token) =>
                    Task.Factory.StartNew(
                        static state =>
                        {
                            var left = (int)state!;
                            return left * 2;
                        },
                        left,
                        token,
                        TaskCreationOptions.None,
                        TaskScheduler.Default);
            }
            """);
    }

    /// <summary>A CancellationToken is a readonly struct; netstandard2.0's reference assembly just does not say so.</summary>
    [Theory]
    [InlineData(TestTarget.Net100)]
    [InlineData(TestTarget.NetStandard20)]
    [InlineData(TestTarget.Net472)]
    public async Task CapturedCancellationToken_IsReportedOnEveryTarget(TestTarget target)
    {
        await Verify.VerifyAnalyzerAsync(/* lang=c#-test */ """
            using System;
            using System.Threading;
            using System.Threading.Tasks;

            class C
            {
                Task M(CancellationToken token) => Task.Factory.StartNew([|() => Console.WriteLine(token.IsCancellationRequested)|]);
            }
            """, target);
    }

    /// <summary>Four values would travel as a 4-tuple read back by deconstruction: reported, not rewritten.</summary>
    [Fact]
    public async Task MoreThanThreeCaptures_ReportWithoutFix()
    {
        const string Source = /* lang=c#-test */ """
            using System;
            using System.Threading.Tasks;

            class C
            {
                Task M(int a, int b, int c, int d) => Task.Factory.StartNew([|() => Console.WriteLine(a + b + c + d)|]);
                Task N(int a, int b, int c) => Task.Factory.StartNew([|() => Console.WriteLine(a + b + c)|]);
            }
            """;
        await new Verify.Test
        {
            TestCode = Source,
            FixedCode = Source.Replace(
                "Task.Factory.StartNew([|() => Console.WriteLine(a + b + c)|])",
                "Task.Factory.StartNew(static state =>\n    {\n        var (a, b, c) = ((int, int, int))state!;\n        Console.WriteLine(a + b + c);\n    }, (a, b, c))",
                StringComparison.Ordinal),

            // The diagnostic left in the fixed code has no fix; by default the library ignores markup of fixable IDs there.
            FixedState = { MarkupHandling = MarkupMode.Allow },
        }.RunAsync();
    }
}
