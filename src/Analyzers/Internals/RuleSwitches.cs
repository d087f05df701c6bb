using System.Collections.Concurrent;
using System.Collections.Generic;
using System.Collections.Immutable;
using System.Linq;
using System.Threading;
using Microsoft.CodeAnalysis;

namespace TplPractices.Analyzers.Internals;

/// <summary>
/// Which of several rules are on, file by file, in one compilation: what the compiler works out for each analyzer,
/// worked out here for each rule that shares one (<see cref="RuleRegistration.RegisterRules"/>). Severities come from
/// the compilation's options (<c>/nowarn</c>, rule sets, global configs) and each file's .editorconfig; a rule set to
/// <c>none</c> is off. Created per compilation, never stored in an analyzer.
/// </summary>
internal sealed class RuleSwitches
{
    private readonly Compilation _compilation;
    private readonly CancellationToken _cancellationToken;
    private readonly Dictionary<string, bool> _global = new();

    // Null when no file sets a severity of its own for these rules, the usual case: the global answer then holds for
    // every file, and a callback costs no lookup.
    private readonly ConcurrentDictionary<(SyntaxTree Tree, string Id), bool>? _byTree;

    public RuleSwitches(Compilation compilation, ImmutableArray<DiagnosticDescriptor> rules, CancellationToken cancellationToken)
    {
        _compilation = compilation;
        _cancellationToken = cancellationToken;
        foreach (var rule in rules)
        {
            _global[rule.Id] = GlobalSeverity(compilation, rule, cancellationToken) != ReportDiagnostic.Suppress;
        }

        if (compilation.Options.SyntaxTreeOptionsProvider is { } provider
            && compilation.SyntaxTrees.Any(tree => rules.Any(rule => provider.TryGetDiagnosticValue(tree, rule.Id, cancellationToken, out _))))
        {
            _byTree = new ConcurrentDictionary<(SyntaxTree Tree, string Id), bool>();
        }
    }

    /// <summary>Whether the rule is on for <paramref name="tree"/>.</summary>
    public bool IsOn(DiagnosticDescriptor rule, SyntaxTree tree)
    {
        if (_byTree is null)
        {
            return _global[rule.Id];
        }

        var key = (tree, rule.Id);
        if (!_byTree.TryGetValue(key, out var on))
        {
            on = Severity(_compilation, tree, rule, _cancellationToken) != ReportDiagnostic.Suppress;
            _byTree.TryAdd(key, on);
        }

        return on;
    }

    /// <summary>Whether the rule is on for the compilation or for any of its files.</summary>
    public bool MayBeOnAnywhere(DiagnosticDescriptor rule) =>
        _global[rule.Id] || (_byTree is not null && _compilation.SyntaxTrees.Any(tree => IsOn(rule, tree)));

    /// <summary>The rule's severity in <paramref name="tree"/>: the file's .editorconfig over the compilation's options.</summary>
    public static ReportDiagnostic Severity(Compilation compilation, SyntaxTree tree, DiagnosticDescriptor rule, CancellationToken cancellationToken) =>
        compilation.Options.SyntaxTreeOptionsProvider is { } provider && provider.TryGetDiagnosticValue(tree, rule.Id, cancellationToken, out var local)
            ? local
            : GlobalSeverity(compilation, rule, cancellationToken);

    private static ReportDiagnostic GlobalSeverity(Compilation compilation, DiagnosticDescriptor rule, CancellationToken cancellationToken)
    {
        var report = rule.IsEnabledByDefault ? ReportDiagnostic.Default : ReportDiagnostic.Suppress;
        if (compilation.Options.SpecificDiagnosticOptions.TryGetValue(rule.Id, out var specific))
        {
            report = specific;
        }

        if (compilation.Options.SyntaxTreeOptionsProvider is { } provider
            && provider.TryGetGlobalDiagnosticValue(rule.Id, cancellationToken, out var global))
        {
            report = global;
        }

        return report;
    }
}
