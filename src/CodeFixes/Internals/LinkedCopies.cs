using System.Collections.Generic;
using System.Collections.Immutable;
using System.Linq;
using System.Threading;
using System.Threading.Tasks;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp;
using Microsoft.CodeAnalysis.Diagnostics;
using Microsoft.CodeAnalysis.Text;

namespace TplPractices.Analyzers.CodeFixes.Internals;

/// <summary>
/// A multi-targeted project compiles each file once per target, as linked documents. The IDE asks for a fix in one
/// of them and gives the result to all, so a single fix must weigh what the rule reports in the other copies too:
/// a rewrite one target cannot compile would break that target's build.
/// </summary>
internal static class LinkedCopies
{
    /// <summary>What <paramref name="analyzer"/> reports within <paramref name="span"/> (null: anywhere) in the other copies of the document.</summary>
    public static async Task<ImmutableArray<Diagnostic>> DiagnosticsAsync(
        Document document, DiagnosticAnalyzer analyzer, TextSpan? span, CancellationToken cancellationToken)
    {
        var linked = document.GetLinkedDocumentIds();
        if (linked.IsEmpty)
        {
            return ImmutableArray<Diagnostic>.Empty;
        }

        var diagnostics = ImmutableArray.CreateBuilder<Diagnostic>();
        foreach (var id in linked)
        {
            if (document.Project.Solution.GetDocument(id) is not { } copy
                || await copy.GetSemanticModelAsync(cancellationToken).ConfigureAwait(false) is not { } model)
            {
                continue;
            }

            var withAnalyzer = model.Compilation.WithAnalyzers(ImmutableArray.Create(analyzer), copy.Project.AnalyzerOptions);
            diagnostics.AddRange(await withAnalyzer.GetAnalyzerSemanticDiagnosticsAsync(model, span, cancellationToken).ConfigureAwait(false));
        }

        return diagnostics.ToImmutable();
    }

    /// <summary>
    /// The solution with <paramref name="text"/> in the document and every linked copy: left to the workspace, copies
    /// formatted apart would differ.
    /// </summary>
    public static Solution WithTextInEveryCopy(Solution solution, DocumentId id, SourceText text)
    {
        solution = solution.WithDocumentText(id, text);
        foreach (var linked in solution.GetDocument(id)!.GetLinkedDocumentIds())
        {
            solution = solution.WithDocumentText(linked, text);
        }

        return solution;
    }

    /// <summary>The document and its linked copies.</summary>
    public static IEnumerable<Document> AllCopies(Document document) =>
        document.GetLinkedDocumentIds().Select(document.Project.Solution.GetDocument).OfType<Document>().Prepend(document);

    /// <summary>The oldest C# version any copy is compiled with: a rewrite must use only its syntax.</summary>
    public static LanguageVersion OldestLanguageVersion(Document document) =>
        AllCopies(document).Min(d => d.Project.ParseOptions is CSharpParseOptions options ? options.LanguageVersion : LanguageVersion.CSharp1);

    /// <summary>
    /// Whether code at <paramref name="position"/> gets nullable warnings in some copy: there an object state read back
    /// needs <c>!</c>, elsewhere (a project without nullable, a <c>#nullable disable</c> region) it is noise. This copy
    /// answers from its directives and project; another copy from its project, which may differ.
    /// </summary>
    public static bool WarnsOnNullableAt(Document document, SemanticModel model, int position) =>
        OldestLanguageVersion(document) >= LanguageVersion.CSharp8
        && (model.GetNullableContext(position).WarningsEnabled()
            || document.GetLinkedDocumentIds().Select(document.Project.Solution.GetDocument).OfType<Document>().Any(WarnsOnNullable));

    /// <summary>Whether any copy is compiled with nullable warnings on.</summary>
    public static bool AnyWarnsOnNullable(Document document) => AllCopies(document).Any(WarnsOnNullable);

    private static bool WarnsOnNullable(Document copy) =>
        copy.Project.CompilationOptions is CSharpCompilationOptions { NullableContextOptions: NullableContextOptions.Enable or NullableContextOptions.Warnings };
}
