using System.Linq;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp;
using Microsoft.CodeAnalysis.CSharp.Syntax;
using Microsoft.CodeAnalysis.Operations;
using TplPractices.Analyzers.Internals;

namespace TplPractices.Analyzers.Rules;

/// <summary>
/// TPL0017's race shape: a delay racing a task in <c>Task.WhenAny</c> (inline, or held in a local for the race) without
/// a token, with one that cannot cancel, or with the caller's; and where the fix can cancel it once the race is decided.
/// </summary>
internal static partial class DelayTimer
{
    /// <summary>
    /// The race's site: fixed where a source's Cancel can follow the race (a statement of its own, or first in a statement
    /// that uses the winner) and, for a held delay, where nothing but comparisons with the winner reads it after the race;
    /// null for a caller's token that something writes, or a source something may cancel.
    /// </summary>
    private static Site? RaceSite(IInvocationOperation delay, IInvocationOperation? whenAny, IVariableDeclaratorOperation? held = null)
    {
        var cannotCancel = CannotBeCanceled(delay);
        var linkableToken = cannotCancel ? null : LinkableToken(delay, proven: true);
        if (linkableToken is null && !cannotCancel)
        {
            return null;
        }

        var message = linkableToken switch
        {
            null => RaceMessage,
            IParameterReferenceOperation => TokenRaceMessage,
            IPropertyReferenceOperation { Instance: ILocalReferenceOperation source } when IsOwnSourceNothingCancels(source.Local, delay.Root()) => OwnSourceRaceMessage,
            _ => LeftSourceRaceMessage,
        };
        var heldIn = held is null ? null : HeldForTheRaceOnly(held, whenAny!);
        if (whenAny is null || held is not null && heldIn is null || AlsoRacedDelays(whenAny, delay, cannotCancel && held is null) is not { } alsoRaced)
        {
            return new Site(message, null, null);
        }

        if (StatementToCancelAfter(whenAny) is { } statement && (heldIn is null || RacedBeside(heldIn, statement)))
        {
            return new Site(message, FixCancelDelay, null, statement, linkableToken?.Syntax, null, heldIn, alsoRaced: alsoRaced);
        }

        // A held delay is raced once: in a loop's condition it would be raced again after its cancel.
        return StatementUsingTheWinner(whenAny) is { } user && (heldIn is null || RacedBeside(heldIn, user.Statement) && user.Statement is not (WhileStatementSyntax or DoStatementSyntax))
            ? new Site(message, FixCancelDelayAfterWinner, null, user.Statement, linkableToken?.Syntax, user.Race.Syntax, heldIn, alsoRaced: alsoRaced)
            : new Site(message, null, null);
    }

    /// <summary>
    /// The race's other delays this rule reports too, which the fix gives the same source's token, so that one fix of
    /// either site rewrites the race once: each must be one of the raced tasks and cannot be canceled, as
    /// <paramref name="delay"/> must (<paramref name="canShare"/>), since a source linked to one token would cancel the
    /// other delays with it. Empty where there is none; null where there is one the fix cannot take (then no fix). A delay
    /// that makes no timer (<c>Task.Delay(-1, token)</c>, the usual way to race a token), that something may cancel, or
    /// that is not one of the raced tasks (inside a lambda the race takes) is left alone.
    /// </summary>
    private static System.Collections.Generic.IReadOnlyList<IInvocationOperation>? AlsoRacedDelays(IInvocationOperation whenAny, IInvocationOperation delay, bool canShare)
    {
        System.Collections.Generic.List<IInvocationOperation>? others = null;
        foreach (var call in whenAny.Descendants().OfType<IInvocationOperation>())
        {
            if (call != delay && call.TargetMethod is { Name: "Delay", IsStatic: true } method
                && method.ContainingType.Equals(delay.TargetMethod.ContainingType, SymbolEqualityComparer.Default)
                && IsReportedRace(call))
            {
                if (!canShare || !CannotBeCanceled(call) || RacedIn(call)?.WhenAny != whenAny)
                {
                    return null;
                }

                (others ??= new()).Add(call);
            }
        }

        return (System.Collections.Generic.IReadOnlyList<IInvocationOperation>?)others ?? System.Array.Empty<IInvocationOperation>();
    }

    /// <summary>
    /// The race's statement stands in the held delay's block: anywhere after it where a using declaration goes before the
    /// delay; right after it, with no directive between, where a using block must hold both (before C# 8, in a switch
    /// section), so that nothing else moves into the block.
    /// </summary>
    private static bool RacedBeside(LocalDeclarationStatementSyntax held, SyntaxNode statement)
    {
        if (statement.Parent != held.Parent)
        {
            return false;
        }

        if (UsingPlacement.DeclarationFits(held))
        {
            return true;
        }

        var statements = held.Parent switch
        {
            BlockSyntax block => block.Statements,
            SwitchSectionSyntax section => section.Statements,
            _ => default,
        };
        var next = statements.IndexOf(held) + 1;
        return next > 0 && next < statements.Count && statements[next] == statement
            && !statement.GetLeadingTrivia().Any(t => t.IsDirective);
    }

    /// <summary>
    /// The declaration of a local that holds the delay for one race and is read after it only to compare the winner with
    /// it (<c>first == timeout</c>): canceled once the race is decided, the delay is the same task for that, and nothing
    /// else sees it. The declaration is a statement of its own in a block where a using declaration can go before it, or
    /// one the fix can declare apart for a using block to assign (<see cref="RacedBeside"/>), and nothing writes the
    /// local or reads it in a lambda; null otherwise.
    /// </summary>
    private static LocalDeclarationStatementSyntax? HeldForTheRaceOnly(IVariableDeclaratorOperation held, IInvocationOperation whenAny)
    {
        if (held.Parent is not IVariableDeclarationOperation { Declarators.Length: 1, Parent: IVariableDeclarationGroupOperation group }
            || group.Syntax is not LocalDeclarationStatementSyntax { Parent: BlockSyntax or SwitchSectionSyntax or GlobalStatementSyntax, UsingKeyword.RawKind: 0, AwaitKeyword.RawKind: 0 } declaration
            || !UsingPlacement.DeclarationFits(declaration) && !UsingPlacement.BlockFits(declaration, held.SemanticModel))
        {
            return null;
        }

        var function = held.EnclosingFunction() ?? held.Root();
        var raced = 0;
        foreach (var operation in function.Descendants())
        {
            if (operation is not ILocalReferenceOperation reference || !SymbolEqualityComparer.Default.Equals(reference.Local, held.Symbol))
            {
                continue;
            }

            if (StateCapture.IsWrite(reference) || reference.EnclosingFunction() != held.EnclosingFunction())
            {
                return null;
            }

            if (RacedIn(reference)?.WhenAny == whenAny || RaceTaking(reference) == whenAny)
            {
                raced++;
            }
            else if (reference.WithImplicitConversionsAround().Parent is not IBinaryOperation { OperatorKind: BinaryOperatorKind.Equals or BinaryOperatorKind.NotEquals, OperatorMethod: null } comparison
                || reference.Syntax.SpanStart < whenAny.Syntax.SpanStart && comparison.RightOperand.WithoutImplicitConversions() != RaceValue(whenAny))
            {
                // Compared with the winner after the race, or first in the comparison the race is the other side of.
                return null;
            }
        }

        return raced == 1 ? declaration : null;
    }

    /// <summary>
    /// A statement in a block whose expression (or a loop's condition) awaits the race before anything else (<c>if (await Task.WhenAny(…) !=
    /// work)</c>, <c>return await Task.WhenAny(…) == work;</c>, <c>var inTime = await Task.WhenAny(…) == work;</c>): the
    /// race can move into a local before it, with nothing of the statement evaluated earlier than before. Or an
    /// <c>if</c> without <c>else</c> whose condition is <c>ready &amp;&amp; race…</c>: the race moves into a new <c>if (ready)</c>. Not where the
    /// race declares a variable (its scope would change), nor a declaration before C# 8 (the using block would hide it).
    /// </summary>
    private static (SyntaxNode Statement, IOperation Race)? StatementUsingTheWinner(IInvocationOperation whenAny)
    {
        if (RaceValue(whenAny) is not { } race
            || race.Syntax.DescendantNodes().Any(n => n is DeclarationExpressionSyntax or SingleVariableDesignationSyntax))
        {
            return null;
        }

        SyntaxNode? statement = null;
        for (IOperation current = race; statement is null; current = current.Parent!)
        {
            switch (current.Parent)
            {
                case IConversionOperation conversion when conversion.Operand == current:
                case IBinaryOperation binary when binary.LeftOperand == current:
                // task == await Task.WhenAny(task, …): the left operand reads the same value after the race.
                case IBinaryOperation { OperatorKind: not (BinaryOperatorKind.ConditionalAnd or BinaryOperatorKind.ConditionalOr) } right
                    when right.RightOperand == current && IsSteadyRead(right.LeftOperand):
                case IUnaryOperation unary when unary.Operand == current:
                case IIsPatternOperation test when test.Value == current:
                case IIsTypeOperation test2 when test2.ValueOperand == current:
                case IPropertyReferenceOperation property when property.Instance == current:
                case IInvocationOperation call when call.Instance == current:
                case IAwaitOperation awaiting when awaiting.Operation == current:
                case IConditionalOperation { Syntax: ConditionalExpressionSyntax } choice when choice.Condition == current:
                case ISimpleAssignmentOperation { Target: ILocalReferenceOperation or IParameterReferenceOperation } assignment when assignment.Value == current:
                    continue;
                case IConditionalOperation { Syntax: IfStatementSyntax } branch when branch.Condition == current:
                    statement = branch.Syntax;
                    break;
                // if (!work.IsCompleted && await Task.WhenAny(…) != work) with no else: the fix tests the left operand
                // first and races inside, where the race is first again (an else would run on either test failing).
                case IBinaryOperation { OperatorKind: BinaryOperatorKind.ConditionalAnd, Parent: IConditionalOperation { Syntax: IfStatementSyntax { Else: null } } branch } both
                    when both.RightOperand == current && branch.Condition == both:
                    statement = branch.Syntax;
                    break;
                // while (await Task.WhenAny(…) != work): each pass begins with the race and a break.
                case IWhileLoopOperation { ConditionIsTop: true, ConditionIsUntil: false, Syntax: WhileStatementSyntax loop } whileLoop when whileLoop.Condition == current
                    && !DeclaresANameOf(loop.Statement, loop.Condition):
                    statement = loop;
                    break;
                // do { … } while (await Task.WhenAny(…) != work): each pass ends with the race, where no 'continue' skips it.
                case IWhileLoopOperation { ConditionIsTop: false, ConditionIsUntil: false, Syntax: DoStatementSyntax doLoop } doWhile when doWhile.Condition == current
                    && !ContinuesTo(doWhile) && !DeclaresANameOf(doLoop.Statement, doLoop.Condition):
                    statement = doLoop;
                    break;
                case IReturnOperation returned when returned.ReturnedValue == current:
                    statement = returned.Syntax;
                    break;
                case IExpressionStatementOperation expression:
                    statement = expression.Syntax;
                    break;
                case IVariableInitializerOperation { Parent: IVariableDeclaratorOperation { Parent: IVariableDeclarationOperation { Declarators.Length: 1, Parent: IVariableDeclarationGroupOperation group } } }:
                    statement = group.Syntax;
                    break;
                default:
                    return null;
            }
        }

        // A statement in a block, or the expression body of a method, local function or lambda (it becomes a block).
        return statement is StatementSyntax { Parent: BlockSyntax or GlobalStatementSyntax or SwitchSectionSyntax }
                and (not LocalDeclarationStatementSyntax or LocalDeclarationStatementSyntax { UsingKeyword.RawKind: 0, AwaitKeyword.RawKind: 0 })
                && CanHoldASource(statement, race.SemanticModel)
            || statement is ExpressionSyntax { Parent: ArrowExpressionClauseSyntax { Parent: MethodDeclarationSyntax or LocalFunctionStatementSyntax } }
            || statement is ExpressionSyntax { Parent: AnonymousFunctionExpressionSyntax function } body && function.Body == body
                ? (statement, race)
                : null;
    }

    /// <summary>
    /// Whether the body declares a name the condition uses: after the body, in the same block, the condition would read
    /// the body's local (a local may hide a field of the same name) instead of what it read before.
    /// </summary>
    private static bool DeclaresANameOf(StatementSyntax body, ExpressionSyntax condition)
    {
        var declared = body.DescendantNodes().Select(n => n switch
        {
            VariableDeclaratorSyntax variable => variable.Identifier.ValueText,
            SingleVariableDesignationSyntax designation => designation.Identifier.ValueText,
            ForEachStatementSyntax loop => loop.Identifier.ValueText,
            CatchDeclarationSyntax caught => caught.Identifier.ValueText,
            LocalFunctionStatementSyntax function => function.Identifier.ValueText,
            _ => null,
        }).Where(name => name is not null).ToList();
        return declared.Count > 0
            && condition.DescendantNodesAndSelf().OfType<IdentifierNameSyntax>().Any(name => declared.Contains(name.Identifier.ValueText));
    }

    /// <summary>Whether the loop's body has a <c>continue</c> of its own, which goes to the condition and past a race moved into the body.</summary>
    private static bool ContinuesTo(IWhileLoopOperation loop) =>
        loop.Body.Descendants().OfType<IBranchOperation>().Any(b => b.BranchKind == BranchKind.Continue && SymbolEqualityComparer.Default.Equals(b.Target, loop.ContinueLabel));

    /// <summary>
    /// A read that gives the same value after the race as before it: a constant, <c>this</c>, or a local or by-value
    /// parameter of the method that nothing writes (a primary constructor's parameter may be written by other members).
    /// </summary>
    private static bool IsSteadyRead(IOperation operand)
    {
        operand = operand.WithoutImplicitConversions();
        return operand.ConstantValue.HasValue
            || operand is IInstanceReferenceOperation
            || operand is ILocalReferenceOperation { Local.IsRef: false } or IParameterReferenceOperation { Parameter: { RefKind: RefKind.None, ContainingSymbol: not IMethodSymbol { MethodKind: MethodKind.Constructor } } }
                && StateCapture.ReferencedSymbol(operand) is { } variable
                && !StateCapture.IsWrittenAnywhere(variable, operand.Root());
    }

    /// <summary>
    /// The token of <c>Task.Delay(t, token)</c> where the race cannot cancel it and a source linked to it can: a parameter
    /// of the code around it that nothing writes (the caller's token, which lives on after the race), or the token of a
    /// source of this code's own that nothing cancels (<see cref="IsOwnSourceNothingCancels"/>) or that only the delay's
    /// win cancels (<see cref="IsOwnSourceTheRaceLeaves"/>). Either way the delay's
    /// timer and its registration on the token stay until the delay fires. A primary constructor's parameter is left
    /// alone, since other members may write it. Null otherwise. Without <paramref name="proven"/> only the token's shape is
    /// tested, not the walks of the member (whether something writes the parameter or may cancel the source): the first
    /// test at every delay, which only a race goes on to prove.
    /// </summary>
    private static IOperation? LinkableToken(IInvocationOperation delay, bool proven) =>
        TokenOf(delay)?.WithoutImplicitConversions() switch
        {
            IParameterReferenceOperation { Parameter: { RefKind: RefKind.None, ContainingSymbol: not IMethodSymbol { MethodKind: MethodKind.Constructor } } } token
                when !proven || !StateCapture.IsWrittenAnywhere(token.Parameter, delay.Root()) => token,
            IPropertyReferenceOperation { Property.Name: "Token", Instance: ILocalReferenceOperation { Local.IsRef: false } source } token
                when !proven || IsOwnSourceNothingCancels(source.Local, delay.Root()) || IsOwnSourceTheRaceLeaves(source.Local, delay) => token,
            _ => null,
        };

    /// <summary>A delay this rule reports as racing in WhenAny: it makes a timer, and its token cannot cancel or a linked source can take it (<see cref="LinkableToken"/>).</summary>
    public static bool IsReportedRace(IInvocationOperation delay) =>
        !MakesNoTimer(delay) && RacedIn(delay) is not null && (CannotBeCanceled(delay) || LinkableToken(delay, proven: true) is not null);

    /// <summary>
    /// The WhenAny or WaitAny a task takes part in, with at least one other task, in any spelling, or null. WaitAny is
    /// the same race, waited for by a blocked thread: the delay's timer outlives it alike.
    /// </summary>
    public static (IInvocationOperation WhenAny, int Tasks)? RacedIn(IOperation task) =>
        ElementOf(task) is { Tasks: >= 2 } tasks && RaceTaking(tasks.Collection) is { } race ? (race, tasks.Tasks) : null;

    /// <summary>
    /// The tasks a task is one of, as a race would take them: an argument beside others, or a params list, an array, a
    /// <c>new List&lt;Task&gt; { … }</c> or a collection expression (the collection), and how many there are; or null.
    /// </summary>
    private static (IOperation Collection, int Tasks)? ElementOf(IOperation task)
    {
        var current = task.WithImplicitConversionsAround();
        switch (current.Parent)
        {
            case IArrayInitializerOperation { Parent: IArrayCreationOperation creation } elements:
                return (creation, elements.ElementValues.Length);
            case IArgumentOperation { Parent: IInvocationOperation { TargetMethod.Name: "Add", IsImplicit: true, Parent: IObjectOrCollectionInitializerOperation { Parent: IObjectCreationOperation creation } list } }:
                return (creation, list.Initializers.Length);
            case IArgumentOperation { Parent: IInvocationOperation pair }:
                return (current, pair.Arguments.Length);
            case { } collection when collection.IsCollectionExpression():
                return (collection, collection.ChildOperations.Count);
            default:
                return null;
        }
    }

    /// <summary>The static <c>Task.WhenAny</c> or <c>Task.WaitAny</c> that takes <paramref name="tasks"/> as an argument, or null.</summary>
    private static IInvocationOperation? RaceTaking(IOperation tasks) =>
        tasks.WithImplicitConversionsAround().Parent is IArgumentOperation { Parent: IInvocationOperation { TargetMethod: { Name: "WhenAny" or "WaitAny", IsStatic: true } method } race }
        && method.ContainingType.Name == "Task"
            ? race
            : null;

    /// <summary>
    /// A delay that is the one delay among the tasks of a collection held in a local for a race
    /// (<c>var tasks = new[] { work, Task.Delay(t) }; await Task.WhenAny(tasks);</c>): the local's declarator and the
    /// race, or null.
    /// </summary>
    private static (IVariableDeclaratorOperation Holder, IInvocationOperation Race)? HeldInACollection(IInvocationOperation delay)
    {
        if (ElementOf(delay) is not { Tasks: >= 2 } tasks
            || tasks.Collection == delay.WithImplicitConversionsAround()
            || tasks.Collection.WithImplicitConversionsAround().Parent is not IVariableInitializerOperation { Parent: IVariableDeclaratorOperation holder }
            || tasks.Collection.Descendants().OfType<IInvocationOperation>().Count(c => c.TargetMethod.Name == "Delay") != 1)
        {
            return null;
        }

        var function = delay.EnclosingFunction() ?? delay.Root();
        foreach (var operation in function.Descendants())
        {
            if (operation is ILocalReferenceOperation reference && SymbolEqualityComparer.Default.Equals(reference.Local, holder.Symbol) && RaceTaking(reference) is { } race)
            {
                return (holder, race);
            }
        }

        return null;
    }

    /// <summary>The first race in the function around <paramref name="delay"/> that takes the local holding it, or null.</summary>
    private static IInvocationOperation? RacedThrough(ILocalSymbol local, IOperation delay)
    {
        var function = delay.EnclosingFunction() ?? delay.Root();
        foreach (var operation in function.Descendants())
        {
            if (operation is ILocalReferenceOperation reference && SymbolEqualityComparer.Default.Equals(reference.Local, local) && RacedIn(reference) is { } race)
            {
                return race.WhenAny;
            }
        }

        return null;
    }

    /// <summary>
    /// The race is awaited (ConfigureAwait allowed) as a statement, an assignment or a local's initializer in a block, so
    /// a source's <c>Cancel()</c> can follow it, and a source can go before it (<see cref="CanHoldASource"/>). The
    /// statement that holds the race, or null where that is not so.
    /// </summary>
    private static StatementSyntax? StatementToCancelAfter(IInvocationOperation whenAny) =>
        RaceStatement(whenAny) is { } statement && CanHoldASource(statement, whenAny.SemanticModel) ? statement : null;

    /// <summary>The statement in a block whose await (or WaitAny) waits for the race, or null.</summary>
    public static StatementSyntax? RaceStatement(IInvocationOperation whenAny)
    {
        var statement = RaceValue(whenAny)?.Parent switch
        {
            IExpressionStatementOperation expression => expression.Syntax,
            IVariableInitializerOperation { Parent: IVariableDeclaratorOperation { Parent: IVariableDeclarationOperation { Declarators.Length: 1, Parent: IVariableDeclarationGroupOperation group } } } => group.Syntax,
            ISimpleAssignmentOperation { Parent: IExpressionStatementOperation assignment } => assignment.Syntax,
            _ => null,
        };
        return statement is StatementSyntax { Parent: BlockSyntax or GlobalStatementSyntax or SwitchSectionSyntax } result ? result : null;
    }

    /// <summary>
    /// What gives the race's result once it is decided: the await of WhenAny (ConfigureAwait allowed), a blocking wait for
    /// WhenAny's task, or WaitAny's call itself; null for a WhenAny not waited for there.
    /// </summary>
    private static IOperation? RaceValue(IInvocationOperation race)
    {
        if (race.TargetMethod.Name == "WaitAny")
        {
            return race;
        }

        // An await of WhenAny's task (ConfigureAwait allowed), or a thread blocked on it (`.Result`, `.Wait()`,
        // `.GetAwaiter().GetResult()`): each returns once the race is decided, as WaitAny does.
        var configured = ConfiguredAwait.Around(race);
        return configured.Parent switch
        {
            IAwaitOperation awaited => awaited,
            IPropertyReferenceOperation { Property.Name: "Result" } result when result.Instance == race => result,
            IInvocationOperation { TargetMethod.Name: "Wait", Arguments.Length: 0 } wait when wait.Instance == race => wait,
            IInvocationOperation { TargetMethod.Name: "GetAwaiter", Arguments.Length: 0, Parent: IInvocationOperation { TargetMethod.Name: "GetResult", Arguments.Length: 0 } result } awaiter
                when awaiter.Instance == configured && result.Instance == awaiter => result,
            _ => null,
        };
    }
}
