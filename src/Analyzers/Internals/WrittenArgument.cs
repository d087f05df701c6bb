using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp;
using Microsoft.CodeAnalysis.CSharp.Syntax;
using Microsoft.CodeAnalysis.Operations;

namespace TplPractices.Analyzers.Internals;

internal static class WrittenArgument
{
    /// <summary>
    /// The argument as written in the call's list. The compiler marks an argument written with the null-forgiving
    /// operator (<c>token!</c>, <c>callback!</c>) implicit and points it at the expression inside, not at the argument:
    /// read by its syntax alone, such an argument looks left out, and a rewrite of the list would drop it. Null for an
    /// argument the call does not write (an optional one's default, a params array built from the written elements).
    /// </summary>
    public static ArgumentSyntax? Written(this IArgumentOperation argument)
    {
        if (argument.Syntax is ArgumentSyntax written)
        {
            return written;
        }

        if (argument.ArgumentKind != ArgumentKind.Explicit)
        {
            return null;
        }

        var node = argument.Syntax;
        while (node.Parent is ParenthesizedExpressionSyntax || node.Parent.IsKind(SyntaxKind.SuppressNullableWarningExpression))
        {
            node = node.Parent;
        }

        return node.Parent as ArgumentSyntax;
    }
}
