using System.Collections.Generic;
using System.Collections.Immutable;
using System.Linq;
using System.Threading;
using System.Threading.Tasks;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CodeActions;
using Microsoft.CodeAnalysis.CodeFixes;
using Microsoft.CodeAnalysis.CSharp;
using Microsoft.CodeAnalysis.CSharp.Syntax;
using Microsoft.CodeAnalysis.Editing;
using Microsoft.CodeAnalysis.Formatting;
using Microsoft.CodeAnalysis.Operations;
using Microsoft.CodeAnalysis.Simplification;
using TplPractices.Analyzers.CodeFixes.Internals;
using TplPractices.Analyzers.Internals;
using TplPractices.Analyzers.Rules;

namespace TplPractices.Analyzers.CodeFixes.Rules;

/// <summary>
/// TPL0003: replaces <c>Task.FromResult(constant)</c> with <c>Task.CompletedTask</c> where only a Task is
/// needed, and otherwise with a private static readonly field created once per containing type.
/// </summary>
[ExportCodeFixProvider(LanguageNames.CSharp, Name = nameof(CacheConstantTaskResultFixer))]
public sealed class CacheConstantTaskResultFixer : RuleFixer
{
    /// <summary>One key for both rewrites, so Fix All (and dotnet format) applies each site's own rewrite.</summary>
    public const string EquivalenceKey = DiagnosticIds.CacheConstantTaskResult + "_CacheTask";

    public CacheConstantTaskResultFixer()
        : base(new CacheConstantTaskResultAnalyzer(), CacheConstantTaskResultAnalyzer.FixUseCachedField, EquivalenceKey, "Cache constant task results")
    {
    }

    protected override string Title(string kind) => kind == CacheConstantTaskResultAnalyzer.FixUseCompletedTask
        ? "Use Task.CompletedTask"
        : "Cache the task in a static readonly field";

    protected override async Task<Document> FixDocumentAsync(
        Document document,
        ImmutableArray<Diagnostic> diagnostics,
        CancellationToken cancellationToken)
    {
        var editor = await DocumentEditor.CreateAsync(document, cancellationToken).ConfigureAwait(false);
        var fields = new NewStaticFields(editor.OriginalRoot, editor.SemanticModel, document.Project.AnalyzerOptions.AnalyzerConfigOptionsProvider.GetOptions(editor.OriginalRoot.SyntaxTree));
        var constants = new Dictionary<ILocalSymbol, int>(SymbolEqualityComparer.Default);
        foreach (var (span, kind) in FixSites.Of(diagnostics, PortableKind))
        {
            if (editor.OriginalRoot.FindNode(span, getInnermostNodeForTie: true)
                    is not InvocationExpressionSyntax invocation
                || editor.SemanticModel.GetOperation(invocation, cancellationToken) is not IInvocationOperation operation)
            {
                continue;
            }

            if (kind == CacheConstantTaskResultAnalyzer.FixUseCompletedTask)
            {
                ReplaceWithCompletedTask(editor, invocation, operation);
            }
            else if (kind == CacheConstantTaskResultAnalyzer.FixUseCachedField)
            {
                if (ReplaceWithCachedField(editor, fields, invocation, operation, cancellationToken))
                {
                    foreach (var read in operation.Arguments[0].Value.DescendantsAndSelf().OfType<ILocalReferenceOperation>())
                    {
                        constants[read.Local] = constants.TryGetValue(read.Local, out var count) ? count + 1 : 1;
                    }
                }
            }
        }

        fields.InsertInto(editor);
        RemoveUnusedConstants(editor, constants, cancellationToken);
        return editor.GetChangedDocument();
    }

    /// <summary>
    /// A local constant the cached fields spell out as a literal is left unused when those were its only reads; its
    /// declaration goes too, or the compiler would warn (CS0219), an error under TreatWarningsAsErrors. So does a
    /// constant read only in the initializers of constants that go (<c>const E Both = Image | E.Metadata;</c>).
    /// </summary>
    private static void RemoveUnusedConstants(DocumentEditor editor, Dictionary<ILocalSymbol, int> replacedReads, CancellationToken cancellationToken)
    {
        var pending = new Queue<ILocalSymbol>(replacedReads.Keys);
        var removed = new HashSet<ILocalSymbol>(SymbolEqualityComparer.Default);
        while (pending.Count > 0)
        {
            var local = pending.Dequeue();
            if (removed.Contains(local)
                || local.DeclaringSyntaxReferences.FirstOrDefault()?.GetSyntax(cancellationToken) is not VariableDeclaratorSyntax
                {
                    Parent: VariableDeclarationSyntax { Parent: LocalDeclarationStatementSyntax statement } declaration,
                } declarator
                || statement.Parent is not BlockSyntax scope)
            {
                continue;
            }

            var reads = scope.DescendantNodes().OfType<IdentifierNameSyntax>().Count(n => n.Identifier.ValueText == local.Name
                && SymbolEqualityComparer.Default.Equals(editor.SemanticModel.GetSymbolInfo(n, cancellationToken).Symbol, local));
            if (reads != replacedReads[local])
            {
                continue;
            }

            removed.Add(local);
            if (declaration.Variables.Count > 1)
            {
                editor.RemoveNode(declarator, SyntaxRemoveOptions.KeepNoTrivia);
            }
            else
            {
                BlankLines.RemoveStatement(editor, statement);
            }

            // The constants its initializer reads lose those reads with it.
            foreach (var name in declarator.Initializer?.Value.DescendantNodesAndSelf().OfType<IdentifierNameSyntax>() ?? [])
            {
                if (editor.SemanticModel.GetSymbolInfo(name, cancellationToken).Symbol is ILocalSymbol { IsConst: true } other)
                {
                    replacedReads[other] = replacedReads.TryGetValue(other, out var count) ? count + 1 : 1;
                    pending.Enqueue(other);
                }
            }
        }
    }

    private static void ReplaceWithCompletedTask(DocumentEditor editor, InvocationExpressionSyntax invocation, IInvocationOperation operation)
    {
        var generator = editor.Generator;
        var completed = generator.MemberAccessExpression(
            generator.TypeExpression(operation.TargetMethod.ContainingType), "CompletedTask");
        editor.ReplaceNode(invocation, completed.WithTriviaFrom(invocation).WithAdditionalAnnotations(Simplifier.Annotation));
    }

    /// <summary>True when the call was replaced.</summary>
    private static bool ReplaceWithCachedField(
        DocumentEditor editor,
        NewStaticFields fields,
        InvocationExpressionSyntax invocation,
        IInvocationOperation operation,
        CancellationToken cancellationToken)
    {
        var typeDeclaration = invocation.FirstAncestorOrSelf<TypeDeclarationSyntax>();
        if (typeDeclaration is null
            || editor.SemanticModel.GetDeclaredSymbol(typeDeclaration, cancellationToken) is not INamedTypeSymbol type
            || !ConstantResult.TryGet(operation.Arguments[0].Value, out var constant))
        {
            return false;
        }

        var key = CachedTaskKey.Of(operation, constant);
        var (holder, name) = FindEquivalentField(type, key, editor.SemanticModel.Compilation, cancellationToken) is { } found
            ? found
            : (null, fields.GetOrAdd(typeDeclaration, type, key, () => CreateField(editor.Generator, operation, constant)));
        holder ??= fields.HolderOf(typeDeclaration);

        var generator = editor.Generator;
        var owner = holder is null ? generator.TypeExpression(type) : generator.MemberAccessExpression(generator.TypeExpression(type), holder);
        var reference = generator.MemberAccessExpression(owner, name)
            .WithTriviaFrom(invocation)
            .WithAdditionalAnnotations(Simplifier.Annotation);
        editor.ReplaceNode(invocation, reference);
        return true;
    }

    /// <summary>
    /// An existing static readonly field that holds the same cached task: the type's own, or one in a holder class an
    /// earlier fix wrote (with the holder's name).
    /// </summary>
    private static (string? Holder, string Name)? FindEquivalentField(INamedTypeSymbol type, string key, Compilation compilation, CancellationToken cancellationToken)
    {
        var holders = type.GetTypeMembers().Where(t => t.IsStatic && t.Name.StartsWith(NewStaticFields.HolderName, System.StringComparison.Ordinal)
            && t.DeclaringSyntaxReferences.Any(r => r.GetSyntax(cancellationToken) is ClassDeclarationSyntax { Parent: TypeDeclarationSyntax parent } c
                && NewStaticFields.ExistingHolder(parent) == c));
        foreach (var field in type.GetMembers().OfType<IFieldSymbol>().Concat(holders.SelectMany(h => h.GetMembers().OfType<IFieldSymbol>())))
        {
            if (!field.IsStatic || !field.IsReadOnly)
            {
                continue;
            }

            foreach (var reference in field.DeclaringSyntaxReferences)
            {
                // Only a field set before any static initializer that may call the rewritten code, or in a holder.
                var inHolder = !SymbolEqualityComparer.Default.Equals(field.ContainingType, type);
                if (reference.GetSyntax(cancellationToken) is VariableDeclaratorSyntax { Initializer.Value: { } value } declarator
                    && declarator.FirstAncestorOrSelf<FieldDeclarationSyntax>() is { Parent: TypeDeclarationSyntax declaration } member
                    && compilation.GetSemanticModel(value.SyntaxTree) is var model
                    && (inHolder || NewStaticFields.SafePrefix(declaration, model).Contains(member))
                    && model.GetOperation(value, cancellationToken) is { } initializer
                    && initializer.WithoutImplicitConversions() is IInvocationOperation call
                    && SymbolEqualityComparer.Default.Equals(call.Type, field.Type)
                    && call.TargetMethod.Name == "FromResult"
                    && call.Arguments.Length == 1
                    && ConstantResult.TryGet(call.Arguments[0].Value, out var existing)
                    && CachedTaskKey.Of(call, existing) == key)
                {
                    return (inHolder ? field.ContainingType.Name : null, field.Name);
                }
            }
        }

        return null;
    }

    private static (ExpressionSyntax Initializer, TypeSyntax Type, IEnumerable<string> NameWords) CreateField(
        SyntaxGenerator generator,
        IInvocationOperation operation,
        ConstantResult constant)
    {
        var argument = operation.Arguments[0].Value;
        var resultType = operation.TargetMethod.TypeArguments[0];
        ExpressionSyntax initializer = ((InvocationExpressionSyntax)operation.Syntax).WithoutTrivia();

        // A local constant is out of scope in a field initializer: write its value instead, with the type
        // argument spelled out so that inference cannot pick another type for the literal.
        if (argument.DescendantsAndSelf().Any(o => o is ILocalReferenceOperation))
        {
            var literal = constant.Value is null
                ? generator.NullLiteralExpression()
                : generator.LiteralExpression(constant.Value);
            if (argument.Type is { TypeKind: TypeKind.Enum } enumType)
            {
                // A member, or the members a [Flags] value combines in the order the author wrote them (A | B), named
                // through the type: the constants they were written with are out of the initializer's scope.
                literal = CachedTaskKey.EnumMember(enumType, constant.Value) is { } member
                    ? generator.MemberAccessExpression(generator.TypeExpression(enumType), member.Name)
                    : CachedTaskKey.FlagsOf(argument, constant.Value) is { Count: > 1 } flags
                        ? flags.Select(f => generator.MemberAccessExpression(generator.TypeExpression(enumType), f.Name)).Aggregate(generator.BitwiseOrExpression)
                        : generator.CastExpression(enumType, literal);
            }

            initializer = (ExpressionSyntax)generator.InvocationExpression(
                generator.MemberAccessExpression(
                    generator.TypeExpression(operation.TargetMethod.ContainingType),
                    generator.GenericName("FromResult", resultType)),
                literal).WithAdditionalAnnotations(Simplifier.Annotation);
        }

        var type = (TypeSyntax)generator.TypeExpression(operation.Type!).WithAdditionalAnnotations(Simplifier.Annotation);
        return (initializer, type, CachedTaskKey.NameWords(resultType, argument, constant));
    }
}
