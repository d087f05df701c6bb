using System.Linq;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp;
using Microsoft.CodeAnalysis.CSharp.Syntax;
using Microsoft.CodeAnalysis.Editing;
using Microsoft.CodeAnalysis.Operations;
using TplPractices.Analyzers.Internals;
using static Microsoft.CodeAnalysis.CSharp.SyntaxFactory;

namespace TplPractices.Analyzers.CodeFixes.Internals;

/// <summary>
/// A local declared apart from its value, for a using block to assign it where no using declaration can stand (before
/// C# 8, in a switch section) while the local outlives the block: <c>Task first; using (…) { first = …; }</c>. The
/// analyzers take only statements <c>UsingPlacement.BlockFits</c> accepts.
/// </summary>
internal static class DeclaredApart
{
    /// <summary><c>T name;</c> and <c>name = value;</c>, for a using block to assign a local that outlives it.</summary>
    public static (LocalDeclarationStatementSyntax Declaration, StatementSyntax Assignment) Of(TypeSyntax type, SyntaxToken identifier, ExpressionSyntax value)
    {
        var name = identifier.WithoutTrivia();
        return (
            LocalDeclarationStatement(VariableDeclaration(type, SingletonSeparatedList(VariableDeclarator(name)))),
            ExpressionStatement(AssignmentExpression(SyntaxKind.SimpleAssignmentExpression, IdentifierName(name), value.WithoutTrivia())));
    }

    /// <summary>
    /// As <see cref="Of(TypeSyntax, SyntaxToken, ExpressionSyntax)"/> for a declaration of the original tree: its type as
    /// written, or the one <c>var</c> stood for (<see cref="WrittenType"/>); the value may be rewritten already.
    /// </summary>
    public static (LocalDeclarationStatementSyntax Declaration, StatementSyntax Assignment) Of(DocumentEditor editor, VariableDeclaratorSyntax original, TypeSyntax declaredType, SyntaxToken identifier, ExpressionSyntax value) =>
        Of(WrittenType(editor, original, declaredType), identifier, value);

    /// <summary>
    /// The type of a local declared apart from its value: as written, or for <c>var</c> the local's type. The <c>?</c>
    /// that <c>var</c> gives it where annotations are on is left out where its value is not null (a race's winner) and
    /// nothing writes the local again: <c>Task first;</c>. Where annotations are off no <c>?</c> may be written (the
    /// analyzers take no <c>var</c> whose type arguments carry one there).
    /// </summary>
    private static TypeSyntax WrittenType(DocumentEditor editor, VariableDeclaratorSyntax variable, TypeSyntax type)
    {
        var model = editor.SemanticModel;
        if (!type.IsVar || model.GetDeclaredSymbol(variable) is not ILocalSymbol local)
        {
            return type.WithoutTrivia();
        }

        var written = local.Type;
        if (!model.GetNullableContext(variable.SpanStart).AnnotationsEnabled()
            || variable.Initializer is { } initializer
                && model.GetTypeInfo(initializer.Value).Nullability.FlowState == NullableFlowState.NotNull
                && !WrittenAgain(model, variable, local))
        {
            written = written.WithNullableAnnotation(NullableAnnotation.None);
        }

        return (TypeSyntax)ImportedType.Of(editor.Generator, written);
    }

    /// <summary>Whether anything in the local's block writes it after its declaration (an assignment, a deconstruction, <c>ref</c>).</summary>
    private static bool WrittenAgain(SemanticModel model, VariableDeclaratorSyntax variable, ILocalSymbol local) =>
        variable.FirstAncestorOrSelf<BlockSyntax>() is not { } scope
        || model.GetOperation(scope) is not { } block
        || block.Descendants().OfType<ILocalReferenceOperation>().Any(r => SymbolEqualityComparer.Default.Equals(r.Local, local) && StateCapture.IsWrite(r));
}
