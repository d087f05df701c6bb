using System.Collections.Generic;
using System.Collections.Immutable;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.Operations;
using TplPractices.Analyzers.Internals;

namespace TplPractices.Analyzers.Rules;

/// <summary>
/// TPL0016's walk of a function body: every path through it must end in one awaited task and nothing after it, and
/// choose its way only by tests that cannot throw. The awaits that end the paths are collected in source order.
/// Shapes: <c>return await t;</c>, <c>await t;</c> where the path then leaves the function (or says <c>return;</c>,
/// or <c>break;</c> out of a switch that ends it), <c>var x = await t; return x;</c>, <c>c ? await a : await b</c>,
/// <c>x switch { … => await a, _ => await b }</c>, and <c>if</c>/<c>else</c> and <c>switch</c> statements around them; an
/// <c>if</c> (or <c>else if</c> chain) without <c>else</c> (or a switch
/// without <c>default</c>) may stand before the last statement when each of its own paths ends so.
/// </summary>
internal sealed class PassThroughPaths
{
    private readonly bool _returnsValue;
    private readonly List<IAwaitOperation> _awaits = new();

    private PassThroughPaths(bool returnsValue) => _returnsValue = returnsValue;

    /// <summary>The awaits ending every path of <paramref name="body"/>, or null where some path is not one pass-through.</summary>
    public static IReadOnlyList<IAwaitOperation>? Of(IBlockOperation body, bool returnsValue) => Of(body, returnsValue, out _);

    /// <summary>
    /// As <see cref="Of(IBlockOperation, bool)"/>, where the body may first declare locals: those whose initializers are
    /// plain reads or tests of them (<see cref="SafeTests.Condition"/>) run no code; the others are given in <paramref name="computed"/>, for the
    /// caller to show that each makes a task one path awaits and nothing else reads.
    /// </summary>
    public static IReadOnlyList<IAwaitOperation>? Of(IBlockOperation body, bool returnsValue, out List<IVariableDeclaratorOperation>? computed)
    {
        computed = null;
        var statements = body.Operations.RemoveAll(o => o is ILocalFunctionOperation);

        // A local function's or lambda's body ends in a return the compiler adds: it is the body falling off its end,
        // as a method's does without one (an if/else or switch of awaits stands last there too).
        if (statements.Length > 1 && statements[statements.Length - 1] is IReturnOperation { IsImplicit: true, ReturnedValue: null })
        {
            statements = statements.RemoveAt(statements.Length - 1);
        }

        var declared = 0;
        while (declared < statements.Length - 1 && Declares(statements[declared], ref computed))
        {
            declared++;
        }

        var walk = new PassThroughPaths(returnsValue);
        return walk.List(statements.RemoveRange(0, declared), fallsOff: true, breakEnds: false) && walk._awaits.Count > 0 ? walk._awaits : null;
    }

    /// <summary>A declaration of plain locals (not ref) whose initializers await nothing.</summary>
    private static bool Declares(IOperation statement, ref List<IVariableDeclaratorOperation>? computed)
    {
        if (statement is not IVariableDeclarationGroupOperation group)
        {
            return false;
        }

        foreach (var declaration in group.Declarations)
        {
            foreach (var declarator in declaration.Declarators)
            {
                var value = declarator.Initializer?.Value;
                if (declarator.Symbol.IsRef || value?.WithoutImplicitConversions() is IAwaitOperation)
                {
                    return false;
                }

                if (value is not null && !SafeTests.Condition(value))
                {
                    (computed ??= new List<IVariableDeclaratorOperation>()).Add(declarator);
                }
            }
        }

        return true;
    }

    /// <param name="operations">The statements of a block or switch section.</param>
    /// <param name="fallsOff">Whether reaching the end of the list leaves the function.</param>
    /// <param name="breakEnds">Whether a <c>break</c> in the list leaves the function (it ends a switch that ends it).</param>
    private bool List(ImmutableArray<IOperation> operations, bool fallsOff, bool breakEnds)
    {
        // A local function's declaration runs nothing, wherever it stands.
        var statements = operations.RemoveAll(o => o is ILocalFunctionOperation);
        var count = statements.Length;
        if (count == 0)
        {
            return false;
        }

        for (var i = 0; i < count - 1; i++)
        {
            if (i == count - 2 && Tail(statements[i], statements[i + 1], breakEnds))
            {
                return true;
            }

            if (!Early(statements[i], breakEnds))
            {
                return false;
            }
        }

        return Ends(statements[count - 1], fallsOff, breakEnds);
    }

    /// <summary>A pair that ends a path: <c>await t; return;</c>, <c>await t; break;</c>, <c>var x = await t; return x;</c>.</summary>
    private bool Tail(IOperation first, IOperation second, bool breakEnds)
    {
        if (first is IExpressionStatementOperation { Operation: IAwaitOperation await } && !_returnsValue
            && (second is IReturnOperation { ReturnedValue: null } || second is IBranchOperation { BranchKind: BranchKind.Break } && breakEnds))
        {
            _awaits.Add(await);
            return true;
        }

        if (first is IVariableDeclarationGroupOperation { Declarations: { Length: 1 } declarations }
            && declarations[0].Declarators is { Length: 1 } declarators
            && declarators[0] is { Initializer.Value: IAwaitOperation declared } single
            && !single.Symbol.IsRef
            && _returnsValue
            && second is IReturnOperation { ReturnedValue: ILocalReferenceOperation local }
            && SymbolEqualityComparer.Default.Equals(local.Local, single.Symbol))
        {
            _awaits.Add(declared);
            return true;
        }

        return false;
    }

    /// <summary>
    /// A statement before the last whose every path ends: an <c>if</c> without <c>else</c> (or an <c>if … else if …</c>
    /// chain without one), a switch without <c>default</c>.
    /// </summary>
    private bool Early(IOperation operation, bool breakEnds) => operation switch
    {
        IConditionalOperation branch => EarlyIf(branch, breakEnds),
        ISwitchOperation choice => Switch(choice, fallsOff: false),
        _ => false,
    };

    private bool EarlyIf(IConditionalOperation branch, bool breakEnds) =>
        SafeTests.Condition(branch.Condition)
        && Ends(branch.WhenTrue, fallsOff: false, breakEnds)
        && (branch.WhenFalse is null || branch.WhenFalse is IConditionalOperation next && EarlyIf(next, breakEnds));

    private bool Ends(IOperation operation, bool fallsOff, bool breakEnds)
    {
        switch (operation)
        {
            case IBlockOperation block:
                return List(block.Operations, fallsOff, breakEnds);
            // A value returned from a function of Task or ValueTask does not compile (CS1997): no path of ours.
            case IReturnOperation { ReturnedValue: { } value } when _returnsValue:
                return Value(value);
            case IExpressionStatementOperation { Operation: IAwaitOperation await } when fallsOff && !_returnsValue:
                _awaits.Add(await);
                return true;
            case IConditionalOperation { WhenFalse: { } whenFalse } branch:
                return SafeTests.Condition(branch.Condition) && Ends(branch.WhenTrue, fallsOff, breakEnds) && Ends(whenFalse, fallsOff, breakEnds);
            case ISwitchOperation choice when HasDefault(choice):
                return Switch(choice, fallsOff);
            default:
                return false;
        }
    }

    /// <summary>A returned value: the await itself, or a <c>?:</c> or switch expression whose arms are.</summary>
    private bool Value(IOperation value)
    {
        switch (value)
        {
            case IAwaitOperation await:
                _awaits.Add(await);
                return true;
            case IConditionalOperation { WhenFalse: { } whenFalse } choice:
                return SafeTests.Condition(choice.Condition) && Value(choice.WhenTrue) && Value(whenFalse);
            case ISwitchExpressionOperation choice:
                return SafeTests.SwitchExpression(choice, Value);
            default:
                return false;
        }
    }

    /// <summary>Sections cannot fall through in C#; a <c>break</c> leaves the switch, and the function where the switch ends it.</summary>
    private bool Switch(ISwitchOperation choice, bool fallsOff)
    {
        if (!SafeTests.Read(choice.Value))
        {
            return false;
        }

        foreach (var section in choice.Cases)
        {
            foreach (var clause in section.Clauses)
            {
                var safe = clause switch
                {
                    IDefaultCaseClauseOperation => true,
                    ISingleValueCaseClauseOperation single => single.Value.ConstantValue.HasValue,
                    IPatternCaseClauseOperation pattern => SafeTests.Pattern(pattern.Pattern) && (pattern.Guard is null || SafeTests.Condition(pattern.Guard)),
                    _ => false,
                };
                if (!safe)
                {
                    return false;
                }
            }

            if (!List(section.Body, fallsOff: false, breakEnds: fallsOff))
            {
                return false;
            }
        }

        return true;
    }

    private static bool HasDefault(ISwitchOperation choice)
    {
        foreach (var section in choice.Cases)
        {
            foreach (var clause in section.Clauses)
            {
                if (clause is IDefaultCaseClauseOperation || clause is IPatternCaseClauseOperation { Pattern: IDiscardPatternOperation, Guard: null })
                {
                    return true;
                }
            }
        }

        return false;
    }
}
