using System.Collections.Immutable;
using System.Linq;
using System.Threading;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CodeFixes;
using Microsoft.CodeAnalysis.CSharp;
using Microsoft.CodeAnalysis.CSharp.Syntax;
using Microsoft.CodeAnalysis.Editing;
using Microsoft.CodeAnalysis.Text;
using TplPractices.Analyzers.CodeFixes.Internals;
using TplPractices.Analyzers.Internals;
using TplPractices.Analyzers.Rules;

namespace TplPractices.Analyzers.CodeFixes.Rules;

/// <summary>
/// TPL0008: changes the return type of the method (both parts of a partial method) or local function from
/// Task&lt;T&gt; to ValueTask&lt;T&gt;. The analyzer reported it only where every call awaits directly, so no caller changes.
/// </summary>
[ExportCodeFixProvider(LanguageNames.CSharp, Name = nameof(ValueTaskFastPathFixer))]
public sealed class ValueTaskFastPathFixer : SiteRuleFixer
{
    public const string EquivalenceKey = DiagnosticIds.ValueTaskFastPath + "_ReturnValueTask";

    public ValueTaskFastPathFixer()
        : base(new ValueTaskFastPathAnalyzer(), ValueTaskFastPathAnalyzer.FixReturnValueTask, EquivalenceKey, "Return ValueTask<T> where every caller awaits")
    {
    }

    protected override string Title(string kind) => "Return ValueTask<T>";

    /// <summary>A target that does not report the method lacks ValueTask&lt;T&gt; or uses the task in another way.</summary>
    protected override bool EveryCopyMustReport => true;

    /// <summary>
    /// The return type of the method or local function whose fast path is reported: the only code the fix edits. An #if
    /// in the body (the GitHub Actions runner's Windows-only lines) leaves it alone: every build's body returns the same
    /// T, and the callers, which decide the fix, are outside it. A directive in the signature keeps the whole declaration.
    /// </summary>
    protected override SyntaxNode? RestructuredNode(SyntaxNode root, Diagnostic diagnostic)
    {
        if (ValueTaskFastPath.DeclarationOf(root.FindToken(diagnostic.Location.SourceSpan.Start).Parent!) is not { } declaration)
        {
            return null;
        }

        var body = declaration.BodyOf();
        var inSignature = declaration.DescendantTrivia().Any(t => t.IsDirective && declaration.Span.Contains(t.Span) && body?.FullSpan.Contains(t.Span) != true);
        return inSignature ? declaration : ReturnTypeOf(declaration);
    }

    protected override void FixSite(DocumentEditor editor, TextSpan span, string kind, CancellationToken cancellationToken)
    {
        var model = editor.SemanticModel;
        var declaration = ValueTaskFastPath.DeclarationOf(editor.OriginalRoot.FindToken(span.Start).Parent!);
        if (declaration is null
            || model.GetDeclaredSymbol(declaration, cancellationToken) is not IMethodSymbol method
            || ValueTaskFastPath.Context.TryCreate(model.Compilation) is not { } symbols
            || symbols.AsyncTaskResult(method) is not { } result)
        {
            return;
        }

        var valueTask = symbols.ValueTaskOfT.Construct(result);
        foreach (var part in new[] { method.PartialDefinitionPart, method.PartialImplementationPart, method })
        {
            foreach (var reference in part?.DeclaringSyntaxReferences ?? ImmutableArray<SyntaxReference>.Empty)
            {
                if (reference.SyntaxTree == editor.OriginalRoot.SyntaxTree
                    && ReturnTypeOf(reference.GetSyntax(cancellationToken)) is { } returnType)
                {
                    editor.ReplaceNode(returnType, (current, generator) => Rewrite((TypeSyntax)current, returnType.SpanStart, valueTask, model, generator));
                }
            }
        }
    }

    private static TypeSyntax? ReturnTypeOf(SyntaxNode declaration) => declaration switch
    {
        MethodDeclarationSyntax method => method.ReturnType,
        LocalFunctionStatementSyntax local => local.ReturnType,
        _ => null,
    };

    /// <summary>
    /// <c>Task&lt;T&gt;</c> becomes <c>ValueTask&lt;T&gt;</c> in the same spelling (qualified or not) when that binds to
    /// ValueTask&lt;T&gt; here; any other spelling (an alias, a clash) becomes the qualified name, reduced by the clean-up.
    /// </summary>
    private static SyntaxNode Rewrite(TypeSyntax current, int position, INamedTypeSymbol valueTask, SemanticModel model, SyntaxGenerator generator)
    {
        var renamed = Renamed(current);
        if (renamed is not null
            && SymbolEqualityComparer.Default.Equals(
                model.GetSpeculativeTypeInfo(position, renamed, SpeculativeBindingOption.BindAsTypeOrNamespace).Type,
                valueTask))
        {
            return renamed.WithTriviaFrom(current);
        }

        return ImportedType.Of(generator, valueTask).WithTriviaFrom(current);
    }

    private static TypeSyntax? Renamed(TypeSyntax type) => type switch
    {
        GenericNameSyntax { Identifier.ValueText: "Task" } generic => generic.WithIdentifier(SyntaxFactory.Identifier("ValueTask")),
        QualifiedNameSyntax { Right: GenericNameSyntax right } qualified when Renamed(right) is SimpleNameSyntax name => qualified.WithRight(name),
        AliasQualifiedNameSyntax { Name: GenericNameSyntax right } aliased when Renamed(right) is SimpleNameSyntax name => aliased.WithName(name),
        _ => null,
    };
}
