namespace TplPractices.Analyzers;

internal static class DiagnosticCategories
{
    public const string Performance = "Performance";
}
