using System.Linq;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.Operations;
using TplPractices.Analyzers.Internals;

namespace TplPractices.Analyzers.Rules;

/// <summary>
/// TPL0017's race with a delay on a token of this code's own source: whether the race leaves that source uncanceled
/// when the other task wins, so that the delay's timer stays queued until it fires.
/// </summary>
internal static partial class DelayTimer
{
    /// <summary>
    /// A local <c>new CancellationTokenSource()</c> (no delay) that the code only reads the token or state of, or
    /// disposes: nothing can cancel it, so the race does not, whoever wins. A source that is canceled anywhere (after
    /// the race, as a time-out, in a lambda), made with a delay or linked, assigned again, or handed to other code is
    /// left alone here (<see cref="IsOwnSourceTheRaceLeaves"/> takes some of them).
    /// </summary>
    private static bool IsOwnSourceNothingCancels(ILocalSymbol source, IOperation root) =>
        IsOwnSource(source, root, linked: false, cancel => false);

    /// <summary>
    /// A local source, plain or linked (<c>CreateLinkedTokenSource(caller)</c>: its parent may cancel it, as the caller's
    /// token may), that the code never cancels, or cancels only where the delay has won the race: in the branch of
    /// <c>if (await Task.WhenAny(work, delay) == work)</c> that the work did not take (a connect with a time-out, whose
    /// source also cancels the work once the time is up). Where the work wins, nothing cancels the delay.
    /// </summary>
    private static bool IsOwnSourceTheRaceLeaves(ILocalSymbol source, IInvocationOperation delay) =>
        IsOwnSource(source, delay.Root(), linked: true, cancel =>
            OtherRacedTask(delay) is { } other && RacedIn(delay) is { WhenAny.TargetMethod.Name: "WhenAny" } race
            && OnlyOnceTheDelayWon(cancel, race.WhenAny, other));

    /// <summary>
    /// A local of the BCL's own source type, made by <c>new CancellationTokenSource()</c> (or, with
    /// <paramref name="linked"/>, by <c>CreateLinkedTokenSource</c>), whose every use reads its token or state, disposes
    /// it, or is a Cancel that <paramref name="cancelAllowed"/> accepts.
    /// </summary>
    private static bool IsOwnSource(ILocalSymbol source, IOperation root, bool linked, System.Func<IInvocationOperation, bool> cancelAllowed)
    {
        // The BCL's own source: a type of the same name, or one derived, may cancel itself.
        if (!source.Type.IsSystemThreadingType("CancellationTokenSource"))
        {
            return false;
        }

        var created = false;
        foreach (var operation in root.Descendants())
        {
            if (operation is IVariableDeclaratorOperation declarator && SymbolEqualityComparer.Default.Equals(declarator.Symbol, source))
            {
                created = declarator.GetVariableInitializer()?.Value.WithoutImplicitConversions() switch
                {
                    IObjectCreationOperation { Arguments.Length: 0, Initializer: null } creation => SymbolEqualityComparer.Default.Equals(creation.Type, source.Type),
                    IInvocationOperation { TargetMethod: { Name: "CreateLinkedTokenSource", IsStatic: true } create } =>
                        linked && SymbolEqualityComparer.Default.Equals(create.ContainingType, source.Type),
                    _ => false,
                };
            }
            else if (operation is ILocalReferenceOperation reference && SymbolEqualityComparer.Default.Equals(reference.Local, source)
                && reference.Parent is not (IPropertyReferenceOperation { Property.Name: "Token" or "IsCancellationRequested" }
                    or IInvocationOperation { TargetMethod.Name: "Dispose", Arguments.Length: 0 })
                && !(reference.Parent is IInvocationOperation { TargetMethod.Name: "Cancel" or "CancelAsync", Arguments.Length: 0 } cancel && cancelAllowed(cancel)))
            {
                return false;
            }
        }

        return created;
    }

    /// <summary>
    /// The one task a delay races against, where the race takes two (as two arguments or an array of two): a local or
    /// a parameter, which the branch test can name; null otherwise.
    /// </summary>
    private static ISymbol? OtherRacedTask(IInvocationOperation delay)
    {
        var current = delay.WithImplicitConversionsAround();
        IOperation? other = current.Parent switch
        {
            IArgumentOperation { Parent: IInvocationOperation { Arguments.Length: 2 } pair } =>
                pair.Arguments[pair.Arguments[0] == current.Parent ? 1 : 0].Value,
            IArrayInitializerOperation { ElementValues.Length: 2 } elements =>
                elements.ElementValues[elements.ElementValues[0] == current ? 1 : 0],
            _ => null,
        };
        return other?.WithoutImplicitConversions() switch
        {
            ILocalReferenceOperation local => local.Local,
            IParameterReferenceOperation parameter => parameter.Parameter,
            _ => null,
        };
    }

    /// <summary>
    /// Whether <paramref name="cancel"/> runs only where the race's winner is not <paramref name="other"/>: in the
    /// <c>else</c> of <c>if (winner == other)</c> or the body of <c>if (winner != other)</c>, or after an
    /// <c>if (winner == other)</c> whose body returns or throws; the winner being the awaited race itself or a local it
    /// initializes that nothing else writes.
    /// </summary>
    private static bool OnlyOnceTheDelayWon(IInvocationOperation cancel, IInvocationOperation whenAny, ISymbol other)
    {
        var function = whenAny.EnclosingFunction();
        foreach (var branch in (function ?? whenAny.Root()).Descendants().OfType<IConditionalOperation>())
        {
            if (branch.Condition.WithoutImplicitConversions() is not IBinaryOperation { OperatorKind: BinaryOperatorKind.Equals or BinaryOperatorKind.NotEquals } test)
            {
                continue;
            }

            var left = test.LeftOperand.WithoutImplicitConversions();
            var right = test.RightOperand.WithoutImplicitConversions();
            if (!(IsWinner(left, whenAny) && Names(right, other)) && !(IsWinner(right, whenAny) && Names(left, other)))
            {
                continue;
            }

            var equals = test.OperatorKind == BinaryOperatorKind.Equals;
            var delayWon = equals ? branch.WhenFalse : branch.WhenTrue;
            var workWon = equals ? branch.WhenTrue : branch.WhenFalse;
            if (delayWon is not null && delayWon.Syntax.Span.Contains(cancel.Syntax.Span))
            {
                return true;
            }

            // After the if, in the same function, where the work's branch leaves it: only the delay's win gets there.
            if (workWon is not null && cancel.Syntax.SpanStart >= branch.Syntax.Span.End && cancel.EnclosingFunction() == function
                && !ControlPaths.MayBothRun(workWon.Syntax, cancel.Syntax))
            {
                return true;
            }
        }

        return false;
    }

    private static bool Names(IOperation operand, ISymbol symbol) => operand switch
    {
        ILocalReferenceOperation local => SymbolEqualityComparer.Default.Equals(local.Local, symbol),
        IParameterReferenceOperation parameter => SymbolEqualityComparer.Default.Equals(parameter.Parameter, symbol),
        _ => false,
    };

    /// <summary>
    /// The race's result (<see cref="RaceValue"/>: its await, configured or not), or a local that only it gives a value
    /// (<c>var first = await Task.WhenAny(…);</c>).
    /// </summary>
    private static bool IsWinner(IOperation operand, IInvocationOperation whenAny)
    {
        var value = RaceValue(whenAny);
        return value is not null
            && (operand == value
                || operand is ILocalReferenceOperation { Local: var local }
                    && value.Parent is IVariableInitializerOperation { Parent: IVariableDeclaratorOperation declarator }
                    && SymbolEqualityComparer.Default.Equals(declarator.Symbol, local)
                    && !StateCapture.IsWrittenAnywhere(local, operand.Root(), countDeclaration: false));
    }
}
