using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.Editing;
using Microsoft.CodeAnalysis.Simplification;

namespace TplPractices.Analyzers.CodeFixes.Internals;

/// <summary>A type a fix writes: fully qualified, then reduced and its namespace imported by the fix's clean-up.</summary>
internal static class ImportedType
{
    public static SyntaxNode Of(SyntaxGenerator generator, ITypeSymbol type) =>
        generator.TypeExpression(type).WithAdditionalAnnotations(Simplifier.Annotation, Simplifier.AddImportsAnnotation);
}
