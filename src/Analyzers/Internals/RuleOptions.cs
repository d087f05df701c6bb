using System;
using System.Collections.Concurrent;
using System.Collections.Generic;
using System.Collections.Immutable;
using System.Globalization;
using System.Linq;
using System.Runtime.CompilerServices;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.Diagnostics;

namespace TplPractices.Analyzers.Internals;

/// <summary>A whole-number option of one rule, with the range a value must fall in to be used.</summary>
internal sealed class NumberOption
{
    public NumberOption(string name, int defaultValue, int min, int max)
    {
        Name = name;
        Default = defaultValue;
        Min = min;
        Max = max;
    }

    public string Name { get; }

    public int Default { get; }

    public int Min { get; }

    public int Max { get; }
}

/// <summary>
/// A rule's .editorconfig options for one syntax tree. Keys are <c>tpl_practices.TPLnnnn.name</c> for one rule and
/// <c>tpl_practices.name</c> for every rule; the rule's own key wins. A value that does not parse, or lies outside
/// an option's range, is ignored.
/// </summary>
internal sealed class RuleSettings
{
    public const string Prefix = "tpl_practices.";
    public const string RequiredAttributes = "required_attributes";
    public const string ExcludedAttributes = "excluded_attributes";
    public const string ExcludedNamespaces = "excluded_namespaces";

    private readonly ImmutableDictionary<string, int> _numbers;

    private RuleSettings(RuleScope scope, ImmutableDictionary<string, int> numbers)
    {
        Scope = scope;
        _numbers = numbers;
    }

    public RuleScope Scope { get; }

    // Asked at every candidate of the state rules, where no number is set as a rule: no lookup then.
    public int Number(NumberOption option) => _numbers.Count > 0 && _numbers.TryGetValue(option.Name, out var value) ? value : option.Default;

    /// <summary>The settings of a file whose options name no <c>tpl_practices</c> key: every default.</summary>
    private static readonly RuleSettings Defaults = new(
        new RuleScope(ImmutableArray<string>.Empty, ImmutableArray<string>.Empty, ImmutableArray<string>.Empty),
        ImmutableDictionary<string, int>.Empty);

    /// <summary>
    /// Per options object (the compiler gives each file one, the same for every rule that asks), whether it names any
    /// <c>tpl_practices</c> key. Most projects set none, so every rule's reading of a file is then one lookup here
    /// instead of a dozen key lookups, each with its key built, per rule and file.
    /// </summary>
    private static readonly ConditionalWeakTable<AnalyzerConfigOptions, object> NamesOurKeys = new();
    private static readonly ConditionalWeakTable<AnalyzerConfigOptions, object>.CreateValueCallback ScanKeys = ScanForOurKeys;
    private static readonly object Yes = new();
    private static readonly object No = new();

    private static bool MayNameOurKeys(AnalyzerConfigOptions options) => NamesOurKeys.GetValue(options, ScanKeys) == Yes;

    private static object ScanForOurKeys(AnalyzerConfigOptions options)
    {
        try
        {
            foreach (var key in options.Keys)
            {
                if (key.StartsWith(Prefix, StringComparison.Ordinal))
                {
                    return Yes;
                }
            }

            return No;
        }
        catch (NotImplementedException)
        {
            // A host whose options cannot list their keys (the base class's Keys throws): read every key as before.
            return Yes;
        }
    }

    /// <summary>Parses the options of <paramref name="ruleId"/> that apply to <paramref name="tree"/>.</summary>
    public static RuleSettings Read(AnalyzerConfigOptionsProvider provider, SyntaxTree tree, string ruleId, ImmutableArray<NumberOption> numbers)
    {
        var options = provider.GetOptions(tree);
        if (!MayNameOurKeys(options))
        {
            return Defaults;
        }

        var scope = new RuleScope(List(options, ruleId, RequiredAttributes), List(options, ruleId, ExcludedAttributes), List(options, ruleId, ExcludedNamespaces));
        var values = ImmutableDictionary<string, int>.Empty;
        foreach (var option in numbers)
        {
            if (Value(options, ruleId, option.Name) is { } text
                && (int.TryParse(text, NumberStyles.Integer, CultureInfo.InvariantCulture, out var value) || IsSwitch(option, text, out value))
                && value >= option.Min
                && value <= option.Max)
            {
                values = values.Add(option.Name, value);
            }
        }

        return new RuleSettings(scope, values);
    }

    /// <summary>An option that is on or off (0 to 1) also reads <c>true</c> and <c>false</c>.</summary>
    private static bool IsSwitch(NumberOption option, string text, out int value)
    {
        value = string.Equals(text, "true", System.StringComparison.OrdinalIgnoreCase) ? 1 : 0;
        return option.Min == 0 && option.Max == 1
            && (value == 1 || string.Equals(text, "false", System.StringComparison.OrdinalIgnoreCase));
    }

    /// <summary>
    /// Whether the options for a tree name an attribute the rule requires, as <see cref="Read"/> would find: only
    /// looks the keys up, so asking it of every file costs two lookups each where none is set.
    /// </summary>
    public static bool NamesRequiredAttributes(AnalyzerConfigOptions options, string ruleId) =>
        MayNameOurKeys(options) && !List(options, ruleId, RequiredAttributes).IsEmpty;

    private static string? Value(AnalyzerConfigOptions options, string ruleId, string name) =>
        options.TryGetValue(Prefix + ruleId + "." + name, out var own) ? own
        : options.TryGetValue(Prefix + name, out var shared) ? shared
        : null;

    private static ImmutableArray<string> List(AnalyzerConfigOptions options, string ruleId, string name) =>
        Value(options, ruleId, name) is { } text
            ? text.Split(new[] { ',' }, StringSplitOptions.RemoveEmptyEntries).Select(s => s.Trim()).Where(s => s.Length > 0).ToImmutableArray()
            : ImmutableArray<string>.Empty;
}

/// <summary>
/// One rule's options in one compilation: each syntax tree's settings are parsed the first time a site in it
/// is about to be reported, then reused. Created per compilation, never stored in the analyzer.
/// </summary>
internal sealed class RuleOptions
{
    private readonly AnalyzerConfigOptionsProvider _provider;
    private readonly DiagnosticDescriptor _rule;
    private readonly ImmutableArray<NumberOption> _numbers;
    private readonly ConcurrentDictionary<SyntaxTree, RuleSettings> _byTree = new();
    private readonly Func<SyntaxTree, RuleSettings> _read;

    // The tree asked about last, with its settings: the compiler analyzes a file's operations together, so most
    // questions are about the same tree as the one before, answered here without a dictionary lookup.
    private Settled? _last;

    public RuleOptions(AnalyzerConfigOptionsProvider provider, DiagnosticDescriptor rule, ImmutableArray<NumberOption> numbers)
    {
        _provider = provider;
        _rule = rule;
        _numbers = numbers;
        _read = tree => RuleSettings.Read(_provider, tree, _rule.Id, _numbers);
    }

    public RuleSettings For(SyntaxTree tree)
    {
        if (_last is { } last && last.Tree == tree)
        {
            return last.Settings;
        }

        var settings = _byTree.GetOrAdd(tree, _read);
        _last = new Settled(tree, settings);
        return settings;
    }

    /// <summary>Whether the options of any of <paramref name="trees"/> name an attribute the rule requires.</summary>
    public bool NamesRequiredAttributesIn(IEnumerable<SyntaxTree> trees)
    {
        foreach (var tree in trees)
        {
            if (RuleSettings.NamesRequiredAttributes(_provider.GetOptions(tree), _rule.Id))
            {
                return true;
            }
        }

        return false;
    }

    /// <summary>
    /// Reports the rule's diagnostic unless the site is outside the scope the options set, or inside a lambda the
    /// compiler turns into an expression tree: that code is data for a query provider, never run as written, so no
    /// rule's advice applies to it (asked here, once a rule has found a site, rather than by every rule).
    /// </summary>
    public void Report(OperationAnalysisContext context, Diagnostic diagnostic)
    {
        if (Includes(context.ContainingSymbol, context.Operation.Syntax.SyntaxTree) && !context.Operation.IsInsideExpressionTree())
        {
            context.ReportDiagnostic(diagnostic);
        }
    }

    /// <summary>False when the options put <paramref name="member"/>, declared in <paramref name="tree"/>, out of the rule's scope.</summary>
    public bool Includes(ISymbol member, SyntaxTree tree) => For(tree).Scope.Includes(member);

    /// <summary>A tree with its settings, replaced whole so that threads never see one without the other.</summary>
    private sealed class Settled
    {
        public Settled(SyntaxTree tree, RuleSettings settings)
        {
            Tree = tree;
            Settings = settings;
        }

        public SyntaxTree Tree { get; }

        public RuleSettings Settings { get; }
    }
}
