using System.Collections.Generic;
using System.Linq;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.Operations;
using TplPractices.Analyzers.Internals;

namespace TplPractices.Analyzers.Rules;

/// <summary>
/// TPL0017's loop that keeps its period by hand: each pass measures its work and waits what is left of the period
/// (<c>var left = Interval - watch.Elapsed; if (left &gt; TimeSpan.Zero) await Task.Delay(left, token);</c>), so the
/// passes start a period apart, which is what one PeriodicTimer does. Reported without a fix: the code that measures
/// the pass is the author's, in too many spellings to remove exactly.
/// </summary>
internal static partial class DelayTimer
{
    // Locals that hold locals: a bound on the walk, which a local assigned from itself would otherwise go round.
    private const int MaxLocalHops = 6;

    /// <summary>
    /// The <c>if</c> whose first branch ends with <paramref name="statement"/> (braces or not, an <c>else</c> or not), the guard
    /// a kept period puts before its wait (a negative time would throw); null otherwise.
    /// </summary>
    private static IConditionalOperation? GuardOf(IOperation statement)
    {
        var branch = statement.Parent is IBlockOperation block && block.Operations.Last() == statement ? block : statement;
        return branch.Parent is IConditionalOperation guard && guard.WhenTrue == branch && guard.Parent is IBlockOperation ? guard : null;
    }

    /// <summary>
    /// A period the pass keeps by hand: a period that is the same every pass (<see cref="IsSameEveryPass"/>) less the
    /// time the pass took, read from a clock (<see cref="ReadsAClock"/>): <c>Interval - watch.Elapsed</c>,
    /// <c>IntervalMs - (int)watch.ElapsedMilliseconds</c>, through casts, <c>Math.Max</c> with zero,
    /// <c>TimeSpan.FromMilliseconds</c> and locals the pass declares (each value they are given such a period, or a fixed
    /// one, as a fallback: <c>if (left &lt; TimeSpan.Zero) left = Interval;</c>).
    /// </summary>
    private static bool KeepsAPeriodByHand(IOperation period, ILoopOperation loop, int hops = 0)
    {
        while (true)
        {
            period = period.WithoutImplicitConversions();
            switch (period)
            {
                case IConversionOperation { OperatorMethod: null } conversion:
                    period = conversion.Operand;
                    break;
                case IInvocationOperation { TargetMethod: { Name: "Max", IsStatic: true, ContainingType.Name: "Math" }, Arguments.Length: 2 } max
                    when IsZero(max.Arguments[0].Value) || IsZero(max.Arguments[1].Value):
                    period = IsZero(max.Arguments[0].Value) ? max.Arguments[1].Value : max.Arguments[0].Value;
                    break;
                case IInvocationOperation { TargetMethod: { Name: "FromMilliseconds", IsStatic: true, ContainingType.Name: "TimeSpan" }, Arguments.Length: 1 } from:
                    period = from.Arguments[0].Value;
                    break;
                case IBinaryOperation { OperatorKind: BinaryOperatorKind.Subtract } less:
                    return IsSameEveryPass(less.LeftOperand, loop) && ReadsAClock(less.RightOperand, loop, hops);
                case ILocalReferenceOperation { Local: var local } when hops < MaxLocalHops && PassValuesOf(local, loop) is { Count: > 0 } values:
                    // At least one value is a kept period, and the rest are fixed fallbacks.
                    var kept = values.ConvertAll(v => KeepsAPeriodByHand(v, loop, hops + 1));
                    return kept.Contains(true) && values.Where((v, i) => !kept[i]).All(v => IsSameEveryPass(v, loop));
                default:
                    return false;
            }
        }
    }

    /// <summary>
    /// Whether the value reads a clock, itself or through a local the pass declares: a stopwatch's elapsed time
    /// (<c>Elapsed</c>, <c>ElapsedMilliseconds</c>, <c>ElapsedTicks</c>, <c>GetElapsedTime</c>, <c>GetTimestamp</c>),
    /// the time of day (<c>DateTime.UtcNow - started</c>), <c>Environment.TickCount</c> or a TimeProvider's.
    /// </summary>
    private static bool ReadsAClock(IOperation value, ILoopOperation loop, int hops) =>
        value.DescendantsAndSelf().Any(o => o switch
        {
            IPropertyReferenceOperation { Property: { Name: var name, ContainingType.Name: var type } } => IsClock(type, name),
            IInvocationOperation { TargetMethod: { Name: var name, ContainingType.Name: var type } } => IsClock(type, name),
            ILocalReferenceOperation { Local: var local } => hops < MaxLocalHops && PassValuesOf(local, loop) is { } values
                && values.Any(v => ReadsAClock(v, loop, hops + 1)),
            _ => false,
        });

    private static bool IsClock(string type, string member) => type switch
    {
        "Stopwatch" => member is "Elapsed" or "ElapsedMilliseconds" or "ElapsedTicks" or "GetElapsedTime" or "GetTimestamp",
        "DateTime" or "DateTimeOffset" => member is "Now" or "UtcNow",
        "Environment" => member is "TickCount" or "TickCount64",
        "TimeProvider" => member is "GetElapsedTime" or "GetTimestamp" or "GetUtcNow",
        _ => false,
    };

    /// <summary>
    /// The values a local the pass declares is given in the loop: its initializer and the values of plain assignments
    /// (<c>left = Interval;</c>); null where the pass writes it another way (<c>left += x</c>, <c>ref left</c>) or the
    /// local is not the pass's own.
    /// </summary>
    private static List<IOperation>? PassValuesOf(ILocalSymbol local, ILoopOperation loop)
    {
        if (!IsDeclaredInThePass(local, loop))
        {
            return null;
        }

        var values = new List<IOperation>();
        if (loop.Body.InitializerOf(local) is { } initial)
        {
            values.Add(initial);
        }

        foreach (var operation in loop.Body.Descendants())
        {
            if (operation is ILocalReferenceOperation reference
                && SymbolEqualityComparer.Default.Equals(reference.Local, local)
                && StateCapture.IsWrite(reference))
            {
                if (reference.Parent is not ISimpleAssignmentOperation { IsRef: false } assignment)
                {
                    return null;
                }

                values.Add(assignment.Value);
            }
        }

        return values;
    }

    private static bool IsZero(IOperation value) =>
        value.WithoutImplicitConversions() is var operation
        && (operation.ConstantValue is { HasValue: true, Value: 0 or 0L or 0d }
            || operation is IFieldReferenceOperation { Field: { Name: "Zero", IsStatic: true, ContainingType.Name: "TimeSpan" } });
}
