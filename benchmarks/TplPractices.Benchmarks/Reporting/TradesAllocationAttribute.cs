using System;

namespace TplPractices.Benchmarks.Reporting;

/// <summary>
/// A fix that allocates more per call than its baseline on purpose, and what it buys with the bytes. The smoke run's
/// allocation check accepts it, prints the reason, and fails if the fix no longer allocates more (a stale exception).
/// </summary>
[AttributeUsage(AttributeTargets.Method)]
public sealed class TradesAllocationAttribute : Attribute
{
    public TradesAllocationAttribute(string reason) => Reason = reason;

    public string Reason { get; }
}
