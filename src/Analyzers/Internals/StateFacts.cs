using System.Collections.Generic;
using System.Collections.Immutable;
using System.Globalization;
using System.Linq;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.Operations;

namespace TplPractices.Analyzers.Internals;

/// <summary>
/// What a state rule (TPL0001, TPL0006, TPL0007, TPL0015) found at a site, carried to its fixer in the diagnostic's
/// properties: the shape of the rewrite, the captured variables by name (in the order the state holds them) and the
/// antecedent a continuation captured. The fixer finds those names among the lambda's references and rewrites, without
/// running the rule's check again.
/// </summary>
internal static class StateFacts
{
    private const string ShapeKey = "StateShape";
    private const string StateNameKey = "StateName";
    private const string CapturedKey = "Captured";
    private const string AntecedentKey = "Antecedent";
    private const string GroupStateKey = "GroupState";

    /// <summary>
    /// A variable the call passes as a value that the state carries first, beside the captures (TPL0015's
    /// <c>AddOrUpdate(key, value, …)</c> whose update does not read it): found among the call's arguments.
    /// </summary>
    public const string StateValueKey = "StateValue";

    /// <summary>Stands for <c>this</c> among the captured names: no identifier can be spelled so (<c>@this</c> is named "this").</summary>
    private const string This = "<this>";

    /// <summary><paramref name="properties"/> with what the fixer needs to rewrite <paramref name="capture"/>.</summary>
    public static ImmutableDictionary<string, string?> With(ImmutableDictionary<string, string?> properties, StateCapture capture)
    {
        var shape = capture.Shape;
        var flags = (shape.ReplacesParameter ? "R" : string.Empty) + (shape.FillsArgument ? "F" : string.Empty)
            + (shape.Typed ? "T" : string.Empty) + (shape.HasAntecedent ? "A" : string.Empty);
        properties = properties
            .SetItem(ShapeKey, shape.StateParameter.ToString(CultureInfo.InvariantCulture) + ":" + flags)
            .SetItem(CapturedKey, string.Join(" ", capture.Captured.Select(s => s is ITypeSymbol ? This : s.Name)));
        if (shape.NamedState is { } name)
        {
            properties = properties.SetItem(StateNameKey, name);
        }

        return capture.Antecedent is { } antecedent ? properties.SetItem(AntecedentKey, antecedent.Name) : properties;
    }

    /// <summary>The shape the analyzer reported, with the state at <paramref name="position"/> where one is given (another callback of the call).</summary>
    public static StateShape? ShapeOf(IReadOnlyDictionary<string, string?> properties, int? position = null)
    {
        if (!properties.TryGetValue(ShapeKey, out var text) || text is null
            || text.Split(':') is not { Length: 2 } parts
            || !int.TryParse(parts[0], NumberStyles.None, CultureInfo.InvariantCulture, out var parameter))
        {
            return null;
        }

        var flags = parts[1];
        return StateShape.Of(
            position ?? parameter,
            flags.IndexOf('R') >= 0,
            flags.IndexOf('F') >= 0,
            flags.IndexOf('T') >= 0,
            flags.IndexOf('A') >= 0,
            properties.TryGetValue(StateNameKey, out var name) ? name : null);
    }

    /// <summary>
    /// The capture the analyzer reported for <paramref name="lambda"/>, its variables found by name among the lambda's
    /// references; null where one is no longer there (the code changed since).
    /// </summary>
    public static StateCapture? Read(IOperation call, IAnonymousFunctionOperation lambda, IReadOnlyDictionary<string, string?> properties, int? position = null)
    {
        if (ShapeOf(properties, position) is not { } shape
            || !properties.TryGetValue(CapturedKey, out var list) || list is null)
        {
            return null;
        }

        var names = list.Length == 0 ? new string[0] : list.Split(' ');
        var wanted = new HashSet<string>(names);
        var antecedentName = properties.TryGetValue(AntecedentKey, out var a) ? a : null;
        if (antecedentName is not null)
        {
            wanted.Add(antecedentName);
        }

        var found = new Dictionary<string, ISymbol>();
        var function = lambda.Symbol;
        foreach (var operation in lambda.Body.Descendants())
        {
            ISymbol? variable = operation switch
            {
                ILocalReferenceOperation local => local.Local,
                IParameterReferenceOperation parameter => parameter.Parameter,
                _ => null,
            };
            if (variable is null || !wanted.Contains(variable.Name) || StateCapture.IsInside(variable.ContainingSymbol, function))
            {
                continue;
            }

            // Two variables of one name outside the lambda cannot both be in scope in it; if they seem to, do not guess.
            if (found.TryGetValue(variable.Name, out var seen) && !SymbolEqualityComparer.Default.Equals(seen, variable))
            {
                return null;
            }

            found[variable.Name] = variable;
        }

        // One state may serve several callbacks (TPL0015's AddOrUpdate): a value this one does not read is found where
        // another callback of the call reads it, declared outside the call.
        if (names.Any(n => n != This && !found.ContainsKey(n)))
        {
            foreach (var operation in call.Descendants())
            {
                if (StateCapture.ReferencedSymbol(operation) is { Kind: SymbolKind.Local or SymbolKind.Parameter } variable
                    && wanted.Contains(variable.Name)
                    && !found.ContainsKey(variable.Name)
                    && !variable.DeclaringSyntaxReferences.Any(r => r.SyntaxTree == call.Syntax.SyntaxTree && call.Syntax.Span.Contains(r.Span)))
                {
                    found[variable.Name] = variable;
                }
            }
        }

        var captured = ImmutableArray.CreateBuilder<ISymbol>(names.Length);
        foreach (var name in names)
        {
            if (name == This)
            {
                captured.Add(function.ContainingType);
            }
            else if (found.TryGetValue(name, out var variable))
            {
                captured.Add(variable);
            }
            else
            {
                return null;
            }
        }

        ISymbol? antecedent = null;
        if (antecedentName is not null && !found.TryGetValue(antecedentName, out antecedent))
        {
            return null;
        }

        var values = captured.MoveToImmutable();
        if (properties.TryGetValue(StateValueKey, out var valueName))
        {
            if (call.ChildOperations.OfType<IArgumentOperation>().Select(a => StateCapture.ReferencedSymbol(a.Value.WithoutImplicitConversions()))
                    .FirstOrDefault(s => s is not null && s.Name == valueName) is not { } value)
            {
                return null;
            }

            values = values.Insert(0, value);
        }

        return StateCapture.Reported(call, lambda, shape, values, antecedent);
    }

    /// <summary>
    /// For a bound method group whose state overload places the state itself (TPL0015): the state's position among the
    /// new lambda's parameters and its index among the written arguments.
    /// </summary>
    public static ImmutableDictionary<string, string?> WithGroupState(ImmutableDictionary<string, string?> properties, int position, int argumentIndex) =>
        properties.SetItem(GroupStateKey, position.ToString(CultureInfo.InvariantCulture) + ":" + argumentIndex.ToString(CultureInfo.InvariantCulture));

    /// <summary>What <see cref="WithGroupState"/> wrote; null where the group's state is an object passed right after it (TPL0001, TPL0006).</summary>
    public static (int Position, int ArgumentIndex)? GroupStateOf(IReadOnlyDictionary<string, string?> properties) =>
        properties.TryGetValue(GroupStateKey, out var text) && text?.Split(':') is { Length: 2 } parts
        && int.TryParse(parts[0], NumberStyles.None, CultureInfo.InvariantCulture, out var position)
        && int.TryParse(parts[1], NumberStyles.None, CultureInfo.InvariantCulture, out var index)
            ? (position, index)
            : null;
}
