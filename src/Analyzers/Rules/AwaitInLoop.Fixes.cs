using System.Collections.Generic;
using System.Linq;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp.Syntax;
using Microsoft.CodeAnalysis.Operations;
using TplPractices.Analyzers.Internals;

namespace TplPractices.Analyzers.Rules;

/// <summary>TPL0005: which rewrite keeps the behaviour, decided here for the analyzer and the fixer alike.</summary>
internal sealed partial class AwaitInLoop
{
    /// <summary>The rewrite the fixer may apply, or null where none keeps the behaviour (and always for case (c)).</summary>
    public string? Fix(Context context) => Kind switch
    {
        Case.SynchronousWork => LoopToMove(context) is not null ? FixMoveLoop : null,
        Case.AlreadyCompleted => CanUseValue(context) ? FixUseValue : null,
        _ => null,
    };

    /// <summary>
    /// What the fixer rewrites, as the diagnostic's additional locations, so that it does not classify the await again:
    /// for a moved loop the loop, the inlined work and the Task.Run call; for a used value <see cref="ValueParts"/>.
    /// </summary>
    public IEnumerable<Location>? Parts(string? fix, Context context) => fix switch
    {
        FixMoveLoop when LoopToMove(context) is { } loop && InlinedWork() is { } work =>
            new[] { loop.Syntax.GetLocation(), work.GetLocation(), Task.Syntax.GetLocation() },
        FixUseValue => ValueParts(Await, Value),
        _ => null,
    };

    /// <summary>The await a completed value takes the place of, then the value where the task gives one.</summary>
    public static IEnumerable<Location> ValueParts(IAwaitOperation await, IOperation? value) =>
        value is null ? new[] { await.Syntax.GetLocation() } : new[] { await.Syntax.GetLocation(), value.Syntax.GetLocation() };

    /// <summary>
    /// Case (a): the outermost loop around the await that can run on the thread pool as a whole, or null.
    /// Inner loops are tried first; moving stops at the first loop that cannot move.
    /// </summary>
    public ILoopOperation? LoopToMove(Context context)
    {
        if (InlinedWork() is null
            || Task is not IInvocationOperation { TargetMethod.Name: "Run", Arguments.Length: 1 } run
            || !SymbolEqualityComparer.Default.Equals(run.TargetMethod.ContainingType, context.TaskType))
        {
            return null;
        }

        ILoopOperation? chosen = null;
        for (var current = Await.Parent; current is not null; current = current.Parent)
        {
            if (current.Kind is OperationKind.AnonymousFunction or OperationKind.LocalFunction)
            {
                break;
            }

            if (current is ILoopOperation loop)
            {
                if (!CanMove(loop, context))
                {
                    break;
                }

                chosen = loop;
            }
        }

        return chosen;
    }

    /// <summary>
    /// The work the Task.Run delegate does, to put where the await was: the lambda's expression, or its
    /// block of statements when the await is a statement of its own.
    /// </summary>
    public SyntaxNode? InlinedWork()
    {
        if (Task is not IInvocationOperation { Arguments.Length: 1 } call
            || call.Arguments[0].Value.WithoutImplicitConversions() is not IDelegateCreationOperation { Target: IAnonymousFunctionOperation { Symbol.IsAsync: false } lambda }
            || lambda.Syntax is not AnonymousFunctionExpressionSyntax syntax)
        {
            return null;
        }

        if (syntax.ExpressionBody is { } expression)
        {
            // A Func<T> whose expression converts to T would change type once inlined.
            // A statement keeps only what is valid as a statement: "Work(i);" but not "i + 1;".
            var returned = lambda.Body.Operations.FirstOrDefault() as IReturnOperation;
            return !expression.DeclaresVariables()
                && returned?.ReturnedValue is not IConversionOperation { IsImplicit: true, Conversion.IsIdentity: false }
                && (Await.Parent is not IExpressionStatementOperation || IsStatementExpression(expression))
                    ? expression
                    : null;
        }

        return syntax.Block is { } block
            && Await.Parent is IExpressionStatementOperation
            && lambda.Symbol.ReturnsVoid
            && !block.DescendantNodes().Any(n => n is ReturnStatementSyntax or VariableDeclaratorSyntax or LocalFunctionStatementSyntax)
            && !block.DeclaresVariables()
                ? block
                : null;
    }

    /// <summary>
    /// A loop can move into one Task.Run when the move changes nothing but the thread: this is its only
    /// await, it has no return, yield or goto, and everything it does outside the inlined work is local
    /// arithmetic and control flow. No calls or property reads, which could need the original thread; no
    /// fields, which code on the original context could read or write while the loop runs on the pool.
    /// </summary>
    private bool CanMove(ILoopOperation loop, Context context)
    {
        if (loop is IForEachLoopOperation { IsAsynchronous: true }
            || loop is IForEachLoopOperation { Collection: var collection } && !IsPlainValue(collection.WithoutImplicitConversions()))
        {
            return false;
        }

        var stack = new Stack<IOperation>(loop.ChildOperations);
        while (stack.Count > 0)
        {
            var operation = stack.Pop();
            if (operation == Await)
            {
                continue;
            }

            if (!IsInert(operation, loop))
            {
                return false;
            }

            foreach (var child in operation.ChildOperations)
            {
                stack.Push(child);
            }
        }

        return true;
    }

    private static bool IsInert(IOperation operation, ILoopOperation loop) => operation switch
    {
        IBlockOperation or IExpressionStatementOperation or IVariableDeclarationGroupOperation or IVariableDeclarationOperation
            or IVariableInitializerOperation or ILiteralOperation or IParenthesizedOperation or IDefaultValueOperation
            or IArrayElementReferenceOperation or IConditionalOperation or IEmptyOperation => true,
        ILoopOperation inner => inner is not IForEachLoopOperation { IsAsynchronous: true }
            && (inner is not IForEachLoopOperation each || IsPlainValue(each.Collection.WithoutImplicitConversions())),
        IVariableDeclaratorOperation declarator => !declarator.Symbol.IsRef && !declarator.Symbol.Type.IsRefLikeType,
        ILocalReferenceOperation local => IsCapturable(local.Local.Type, local.Local.IsRef)
            && (local.Local.DeclaringSyntaxReferences.FirstOrDefault()?.GetSyntax() is not VariableDeclaratorSyntax { Initializer: null } declarator
                || loop.Syntax.Span.Contains(declarator.Span)),
        IParameterReferenceOperation parameter => IsCapturable(parameter.Parameter.Type, parameter.Parameter.RefKind != RefKind.None),
        IBinaryOperation binary => binary.OperatorMethod is null,
        IUnaryOperation unary => unary.OperatorMethod is null,
        IIncrementOrDecrementOperation step => step.OperatorMethod is null,
        ICompoundAssignmentOperation compound => compound.OperatorMethod is null,
        ISimpleAssignmentOperation assignment => !assignment.IsRef,
        IConversionOperation conversion => conversion.OperatorMethod is null,
        IBranchOperation branch => branch.BranchKind is BranchKind.Break or BranchKind.Continue,
        _ => false,
    };

    private static bool IsStatementExpression(ExpressionSyntax expression) =>
        expression is InvocationExpressionSyntax or AssignmentExpressionSyntax or ObjectCreationExpressionSyntax
            or PostfixUnaryExpressionSyntax or PrefixUnaryExpressionSyntax { OperatorToken.ValueText: "++" or "--" };

    /// <summary>Lambdas cannot capture ref locals, ref parameters or ref structs.</summary>
    private static bool IsCapturable(ITypeSymbol type, bool isRef) => !isRef && !type.IsRefLikeType;

    private static bool IsPlainValue(IOperation operation) =>
        operation is ILocalReferenceOperation or IParameterReferenceOperation;

    /// <summary>
    /// Case (b): the value can replace the await when something else in the function still awaits (else the
    /// method would be async without an await, warning CS1998), and a discarded value has no effect to lose. An
    /// await that this rule or TPL0014 may remove too (of a completed task, in a loop or not, or of a delegate task
    /// that only returns a value) does not count: the two fixes together would leave none. Nor does a body holding an
    /// #if: another build of the file (another OS, Debug or Release) may compile none of the other awaits.
    /// </summary>
    public bool CanUseValue(Context context)
    {
        if (Await.Syntax.EnclosingFunction()?.BodyOf()?.HasConditionalBranches() == true)
        {
            return false;
        }

        var function = Await.EnclosingFunction();
        var scope = function ?? Await.Root();
        var otherAwaits = scope.Descendants()
            .Where(o => o.EnclosingFunction() == function)
            .Any(o => o is IAwaitOperation other && other != Await && !MayBeRemoved(other, context)
                || o is IForEachLoopOperation { IsAsynchronous: true }
                || o is IUsingOperation { IsAsynchronous: true }
                || o is IUsingDeclarationOperation { IsAsynchronous: true });
        if (!otherAwaits)
        {
            return false;
        }

        if (Await.Parent is not IExpressionStatementOperation || Value is null)
        {
            return Value is not null || Await.Parent is IExpressionStatementOperation;
        }

        // "await Task.FromResult(x);": keep x only if it does something as a statement, drop it if it is a plain value.
        var value = Value.WithoutImplicitConversions();
        return IsKeptAsStatement(value) || IsDroppedAsStatement(value);
    }

    /// <summary>A discarded value that does nothing, so the fix drops it with its await.</summary>
    public static bool IsDroppedAsStatement(IOperation value) =>
        value is ILiteralOperation or ILocalReferenceOperation or IParameterReferenceOperation || value.ConstantValue.HasValue;

    private static bool MayBeRemoved(IAwaitOperation await, Context context) =>
        AlreadyCompleted(await, context) is not null
        || UnderConfigureAwait(await.Operation.WithoutImplicitConversions(), context) is IInvocationOperation call && AvailableValue.MayReturnOnlyAValue(call, context);

    /// <summary>A discarded value that does something, so the fix keeps it as a statement of its own.</summary>
    public static bool IsKeptAsStatement(IOperation value) =>
        value is IInvocationOperation or IObjectCreationOperation or ISimpleAssignmentOperation or ICompoundAssignmentOperation
            or IIncrementOrDecrementOperation;
}
