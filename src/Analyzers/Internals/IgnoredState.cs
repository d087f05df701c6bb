using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp;
using Microsoft.CodeAnalysis.CSharp.Syntax;

namespace TplPractices.Analyzers.Internals;

/// <summary>
/// A method of the project that takes a state for its callback and never reads it (a test double's <c>d(null)</c>, a
/// helper that calls <c>callback(null)</c>): a state fix would hand the callback something else than the values it
/// captured, so the capture is what carries them and the state rules report nothing there (TPL0006, TPL0015).
/// </summary>
internal static class IgnoredState
{
    /// <summary>The method's body is in the project's source and never names its parameter at <paramref name="ordinal"/>.</summary>
    public static bool IsIgnoredBy(IMethodSymbol method, int ordinal)
    {
        method = method.OriginalDefinition;
        if (ordinal < 0 || ordinal >= method.Parameters.Length || method.DeclaringSyntaxReferences.Length != 1)
        {
            return false;
        }

        var body = method.DeclaringSyntaxReferences[0].GetSyntax() switch
        {
            BaseMethodDeclarationSyntax declared => (SyntaxNode?)declared.Body ?? declared.ExpressionBody,
            LocalFunctionStatementSyntax local => (SyntaxNode?)local.Body ?? local.ExpressionBody,
            _ => null,
        };
        return body is not null && !body.HasTokenNamed(method.Parameters[ordinal].Name, SyntaxKind.IdentifierToken);
    }

    /// <summary>
    /// The method a call of <paramref name="called"/> on a <paramref name="receiver"/> runs, as far as the receiver's type
    /// tells: its own override or the nearest base's.
    /// </summary>
    public static IMethodSymbol? ImplementationOn(INamedTypeSymbol receiver, IMethodSymbol called)
    {
        for (var type = receiver; type is not null; type = type.BaseType)
        {
            foreach (var member in type.GetMembers(called.Name))
            {
                for (var method = member as IMethodSymbol; method is not null; method = method.OverriddenMethod)
                {
                    if (SymbolEqualityComparer.Default.Equals(method, called))
                    {
                        return (IMethodSymbol)member;
                    }
                }
            }
        }

        return null;
    }
}
