using System.Reflection;
using Xunit.Abstractions;

[assembly: TestCollectionOrderer("TplPractices.Analyzers.Tests.Verifiers.LongestFirst", "TplPractices.Analyzers.Tests")]

namespace TplPractices.Analyzers.Tests.Verifiers;

/// <summary>
/// Marks a test class that runs for many seconds on its own (one class runs on one thread): the run starts it first,
/// so the shorter classes fill the other thread around it instead of one long class finishing alone at the end.
/// </summary>
[AttributeUsage(AttributeTargets.Class)]
public sealed class RunsLongAttribute(int seconds) : Attribute
{
    /// <summary>About how long the class takes alone on the 2-core CI machine.</summary>
    public int Seconds { get; } = seconds;
}

/// <summary>Orders the test classes longest first (<see cref="RunsLongAttribute"/>), the others as xunit would.</summary>
public sealed class LongestFirst : ITestCollectionOrderer
{
    public IEnumerable<ITestCollection> OrderTestCollections(IEnumerable<ITestCollection> testCollections) =>
        testCollections.OrderByDescending(Seconds).ThenBy(c => c.UniqueID);

    private static int Seconds(ITestCollection collection)
    {
        const string Prefix = "Test collection for ";
        var name = collection.DisplayName.StartsWith(Prefix, StringComparison.Ordinal) ? collection.DisplayName[Prefix.Length..] : null;
        var type = name is null ? null : typeof(LongestFirst).Assembly.GetType(name);
        return type?.GetCustomAttribute<RunsLongAttribute>()?.Seconds ?? 0;
    }
}
