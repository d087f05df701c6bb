using BenchmarkDotNet.Columns;
using BenchmarkDotNet.Reports;
using BenchmarkDotNet.Running;

namespace TplPractices.Benchmarks.Reporting;

/// <summary>
/// A custom summary column whose cell is a text computed per benchmark case, "-" where there is none. The
/// seed and throughput columns differ only in their text and in whether the column is always shown.
/// </summary>
public abstract class TextColumn(string columnName, string legend, bool alwaysShow, int priority) : IColumn
{
    public string Id => GetType().Name;
    public string ColumnName => columnName;
    public bool AlwaysShow => alwaysShow;
    public ColumnCategory Category => ColumnCategory.Custom;
    public int PriorityInCategory => priority;
    public bool IsNumeric => false;
    public UnitType UnitType => UnitType.Dimensionless;
    public string Legend => legend;

    /// <summary>The cell's text, or null when the case has none.</summary>
    protected abstract string? Text(Summary summary, BenchmarkCase benchmarkCase);

    public string GetValue(Summary summary, BenchmarkCase benchmarkCase) => Text(summary, benchmarkCase) ?? "-";

    public string GetValue(Summary summary, BenchmarkCase benchmarkCase, SummaryStyle style) => GetValue(summary, benchmarkCase);

    public bool IsDefault(Summary summary, BenchmarkCase benchmarkCase) => Text(summary, benchmarkCase) is null;

    public bool IsAvailable(Summary summary) => true;
}
