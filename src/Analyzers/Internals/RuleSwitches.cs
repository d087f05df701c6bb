using System.Collections.Concurrent;
using System.Collections.Immutable;
using System.Linq;
using System.Threading;
using Microsoft.CodeAnalysis;

namespace TplPractices.Analyzers.Internals;

/// <summary>
/// Which of several rules an analyzer runs, file by file, in one compilation: what the compiler works out for each
/// analyzer, worked out here for each rule that shares one (<see cref="RuleRegistration.RegisterRules"/>). Severities
/// come from the compilation's options (<c>/nowarn</c>, rule sets, global configs) and each file's .editorconfig.
/// Created per compilation, never stored in an analyzer.
/// </summary>
internal sealed class RuleSwitches
{
    /// <summary>Which severities of a rule an analyzer runs it at.</summary>
    public delegate bool Selector(DiagnosticDescriptor rule, ReportDiagnostic severity);

    /// <summary>
    /// The shared analyzer's: a rule that ships as a warning unless it is set to none; any other rule where it is raised
    /// to a warning or an error. A command-line build runs an analyzer when any of its rules would print, and never
    /// prints a suggestion, so a suggestion here would cost every build.
    /// </summary>
    public static readonly Selector AsWarning = (rule, severity) =>
        ShipsAsWarning(rule) ? severity != ReportDiagnostic.Suppress : IsWarningOrError(rule, severity);

    /// <summary>
    /// The suggestions' analyzer's: a rule that does not ship as a warning, where it is a suggestion or silent (the IDE
    /// runs it; a command-line build skips the analyzer, whose rules would not print).
    /// </summary>
    public static readonly Selector BelowWarning = (rule, severity) =>
        !ShipsAsWarning(rule) && severity != ReportDiagnostic.Suppress && !IsWarningOrError(rule, severity);

    private readonly Selector _selector;

    private readonly Compilation _compilation;
    private readonly CancellationToken _cancellationToken;
    private readonly ImmutableArray<OperationRule> _rules;
    private readonly bool[] _global;

    // Null when no file sets a severity of its own for these rules, the usual case: the global answer then holds for
    // every file, and a callback costs no lookup.
    private readonly ConcurrentDictionary<SyntaxTree, bool[]>? _byTree;
    private FileSwitches? _last;

    public RuleSwitches(Compilation compilation, ImmutableArray<OperationRule> rules, Selector selector, CancellationToken cancellationToken)
    {
        _selector = selector;
        _compilation = compilation;
        _rules = rules;
        _cancellationToken = cancellationToken;
        _global = new bool[rules.Length];
        for (var i = 0; i < rules.Length; i++)
        {
            _global[i] = selector(rules[i].Descriptor, GlobalSeverity(compilation, rules[i].Descriptor, cancellationToken));
        }

        if (compilation.Options.SyntaxTreeOptionsProvider is { } provider && HasFileSeverities(compilation, provider, rules, cancellationToken))
        {
            _byTree = new ConcurrentDictionary<SyntaxTree, bool[]>();
        }
    }

    /// <summary>Whether rule <paramref name="rule"/> (its index in the list) is on for <paramref name="tree"/>.</summary>
    public bool IsOn(int rule, SyntaxTree tree) => ForFile(tree)[rule];

    /// <summary>Which rules are on in the file of <paramref name="operation"/>, by their index in the list; not to be written.</summary>
    public bool[] ForFileOf(IOperation operation) => _byTree is null ? _global : ForFile(operation.Syntax.SyntaxTree);

    private bool[] ForFile(SyntaxTree tree)
    {
        if (_byTree is null)
        {
            return _global;
        }

        // Callbacks come file by file: the last file's answer saves most lookups.
        if (_last is { } last && last.Tree == tree)
        {
            return last.On;
        }

        if (!_byTree.TryGetValue(tree, out var on))
        {
            on = new bool[_rules.Length];
            for (var i = 0; i < on.Length; i++)
            {
                on[i] = _selector(_rules[i].Descriptor, Severity(_compilation, tree, _rules[i].Descriptor, _cancellationToken));
            }

            _byTree.TryAdd(tree, on);
        }

        _last = new FileSwitches(tree, on);
        return on;
    }

    /// <summary>Whether the rule is on for the compilation or for any of its files.</summary>
    public bool MayBeOnAnywhere(int rule) =>
        _global[rule] || (_byTree is not null && _compilation.SyntaxTrees.Any(tree => IsOn(rule, tree)));

    private static bool HasFileSeverities(Compilation compilation, SyntaxTreeOptionsProvider provider, ImmutableArray<OperationRule> rules, CancellationToken cancellationToken)
    {
        foreach (var tree in compilation.SyntaxTrees)
        {
            foreach (var rule in rules)
            {
                if (provider.TryGetDiagnosticValue(tree, rule.Descriptor.Id, cancellationToken, out _))
                {
                    return true;
                }
            }
        }

        return false;
    }

    /// <summary>Whether the rule is on by default as a warning: the shared analyzer always carries it.</summary>
    public static bool ShipsAsWarning(DiagnosticDescriptor rule) => rule.IsEnabledByDefault && rule.DefaultSeverity >= DiagnosticSeverity.Warning;

    private static bool IsWarningOrError(DiagnosticDescriptor rule, ReportDiagnostic severity) =>
        severity is ReportDiagnostic.Warn or ReportDiagnostic.Error
        || (severity == ReportDiagnostic.Default && rule.DefaultSeverity >= DiagnosticSeverity.Warning);

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

    private sealed class FileSwitches
    {
        public FileSwitches(SyntaxTree tree, bool[] on)
        {
            Tree = tree;
            On = on;
        }

        public SyntaxTree Tree { get; }

        public bool[] On { get; }
    }
}
