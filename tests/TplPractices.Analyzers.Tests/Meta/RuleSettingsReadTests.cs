using System.Collections.Immutable;
using System.Diagnostics.CodeAnalysis;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp;
using Microsoft.CodeAnalysis.Diagnostics;
using TplPractices.Analyzers.Internals;

namespace TplPractices.Analyzers.Tests.Meta;

/// <summary>
/// Reading a file's options skips every key lookup where the options list no <c>tpl_practices</c> key; a host whose
/// options cannot list their keys (the base class's <c>Keys</c>) still has every key read.
/// </summary>
public sealed class RuleSettingsReadTests
{
    private static readonly NumberOption Max = new("max_state_values", 3, 1, 7);

    [Theory]
    [InlineData(true)]
    [InlineData(false)]
    public void AKeyIsRead_WhetherOrNotTheHostListsItsKeys(bool listsKeys)
    {
        var options = new Options(listsKeys, ("indent_style", "space"), ("tpl_practices.TPL0001.max_state_values", "5"));
        var settings = RuleSettings.Read(new Provider(options), CSharpSyntaxTree.ParseText("class C { }"), "TPL0001", [Max]);
        Assert.Equal(5, settings.Number(Max));
    }

    [Fact]
    public void OptionsWithoutOurKeys_GiveTheDefaults_AndAreNotAskedForThem()
    {
        var options = new Options(true, ("indent_style", "space"));
        var settings = RuleSettings.Read(new Provider(options), CSharpSyntaxTree.ParseText("class C { }"), "TPL0001", [Max]);
        Assert.Equal(3, settings.Number(Max));
        Assert.True(settings.Scope.Includes(null));
        Assert.Equal(0, options.Lookups);
    }

    private sealed class Options(bool listsKeys, params (string Key, string Value)[] values) : AnalyzerConfigOptions
    {
        private readonly ImmutableDictionary<string, string> _values = values.ToImmutableDictionary(v => v.Key, v => v.Value);

        public int Lookups { get; private set; }

        public override IEnumerable<string> Keys => listsKeys ? _values.Keys : base.Keys;

        public override bool TryGetValue(string key, [NotNullWhen(true)] out string? value)
        {
            Lookups++;
            return _values.TryGetValue(key, out value);
        }
    }

    private sealed class Provider(AnalyzerConfigOptions options) : AnalyzerConfigOptionsProvider
    {
        public override AnalyzerConfigOptions GlobalOptions => options;

        public override AnalyzerConfigOptions GetOptions(SyntaxTree tree) => options;

        public override AnalyzerConfigOptions GetOptions(AdditionalText textFile) => options;
    }
}
