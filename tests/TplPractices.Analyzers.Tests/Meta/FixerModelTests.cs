using System.Text.RegularExpressions;

namespace TplPractices.Analyzers.Tests.Meta;

/// <summary>
/// What an analyzer found travels to its fixer in the diagnostic (the fix kind and properties, and the nodes to rewrite
/// as additional locations, read back by <c>FixSites.WithParts</c>), so that a fixer rewrites without running its rule's
/// check again. This test reads the fixers' code for calls of the rules' checks; the fixers that still make one are
/// listed with the reason, and the list may only shrink (it is empty).
/// </summary>
public sealed partial class FixerModelTests
{
    /// <summary>The rules' checks: the calls that decide whether and how a site is reported.</summary>
    [GeneratedRegex(@"\.(Classify|Analyze|SlowPathInputs|CanBecomeAwaits|AlreadyCompleted|OfAwait|OfDelegateTask|RacedIn|CanUseValue|LoopToMove|TimerLoopOf)\(|\bAnalyze\(")]
    private static partial Regex Check();

    /// <summary>
    /// Empty since TPL0002's fixer marks the nodes of nested chains before the first rewrite (it used to read each chain
    /// again from the code the previous rewrite left). A fixer that must check again is listed here with its reason.
    /// </summary>
    private static readonly Dictionary<string, string> StillChecking = new(StringComparer.Ordinal);

    [Fact]
    public void Fixers_DoNotRunTheirRulesChecksAgain_BeyondTheListedOnes()
    {
        var root = Path.Combine(Repository.Root, "src", "CodeFixes");
        var checking = Directory.GetFiles(root, "*.cs", SearchOption.AllDirectories)
            .Where(path => !path.Contains($"{Path.DirectorySeparatorChar}obj{Path.DirectorySeparatorChar}", StringComparison.Ordinal))
            .Where(path => Check().IsMatch(File.ReadAllText(path)))
            .Select(path => Path.GetRelativePath(root, path).Replace(Path.DirectorySeparatorChar, '/'))
            .OrderBy(path => path, StringComparer.Ordinal)
            .ToList();
        Assert.Equal(StillChecking.Keys.OrderBy(path => path, StringComparer.Ordinal), checking);
    }
}
