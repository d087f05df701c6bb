using System.Collections.Immutable;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp;
using Microsoft.CodeAnalysis.Text;
using TplPractices.Analyzers.Tests.Verifiers;

namespace TplPractices.Analyzers.Tests.Gauntlet;

/// <summary>One target of a gauntlet project, with what an SDK project gives it by default.</summary>
internal sealed record GauntletTarget(string Framework, TestTarget References, LanguageVersion Version, NullableContextOptions Nullable, string[] Symbols)
{
    public static readonly GauntletTarget Net100 = new(
        "net10.0", TestTarget.Net100, LanguageVersion.Latest, NullableContextOptions.Enable, ["NET", "NET10_0", "NETCOREAPP", "NET10_0_OR_GREATER"]);

    /// <summary>netstandard2.0 with System.Threading.Tasks.Extensions, as most libraries ship it; C# 7.3 and no nullable, the SDK's defaults.</summary>
    public static readonly GauntletTarget NetStandard20Legacy = new(
        "netstandard2.0", TestTarget.NetStandard20WithValueTask, LanguageVersion.CSharp7_3, NullableContextOptions.Disable, ["NETSTANDARD", "NETSTANDARD2_0"]);

    public static readonly GauntletTarget NetStandard20Modern = NetStandard20Legacy with { Version = LanguageVersion.Latest, Nullable = NullableContextOptions.Enable };
}

/// <summary>
/// The projects a gauntlet variant is built as: one target, or a library built for two targets whose copies of each
/// file are linked documents (as the IDE and dotnet format load a multi-targeted project).
/// </summary>
internal sealed record GauntletSetup(string Name, ImmutableArray<GauntletTarget> Targets)
{
    public static readonly GauntletSetup Single = new("net10.0", [GauntletTarget.Net100]);

    /// <summary>The SDK's defaults: C# 7.3 without nullable on netstandard2.0, the newest C# with nullable on net10.0.</summary>
    public static readonly GauntletSetup Legacy = new("netstandard2.0 (C# 7.3) + net10.0 (nullable)", [GauntletTarget.NetStandard20Legacy, GauntletTarget.Net100]);

    /// <summary>The newest C# and nullable on both targets.</summary>
    public static readonly GauntletSetup Modern = new("netstandard2.0 + net10.0 (newest C#, nullable)", [GauntletTarget.NetStandard20Modern, GauntletTarget.Net100]);

    public static readonly ImmutableArray<GauntletSetup> All = [Single, Legacy, Modern];

    /// <summary>Every rule on, as a user who raises them all has it; TPL0012 speaks on the members the tests mark [HotPath].</summary>
    public static readonly string EveryRuleOn = CatalogRules.EveryRuleOn("HotPath");

    /// <summary>A solution with one project per target; every project holds every file, under the same path.</summary>
    public Solution Create(IReadOnlyList<(string Name, string Text)> files, OutputKind outputKind)
    {
        var solution = new AdhocWorkspace().CurrentSolution;
        foreach (var target in Targets)
        {
            var id = ProjectId.CreateNewId(target.Framework);
            solution = solution.AddProject(ProjectInfo.Create(
                id,
                VersionStamp.Default,
                $"Gauntlet({target.Framework})",
                "Gauntlet",
                LanguageNames.CSharp,
                compilationOptions: new CSharpCompilationOptions(outputKind, nullableContextOptions: target.Nullable),
                parseOptions: new CSharpParseOptions(target.Version, preprocessorSymbols: target.Symbols),
                metadataReferences: target.References.References()));
            foreach (var (name, text) in files)
            {
                solution = solution.AddDocument(DocumentId.CreateNewId(id), name, SourceText.From(text), filePath: "/gauntlet/" + name);
            }

            solution = solution.AddAnalyzerConfigDocument(DocumentId.CreateNewId(id), ".editorconfig", SourceText.From(EveryRuleOn), filePath: "/gauntlet/.editorconfig");
        }

        return solution;
    }

    /// <summary>The solution with <paramref name="settings"/> added to the rules' .editorconfig of every project.</summary>
    public static Solution WithEditorConfig(Solution solution, string settings)
    {
        foreach (var config in solution.Projects.SelectMany(p => p.AnalyzerConfigDocuments).ToList())
        {
            solution = solution.WithAnalyzerConfigDocumentText(config.Id, SourceText.From(EveryRuleOn + settings));
        }

        return solution;
    }
}
