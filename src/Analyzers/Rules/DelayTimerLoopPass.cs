using System.Linq;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp;
using Microsoft.CodeAnalysis.CSharp.Syntax;
using Microsoft.CodeAnalysis.Operations;
using TplPractices.Analyzers.Internals;

namespace TplPractices.Analyzers.Rules;

/// <summary>
/// TPL0017's timer loop and its pass: a loop that runs until a flag or a token stops it, the pass's steps (stop tests
/// left out), where the delay stands in them, and the exits and tests that make a loop a poll rather than a timer.
/// </summary>
internal static partial class DelayTimer
{
    /// <summary>
    /// The timer loop (<see cref="IsTimerLoop"/>) whose body's first or last statement is <paramref name="statement"/>,
    /// or whose body starts (or ends) with a <c>try</c> whose body starts (or ends) so; null otherwise. An exception
    /// before the delay skips the wait in the pass alike, whether a delay or a tick. Stop tests (<see cref="IsStopTest"/>)
    /// do not count: the body's other statements come with it, worked out once.
    /// </summary>
    private static (ILoopOperation Loop, IBlockOperation Body, System.Collections.Generic.List<IOperation> Steps)? PassOf(IOperation statement)
    {
        // The loop's own test first: it is cheap, and most delays in a loop (a retry's back-off) are in no timer loop.
        if (statement.Parent is not IBlockOperation block
            || (block.Parent as ILoopOperation ?? (block.Parent as ITryOperation)?.Parent?.Parent as ILoopOperation) is not { } loop
            || !IsTimerLoop(loop))
        {
            return null;
        }

        var steps = Steps(block, loop);
        var first = steps.First() == statement;
        var last = steps.Last() == statement;
        if (!first && !last)
        {
            return null;
        }

        if (block.Parent is ILoopOperation)
        {
            return (loop, block, steps);
        }

        return block.Parent is ITryOperation attempt && attempt.Body == block
            && attempt.Parent is IBlockOperation { Parent: ILoopOperation } body
            && Steps(body, loop) is var passSteps
            && (first && passSteps.First() == attempt || last && passSteps.Last() == attempt)
                ? (loop, body, passSteps)
                : null;
    }

    /// <summary>
    /// The block's statements but its stop tests (<see cref="IsStopTest"/>), which neither wait nor work: a delay next
    /// to one still starts or ends the pass, and a pass of a delay and such tests only waits. Never empty for a block
    /// that holds the delay's statement.
    /// </summary>
    private static System.Collections.Generic.List<IOperation> Steps(IBlockOperation block, ILoopOperation loop) =>
        block.Operations.Where(o => !IsStopTest(o, loop)).ToList();

    /// <summary>
    /// <c>if (token.IsCancellationRequested) break;</c> (or <c>return;</c>), without <c>else</c>, on stop flags or tokens
    /// of the loop's own (<see cref="IsStopCondition"/>); or
    /// <c>token.ThrowIfCancellationRequested();</c>. It leaves the loop as its own condition would, in the middle of
    /// the pass, and does no work a timer could pace.
    /// </summary>
    private static bool IsStopTest(IOperation statement, ILoopOperation loop) =>
        statement is IExpressionStatementOperation { Operation: IInvocationOperation { TargetMethod: { Name: "ThrowIfCancellationRequested", Parameters.IsEmpty: true } } check }
            && check.TargetMethod.ContainingType.IsSystemThreadingType("CancellationToken")
            && check.Instance is { } token && SafeTests.Read(token)
        || statement is IConditionalOperation { WhenFalse: null, WhenTrue: var exit, Condition: var condition }
        && (exit is IBlockOperation { Operations.Length: 1 } block ? block.Operations[0] : exit) switch
        {
            IBranchOperation { BranchKind: BranchKind.Break } branch => SymbolEqualityComparer.Default.Equals(branch.Target, loop.ExitLabel),
            IReturnOperation { Kind: OperationKind.Return, ReturnedValue: null } => true,
            _ => false,
        }
        && IsStopCondition(condition, loop);

    /// <summary>
    /// A test of stop flags or tokens (<see cref="RunsUntilStopped"/>) of the loop's own, which nothing in the loop sets:
    /// no other object's state (<c>_queue.IsEmpty</c>, <see cref="IsAnothersState"/>), whose test is a poll, and no
    /// result of the pass.
    /// </summary>
    private static bool IsStopCondition(IOperation condition, ILoopOperation loop) =>
        RunsUntilStopped(condition)
        && !ReadsAnothersState(condition)
        && !SetsAFlag(condition, loop);

    /// <summary>
    /// A pass that holds the delay and nothing else (in a <c>try</c> or not): the loop waits until its condition changes
    /// (<c>while (_queue.IsRunning) { await Task.Delay(50); }</c>) and does no work a timer could pace.
    /// </summary>
    private static bool WaitsOnly(System.Collections.Generic.List<IOperation> steps, IOperation statement, ILoopOperation loop) =>
        steps.Count == 1
        && (steps[0] == statement || steps[0] is ITryOperation { Body: var attempt } && Steps(attempt, loop).Count == 1);

    /// <summary>
    /// A condition that reads another object's state, in any spelling (<c>_queue.IsRunning</c>, <c>!worker.Done</c>,
    /// <c>worker.Done == false</c>), or a property of its own that computes it (a getter with a body, <c>!IsReady</c>):
    /// the loop waits for that work to end, which it has often done already. A stop flag or token of the loop's own
    /// (<c>!_stopped</c>, <c>!token.IsCancellationRequested</c>, <c>_running</c>, an auto-property) keeps a service's
    /// loop going for many passes, where one timer pays.
    /// </summary>
    private static bool WaitsOnAnother(ILoopOperation loop) =>
        ConditionOf(loop) is { } condition && ReadsAnothersState(condition);

    private static bool ReadsAnothersState(IOperation condition) =>
        condition.DescendantsAndSelf().Any(o => o is IMemberReferenceOperation flag && IsFlag(flag) && IsAnothersState(flag));

    private static bool IsAnothersState(IMemberReferenceOperation flag) => flag switch
    {
        IPropertyReferenceOperation { Property: { Name: "IsCancellationRequested" } property } when IsCancellationType(property.ContainingType) => false,
        { Instance: null or IInstanceReferenceOperation } => flag is IPropertyReferenceOperation { Property: var own } && !own.IsAutoProperty(),
        _ => true,
    };

    private static bool IsCancellationType(ITypeSymbol type) =>
        type.IsSystemThreadingType("CancellationToken") || type.IsSystemThreadingType("CancellationTokenSource");

    /// <summary>
    /// A <c>while</c> or <c>for</c> whose condition is tested before the first pass (not <c>true</c>): as a wait, it may
    /// end at once, where a timer made before the loop would cost one on every call that does not wait.
    /// </summary>
    private static bool TestsBeforeTheFirstPass(ILoopOperation loop) =>
        loop is not IWhileLoopOperation { ConditionIsTop: false }
        && ConditionOf(loop) is { } condition
        && condition.ConstantValue.Value is not true;

    /// <summary>The condition of a <c>while</c>, <c>do … while</c> or <c>for</c>; null for <c>for (;;)</c>.</summary>
    private static IOperation? ConditionOf(ILoopOperation loop) => loop switch
    {
        IWhileLoopOperation repeat => repeat.Condition,
        IForLoopOperation counted => counted.Condition,
        _ => null,
    };

    /// <summary>
    /// A condition that reads a variable the passes set, starting from a value that is not a constant (<c>var ready =
    /// Check(); while (!ready) { await Task.Delay(200); ready = Check(); }</c>): a poll until the pass's result says
    /// stop, which may end before the first pass. A local that starts as a constant (<c>var running = true;</c>) and
    /// that nothing sets outside the loop makes it run at least once.
    /// </summary>
    private static bool TestsAPassResult(ILoopOperation loop)
    {
        var function = loop.EnclosingFunction() ?? loop.Root();
        return ConditionOf(loop) is { } condition
            && PassResultsIn(condition, loop).Any(variable => !(variable is ILocalSymbol local
                && function.InitializerOf(local) is { ConstantValue.HasValue: true }
                && !function.Descendants().Any(w => !loop.Syntax.Span.Contains(w.Syntax.Span)
                    && SymbolEqualityComparer.Default.Equals(StateCapture.ReferencedSymbol(w), local) && StateCapture.IsWrite(w))));
    }

    /// <summary>Whether the pass's steps (<see cref="Steps"/>) start with the statement, or with a try that does.</summary>
    private static bool Starts(System.Collections.Generic.List<IOperation> steps, IOperation statement, ILoopOperation loop) =>
        steps.First() is var first && (first == statement || first is ITryOperation attempt && Steps(attempt.Body, loop).FirstOrDefault() == statement);

    /// <summary>
    /// Whether a pass that ends with its delay can leave the loop before it (<c>if (ready) break;</c>, a <c>return</c>)
    /// on a test of something other than a stop flag or token: a poll until something is ready, which may never wait,
    /// where a timer made before the loop would cost one on every call that leaves at once (a stream's read that
    /// polls for data). An exit in a <c>catch</c> (the canceled hosted service's <c>break</c>) counts as a stop.
    /// </summary>
    private static bool LeavesBeforeTheDelay(IBlockOperation body, ILoopOperation loop)
    {
        var function = loop.EnclosingFunction();
        foreach (var operation in body.Descendants())
        {
            var exits = operation switch
            {
                IBranchOperation { BranchKind: BranchKind.Break } branch => SymbolEqualityComparer.Default.Equals(branch.Target, loop.ExitLabel),
                IReturnOperation { Kind: OperationKind.Return or OperationKind.YieldBreak } => true,
                _ => false,
            };
            if (exits && operation.EnclosingFunction() == function && !IsStopExit(operation, body, loop))
            {
                return true;
            }
        }

        return false;
    }

    /// <summary>
    /// An exit in a <c>catch</c> (the exceptional path), or one the innermost <c>if</c> around it takes when a stop flag or
    /// token that nothing in the loop sets is raised.
    /// </summary>
    private static bool IsStopExit(IOperation exit, IBlockOperation body, ILoopOperation loop)
    {
        IConditionalOperation? innermost = null;
        IOperation? branch = null;
        var child = exit;
        for (var current = exit.Parent; current is not null && current != body; child = current, current = current.Parent)
        {
            if (current is ICatchClauseOperation)
            {
                return true;
            }

            if (innermost is null && current is IConditionalOperation test)
            {
                innermost = test;
                branch = child;
            }
        }

        return innermost is not null
            && innermost.WhenTrue == branch
            && IsStopCondition(innermost.Condition, loop);
    }

    /// <summary>
    /// Whether a local or parameter the test reads is declared or written in the loop (<c>var ready = await
    /// IsReadyAsync();</c>): a result of the pass, not a stop flag.
    /// </summary>
    private static bool SetsAFlag(IOperation condition, ILoopOperation loop) => PassResultsIn(condition, loop).Any();

    /// <summary>The locals and parameters a test reads that are declared or written in the loop: results of its passes.</summary>
    private static System.Collections.Generic.IEnumerable<ISymbol> PassResultsIn(IOperation condition, ILoopOperation loop) =>
        condition.DescendantsAndSelf()
            .Where(o => o is ILocalReferenceOperation or IParameterReferenceOperation)
            .Select(StateCapture.ReferencedSymbol)
            .OfType<ISymbol>()
            .Where(variable => loop.Syntax.Span.Contains(variable.Locations.FirstOrDefault()?.SourceSpan ?? default) || StateCapture.IsWrittenAnywhere(variable, loop));

    private static bool IsTimerLoop(ILoopOperation loop) => loop switch
    {
        IWhileLoopOperation { ConditionIsUntil: false } repeat => RunsUntilStopped(repeat.Condition),
        IForLoopOperation { Before.IsEmpty: true, AtLoopBottom.IsEmpty: true } forever => forever.Condition is null || RunsUntilStopped(forever.Condition),
        _ => false,
    };

    /// <summary>
    /// <c>true</c>, or a flag or token read each pass in any spelling: <c>running</c>, <c>!stopped</c>,
    /// <c>stopped == false</c>, <c>stopped is false</c>, <c>!(stopped is true)</c>,
    /// <c>!token.IsCancellationRequested</c>, and <c>&amp;&amp;</c> or <c>||</c> of such tests
    /// (<c>!disposed &amp;&amp; !token.IsCancellationRequested</c>).
    /// </summary>
    private static bool RunsUntilStopped(IOperation? condition) => condition switch
    {
        null => false,
        { ConstantValue.HasValue: true } => condition.ConstantValue.Value is true,
        IUnaryOperation { OperatorKind: UnaryOperatorKind.Not, Operand: var test } => RunsUntilStopped(test),
        IBinaryOperation { OperatorKind: BinaryOperatorKind.ConditionalAnd or BinaryOperatorKind.ConditionalOr } both =>
            RunsUntilStopped(both.LeftOperand) && RunsUntilStopped(both.RightOperand),
        IBinaryOperation { OperatorKind: BinaryOperatorKind.Equals or BinaryOperatorKind.NotEquals, LeftOperand: var flag, RightOperand.ConstantValue: { HasValue: true, Value: bool } } => IsFlag(flag),
        IIsPatternOperation { Value: var flag, Pattern: IConstantPatternOperation or INegatedPatternOperation { Pattern: IConstantPatternOperation } } => IsFlag(flag),
        _ => IsFlag(condition),
    };

    /// <summary>A bool read: a field, local, parameter or property without arguments (IsCancellationRequested among them).</summary>
    private static bool IsFlag(IOperation operation) =>
        operation.Type?.SpecialType == SpecialType.System_Boolean
        && operation is IFieldReferenceOperation or ILocalReferenceOperation or IParameterReferenceOperation or IPropertyReferenceOperation { Arguments.IsEmpty: true };
}
