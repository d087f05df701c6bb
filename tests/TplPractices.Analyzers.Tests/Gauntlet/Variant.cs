using System.Collections.Immutable;
using Microsoft.CodeAnalysis;

namespace TplPractices.Analyzers.Tests.Gauntlet;

/// <summary>
/// A case put in a context: the files of the project and its targets, and what the context expects of the fixed
/// code on top of the checks every variant passes (null: nothing more). The expectation gets the solution before and
/// after the fixes and returns why it failed, or null. <see cref="Behaviour"/> says how the behaviour run calls the code.
/// </summary>
internal sealed record Variant(
    string Context,
    GauntletCase Case,
    GauntletSetup Setup,
    ImmutableArray<(string Name, string Text)> Files,
    Func<Solution, Solution, Task<string?>>? Expectation = null,
    BehaviourRun.Setting Behaviour = default,
    Func<Solution, Solution>? Transform = null)
{
    /// <summary>The project, with what the context adds to it beyond its files (<see cref="Transform"/>: an analyzer reference, say).</summary>
    public Solution Create() => Transform is null ? Setup.Create(Files, Case.OutputKind) : Transform(Setup.Create(Files, Case.OutputKind));

    public override string ToString() => $"{Context} on {Case.Origin} ({Setup.Name})";

    /// <summary>The files with their text, for a failure message.</summary>
    public string Describe(Solution solution) => string.Join(
        Environment.NewLine,
        solution.Projects.First().Documents.Select(d => $"--- {d.Name}{Environment.NewLine}{d.GetTextAsync().GetAwaiter().GetResult()}"));
}

/// <summary>One hostile setting for a fixable case, generated from the case's syntax, not written per case.</summary>
internal abstract class GauntletContext
{
    public abstract string Name { get; }

    /// <summary>The project setups the context is tried in; each is its own variant.</summary>
    public virtual ImmutableArray<GauntletSetup> Setups => GauntletSetup.All;

    /// <summary>The case in this context, or null where the context does not apply (no site of the shape it needs).</summary>
    public abstract Variant? Apply(GauntletCase gauntletCase, GauntletSetup setup);

    public override string ToString() => Name;

    protected Variant Single(GauntletCase gauntletCase, GauntletSetup setup, string code, Func<Solution, Solution, Task<string?>>? expectation = null) =>
        new(Name, gauntletCase, setup, [("Test0.cs", code)], expectation);
}
