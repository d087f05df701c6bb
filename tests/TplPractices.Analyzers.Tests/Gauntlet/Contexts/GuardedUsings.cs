using Microsoft.CodeAnalysis.CSharp.Syntax;

namespace TplPractices.Analyzers.Tests.Gauntlet.Contexts;

/// <summary>
/// The file's usings inside <c>#if NET || NETSTANDARD … #endif</c>, as a library guards them for a target that lacks
/// a namespace: a fix must not add one of them again outside the guard.
/// </summary>
internal sealed class GuardedUsings : GauntletContext
{
    public override string Name => "usings under #if";

    public override Variant? Apply(GauntletCase gauntletCase, GauntletSetup setup)
    {
        var usings = ((CompilationUnitSyntax)gauntletCase.Root).Usings;
        if (usings.Count == 0 || Sites.OwnLines(usings.First()) is not { } first || Sites.OwnLines(usings.Last()) is not { } last)
        {
            return null;
        }

        var code = Sites.Insert(gauntletCase.Code, [(first.Start, "#if NET || NETSTANDARD\n"), (last.End, "#endif\n")]);
        var guarded = usings.Select(u => u.ToString()).ToHashSet();
        return Single(gauntletCase, setup, code, async (_, solution) =>
        {
            foreach (var document in solution.Projects.First().Documents)
            {
                var root = (CompilationUnitSyntax)(await document.GetSyntaxRootAsync())!;
                var repeated = root.Usings.Select(u => u.ToString()).Where(guarded.Contains).GroupBy(u => u).FirstOrDefault(g => g.Count() > 1);
                if (repeated is not null)
                {
                    return $"'{repeated.Key}' was added again beside the guarded one";
                }
            }

            return null;
        });
    }
}
