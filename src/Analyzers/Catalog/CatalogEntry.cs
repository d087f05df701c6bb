using System;
using System.Collections.Immutable;
using Microsoft.CodeAnalysis;
using TplPractices.Analyzers.Internals;

namespace TplPractices.Analyzers.Catalog;

/// <summary>
/// One rule as the catalog declares it: the name its files carry, what its fix rewrites, the rules it gives way to where
/// two would report one site, and its analysis. The descriptor (ID, severity, text) stays with the rule's analyzer,
/// where the release-tracking analyzer reads it and fails the build without a release line.
/// </summary>
internal sealed class CatalogEntry
{
    private readonly Func<OperationRule> _operations;

    public CatalogEntry(string name, FixTargets rewrites, Func<OperationRule> operations, params string[] givesWayTo)
    {
        Name = name;
        Rewrites = rewrites;
        GivesWayTo = givesWayTo.ToImmutableArray();
        _operations = operations;
    }

    /// <summary>What the rule's files are named after: its analyzer (<c>{Name}Analyzer</c>), sample and benchmark (<c>{Id}_{Name}</c>).</summary>
    public string Name { get; }

    /// <summary>What the fix rewrites; <see cref="FixTargets.None"/> for a rule reported without a fix.</summary>
    public FixTargets Rewrites { get; }

    /// <summary>Rules that take a site this one would also report: this rule stays silent there.</summary>
    public ImmutableArray<string> GivesWayTo { get; }

    /// <summary>
    /// The rule's callbacks and descriptor, read when first asked (a function, so that the catalog and the rules'
    /// analyzers never wait on each other's static initializers).
    /// </summary>
    public OperationRule Operations => _operations();

    public DiagnosticDescriptor Descriptor => Operations.Descriptor;

    public string Id => Descriptor.Id;

    /// <summary>Runs as a warning unless configured otherwise: the shared warnings' analyzer takes it.</summary>
    public bool ShipsAsWarning => RuleSwitches.ShipsAsWarning(Descriptor);
}
