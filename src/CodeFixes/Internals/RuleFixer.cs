using System.Collections.Immutable;
using System.Threading;
using System.Threading.Tasks;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CodeFixes;

namespace TplPractices.Analyzers.CodeFixes.Internals;

/// <summary>
/// What every rule's fixer shares: one diagnostic ID, one equivalence key for all its rewrites (so Fix All and
/// dotnet format apply each site's own rewrite), a code action per diagnostic that names a rewrite, and a
/// sequential Fix All over the same document rewrite.
/// </summary>
public abstract class RuleFixer : CodeFixProvider
{
    private readonly string _equivalenceKey;
    private readonly FixAllProvider _fixAll;

    protected RuleFixer(string diagnosticId, string equivalenceKey, string fixAllTitle)
    {
        FixableDiagnosticIds = ImmutableArray.Create(diagnosticId);
        _equivalenceKey = equivalenceKey;
        _fixAll = new SequentialFixAllProvider(fixAllTitle, FixDocumentAsync);
    }

    public sealed override ImmutableArray<string> FixableDiagnosticIds { get; }

    public sealed override FixAllProvider GetFixAllProvider() => _fixAll;

    public sealed override Task RegisterCodeFixesAsync(CodeFixContext context)
    {
        FixSites.Register(context, Title, FixDocumentAsync, _equivalenceKey);
        return Task.CompletedTask;
    }

    /// <summary>The code action's title for a rewrite the analyzer named.</summary>
    protected abstract string Title(string kind);

    /// <summary>Applies the rewrites the diagnostics name, all in one document.</summary>
    protected abstract Task<Document> FixDocumentAsync(Document document, ImmutableArray<Diagnostic> diagnostics, CancellationToken cancellationToken);
}
