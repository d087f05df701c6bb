namespace TplPractices.Analyzers;

internal static class DiagnosticCategories
{
    public const string Performance = "Performance";

    /// <summary>Where the code runs rather than how fast (TPL0019, in CA2008's category).</summary>
    public const string Reliability = "Reliability";
}
