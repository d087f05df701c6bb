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
/// CA2008 (NetAnalyzers) and VSTHRD105 (Microsoft.VisualStudio.Threading.Analyzers 18.12.1, loaded from the package)
/// report a StartNew or ContinueWith without a scheduler; TPL0019's fix passes TaskScheduler.Current.
/// </summary>
public sealed class PeerFixTests
{
    private static readonly Lazy<AnalyzerFileReference> NetAnalyzers = new(() => PackagedAnalyzers.Load("netanalyzers", "Microsoft.CodeAnalysis.NetAnalyzers.dll"));

    private static readonly Lazy<AnalyzerFileReference> ThreadingAnalyzers = new(() => PackagedAnalyzers.Load("vsthreading", "Microsoft.VisualStudio.Threading.Analyzers.CSharp.dll"));

    /// <summary>A fix test whose diagnostics come from the one analyzer of a peer's package that reports the peer's ID.</summary>
    private sealed class PeerTest<TFixer> : CSharpCodeFixTest<EmptyDiagnosticAnalyzer, TFixer, DefaultVerifier>
        where TFixer : CodeFixProvider, new()
    {
        private readonly Lazy<AnalyzerFileReference> _package;
        private readonly string _peerId;

        public PeerTest(Lazy<AnalyzerFileReference> package, string peerId)
        {
            _package = package;
            _peerId = peerId;
            ReferenceAssemblies = OfflineReferences.None;
            TestState.AdditionalReferences.AddRange(TestTarget.Net100.References());
        }

        protected override IEnumerable<DiagnosticAnalyzer> GetDiagnosticAnalyzers() =>
            _package.Value.GetAnalyzers(LanguageNames.CSharp).Where(a => a.SupportedDiagnostics.Any(d => d.Id == _peerId));
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
        var test = new PeerTest<DelayTimerFixer>(NetAnalyzers, "CA2027")
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

    private const string ProviderRace = """
        using System;
        using System.Threading.Tasks;

        class C
        {
            async Task<bool> OnTheClock(Task work, TimeProvider clock)
            {
                var winner = await Task.WhenAny(work, {|CA2027:Task.Delay(TimeSpan.FromSeconds(1), clock)|});
                return winner == work;
            }
        }
        """;

    /// <summary>CA2027 reports a race on a TimeProvider's delay too: TPL0017's fix gives the token after the provider there.</summary>
    [Fact]
    public async Task CA2027_OnATimeProvidersDelay_GetsTheFix()
    {
        const string Config = "root = true\n[*.cs]\ndotnet_diagnostic.CA2027.severity = warning\ndotnet_diagnostic.TPL0017.severity = none\n";
        var test = new PeerTest<DelayTimerFixer>(NetAnalyzers, "CA2027")
        {
            TestCode = ProviderRace,
            FixedCode = ProviderRace.Replace("using System.Threading.Tasks;\n", "using System.Threading;\nusing System.Threading.Tasks;\n", StringComparison.Ordinal).Replace(
                "        var winner = await Task.WhenAny(work, {|CA2027:Task.Delay(TimeSpan.FromSeconds(1), clock)|});\n",
                "        using var delayCancellation = new CancellationTokenSource();\n        var winner = await Task.WhenAny(work, Task.Delay(TimeSpan.FromSeconds(1), clock, delayCancellation.Token));\n        delayCancellation.Cancel();\n",
                StringComparison.Ordinal),
        };
        test.TestState.AnalyzerConfigFiles.Add(("/.editorconfig", Config));
        test.FixedState.AnalyzerConfigFiles.Add(("/.editorconfig", Config));
        await test.RunAsync();
    }

    private const string UsedRace = """
        using System.Threading.Tasks;

        class C
        {
            async Task<bool> Bodied(Task work) => await Task.WhenAny(work, {|CA2027:Task.Delay(1000)|}) == work;
        }
        """;

    /// <summary>A race the expression body goes on to compare gets TPL0017's fix on CA2027's diagnostic too: a block with the race in a local.</summary>
    [Fact]
    public async Task CA2027_OnARaceTheBodyCompares_GetsTheFix()
    {
        const string Config = "root = true\n[*.cs]\ndotnet_diagnostic.CA2027.severity = warning\ndotnet_diagnostic.TPL0017.severity = none\n";
        var test = new PeerTest<DelayTimerFixer>(NetAnalyzers, "CA2027")
        {
            TestCode = UsedRace,
            FixedCode = "using System.Threading;\n" + UsedRace.Replace(
                "    async Task<bool> Bodied(Task work) => await Task.WhenAny(work, {|CA2027:Task.Delay(1000)|}) == work;\n",
                "    async Task<bool> Bodied(Task work)\n    {\n        using var delayCancellation = new CancellationTokenSource();\n        var winner = await Task.WhenAny(work, Task.Delay(1000, delayCancellation.Token));\n        delayCancellation.Cancel();\n        return winner == work;\n    }\n",
                StringComparison.Ordinal),
        };
        test.TestState.AnalyzerConfigFiles.Add(("/.editorconfig", Config));
        test.FixedState.AnalyzerConfigFiles.Add(("/.editorconfig", Config));
        await test.RunAsync();
    }

    [Fact]
    public void TheFixer_NamesThePeersItServes()
    {
        Assert.Equal(["TPL0017", "CA2027"], new DelayTimerFixer().FixableDiagnosticIds.ToArray());
    }

    private const string Unscheduled = """
        using System;
        using System.Threading.Tasks;

        class C
        {
            Task Start(Action work) => [|Task.Factory.StartNew(work)|];

            Task Then(Task first) => [|first.ContinueWith(_ => Console.WriteLine("then"))|];
        }
        """;

    private const string Scheduled = """
        using System;
        using System.Threading;
        using System.Threading.Tasks;

        class C
        {
            Task Start(Action work) => Task.Factory.StartNew(work, CancellationToken.None, TaskCreationOptions.None, TaskScheduler.Current);

            Task Then(Task first) => first.ContinueWith(_ => Console.WriteLine("then"), CancellationToken.None, TaskContinuationOptions.None, TaskScheduler.Current);
        }
        """;

    [Theory]
    [InlineData("dotnet_diagnostic.TPL0019.severity = none")]
    [InlineData("dotnet_diagnostic.TPL0019.severity = suggestion")]
    public async Task CA2008_GetsTheFix_WhateverTPL0019IsSetTo(string severity)
    {
        var config = $"root = true\n[*.cs]\ndotnet_diagnostic.CA2008.severity = warning\n{severity}\n";
        var test = new PeerTest<ExplicitSchedulerFixer>(NetAnalyzers, "CA2008") { TestCode = Unscheduled.Replace("[|", "{|CA2008:", StringComparison.Ordinal).Replace("|]", "|}", StringComparison.Ordinal), FixedCode = Scheduled };
        test.TestState.AnalyzerConfigFiles.Add(("/.editorconfig", config));
        test.FixedState.AnalyzerConfigFiles.Add(("/.editorconfig", config));
        await test.RunAsync();
    }

    /// <summary>VSTHRD105 reports on the method's name, CA2008 on the whole call: the fix takes either.</summary>
    [Fact]
    public async Task VSTHRD105_GetsTheFix()
    {
        var config = "root = true\n[*.cs]\ndotnet_diagnostic.VSTHRD105.severity = warning\n";
        var test = new PeerTest<ExplicitSchedulerFixer>(ThreadingAnalyzers, "VSTHRD105")
        {
            TestCode = Unscheduled.Replace("[|", "", StringComparison.Ordinal).Replace("|]", "", StringComparison.Ordinal)
                .Replace("StartNew(", "{|VSTHRD105:StartNew|}(", StringComparison.Ordinal).Replace("ContinueWith(", "{|VSTHRD105:ContinueWith|}(", StringComparison.Ordinal),
            FixedCode = Scheduled,
        };
        test.TestState.AnalyzerConfigFiles.Add(("/.editorconfig", config));
        test.FixedState.AnalyzerConfigFiles.Add(("/.editorconfig", config));
        await test.RunAsync();
    }

    /// <summary>
    /// Options the delegate's state took (Websocket.Client's sender loop): on VSTHRD105's diagnostic the fix is TPL0019's
    /// for that site, the options moved to their place, one site at a time under the title that says what changes.
    /// </summary>
    [Fact]
    public async Task VSTHRD105_OnOptionsTheStateTook_GetsTheSiteFix()
    {
        var config = "root = true\n[*.cs]\ndotnet_diagnostic.VSTHRD105.severity = warning\n";
        var test = new PeerTest<ExplicitSchedulerFixer>(ThreadingAnalyzers, "VSTHRD105")
        {
            TestCode = """
                using System.Threading;
                using System.Threading.Tasks;

                class C
                {
                    Task Send(CancellationToken token) => Task.Factory.{|VSTHRD105:StartNew|}(_ => Loop(), TaskCreationOptions.LongRunning, token);

                    void Loop() { }
                }
                """,
            FixedCode = """
                using System.Threading;
                using System.Threading.Tasks;

                class C
                {
                    Task Send(CancellationToken token) => Task.Factory.StartNew(_ => Loop(), null, token, TaskCreationOptions.LongRunning, TaskScheduler.Current);

                    void Loop() { }
                }
                """,
            CodeActionEquivalenceKey = ExplicitSchedulerFixer.EquivalenceKey + "_OneSite",
            CodeActionVerifier = (action, verifier) => verifier.True(action.Title.EndsWith("(" + TplPractices.Analyzers.Rules.ExplicitScheduler.PassInPlaceReason + ")", StringComparison.Ordinal), action.Title),
            CodeFixTestBehaviors = CodeFixTestBehaviors.SkipFixAllCheck,
        };
        test.TestState.AnalyzerConfigFiles.Add(("/.editorconfig", config));
        test.FixedState.AnalyzerConfigFiles.Add(("/.editorconfig", config));
        await test.RunAsync();
    }

    [Fact]
    public void TheSchedulerFixer_NamesThePeersItServes()
    {
        Assert.Equal(["TPL0019", "CA2008", "VSTHRD105"], new ExplicitSchedulerFixer().FixableDiagnosticIds.ToArray());
    }
}
