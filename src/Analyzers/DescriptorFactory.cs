using System;
using System.Linq;
using System.Reflection;
using Microsoft.CodeAnalysis;

namespace TplPractices.Analyzers;

/// <summary>The one place that creates descriptors, so every rule gets the same help-link shape.</summary>
internal static class DescriptorFactory
{
    /// <summary>
    /// Base of the rule pages, set once in Directory.Build.props: in a release build the repository's tree at its
    /// tag, so a help link shows the page of the version installed; in any other build, main.
    /// </summary>
    internal static readonly string DocsBaseUrl =
        (typeof(DescriptorFactory).Assembly
            .GetCustomAttributes<AssemblyMetadataAttribute>()
            .FirstOrDefault(a => a.Key == "ReleaseDocsUrl")?.Value ?? "https://github.com/tplpractices/TplPractices.Analyzers/blob/main")
        .TrimEnd('/') + "/docs/rules/";

    internal static string HelpLink(string id) => DocsBaseUrl + id + ".md";

    internal static DiagnosticDescriptor Create(
        string id,
        string title,
        string messageFormat,
        string category,
        DiagnosticSeverity defaultSeverity,
        string description,
        bool isEnabledByDefault = true)
    {
        if (!id.StartsWith("TPL", StringComparison.Ordinal))
        {
            throw new ArgumentException("Rule IDs start with TPL.", nameof(id));
        }

#pragma warning disable RS0030 // The banned constructor is allowed here, and only here.
        return new DiagnosticDescriptor(
            id,
            title,
            messageFormat,
            category,
            defaultSeverity,
            isEnabledByDefault,
            description,
            HelpLink(id));
#pragma warning restore RS0030
    }
}
