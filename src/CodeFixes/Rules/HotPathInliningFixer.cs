using System.Collections.Generic;
using System.Linq;
using System.Runtime.CompilerServices;
using System.Threading;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CodeFixes;
using Microsoft.CodeAnalysis.CSharp;
using Microsoft.CodeAnalysis.CSharp.Syntax;
using Microsoft.CodeAnalysis.Editing;
using Microsoft.CodeAnalysis.Formatting;
using Microsoft.CodeAnalysis.Operations;
using Microsoft.CodeAnalysis.Text;
using TplPractices.Analyzers.CodeFixes.Internals;
using TplPractices.Analyzers.Rules;
using static Microsoft.CodeAnalysis.CSharp.SyntaxFactory;

namespace TplPractices.Analyzers.CodeFixes.Rules;

/// <summary>
/// TPL0012: moves the statements after a hot method's fast path into a private method named after it with <c>Slow</c>,
/// marked NoInlining, placed right after it and passed the parameters it uses; the fast path stays, and the method
/// returns (or makes) the slow path's call where the statements were.
/// </summary>
[ExportCodeFixProvider(LanguageNames.CSharp, Name = nameof(HotPathInliningFixer))]
public sealed class HotPathInliningFixer : SiteRuleFixer
{
    public const string EquivalenceKey = DiagnosticIds.HotPathInlining + "_ExtractSlowPath";

    public HotPathInliningFixer()
        : base(new HotPathInliningAnalyzer(), HotPathInlining.FixExtractSlowPath, EquivalenceKey, "Move slow paths out of hot methods")
    {
    }

    protected override string Title(string kind) => "Move the slow path into a method of its own";

    /// <summary>Whether the moved code compiles as cleanly as before depends on what flow analysis proved in the fast path.</summary>
    protected override bool TriesBeforeOffering => true;

    /// <summary>The whole method is taken apart: an <c>#if</c> anywhere in it leaves it alone.</summary>
    protected override SyntaxNode? RestructuredNode(SyntaxNode root, Diagnostic diagnostic) =>
        root.FindToken(diagnostic.Location.SourceSpan.Start).Parent?.FirstAncestorOrSelf<MethodDeclarationSyntax>();

    /// <summary>The parameters the slow path takes are those the analyzer found (<see cref="DiagnosticPropertyKeys.SlowPathInputs"/>).</summary>
    protected override void FixSite(DocumentEditor editor, TextSpan span, string kind, Diagnostic reported, CancellationToken cancellationToken)
    {
        if (!reported.Properties.TryGetValue(DiagnosticPropertyKeys.SlowPathInputs, out var written) || written is null)
        {
            return;
        }

        var ordinals = written.Length == 0
            ? new List<int>()
            : written.Split(',').Select(o => int.TryParse(o, System.Globalization.NumberStyles.None, System.Globalization.CultureInfo.InvariantCulture, out var ordinal) ? ordinal : int.MaxValue).ToList();
        var model = editor.SemanticModel;
        if (editor.OriginalRoot.FindToken(span.Start).Parent?.FirstAncestorOrSelf<MethodDeclarationSyntax>() is not { Body: { } body } declaration
            || ordinals.Any(o => o >= declaration.ParameterList.Parameters.Count)
            || model.GetDeclaredSymbol(declaration, cancellationToken) is not { } method
            || model.Compilation.GetTypeByMetadataName(typeof(MethodImplAttribute).FullName!) is not { } attribute
            || model.Compilation.GetTypeByMetadataName(typeof(MethodImplOptions).FullName!) is not { } options)
        {
            return;
        }

        var name = FreeName(editor, method, declaration, body);
        var parameters = ordinals.Select(o => declaration.ParameterList.Parameters[o]).ToList();
        SimpleNameSyntax target = declaration.TypeParameterList is { } typeParameters
            ? GenericName(Identifier(name), TypeArgumentList(SeparatedList<TypeSyntax>(typeParameters.Parameters.Select(t => IdentifierName(t.Identifier.WithoutTrivia())))))
            : IdentifierName(name);
        var call = InvocationExpression(target, ArgumentList(SeparatedList(parameters.Select(p => Argument(IdentifierName(p.Identifier.WithoutTrivia()))))));
        StatementSyntax tail = method.ReturnsVoid ? ExpressionStatement(call) : ReturnStatement(call);

        var generator = editor.Generator;
        var noInlining = (AttributeListSyntax)generator.Attribute(
            ImportedType.Of(generator, attribute),
            new[] { generator.AttributeArgument(generator.MemberAccessExpression(ImportedType.Of(generator, options), nameof(MethodImplOptions.NoInlining))) });
        var slow = MethodDeclaration(LostComments.WithoutComments(declaration.ReturnType.WithoutTrivia()), Identifier(name))
            .WithAttributeLists(SingletonList(noInlining))
            .WithModifiers(Modifiers(declaration, DefaultAccessibility.Omitted(editor.OriginalDocument, editor.OriginalRoot)))
            .WithTypeParameterList(declaration.TypeParameterList is { } list
                ? TypeParameterList(SeparatedList(list.Parameters.Select(t => TypeParameter(t.Identifier.WithoutTrivia()))))
                : null)
            .WithParameterList(ParameterList(SeparatedList(parameters.Select(p => Parameter(p.Identifier.WithoutTrivia()).WithType(TypeInSlowPath(p, body, model, cancellationToken) is { } type ? LostComments.WithoutComments(type) : null)))))
            .WithConstraintClauses(List(declaration.ConstraintClauses.Select(LostComments.WithoutComments)))
            .WithBody(Block(body.Statements.Skip(1).Select((s, i) => i == 0 ? WithoutBlankLinesBefore(s) : s)))
            .WithLeadingTrivia(NewLines.Of(editor.OriginalRoot))
            .WithAdditionalAnnotations(Formatter.Annotation);

        editor.ReplaceNode(body, body.WithStatements(List(new[] { body.Statements[0], tail })).WithAdditionalAnnotations(Formatter.Annotation));
        editor.InsertAfter(declaration, slow);
    }

    /// <summary>
    /// The parameter's type as the moved code sees it: a nullable reference the fast path has proved not null (it
    /// returned on null) is declared without <c>?</c>, or the moved code would warn where it did not before.
    /// </summary>
    private static TypeSyntax? TypeInSlowPath(ParameterSyntax parameter, BlockSyntax body, SemanticModel model, CancellationToken cancellationToken)
    {
        if (parameter.Type is not NullableTypeSyntax { ElementType: var element } nullable
            || model.GetDeclaredSymbol(parameter, cancellationToken) is not { Type.IsReferenceType: true } symbol)
        {
            return parameter.Type?.WithoutTrivia();
        }

        var firstRead = body.Statements.Skip(1)
            .SelectMany(s => s.DescendantNodes().OfType<IdentifierNameSyntax>())
            .FirstOrDefault(n => n.Identifier.ValueText == parameter.Identifier.ValueText
                && SymbolEqualityComparer.Default.Equals(model.GetSymbolInfo(n, cancellationToken).Symbol, symbol));
        return firstRead is not null && model.GetTypeInfo(firstRead, cancellationToken).Nullability.FlowState == NullableFlowState.NotNull
            ? element.WithoutTrivia()
            : nullable.WithoutTrivia();
    }

    /// <summary>The first moved statement starts the new body: the blank lines that parted it from the fast path go, its comments stay.</summary>
    private static StatementSyntax WithoutBlankLinesBefore(StatementSyntax statement) =>
        statement.WithLeadingTrivia(statement.GetLeadingTrivia().SkipWhile(t => t.IsKind(SyntaxKind.WhitespaceTrivia) || t.IsKind(SyntaxKind.EndOfLineTrivia)));

    /// <summary>
    /// <c>private</c> (unless the project omits a default accessibility), and of the method's modifiers those the moved
    /// code needs to compile as it did: <c>static</c>, <c>unsafe</c>, and a struct member's <c>readonly</c> (without it,
    /// calls on <c>this</c> would copy the struct).
    /// </summary>
    private static SyntaxTokenList Modifiers(MethodDeclarationSyntax declaration, bool omitPrivate) =>
        DefaultAccessibility.Modifiers(omitPrivate, new[] { SyntaxKind.PrivateKeyword }.Concat(
            declaration.Modifiers
                .Where(m => m.IsKind(SyntaxKind.StaticKeyword) || m.IsKind(SyntaxKind.UnsafeKeyword) || m.IsKind(SyntaxKind.ReadOnlyKeyword))
                .Select(m => m.Kind())).ToArray());

    /// <summary>
    /// The method's name with <c>Slow</c>, numbered where the type's code, its bases, the code around or this rewrite
    /// already use it.
    /// </summary>
    private static string FreeName(DocumentEditor editor, IMethodSymbol method, MethodDeclarationSyntax declaration, BlockSyntax body)
    {
        // Keyed by the type: two methods of one type fixed together never get the same name.
        return FieldNaming.FreeName(editor, "type " + method.ContainingType.ToDisplayString(), declaration.Parent ?? declaration, body.SpanStart, method.Name + "Slow");
    }
}
