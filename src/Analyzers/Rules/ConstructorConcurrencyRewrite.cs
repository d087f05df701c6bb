using System.Linq;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp.Syntax;
using Microsoft.CodeAnalysis.Operations;

namespace TplPractices.Analyzers.Rules;

/// <summary>
/// Which of TPL0010's measures have an exact plain form: a lock (its body), Interlocked.Increment, Decrement, Add,
/// a discarded Exchange, Volatile.Read and Volatile.Write. Only on a field no other member of the type names, so the
/// plain operation cannot pair with a protected one elsewhere.
/// </summary>
internal static class ConstructorConcurrencyRewrite
{
    public static bool CanRewrite(IOperation measure, IFieldSymbol field, IMethodSymbol constructor) =>
        HasPlainForm(measure) && OnlyThisConstructorNames(field, constructor);

    private static bool HasPlainForm(IOperation measure) => measure switch
    {
        ILockOperation => true,
        IInvocationOperation { TargetMethod: { ContainingType.Name: "Interlocked" } method } call => method.Name switch
        {
            "Increment" or "Decrement" => call.Arguments.Length == 1,
            "Add" => call.Arguments.Length == 2,
            "Exchange" => call.Arguments.Length == 2 && call.Parent is IExpressionStatementOperation,
            _ => false,
        },
        IInvocationOperation { TargetMethod: { ContainingType.Name: "Volatile" } method } call =>
            (method.Name == "Read" && call.Arguments.Length == 1) || (method.Name == "Write" && call.Arguments.Length == 2),
        _ => false,
    };

    /// <summary>True when the field's name appears in the type's code only inside this constructor (and its own declaration).</summary>
    private static bool OnlyThisConstructorNames(IFieldSymbol field, IMethodSymbol constructor)
    {
        var body = constructor.DeclaringSyntaxReferences.FirstOrDefault();
        if (body is null)
        {
            return false;
        }

        foreach (var reference in field.ContainingType.DeclaringSyntaxReferences)
        {
            foreach (var name in reference.GetSyntax().DescendantNodes().OfType<IdentifierNameSyntax>())
            {
                if (name.Identifier.ValueText == field.Name
                    && !(name.SyntaxTree == body.SyntaxTree && body.Span.Contains(name.Span)))
                {
                    return false;
                }
            }
        }

        return true;
    }
}
