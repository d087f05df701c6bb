using System.Collections.Immutable;
using System.Reflection;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CodeFixes;
using Microsoft.CodeAnalysis.CSharp.Testing;
using Microsoft.CodeAnalysis.Diagnostics;
using Microsoft.CodeAnalysis.Testing;
using TplPractices.Analyzers.CodeFixes.Rules;
using TplPractices.Analyzers.Tests.Verifiers;

namespace TplPractices.Analyzers.Tests.Rules;

/// <summary>
/// Peer analyzers that report a site this package fixes, without a fix of their own: the fix is offered on their
/// diagnostics too. CA2027 (Microsoft.CodeAnalysis.NetAnalyzers 11.0.100, loaded from the package) reports a Task.Delay
/// racing in Task.WhenAny; TPL0017's fix cancels the delay once the race is decided, whether TPL0017 itself is on or off.
/// </summary>
public sealed class PeerFixTests
{
    private static readonly Lazy<AnalyzerFileReference> NetAnalyzers = new(() => PackagedAnalyzers.Load("netanalyzers", "Microsoft.CodeAnalysis.NetAnalyzers.dll"));

    private sealed class PeerTest : CSharpCodeFixTest<EmptyDiagnosticAnalyzer, DelayTimerFixer, DefaultVerifier>
    {
        public PeerTest()
        {
            ReferenceAssemblies = OfflineReferences.None;
            TestState.AdditionalReferences.AddRange(TestTarget.Net100.References());
        }

        protected override IEnumerable<DiagnosticAnalyzer> GetDiagnosticAnalyzers() =>
            NetAnalyzers.Value.GetAnalyzers(LanguageNames.CSharp).Where(a => a.SupportedDiagnostics.Any(d => d.Id == "CA2027"));
    }

    private const string Race = """
        using System.Threading.Tasks;

        class C
        {
            async Task<bool> First(Task work)
            {
                var winner = await Task.WhenAny(work, {|CA2027:Task.Delay(1000)|});
                return winner == work;
            }

            async Task Second(Task work)
            {
                await Task.WhenAny(work, {|CA2027:Task.Delay(2000)|});
            }
        }
        """;

    [Theory]
    [InlineData("dotnet_diagnostic.TPL0017.severity = none")]
    [InlineData("dotnet_diagnostic.TPL0017.severity = suggestion")]
    public async Task CA2027_GetsTheFix_WhateverTPL0017IsSetTo(string severity)
    {
        var config = $"root = true\n[*.cs]\ndotnet_diagnostic.CA2027.severity = warning\n{severity}\n";
        var test = new PeerTest
        {
            TestCode = Race,
            FixedCode = "using System.Threading;\n" + Race
                .Replace("        var winner = await Task.WhenAny(work, {|CA2027:Task.Delay(1000)|});\n", "        using var delayCancellation = new CancellationTokenSource();\n        var winner = await Task.WhenAny(work, Task.Delay(1000, delayCancellation.Token));\n        delayCancellation.Cancel();\n", StringComparison.Ordinal)
                .Replace("        await Task.WhenAny(work, {|CA2027:Task.Delay(2000)|});\n", "        using var delayCancellation = new CancellationTokenSource();\n        await Task.WhenAny(work, Task.Delay(2000, delayCancellation.Token));\n        delayCancellation.Cancel();\n", StringComparison.Ordinal),
        };
        test.TestState.AnalyzerConfigFiles.Add(("/.editorconfig", config));
        test.FixedState.AnalyzerConfigFiles.Add(("/.editorconfig", config));
        await test.RunAsync();
    }

    [Fact]
    public void TheFixer_NamesThePeersItServes()
    {
        Assert.Equal(["TPL0017", "CA2027"], new DelayTimerFixer().FixableDiagnosticIds.ToArray());
    }
}
