using System.Collections.Generic;
using System.Linq;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.Operations;
using Microsoft.CodeAnalysis.Text;

namespace TplPractices.Analyzers.Internals;

/// <summary>What each call allocates, as the state rules' messages say it: a closure and a delegate, or only a delegate.</summary>
internal sealed partial class StateCapture
{
    /// <summary>
    /// "a closure and a delegate", or "a delegate" when the lambda uses nothing but <c>this</c>, or when every variable it
    /// captures comes from outside the function the call runs in or is captured by another function that keeps the
    /// closure whatever the rules rewrite: the state form then saves only the delegate. Asked only where a rule reports.
    /// </summary>
    public string Allocations =>
        (Antecedent is null && Captured.All(s => s is ITypeSymbol)) || ClosureStaysForAnother() ? "a delegate" : "a closure and a delegate";

    /// <summary>
    /// Every captured local and parameter comes from outside the function the call runs in, or is also captured by a
    /// stored lambda, or by a local function made a delegate or async.
    /// </summary>
    private bool ClosureStaysForAnother()
    {
        var variables = Captured.Where(s => s is ILocalSymbol or IParameterSymbol).ToList();
        if (Antecedent is not null)
        {
            variables.Add(Antecedent);
        }

        if (variables.Count == 0)
        {
            return false;
        }

        // A variable from outside the function the call runs in sits in a closure made when its own scope began: the
        // function around the call holds it already, and each call adds only the delegate. A member reads a primary
        // constructor's parameter from a field of this (an initializer, which runs in the constructor, does not).
        var shared = new HashSet<ISymbol>(SymbolEqualityComparer.Default);
        var root = Call.Root();
        if (root is not (IFieldInitializerOperation or IPropertyInitializerOperation))
        {
            shared.UnionWith(variables.Where(v => v.IsPrimaryConstructorParameter()));
        }

        if (FunctionSymbol(Call.EnclosingFunction()) is { } around)
        {
            shared.UnionWith(variables.Where(v => !IsInside(v.ContainingSymbol, around)));
        }

        if (shared.Count == variables.Count)
        {
            return true;
        }

        var madeDelegates = new HashSet<ISymbol>(
            root.Descendants().OfType<IMethodReferenceOperation>().Where(r => r.Parent is IDelegateCreationOperation).Select(r => r.Method.OriginalDefinition),
            SymbolEqualityComparer.Default);
        var lambda = Lambda.Syntax.Span;
        foreach (var function in root.Descendants())
        {
            // A function around this lambda or inside it goes with it, and one inside another function goes with that
            // one, which is asked instead. A local function only called keeps its captures in a struct on the stack, and
            // a lambda passed to a call with a state form may get it too, so only a local function made a delegate or
            // async, or a lambda stored (an event handler, a field) or passed where no state can go, surely keeps the closure.
            if (FunctionSymbol(function) is not { } symbol
                || function.Syntax.Span.Contains(lambda) || lambda.Contains(function.Syntax.Span)
                || InAnotherFunction(function, lambda)
                || !(function is IAnonymousFunctionOperation other
                    ? !MayTakeState(other)
                    : symbol.IsAsync || madeDelegates.Contains(symbol.OriginalDefinition)))
            {
                continue;
            }

            foreach (var reference in function.Descendants())
            {
                if (ReferencedSymbol(reference) is { } variable && variables.Contains(variable, SymbolEqualityComparer.Default)
                    && !IsInside(variable.ContainingSymbol, symbol))
                {
                    shared.Add(variable);
                }
            }
        }

        return shared.Count == variables.Count;
    }

    /// <summary>The function nearest around <paramref name="function"/> does not hold <paramref name="lambda"/>.</summary>
    private static bool InAnotherFunction(IOperation function, TextSpan lambda) =>
        function.EnclosingFunction() is { } around && !around.Syntax.Span.Contains(lambda);

    private static IMethodSymbol? FunctionSymbol(IOperation? operation) => operation switch
    {
        IAnonymousFunctionOperation lambda => lambda.Symbol,
        ILocalFunctionOperation local => local.Symbol,
        _ => null,
    };

    /// <summary>
    /// A lambda passed to a call that a rule may give the state form too: <c>Task.Run</c>, or a method with a state of its
    /// own or a longer overload that has one (<c>ContinueWith</c>, <c>Register</c>, <c>GetOrAdd</c>): an object or
    /// type-parameter parameter. An overload that only adds options (a scheduler, a token) is no state form. A lambda passed to a delegate (<c>convert(r => source.TrySetResult(r))</c>) or to a method with no such
    /// form (a library's <c>reader.ReadAllAsync((item, i) => Use(c, item))</c>) keeps its closure.
    /// </summary>
    private static bool MayTakeState(IAnonymousFunctionOperation function)
    {
        var parent = function.Parent;
        while (parent is IDelegateCreationOperation or IConversionOperation)
        {
            parent = parent.Parent;
        }

        if (parent is not IArgumentOperation argument)
        {
            return false;
        }

        var method = argument.Parent switch
        {
            IInvocationOperation invocation => invocation.TargetMethod,
            IObjectCreationOperation creation => creation.Constructor,
            _ => null,
        };
        if (method is null)
        {
            return true;
        }

        // The declared signature: a keyed API's TKey is a type parameter there, and TPL0015 reads the key instead.
        method = (method.ReducedFrom ?? method).OriginalDefinition;
        return method.MethodKind != MethodKind.DelegateInvoke
            && (method is { Name: "Run", ContainingType: { Name: "Task", ContainingNamespace.Name: "Tasks" } }
                || TakesState(method)
                || method.ContainingType.GetMembers(method.Name).Any(m => m is IMethodSymbol other && other.Parameters.Length > method.Parameters.Length && TakesState(other)));
    }

    /// <summary>A parameter that could carry a state: an object, or a type the caller picks (a state's or a key's).</summary>
    private static bool TakesState(IMethodSymbol method) =>
        method.Parameters.Any(p => p.Type is ITypeParameterSymbol { TypeParameterKind: TypeParameterKind.Method } || p.Type.SpecialType == SpecialType.System_Object);
}
