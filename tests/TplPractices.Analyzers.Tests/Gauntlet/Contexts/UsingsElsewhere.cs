using System.Collections.Immutable;

namespace TplPractices.Analyzers.Tests.Gauntlet.Contexts;

/// <summary>
/// A second file of global usings (C# 10): an alias for Task and for the other TPL types a fix writes, and the
/// namespaces themselves; the case's own file also opens with #pragma and #region lines. A fix must write the names
/// as this file spells them: no alias the file never mentions, no global:: where the plain name binds.
/// </summary>
internal sealed class UsingsElsewhere : GauntletContext
{
    private const string Aliases = """
        global using System.Threading;
        global using System.Threading.Tasks;
        global using TaskAlias = System.Threading.Tasks.Task;
        global using FactoryAlias = System.Threading.Tasks.TaskFactory;
        global using OptionsAlias = System.Threading.Tasks.TaskContinuationOptions;
        global using TokenAlias = System.Threading.CancellationToken;

        """;

    public override string Name => "global usings and aliases in another file, directives by the usings";

    public override Variant? Apply(GauntletCase gauntletCase, GauntletSetup setup)
    {
        var code = "#pragma warning disable CS1591\n#region Usings\n" + gauntletCase.Code;
        var firstMember = code.IndexOf("\nnamespace ", StringComparison.Ordinal) is var n and >= 0 ? n : -1;
        if (firstMember < 0)
        {
            return null;
        }

        code = code.Insert(firstMember + 1, "#endregion\n");
        return new Variant(Name, gauntletCase, setup, ImmutableArray.Create(("Test0.cs", code), ("Usings.cs", Aliases)), async (original, solution) =>
        {
            var before = (await original.Projects.First().Documents.First().GetTextAsync()).ToString();
            var after = (await solution.Projects.First().Documents.First().GetTextAsync()).ToString();
            if (after.Contains("Alias", StringComparison.Ordinal) && !before.Contains("Alias", StringComparison.Ordinal))
            {
                return "a fix wrote an alias declared only in another file";
            }

            return Count(after, "global::") > Count(before, "global::") ? "a fix wrote global:: where the usings let the plain name bind" : null;
        });
    }

    private static int Count(string text, string part) => text.Split(part).Length - 1;
}
