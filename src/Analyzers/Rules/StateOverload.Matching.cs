using System.Collections.Generic;
using System.Collections.Immutable;
using System.Linq;
using Microsoft.CodeAnalysis;
using TplPractices.Analyzers.Internals;

namespace TplPractices.Analyzers.Rules;

/// <summary>
/// TPL0015's match of a method with its state overload: a sibling (or, for an extension, an instance method of its
/// receiver's type) whose signature proves where the state goes, or the method's own state that a dummy fills.
/// </summary>
internal static partial class StateOverload
{
    /// <summary>
    /// The method's own state (<c>string.Create&lt;TState&gt;(int, TState, SpanAction&lt;char, TState&gt;)</c>): a
    /// parameter of an unconstrained method type parameter, or an <c>object</c> named as a state, that only callbacks
    /// receive, once each and never as what they return; the method's result never carries it. A seed that comes back
    /// (<c>Aggregate</c>'s) is no state.
    /// </summary>
    private static Match? OwnState(IMethodSymbol method)
    {
        if (method.Parameters.Length < 2)
        {
            return null;
        }

        foreach (var state in method.Parameters)
        {
            var typed = state.Type is ITypeParameterSymbol { TypeParameterKind: TypeParameterKind.Method } stateType && !HasConstraints(stateType);
            if (!(typed || (state.Type.SpecialType == SpecialType.System_Object && NamesAState(state.Name)))
                || state.RefKind != RefKind.None
                || state.IsParams
                || (typed && method.ReturnType.Mentions(state.Type)))
            {
                continue;
            }

            var callbacks = ImmutableArray.CreateBuilder<(int, int)>();
            var other = false;
            foreach (var parameter in method.Parameters)
            {
                if (parameter.Ordinal == state.Ordinal)
                {
                    continue;
                }

                var receives = parameter.Type is INamedTypeSymbol { TypeKind: TypeKind.Delegate, DelegateInvokeMethod: { } invoke }
                    ? invoke.Parameters.Where(p => p.Type.Equals(state.Type, SymbolEqualityComparer.Default)).ToList()
                    : null;
                if (receives is { Count: 1 })
                {
                    var received = receives[0];
                    other |= received.RefKind != RefKind.None || received.ContainingSymbol is IMethodSymbol { ReturnType: var returned } && returned.Mentions(state.Type);
                    callbacks.Add((parameter.Ordinal, received.Ordinal));
                }
                else
                {
                    // Received twice by one delegate, or carried by any other parameter: no state of its own.
                    other |= receives is { Count: > 1 } || parameter.Type.Mentions(state.Type);
                }
            }

            if (!other && callbacks.Count > 0)
            {
                return new Match(method, state.Ordinal, callbacks.ToImmutable(), typed, proven: true);
            }
        }

        return null;
    }

    private static Match? Find(IMethodSymbol method)
    {
        if (method.ContainingType is not { } type || method.Parameters.IsEmpty)
        {
            return null;
        }

        // A match that takes a value as a factory (AddOrUpdate's value form) only where no other overload matches.
        Match? valueFactory = null;
        foreach (var member in type.GetMembers(method.Name))
        {
            if (member is IMethodSymbol candidate
                && candidate.MethodKind == method.MethodKind
                && candidate.Parameters.Length == method.Parameters.Length + 1
                && candidate.IsStatic == method.IsStatic
                && candidate.IsExtensionMethod == method.IsExtensionMethod
                && Compare(method, candidate, receiver: 0) is { } match
                && !IsObsolete(candidate))
            {
                if (match.ValueFactory < 0)
                {
                    return match;
                }

                valueFactory ??= match;
            }
        }

        return (method.IsExtensionMethod ? FindOnReceiver(method) : null) ?? valueFactory;
    }

    /// <summary>
    /// An extension method beside an instance method of its receiver's type (or of a base type or interface of it) that
    /// takes its other parameters and a state: <c>cache.Get(key, k =&gt; …)</c> beside <c>ICache.Get&lt;TState, T&gt;(key,
    /// (k, s) =&gt; …, state)</c>. Only where the library that declares the type declares the extension too: its own pair
    /// of overloads, taken to mean the same call as overloads of one type are.
    /// </summary>
    private static Match? FindOnReceiver(IMethodSymbol extension)
    {
        if (extension.Parameters[0].Type is not INamedTypeSymbol receiver
            || !SymbolEqualityComparer.Default.Equals(receiver.ContainingAssembly, extension.ContainingAssembly))
        {
            return null;
        }

        var types = receiver.TypeKind == TypeKind.Interface ? receiver.AllInterfaces.Insert(0, receiver) : BaseTypesOf(receiver);
        foreach (var type in types)
        {
            foreach (var member in type.GetMembers(extension.Name))
            {
                if (member is IMethodSymbol { IsStatic: false, MethodKind: MethodKind.Ordinary } candidate
                    && candidate.Parameters.Length == extension.Parameters.Length
                    && Compare(extension, candidate, receiver: 1) is { } match
                    && !IsObsolete(candidate))
                {
                    return match;
                }
            }
        }

        return null;
    }

    private static ImmutableArray<INamedTypeSymbol> BaseTypesOf(INamedTypeSymbol type)
    {
        var types = ImmutableArray.CreateBuilder<INamedTypeSymbol>();
        for (var current = type; current is not null && current.SpecialType != SpecialType.System_Object; current = current.BaseType)
        {
            types.Add(current);
        }

        return types.ToImmutable();
    }

    private static bool IsObsolete(IMethodSymbol candidate) => candidate.GetAttributes().Any(a => a.AttributeClass is { Name: "ObsoleteAttribute" });

    /// <summary>
    /// The candidate as the method's state overload, trying each of its parameters as the state; with
    /// <paramref name="receiver"/> 1, the method's first parameter (an extension's receiver) is the candidate's instance.
    /// </summary>
    private static Match? Compare(IMethodSymbol method, IMethodSymbol candidate, int receiver)
    {
        for (var s = 0; s < candidate.Parameters.Length; s++)
        {
            var state = candidate.Parameters[s];
            bool typed;
            if (state.Type is ITypeParameterSymbol { TypeParameterKind: TypeParameterKind.Method } stateType
                && candidate.TypeParameters.Length == method.TypeParameters.Length + 1
                && !HasConstraints(stateType))
            {
                typed = true;
            }
            else if (state.Type.SpecialType == SpecialType.System_Object
                && candidate.TypeParameters.Length == method.TypeParameters.Length
                && NamesAState(state.Name))
            {
                typed = false;
            }
            else
            {
                continue;
            }

            if (state.RefKind != RefKind.None || state.IsParams || (s == 0 && method.IsExtensionMethod && receiver == 0))
            {
                continue;
            }

            // The method's type parameters stand for the candidate's others, in order.
            var map = candidate.TypeParameters.Where(t => !SymbolEqualityComparer.Default.Equals(t, state.Type)).ToList();
            var callbacks = ImmutableArray.CreateBuilder<(int, int)>();
            var same = true;
            var valueFactory = -1;
            for (int i = receiver, j = 0; same && i < method.Parameters.Length; i++, j++)
            {
                j += j == s ? 1 : 0;
                var mine = method.Parameters[i];
                var theirs = candidate.Parameters[j];
                if (mine.RefKind != theirs.RefKind || mine.IsParams != theirs.IsParams)
                {
                    same = false;
                }
                else if (!Same(mine.Type, theirs.Type, map))
                {
                    var position = StatePosition(mine.Type, theirs.Type, state.Type, map);
                    if (position < 0 && valueFactory < 0 && typed && IsFactoryOf(mine.Type, theirs.Type, state.Type, map))
                    {
                        valueFactory = i;
                        continue;
                    }

                    same = position >= 0;
                    callbacks.Add((i, position));
                }
            }

            if (same && callbacks.Count > 0)
            {
                return new Match(candidate, s + receiver, callbacks.ToImmutable(), typed, IsProven(candidate, state, callbacks, receiver), receiver, valueFactory);
            }
        }

        return null;
    }

    /// <summary>
    /// The state's value reaches one delegate parameter by type alone: no other parameter of the overload has the state's
    /// type, and each callback's delegate has one parameter of it.
    /// </summary>
    private static bool IsProven(IMethodSymbol candidate, IParameterSymbol state, ImmutableArray<(int Ordinal, int Position)>.Builder callbacks, int receiver)
    {
        if (candidate.Parameters.Count(p => SymbolEqualityComparer.Default.Equals(p.Type, state.Type)) != 1)
        {
            return false;
        }

        foreach (var (ordinal, _) in callbacks)
        {
            var parameter = candidate.Parameters[ordinal - receiver < state.Ordinal ? ordinal - receiver : ordinal - receiver + 1];
            if (parameter.Type is not INamedTypeSymbol { DelegateInvokeMethod: { } invoke }
                || invoke.Parameters.Count(p => SymbolEqualityComparer.Default.Equals(p.Type, state.Type)) != 1)
            {
                return false;
            }
        }

        return true;
    }

    /// <summary>A value (<paramref name="mine"/>) where the overload takes a delegate that receives the state and returns such a value.</summary>
    private static bool IsFactoryOf(ITypeSymbol mine, ITypeSymbol theirs, ITypeSymbol state, List<ITypeParameterSymbol> map) =>
        mine.TypeKind != TypeKind.Delegate
        && theirs is INamedTypeSymbol { TypeKind: TypeKind.Delegate, DelegateInvokeMethod: { ReturnsVoid: false } invoke }
        && Same(mine, invoke.ReturnType, map)
        && invoke.Parameters.Count(p => SymbolEqualityComparer.Default.Equals(p.Type, state)) == 1;

    /// <summary>Where the delegate <paramref name="theirs"/> takes the state among <paramref name="mine"/>'s parameters; -1 when it is not that delegate.</summary>
    private static int StatePosition(ITypeSymbol mine, ITypeSymbol theirs, ITypeSymbol state, List<ITypeParameterSymbol> map)
    {
        if (mine is not INamedTypeSymbol { TypeKind: TypeKind.Delegate, DelegateInvokeMethod: { } before }
            || theirs is not INamedTypeSymbol { TypeKind: TypeKind.Delegate, DelegateInvokeMethod: { } after }
            || after.Parameters.Length != before.Parameters.Length + 1
            || before.RefKind != after.RefKind
            || !Same(before.ReturnType, after.ReturnType, map))
        {
            return -1;
        }

        for (var k = 0; k < after.Parameters.Length; k++)
        {
            if (SymbolEqualityComparer.Default.Equals(after.Parameters[k].Type, state)
                && after.Parameters[k].RefKind == RefKind.None
                && before.Parameters.Select((p, i) => (p, i)).All(x =>
                {
                    var other = after.Parameters[x.i < k ? x.i : x.i + 1];
                    return x.p.RefKind == other.RefKind && Same(x.p.Type, other.Type, map);
                }))
            {
                return k;
            }
        }

        return -1;
    }

    /// <summary>The same type, with the method's type parameters read as the candidate's (<paramref name="map"/>).</summary>
    private static bool Same(ITypeSymbol mine, ITypeSymbol theirs, List<ITypeParameterSymbol> map) => mine switch
    {
        ITypeParameterSymbol { TypeParameterKind: TypeParameterKind.Method } parameter =>
            parameter.Ordinal < map.Count && SymbolEqualityComparer.Default.Equals(map[parameter.Ordinal], theirs),
        INamedTypeSymbol { IsGenericType: true } named => theirs is INamedTypeSymbol other
            && SymbolEqualityComparer.Default.Equals(named.OriginalDefinition, other.OriginalDefinition)
            && named.TypeArguments.Zip(other.TypeArguments, (a, b) => Same(a, b, map)).All(x => x),
        IArrayTypeSymbol array => theirs is IArrayTypeSymbol other && array.Rank == other.Rank && Same(array.ElementType, other.ElementType, map),
        _ => SymbolEqualityComparer.Default.Equals(mine, theirs),
    };

    /// <summary>A constraint the values' type (a tuple, a local's type) might not meet: no fix would compile.</summary>
    private static bool HasConstraints(ITypeParameterSymbol parameter) =>
        parameter.HasReferenceTypeConstraint || parameter.HasValueTypeConstraint || parameter.HasUnmanagedTypeConstraint
        || parameter.HasConstructorConstraint || !parameter.ConstraintTypes.IsEmpty;

    /// <summary>An <c>object</c> parameter is a state only by name (<c>state</c>, <c>arg</c>): <c>object tag</c> is something else.</summary>
    private static bool NamesAState(string name) =>
        name.IndexOf("state", System.StringComparison.OrdinalIgnoreCase) >= 0
        || name.IndexOf("arg", System.StringComparison.OrdinalIgnoreCase) >= 0;
}
