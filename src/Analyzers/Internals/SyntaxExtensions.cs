using System.Linq;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp;
using Microsoft.CodeAnalysis.CSharp.Syntax;

namespace TplPractices.Analyzers.Internals;

internal static class SyntaxExtensions
{
    /// <summary>
    /// The name is written, read from the text: the target of an assignment (itself, through <c>this.</c>, or inside a
    /// tuple), incremented or decremented, a <c>ref</c>/<c>out</c> argument, or taken by <c>ref</c>.
    /// </summary>
    public static bool IsWritten(this IdentifierNameSyntax name)
    {
        SyntaxNode node = name.Parent is MemberAccessExpressionSyntax { Expression: ThisExpressionSyntax } access && access.Name == name ? access : name;
        for (; node.Parent is not null and not StatementSyntax; node = node.Parent)
        {
            switch (node.Parent)
            {
                case AssignmentExpressionSyntax assignment when assignment.Left == node:
                    return true;
                case PrefixUnaryExpressionSyntax { RawKind: (int)SyntaxKind.PreIncrementExpression or (int)SyntaxKind.PreDecrementExpression }:
                case PostfixUnaryExpressionSyntax { RawKind: (int)SyntaxKind.PostIncrementExpression or (int)SyntaxKind.PostDecrementExpression }:
                    return true;
                case ArgumentSyntax argument when !argument.RefKindKeyword.IsKind(SyntaxKind.None):
                    return true;
                case RefExpressionSyntax:
                    // ref int alias = ref count; writes through the alias.
                    return true;
                case TupleExpressionSyntax or ArgumentSyntax:
                    continue;
                default:
                    return false;
            }
        }

        return false;
    }

    /// <summary>
    /// Whether some declaration of the member's type writes a name like the member's (a field, or a primary
    /// constructor's parameter), read from the text: a local of the same name counts too, which errs towards "written".
    /// </summary>
    public static bool IsWrittenInItsType(this ISymbol member) =>
        member.ContainingType?.DeclaringSyntaxReferences.Any(reference => reference.GetSyntax().DescendantNodes().OfType<IdentifierNameSyntax>()
            .Any(name => name.Identifier.ValueText == member.Name && name.IsWritten())) != false;

    /// <summary>
    /// A primary constructor's parameter: a member that uses it reads a field of the object, which any member of the
    /// type's declaration may write.
    /// </summary>
    public static bool IsPrimaryConstructorParameter(this ISymbol symbol) =>
        symbol is IParameterSymbol { ContainingSymbol: IMethodSymbol { MethodKind: MethodKind.Constructor } constructor }
        && constructor.DeclaringSyntaxReferences.Any(reference => reference.GetSyntax() is TypeDeclarationSyntax);

    /// <summary>
    /// The value a readonly field always holds, read from the text: the initializer of its one declaration, where no
    /// declaration of its type writes it (a constructor could replace it); null otherwise.
    /// </summary>
    public static ExpressionSyntax? OnlyInitializerOf(this IFieldSymbol field) =>
        field.IsReadOnly
        && field.DeclaringSyntaxReferences.Length == 1
        && field.DeclaringSyntaxReferences[0].GetSyntax() is VariableDeclaratorSyntax { Initializer.Value: { } value }
        && !field.IsWrittenInItsType()
            ? value
            : null;

    /// <summary>The expression inside any parentheses around it.</summary>
    public static ExpressionSyntax WithoutParentheses(this ExpressionSyntax expression)
    {
        while (expression is ParenthesizedExpressionSyntax parentheses)
        {
            expression = parentheses.Expression;
        }

        return expression;
    }

    /// <summary>
    /// Whether the node holds an #if: only then can code be inactive, or differ between the builds of one file. The
    /// directives are walked, not the trivia, so a file whose only directives are #nullable or #pragma costs nothing more.
    /// </summary>
    public static bool HasConditionalBranches(this SyntaxNode node)
    {
        if (!node.ContainsDirectives)
        {
            return false;
        }

        for (var directive = node.GetFirstDirective(); directive is not null && node.FullSpan.Contains(directive.Span); directive = directive.GetNextDirective())
        {
            if (directive.IsKind(SyntaxKind.IfDirectiveTrivia))
            {
                return true;
            }
        }

        return false;
    }

    /// <summary>The function around the node (or the node): a method, accessor, local function, lambda or top-level statement.</summary>
    public static SyntaxNode? EnclosingFunction(this SyntaxNode node) =>
        node.FirstAncestorOrSelf<SyntaxNode>(n => n is BaseMethodDeclarationSyntax or AccessorDeclarationSyntax or LocalFunctionStatementSyntax
            or AnonymousFunctionExpressionSyntax or GlobalStatementSyntax);

    /// <summary>A function's block or expression body; the file for a top-level statement, whose body the others share.</summary>
    public static SyntaxNode? BodyOf(this SyntaxNode function) => function switch
    {
        BaseMethodDeclarationSyntax method => (SyntaxNode?)method.Body ?? method.ExpressionBody,
        AccessorDeclarationSyntax accessor => (SyntaxNode?)accessor.Body ?? accessor.ExpressionBody,
        LocalFunctionStatementSyntax local => (SyntaxNode?)local.Body ?? local.ExpressionBody,
        AnonymousFunctionExpressionSyntax lambda => lambda.Body,
        GlobalStatementSyntax statement => statement.Parent,
        _ => null,
    };

    /// <summary>
    /// Whether a preprocessor directive lies inside the node (not in the trivia before it): code in a branch another
    /// target compiles, which a fix cannot see from this one.
    /// </summary>
    public static bool HasDirectiveInside(this SyntaxNode node) =>
        node.ContainsDirectives && node.DescendantTrivia().Any(t => t.IsDirective && node.Span.Contains(t.Span));

    /// <summary>
    /// True while the member around the node, or the header of a type around it, has syntax errors:
    /// half-typed code. Rules stay silent there, because a fix computed from a guess at the code's shape can
    /// add errors (found by FuzzTests). Errors in other members of the type do not count.
    /// </summary>
    public static bool IsInBrokenMember(this SyntaxNode node)
    {
        // A file without a syntax error, the usual case, answers from one flag on its root. Otherwise one walk up,
        // with no enumerator or delegate: every rule asks this at each of its candidates.
        if (!node.SyntaxTree.GetRoot().ContainsDiagnostics)
        {
            return false;
        }

        var memberSeen = false;
        for (var current = node; current is not null; current = current.Parent)
        {
            if (!memberSeen && current is MemberDeclarationSyntax)
            {
                memberSeen = true;
                if (current.ContainsDiagnostics)
                {
                    return true;
                }
            }

            if (current != node && current is TypeDeclarationSyntax type && HasBrokenHeader(type))
            {
                return true;
            }
        }

        return !memberSeen && node.ContainsDiagnostics;
    }

    /// <summary>
    /// True when the code declares out vars or pattern variables: moved into another scope by a fix (a
    /// lambda's body inlined, say), their names could clash with the new scope's.
    /// </summary>
    public static bool DeclaresVariables(this SyntaxNode node) =>
        node.DescendantNodesAndSelf().Any(n => n is SingleVariableDesignationSyntax);

    private static bool HasBrokenHeader(TypeDeclarationSyntax type) =>
        type.Identifier.IsMissing
        || type.OpenBraceToken.IsMissing
        || type.TypeParameterList?.ContainsDiagnostics == true
        || type.BaseList?.ContainsDiagnostics == true
        || HasDiagnostics(type.ConstraintClauses);

    private static bool HasDiagnostics(SyntaxList<TypeParameterConstraintClauseSyntax> clauses)
    {
        foreach (var clause in clauses)
        {
            if (clause.ContainsDiagnostics)
            {
                return true;
            }
        }

        return false;
    }

    /// <summary>The method's name in <c>x.M(…)</c> or <c>x?.M(…)</c>, where a rule about the call reports; null for any other call.</summary>
    public static SimpleNameSyntax? InvokedName(this SyntaxNode call) => call is InvocationExpressionSyntax { Expression: var target }
        ? target switch
        {
            MemberAccessExpressionSyntax access => access.Name,
            MemberBindingExpressionSyntax binding => binding.Name,
            _ => null,
        }
        : null;
}
