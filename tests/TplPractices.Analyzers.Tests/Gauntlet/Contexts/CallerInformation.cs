using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp.Syntax;

namespace TplPractices.Analyzers.Tests.Gauntlet.Contexts;

/// <summary>
/// A <c>[CallerMemberName]</c> helper called beside each site: before the site's statement, or before the last
/// statement of a member that is itself the site (the code TPL0012 would move). A fix that moves the call into
/// another member changes the name the compiler passes it; after the fixes every call must sit in a member of the
/// name it had.
/// </summary>
internal sealed class CallerInformation : GauntletContext
{
    private const string Helper = "GauntletCallers";

    public override string Name => "caller information beside the site";

    public override Variant? Apply(GauntletCase gauntletCase, GauntletSetup setup)
    {
        var insertions = new List<(int, string)>();
        var placed = new HashSet<int>();
        foreach (var node in Sites.Nodes(gauntletCase))
        {
            StatementSyntax? before = Sites.Statement(node) is { Parent: BlockSyntax } statement
                ? statement
                : Sites.Member(node) is BaseMethodDeclarationSyntax { Body.Statements: { Count: > 0 } statements } ? statements.Last() : null;
            if (before is not null && placed.Add(before.SpanStart))
            {
                insertions.Add((before.SpanStart, Helper + ".Note(); "));
            }
        }

        if (insertions.Count == 0)
        {
            return null;
        }

        var code = Sites.Insert(gauntletCase.Code, insertions)
            + "\ninternal static class " + Helper + " { public static void Note([System.Runtime.CompilerServices.CallerMemberName] string member = \"\") { } }\n";
        return Single(gauntletCase, setup, code, SameMembersAsync);
    }

    private static async Task<string?> SameMembersAsync(Solution original, Solution solution)
    {
        var was = await MembersAsync(original);
        var @is = await MembersAsync(solution);
        return was.SequenceEqual(@is)
            ? null
            : $"the [CallerMemberName] helper is called from {string.Join(", ", @is)} where it was called from {string.Join(", ", was)}";
    }

    /// <summary>The member each helper call sits in (a lambda's or local function's is its member's), per project, sorted.</summary>
    private static async Task<List<string>> MembersAsync(Solution solution)
    {
        var names = new List<string>();
        foreach (var document in solution.Projects.SelectMany(p => p.Documents))
        {
            var root = (await document.GetSyntaxRootAsync())!;
            var model = (await document.GetSemanticModelAsync())!;
            foreach (var call in root.DescendantNodes().OfType<InvocationExpressionSyntax>().Where(c => c.Expression.ToString() == Helper + ".Note"))
            {
                var symbol = model.GetEnclosingSymbol(call.SpanStart);
                while (symbol is IMethodSymbol { MethodKind: MethodKind.AnonymousFunction or MethodKind.LocalFunction })
                {
                    symbol = symbol.ContainingSymbol;
                }

                names.Add(document.Project.Name + ":" + symbol?.Name);
            }
        }

        names.Sort(StringComparer.Ordinal);
        return names;
    }
}
