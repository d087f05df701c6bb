namespace TplPractices.Analyzers.Tests.Gauntlet.Contexts;

/// <summary>The case as the test wrote it: what every other context is compared with.</summary>
internal sealed class AsWritten : GauntletContext
{
    public override string Name => "as written";

    public override Variant? Apply(GauntletCase gauntletCase, GauntletSetup setup) => Single(gauntletCase, setup, gauntletCase.Code);
}
