using System.Linq;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp.Syntax;
using Microsoft.CodeAnalysis.Operations;

namespace TplPractices.Analyzers.Internals;

/// <summary>
/// Questions about the paths through a function, answered from the operation tree without flow analysis: whether two
/// operations can both run in one pass (TPL0018: a second continuation only on the same path), whether a statement
/// does something on every path (TPL0013: a source completed before its task escapes), and whether a statement can be
/// reached without running something (TPL0008: a return no await comes before on some path).
/// </summary>
internal static class ControlPaths
{
    /// <summary>
    /// Both operations can run in one pass through their function: they are not in the two branches of an <c>if</c> or
    /// <c>?:</c>, two sections of a <c>switch</c> or two arms of a switch expression, and the earlier one is not in a
    /// branch that returns or throws. <paramref name="earlier"/> comes first in the text.
    /// </summary>
    public static bool MayBothRun(IOperation earlier, IOperation later) => MayBothRun(earlier.Syntax, later.Syntax);

    /// <summary>
    /// The same, read from the syntax alone: TPL0013 asks it of code the caller holds no semantic model of (a field's
    /// completions in every file of its type).
    /// </summary>
    public static bool MayBothRun(SyntaxNode earlier, SyntaxNode later)
    {
        for (var current = earlier; current.Parent is { } parent; current = parent)
        {
            if (parent.Span.Contains(later.Span))
            {
                return !IsBranch(parent, current) || current.Span.Contains(later.Span);
            }

            if (IsBranch(parent, current) && EndsByLeaving(current))
            {
                return false;
            }
        }

        return true;
    }

    private static bool IsBranch(SyntaxNode parent, SyntaxNode child) => parent switch
    {
        IfStatementSyntax ifStatement => child == ifStatement.Statement || child == ifStatement.Else,
        ConditionalExpressionSyntax conditional => child == conditional.WhenTrue || child == conditional.WhenFalse,
        SwitchStatementSyntax => child is SwitchSectionSyntax,
        SwitchExpressionSyntax => child is SwitchExpressionArmSyntax,
        _ => false,
    };

    /// <summary>A branch whose last statement returns or throws: code after the branching runs only without it.</summary>
    private static bool EndsByLeaving(SyntaxNode branch)
    {
        var last = branch switch
        {
            ElseClauseSyntax elseClause => elseClause.Statement,
            SwitchSectionSyntax { Statements.Count: > 0 } section => section.Statements.Last(),
            _ => branch,
        };
        while (last is BlockSyntax { Statements.Count: > 0 } block)
        {
            last = block.Statements.Last();
        }

        return last is ReturnStatementSyntax or ThrowStatementSyntax;
    }

    /// <summary>
    /// The statement does what <paramref name="isDone"/> recognizes in a statement whichever way it runs to its end: the
    /// statement itself, a block holding one, the body of a <c>lock</c> or <c>using</c>, both branches of an <c>if</c>,
    /// every section of a <c>switch</c> with a default, or a <c>try</c> whose body and every <c>catch</c> do it (or whose
    /// <c>finally</c> does).
    /// </summary>
    public static bool DoesOnEveryPath(IOperation? statement, System.Func<IOperation, bool> isDone) => statement switch
    {
        null => false,
        _ when isDone(statement) => true,
        IBlockOperation block => block.Operations.Any(s => DoesOnEveryPath(s, isDone)),
        ILockOperation lockStatement => DoesOnEveryPath(lockStatement.Body, isDone),
        IUsingOperation usingStatement => DoesOnEveryPath(usingStatement.Body, isDone),
        IConditionalOperation { WhenFalse: { } whenFalse } branches => DoesOnEveryPath(branches.WhenTrue, isDone) && DoesOnEveryPath(whenFalse, isDone),
        ISwitchOperation switchStatement =>
            switchStatement.Cases.Any(c => c.Clauses.Any(clause => clause.CaseKind == CaseKind.Default))
            && switchStatement.Cases.All(c => c.Body.Any(s => DoesOnEveryPath(s, isDone))),
        ITryOperation tryStatement =>
            (DoesOnEveryPath(tryStatement.Body, isDone) && tryStatement.Catches.All(c => DoesOnEveryPath(c.Handler, isDone)))
            || DoesOnEveryPath(tryStatement.Finally, isDone),
        _ => false,
    };

    /// <summary>
    /// Whether <paramref name="target"/> can be reached from the start of its function without running an operation
    /// <paramref name="runs"/> finds in it: each statement before it in an enclosing block can run to its end without
    /// one (an <c>if</c> or <c>switch</c> with a branch free of one, a <c>try</c> whose body and <c>finally</c> are), and
    /// no condition on the way needs one. A choice made by <paramref name="isGuard"/> (a null or empty argument) is not
    /// a way through; nor is a loop's skipped body, which is the empty case. Anything else answers false.
    /// </summary>
    public static bool ReachableWithout(IOperation target, System.Func<IOperation, bool> runs, System.Func<IOperation, bool> isGuard)
    {
        for (var current = target; current.Parent is { } parent; current = parent)
        {
            if (parent.Kind is OperationKind.AnonymousFunction or OperationKind.LocalFunction or OperationKind.MethodBody or OperationKind.ConstructorBody)
            {
                return true;
            }

            var passed = parent switch
            {
                IBlockOperation block => block.Operations.TakeWhile(s => s != current).All(s => MayFinishWithout(s, runs, isGuard)),
                ISwitchCaseOperation section => section.Body.TakeWhile(s => s != current).All(s => MayFinishWithout(s, runs, isGuard)),
                ISwitchOperation switchStatement => !runs(switchStatement.Value),
                IConditionalOperation conditional => current == conditional.Condition || !runs(conditional.Condition),
                ITryOperation tryStatement => (current == tryStatement.Body || !runs(tryStatement.Body))
                    && (tryStatement.Finally is null || current == tryStatement.Finally || !runs(tryStatement.Finally)),
                ICatchClauseOperation => true,
                ILockOperation lockStatement => current == lockStatement.LockedValue || !runs(lockStatement.LockedValue),
                IUsingOperation usingStatement => !usingStatement.IsAsynchronous && (current == usingStatement.Resources || !runs(usingStatement.Resources)),
                ILoopOperation loop => loop is not IForEachLoopOperation { IsAsynchronous: true }
                    && loop.ChildOperations.All(child => child == current || child == loop.Body || !runs(child)),
                _ => false,
            };
            if (!passed)
            {
                return false;
            }
        }

        return true;
    }

    /// <summary>A statement that can run to its end (not leaving by return or throw) without running what <paramref name="runs"/> finds.</summary>
    private static bool MayFinishWithout(IOperation statement, System.Func<IOperation, bool> runs, System.Func<IOperation, bool> isGuard)
    {
        if (!runs(statement))
        {
            return statement is not (IReturnOperation or IThrowOperation or IExpressionStatementOperation { Operation: IThrowOperation });
        }

        return statement switch
        {
            IBlockOperation block => block.Operations.All(s => MayFinishWithout(s, runs, isGuard)),
            IConditionalOperation conditional => !runs(conditional.Condition)
                && !isGuard(conditional.Condition)
                && (MayFinishWithout(conditional.WhenTrue, runs, isGuard)
                    || conditional.WhenFalse is null
                    || MayFinishWithout(conditional.WhenFalse, runs, isGuard)),
            ISwitchOperation switchStatement => !runs(switchStatement.Value)
                && (!switchStatement.Cases.Any(c => c.Clauses.Any(clause => clause.CaseKind == CaseKind.Default))
                    || switchStatement.Cases.Any(c => c.Body.All(s => MayFinishWithout(s, runs, isGuard)))),
            ITryOperation tryStatement => (tryStatement.Finally is null || !runs(tryStatement.Finally))
                && MayFinishWithout(tryStatement.Body, runs, isGuard),
            _ => false,
        };
    }
}
