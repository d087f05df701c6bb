using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp;
using Microsoft.CodeAnalysis.CSharp.Syntax;

namespace TplPractices.Analyzers.Tests.Gauntlet.Contexts;

/// <summary>
/// A static field last in the site's type whose initializer calls the member that holds the site: static
/// initializers run in text order, so the field sees whatever a fix adds below it still unset. The behaviour check
/// reads the field (<see cref="BehaviourRun.ProbePrefix"/>).
/// </summary>
internal sealed class StaticInitializer : GauntletContext
{
    public override string Name => "static initializer reaches the site";

    public override Variant? Apply(GauntletCase gauntletCase, GauntletSetup setup)
    {
        var probes = Calls(gauntletCase, qualified: false);
        if (probes.Count == 0)
        {
            return null;
        }

        var insertions = probes.Select(p => (
            p.Key.CloseBraceToken.SpanStart,
            string.Concat(p.Value.Distinct().Select((call, i) => $"    internal static readonly object {BehaviourRun.ProbePrefix}{i} = {call};\n"))));
        return Single(gauntletCase, setup, Sites.Insert(gauntletCase.Code, insertions));
    }

    /// <summary>
    /// For each type holding a site in a parameterless, non-generic method that returns something, the calls that
    /// run those methods from a static initializer (type-qualified with <paramref name="qualified"/>, for use outside it).
    /// </summary>
    public static Dictionary<TypeDeclarationSyntax, List<string>> Calls(GauntletCase gauntletCase, bool qualified)
    {
        var probes = new Dictionary<TypeDeclarationSyntax, List<string>>();
        foreach (var node in Sites.Nodes(gauntletCase))
        {
            if (Sites.Member(node) is not MethodDeclarationSyntax { ParameterList.Parameters.Count: 0, TypeParameterList: null } method
                || method.Parent is not ClassDeclarationSyntax { TypeParameterList: null } type
                || gauntletCase.Model.GetDeclaredSymbol(method) is not { ReturnsVoid: false } symbol)
            {
                continue;
            }

            var name = qualified ? "global::" + symbol.ContainingType.ToDisplayString() : type.Identifier.Text;
            string? call = symbol.IsStatic
                ? qualified ? $"{name}.{method.Identifier.Text}()" : $"{method.Identifier.Text}()"
                : !type.Modifiers.Any(SyntaxKind.AbstractKeyword) && !type.Modifiers.Any(SyntaxKind.StaticKeyword)
                    && symbol.ContainingType.InstanceConstructors.Any(c => c.Parameters.Length == 0 && !c.IsImplicitlyDeclared || c.IsImplicitlyDeclared)
                    ? $"new {name}().{method.Identifier.Text}()"
                    : null;
            if (call is not null)
            {
                (probes.TryGetValue(type, out var list) ? list : probes[type] = new List<string>()).Add(call);
            }
        }

        return probes;
    }
}
