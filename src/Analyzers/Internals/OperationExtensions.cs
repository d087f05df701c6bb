using System.Collections.Immutable;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.Operations;

namespace TplPractices.Analyzers.Internals;

internal static class OperationExtensions
{
    /// <summary>
    /// The value a readonly field holds wherever it is read (<c>OnlyInitializerOf</c>: its initializer, where nothing in
    /// its type writes it), where the field is declared in the file of <paramref name="reader"/>, whose semantic model
    /// the reader has. Null otherwise.
    /// </summary>
    public static IOperation? OnlyValueOf(this IFieldSymbol field, IOperation reader) =>
        field.OnlyInitializerOf() is { } value && value.SyntaxTree == reader.Syntax.SyntaxTree ? reader.SemanticModel?.GetOperation(value) : null;

    /// <summary>
    /// False for code that runs once per type or per process: static field and property initializers,
    /// static constructors and top-level statements. Lambdas and local functions inside them can run
    /// many times, so they count as repeated.
    /// </summary>
    public static bool RunsRepeatedly(this IOperation operation, ISymbol containingSymbol)
    {
        if (operation.EnclosingFunction() is not null)
        {
            return true;
        }

        return containingSymbol switch
        {
            IMethodSymbol method => method.MethodKind != MethodKind.StaticConstructor && !method.IsTopLevelEntryPoint(),
            IFieldSymbol field => !field.IsStatic,
            IPropertySymbol property => !property.IsStatic,
            _ => true,
        };
    }

    /// <summary>
    /// True inside a lambda converted to <c>System.Linq.Expressions.Expression&lt;T&gt;</c>, recognized by name so that no
    /// rule needs the symbol; asked only for a site about to be reported.
    /// </summary>
    public static bool IsInsideExpressionTree(this IOperation operation)
    {
        for (var current = operation.Parent; current is not null; current = current.Parent)
        {
            if (current is IAnonymousFunctionOperation
                && current.Parent is IConversionOperation { Type: INamedTypeSymbol { Name: "Expression", Arity: 1 } target }
                && target.ContainingNamespace is { Name: "Expressions", ContainingNamespace: { Name: "Linq", ContainingNamespace: { Name: "System", ContainingNamespace.IsGlobalNamespace: true } } })
            {
                return true;
            }
        }

        return false;
    }

    /// <summary>The method or constructor an invocation or object creation calls, with its arguments; null for any other operation.</summary>
    public static (IMethodSymbol Method, ImmutableArray<IArgumentOperation> Arguments)? Call(this IOperation operation) => operation switch
    {
        IInvocationOperation invocation => (invocation.TargetMethod, invocation.Arguments),
        IObjectCreationOperation { Constructor: { } constructor } creation => (constructor, creation.Arguments),
        _ => null,
    };

    /// <summary>
    /// The kind of a collection expression in the Roslyn that runs the analyzer, looked up by name once (an enum's
    /// <c>ToString</c> at every test would cost more than the rest of it); null where that Roslyn has none.
    /// </summary>
    private static readonly OperationKind? CollectionExpressionKind =
        System.Enum.TryParse<OperationKind>("CollectionExpression", out var kind) ? kind : null;

    /// <summary>
    /// A collection expression (C# 12), or the params span a call since .NET 9 builds: read by kind, which the oldest
    /// Roslyn this package supports has no interface for; its elements are its child operations.
    /// </summary>
    public static bool IsCollectionExpression(this IOperation operation) => operation.Kind == CollectionExpressionKind;

    /// <summary>The operation under any implicit conversions the compiler inserted around it.</summary>
    public static IOperation WithoutImplicitConversions(this IOperation operation)
    {
        var current = operation;
        while (current is IConversionOperation { IsImplicit: true } conversion)
        {
            current = conversion.Operand;
        }

        return current;
    }

    /// <summary>The operation with the implicit conversions the compiler wrapped around it, outermost first.</summary>
    public static IOperation WithImplicitConversionsAround(this IOperation operation)
    {
        var current = operation;
        while (current.Parent is IConversionOperation { IsImplicit: true } conversion)
        {
            current = conversion;
        }

        return current;
    }

    /// <summary>The operation with no parent: the body of the member being analyzed.</summary>
    public static IOperation Root(this IOperation operation)
    {
        var current = operation;
        while (current.Parent is not null)
        {
            current = current.Parent;
        }

        return current;
    }

    /// <summary>The value the local's declaration in <paramref name="scope"/> gives it, or null (none there, or no initializer).</summary>
    public static IOperation? InitializerOf(this IOperation scope, ILocalSymbol local) =>
        scope.DeclaratorOf(local)?.GetVariableInitializer()?.Value;

    /// <summary>The local's declarator in <paramref name="scope"/>, or null.</summary>
    public static IVariableDeclaratorOperation? DeclaratorOf(this IOperation scope, ILocalSymbol local)
    {
        foreach (var operation in scope.Descendants())
        {
            if (operation is IVariableDeclaratorOperation declarator && SymbolEqualityComparer.Default.Equals(declarator.Symbol, local))
            {
                return declarator;
            }
        }

        return null;
    }

    /// <summary>The one value a local holds: its declaration's initializer, where nothing in <paramref name="scope"/> writes it again.</summary>
    public static IOperation? OnlyValueOf(this IOperation scope, ILocalSymbol local) =>
        StateCapture.IsWrittenAnywhere(local, scope) ? null : scope.InitializerOf(local);

    /// <summary>The innermost lambda or local function around the operation, or null in the member's own body.</summary>
    public static IOperation? EnclosingFunction(this IOperation operation)
    {
        for (var current = operation.Parent; current is not null; current = current.Parent)
        {
            if (current.Kind is OperationKind.AnonymousFunction or OperationKind.LocalFunction)
            {
                return current;
            }
        }

        return null;
    }

    /// <summary>True when the innermost function around the operation is async (may contain await).</summary>
    public static bool IsInAsyncFunction(this IOperation operation, ISymbol containingSymbol) => operation.EnclosingFunction() switch
    {
        IAnonymousFunctionOperation lambda => lambda.Symbol.IsAsync,
        ILocalFunctionOperation local => local.Symbol.IsAsync,
        _ => containingSymbol is IMethodSymbol { IsAsync: true },
    };

    private static bool IsTopLevelEntryPoint(this IMethodSymbol method) =>
        method.Name == TopLevelEntryPointName;

    // The compiler's name for the method that holds top-level statements; no user method can have it.
    private const string TopLevelEntryPointName = "<Main>$";
}
