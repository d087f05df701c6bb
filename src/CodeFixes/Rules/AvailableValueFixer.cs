using System.Collections.Immutable;
using System.Threading;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CodeFixes;
using Microsoft.CodeAnalysis.CSharp;
using Microsoft.CodeAnalysis.CSharp.Syntax;
using Microsoft.CodeAnalysis.Diagnostics;
using Microsoft.CodeAnalysis.Editing;
using Microsoft.CodeAnalysis.Operations;
using Microsoft.CodeAnalysis.Simplification;
using Microsoft.CodeAnalysis.Text;
using TplPractices.Analyzers.CodeFixes.Internals;
using TplPractices.Analyzers.Rules;

namespace TplPractices.Analyzers.CodeFixes.Rules;

/// <summary>
/// TPL0014: a delegate task that only returns an available value becomes <c>Task.FromResult(value)</c> (or
/// <c>Task.CompletedTask</c>); where it is awaited and the function awaits something else too, the await takes the
/// value itself, as does an await of a task that is already complete.
/// </summary>
[ExportCodeFixProvider(LanguageNames.CSharp, Name = nameof(AvailableValueFixer))]
public sealed class AvailableValueFixer : SiteRuleFixer
{
    public const string EquivalenceKey = DiagnosticIds.AvailableValue + "_UseTheValue";

    public AvailableValueFixer()
        : base(new AvailableValueAnalyzer(), AvailableValue.FixCompletedTask, EquivalenceKey, "Use values that are already available")
    {
    }

    protected override string Title(string kind) => kind == AvailableValue.FixUseValue
        ? "Use the value without awaiting a task for it"
        : "Use a completed task instead of queueing a delegate";

    /// <summary>Where the await takes the value of an awaited call, the await is what the rewrite replaces.</summary>
    protected override SyntaxNode? RestructuredNode(SyntaxNode root, Diagnostic diagnostic)
    {
        var node = root.FindNode(diagnostic.Location.SourceSpan, getInnermostNodeForTie: true);
        return FixSites.KindOf(diagnostic) == AvailableValue.FixUseValue ? node.FirstAncestorOrSelf<AwaitExpressionSyntax>() ?? node : node;
    }

    /// <summary>The await and the value (or the value alone for a completed task) are those the analyzer found (<see cref="AvailableValue.Site.Parts"/>).</summary>
    protected override void FixSite(DocumentEditor editor, TextSpan span, string kind, Diagnostic reported, CancellationToken cancellationToken)
    {
        var parts = FixSites.PartsOf(reported);
        if (kind == AvailableValue.FixUseValue)
        {
            CompletedValue.UseValue(editor, parts, cancellationToken);
            return;
        }

        var model = editor.SemanticModel;
        if (kind != AvailableValue.FixCompletedTask
            || FixSites.Part<InvocationExpressionSyntax>(editor.OriginalRoot, span) is not { } syntax
            || model.GetOperation(syntax, cancellationToken) is not IInvocationOperation call
            || model.Compilation.GetTypeByMetadataName(WellKnownTypeNames.Task) is not { } task)
        {
            return;
        }

        var value = parts.Length == 1 && FixSites.Part<ExpressionSyntax>(editor.OriginalRoot, parts[0]) is { } valueSyntax
            ? model.GetOperation(valueSyntax, cancellationToken)
            : null;
        if (parts.Length == 1 && value is null)
        {
            return;
        }

        editor.ReplaceNode(syntax, CompletedTask(editor.Generator, task, call, value).WithTriviaFrom(syntax));
    }

    /// <summary>
    /// <c>Task.CompletedTask</c>, or <c>Task.FromResult(value)</c>: with the type argument written out unless it is the
    /// value's own non-nullable type, so that inference from the value (its flow state, a literal) cannot pick another.
    /// </summary>
    private static SyntaxNode CompletedTask(SyntaxGenerator generator, INamedTypeSymbol task, IInvocationOperation call, IOperation? returned)
    {
        var type = ImportedType.Of(generator, task);
        if (returned is null || call.Type is not INamedTypeSymbol { TypeArguments.Length: 1 } result)
        {
            return generator.MemberAccessExpression(type, "CompletedTask");
        }

        var value = AvailableValue.Plain(returned);
        var resultType = result.TypeArguments[0];
        var inferred = SymbolEqualityComparer.IncludeNullability.Equals(value.Type, resultType)
            && resultType.NullableAnnotation != NullableAnnotation.Annotated
            && !(value.ConstantValue is { HasValue: true, Value: null } || value is IDefaultValueOperation);
        var name = inferred
            ? generator.IdentifierName("FromResult")
            : generator.GenericName("FromResult", generator.TypeExpression(resultType).WithAdditionalAnnotations(Simplifier.Annotation));
        return generator.InvocationExpression(generator.MemberAccessExpression(type, name), ((ExpressionSyntax)value.Syntax).WithoutTrivia());
    }
}
