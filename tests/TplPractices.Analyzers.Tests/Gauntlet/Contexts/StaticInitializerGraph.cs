using Microsoft.CodeAnalysis.CSharp.Syntax;

namespace TplPractices.Analyzers.Tests.Gauntlet.Contexts;

/// <summary>
/// Static initializers that reach the site in ways text order does not show, after the site type's own fields (which
/// the site may need): one reads a field of a second type whose own initializer calls back into the site while the
/// first type is still initializing; another calls the site through a delegate field made from the method group.
/// A fix's new static field must be set by then, wherever it is placed; the behaviour check reads both probes.
/// </summary>
internal sealed class StaticInitializerGraph : GauntletContext
{
    public override string Name => "static initializers through a delegate field and another type";

    public override Variant? Apply(GauntletCase gauntletCase, GauntletSetup setup)
    {
        var local = StaticInitializer.Calls(gauntletCase, qualified: false);
        var outside = StaticInitializer.Calls(gauntletCase, qualified: true);
        if (local.Count == 0)
        {
            return null;
        }

        var insertions = new List<(int, string)>();
        var others = new List<string>();
        foreach (var (type, calls) in local)
        {
            var call = calls[0];
            var other = $"GauntletOther{others.Count}";
            others.Add($"internal static class {other} {{ internal static readonly object Value = {outside[type][0]}; }}\n");
            var after = type.Members.OfType<FieldDeclarationSyntax>().LastOrDefault() is { } field ? field.FullSpan.End : type.OpenBraceToken.FullSpan.End;
            insertions.Add((after, string.Empty
                + $"    internal static readonly object {BehaviourRun.ProbePrefix}Other = {other}.Value;\n"
                + $"    private static readonly System.Func<object> GauntletVia = {call[..^2]};\n"
                + $"    internal static readonly object {BehaviourRun.ProbePrefix}Via = GauntletVia();\n"));
        }

        return Single(gauntletCase, setup, Sites.Insert(gauntletCase.Code, insertions) + "\n" + string.Concat(others));
    }
}
