using System;
using System.Collections.Generic;
using System.Linq;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp;
using Microsoft.CodeAnalysis.CSharp.Syntax;
using Microsoft.CodeAnalysis.Operations;
using TplPractices.Analyzers.Internals;

namespace TplPractices.Analyzers.Rules;

/// <summary>
/// TPL0020's questions: is a local CancellationTokenSource one that holds a timer (a delay given to its constructor,
/// or CancelAfter) or a registration on a parent token (CreateLinkedTokenSource), does nothing dispose it, and can a
/// <c>using</c> dispose it at the end of its block without cutting short anything that still uses it.
/// </summary>
internal static class DisposeTokenSource
{
    /// <summary><c>using var source = …;</c> (C# 8 and later).</summary>
    public const string FixUsingDeclaration = "UsingDeclaration";

    /// <summary><c>using (var source = …) { the rest of the block }</c>, before C# 8.</summary>
    public const string FixUsingStatement = "UsingStatement";

    /// <summary>A source nothing holds (<c>new CancellationTokenSource(t).Token</c>): <c>using var source = …;</c> before its statement.</summary>
    public const string FixHoldInUsing = "HoldInUsing";

    public const string Timer = "a timer";

    public const string Registration = "a registration on its parent token";

    public const string TimerAndRegistration = "a timer and a registration on its parent token";

    internal sealed class Context
    {
        private Context(INamedTypeSymbol source) => Source = source;

        public INamedTypeSymbol Source { get; }

        public static Context? TryCreate(Compilation compilation) =>
            compilation.GetTypeByMetadataName("System.Threading.CancellationTokenSource") is { } source ? new Context(source) : null;
    }

    /// <summary>A source nothing disposes: its name (or its creation, where nothing holds it), what it holds, and the rewrite (null where none is safe).</summary>
    public sealed class Site
    {
        public Site(string name, string holds, string? fix)
        {
            Name = name;
            Holds = holds;
            Fix = fix;
        }

        public string Name { get; }

        public string Holds { get; }

        public string? Fix { get; }
    }

    /// <summary>
    /// The site of <paramref name="created"/> (a <c>new CancellationTokenSource(…)</c> or a <c>CreateLinkedTokenSource</c>
    /// call) where it initializes a local that nothing disposes and that does not leave the function (not returned, stored
    /// or passed, where it would be someone else's to dispose), or where nothing holds it at all: only its token is read.
    /// </summary>
    public static Site? Analyze(IOperation created, Context context)
    {
        if (TokenRead(created) is { } unheld)
        {
            return Unheld(created, unheld);
        }

        var held = created.WithImplicitConversionsAround();
        var holds = Holds(created);
        if (held.Parent is IConditionalOperation { IsRef: false } choice && choice.Condition != held)
        {
            // var source = token.CanBeCanceled ? CreateLinkedTokenSource(token) : new CancellationTokenSource(): the local
            // is one site, at its first creation, where every branch makes a new source (a shared one must not be disposed).
            if (ChoiceOfSources(choice, created, context.Source, out holds) is not { } whole)
            {
                return null;
            }

            held = whole;
        }

        // Made in the local's initializer, or written into a local declared without a source (`CancellationTokenSource
        // source; if (…) source = new(…); else source = …;`), which is reported without a fix.
        var writtenLocal = held.Parent is ISimpleAssignmentOperation { Target: ILocalReferenceOperation target, Parent: IExpressionStatementOperation } write && write.Value == held
            ? target.Local
            : null;
        var assigned = writtenLocal is not null;
        var declarator = writtenLocal is not null
            ? created.Root().DeclaratorOf(writtenLocal)
            : (held.Parent as IVariableInitializerOperation)?.Parent as IVariableDeclaratorOperation;
        if (declarator is not { Symbol: var local }
            || (assigned && declarator.Initializer is { Value.ConstantValue: not { HasValue: true, Value: null } })
            || declarator.Parent is not IVariableDeclarationOperation { Parent: IVariableDeclarationGroupOperation group } declaration
            || group.Parent is IUsingDeclarationOperation or IUsingOperation
            || declaration.Parent is IUsingOperation)
        {
            return null;
        }

        // A local written after its declaration (the writes above, or one that starts with a source of its own and is
        // given new ones later, `var source = new CancellationTokenSource(); source = new(500);`, one site at the
        // declaration's source) takes no using: it is reported without a fix.
        IOperation? firstWrite = null;
        var nullTested = false;

        var tokenMayOutlive = false;
        var handedOut = false;
        var registers = false;
        var worksWithToken = false;
        var disposed = false;
        var captured = false;
        var function = created.EnclosingFunction();
        foreach (var reference in created.Root().Descendants())
        {
            if (reference is not ILocalReferenceOperation { Local: var used } || !SymbolEqualityComparer.Default.Equals(used, local))
            {
                continue;
            }

            // Captured: the lambda or local function may run after the block ends, so no using can go in; but where
            // nothing there disposes it either, nothing ever does.
            captured |= reference.EnclosingFunction() != function;

            if (reference.Parent is ISimpleAssignmentOperation written && written.Target == reference)
            {
                // Every write puts a new source there, once each time the declaration runs: one site, at the first.
                if (written.Parent is not IExpressionStatementOperation || !MakesSources(written.Value, context.Source, out var writtenHolds) || InALoopBelow(written, group))
                {
                    return null;
                }

                firstWrite ??= written;
                holds = Either(holds, writtenHolds);
                continue;
            }

            // A null test (`source != null`, `source is null`, the reads of a `: null` choice) neither keeps nor passes it.
            if (IsNullTest(reference))
            {
                nullTested = true;
                continue;
            }

            switch (reference.Parent)
            {
                case IInvocationOperation { TargetMethod.Name: "Dispose" or "DisposeAsync" } call when call.Instance == reference:
                    disposed = true;
                    break;
                case IInvocationOperation { TargetMethod.Name: "CancelAfter" } call when call.Instance == reference:
                    holds = holds is Registration or TimerAndRegistration ? TimerAndRegistration : Timer;
                    break;
                case IInvocationOperation { TargetMethod.Name: "Cancel" or "CancelAsync" or "TryReset" } call when call.Instance == reference:
                    break;
                case IPropertyReferenceOperation { Property.Name: "IsCancellationRequested" }:
                    break;
                case IPropertyReferenceOperation { Property.Name: "Token" } token when token.Instance == reference:
                    // A token the function hands out (returned, kept in a field, given to a new object) outlives it:
                    // no using can end it. A time-out is meant to fire later and then lets its timer go (see below).
                    if (reference.EnclosingFunction() == function && LeavesTheFunction(token))
                    {
                        handedOut = true;
                        worksWithToken = true;
                        tokenMayOutlive = true;
                        break;
                    }

                    var registration = IsRegisteredOn(token);
                    registers |= registration;
                    worksWithToken |= !registration;
                    tokenMayOutlive |= captured || MayOutliveTheStatement(token, function);
                    break;
                default:
                    return null; // Returned, stored, passed, written or disposed some other way: not this function's to dispose.
            }
        }

        // A dispose behind a null test (`if (source != null) source.Dispose();`) is on every path the source exists on.
        // A source whose token only registers callbacks (`source.Token.Register(OnTimeout)`) is a timer, or a parent's
        // watch, on purpose: its callbacks need it until it fires, and disposing it would stop them.
        // A time-out whose token is handed out is let go when it fires; a parent's registration stays until the parent
        // ends, often a long-lived token (the caller's, the host's): that leak is reported, without a fix.
        var hasWrites = firstWrite is not null;
        if (holds is null || (handedOut && holds == Timer) || (registers && !worksWithToken) || (disposed && (captured || hasWrites || nullTested || DisposedOnEveryPath(group, local))) || (assigned && firstWrite != held.Parent))
        {
            return null;
        }

        var fix = hasWrites || captured || tokenMayOutlive || declaration.Declarators.Length != 1 || (group.Syntax as LocalDeclarationStatementSyntax ?? group.Syntax.Parent as LocalDeclarationStatementSyntax) is not { } statement
            ? null
            : UsingRewrite(statement);
        return new Site(local.Name, holds, fix);
    }

    /// <summary>
    /// Whether the token's value leaves the function: returned, written to a field or property, or given to new objects
    /// or tuples, in any nesting, that are (<c>return new Entry(now, source.Token);</c>); through a local that holds it;
    /// or as a parent of a linked source whose token leaves.
    /// </summary>
    private static bool LeavesTheFunction(IOperation token)
    {
        // A parent of `CreateLinkedTokenSource(caller, limit.Token)` goes where the linked token goes: the time-out is
        // meant to cancel the token handed out.
        if (LinkedInto(token) is { } linked)
        {
            return TokenRead(linked) is { } linkedToken
                ? LeavesTheFunction(linkedToken)
                : InitializedLocal(linked) is { } holder
                    && ReadsAfter(linked, holder).Any(read => read.EnclosingFunction() == linked.EnclosingFunction() && TokenRead(read) is { } held && LeavesTheFunction(held));
        }

        // Handed out through a local (`var token = source.Token; … return token;`, `token = linked.Token;`): it leaves
        // as surely as `return source.Token;` does, and the page treats the two alike.
        return (InitializedLocal(token) ?? AssignedVariable(token) as ILocalSymbol) is { } local
            ? ReadsAfter(token, local).Any(read => read.EnclosingFunction() == token.EnclosingFunction() && LeavesTheFunctionAsIs(read))
            : LeavesTheFunctionAsIs(token);
    }

    /// <summary>
    /// The reads of <paramref name="local"/> after <paramref name="near"/>. Only those count: a local read in its own
    /// initializer, or before its declaration (code being typed), would lead the linked-source walks back where they
    /// started.
    /// </summary>
    private static IEnumerable<ILocalReferenceOperation> ReadsAfter(IOperation near, ILocalSymbol local) =>
        near.Root().Descendants().OfType<ILocalReferenceOperation>()
            .Where(read => SymbolEqualityComparer.Default.Equals(read.Local, local) && read.Syntax.SpanStart >= near.Syntax.Span.End);

    /// <summary>The source's <c>Token</c> read right at <paramref name="source"/> (<c>source.Token</c>, <c>Create…(…).Token</c>); null otherwise.</summary>
    private static IPropertyReferenceOperation? TokenRead(IOperation source) =>
        source.WithImplicitConversionsAround() is { Parent: IPropertyReferenceOperation { Property.Name: "Token" } token } read && token.Instance == read
            ? token
            : null;

    /// <summary>The local <paramref name="value"/> initializes (<c>var linked = value;</c>); null otherwise.</summary>
    private static ILocalSymbol? InitializedLocal(IOperation value) =>
        value.WithImplicitConversionsAround().Parent is IVariableInitializerOperation { Parent: IVariableDeclaratorOperation { Symbol: { RefKind: RefKind.None } local } }
            ? local
            : null;

    /// <summary>The <c>CreateLinkedTokenSource</c> call the token is a parent of, directly or in its <c>params</c> array; null otherwise.</summary>
    private static IInvocationOperation? LinkedInto(IOperation token)
    {
        var value = token.WithImplicitConversionsAround();
        if (value.Parent is IArrayInitializerOperation { Parent: IArrayCreationOperation array })
        {
            value = array.WithImplicitConversionsAround();
        }

        return value.Parent is IArgumentOperation { Parent: IInvocationOperation { TargetMethod: { Name: "CreateLinkedTokenSource", ContainingType.Name: "CancellationTokenSource" } } call } ? call : null;
    }

    private static bool LeavesTheFunctionAsIs(IOperation token)
    {
        var value = token.WithImplicitConversionsAround();
        while (value.Parent is IArgumentOperation { Parent: IObjectCreationOperation } or ITupleOperation)
        {
            value = (value.Parent is IArgumentOperation argument ? argument.Parent! : value.Parent).WithImplicitConversionsAround();
        }

        return value.Parent switch
        {
            IReturnOperation => true,
            ISimpleAssignmentOperation { Target: IFieldReferenceOperation or IPropertyReferenceOperation } store => store.Value == value,
            _ => false,
        };
    }

    /// <summary>The token is the receiver of <c>Register</c> or <c>UnsafeRegister</c>: it only registers a callback.</summary>
    private static bool IsRegisteredOn(IOperation token) =>
        token.Parent is IInvocationOperation { TargetMethod.Name: "Register" or "UnsafeRegister" } call && call.Instance == token;

    /// <summary>
    /// The outermost <c>?:</c> around <paramref name="created"/> (with its conversions) where every branch, however
    /// nested, makes a new source or is <c>null</c>, and <paramref name="created"/> is the first source; what any of them
    /// holds; null otherwise.
    /// </summary>
    private static IOperation? ChoiceOfSources(IConditionalOperation choice, IOperation created, INamedTypeSymbol source, out string? holds)
    {
        while (choice.WithImplicitConversionsAround() is { Parent: IConditionalOperation { IsRef: false } outer } inner && outer.Condition != inner)
        {
            choice = outer;
        }

        return MakesSources(choice, source, out holds) && FirstSource(choice) == created ? choice.WithImplicitConversionsAround() : null;
    }

    private static IOperation? FirstSource(IOperation value) => value.WithoutImplicitConversions() switch
    {
        IConditionalOperation { WhenFalse: { } whenFalse } choice => FirstSource(choice.WhenTrue) ?? FirstSource(whenFalse),
        IObjectCreationOperation or IInvocationOperation => value.WithoutImplicitConversions(),
        _ => null,
    };

    /// <summary>
    /// Whether <paramref name="value"/> makes a new source on every path (a creation, <c>CreateLinkedTokenSource</c>,
    /// or a <c>?:</c> of such values and <c>null</c>, however nested); what any of them holds.
    /// </summary>
    private static bool MakesSources(IOperation value, INamedTypeSymbol source, out string? holds)
    {
        holds = null;
        var stack = new System.Collections.Generic.Stack<IOperation>();
        stack.Push(value);
        while (stack.Count > 0)
        {
            var branch = stack.Pop().WithoutImplicitConversions();
            if (branch is IConditionalOperation { IsRef: false, WhenFalse: { } whenFalse } nested)
            {
                stack.Push(whenFalse);
                stack.Push(nested.WhenTrue);
            }
            else if (branch.ConstantValue is { HasValue: true, Value: null })
            {
                // `: null`: no source on that path, and a using takes null.
            }
            else if ((branch is IObjectCreationOperation creation && SymbolEqualityComparer.Default.Equals(creation.Type, source))
                || (branch is IInvocationOperation { TargetMethod.Name: "CreateLinkedTokenSource" } linked && SymbolEqualityComparer.Default.Equals(linked.TargetMethod.ContainingType, source)))
            {
                holds = Either(holds, Holds(branch));
            }
            else
            {
                return false;
            }
        }

        return true;
    }

    /// <summary>Whether a loop or a lambda stands between the write and the block that declares the local: it would write again, over a source it leaves.</summary>
    private static bool InALoopBelow(IOperation write, IOperation declaration)
    {
        for (var current = write.Parent; current is not null && current != declaration.Parent; current = current.Parent)
        {
            if (current.Kind is OperationKind.Loop or OperationKind.AnonymousFunction or OperationKind.LocalFunction)
            {
                return true;
            }
        }

        return false;
    }

    private static bool IsNullTest(IOperation reference) => reference.WithImplicitConversionsAround().Parent switch
    {
        IBinaryOperation { OperatorKind: BinaryOperatorKind.Equals or BinaryOperatorKind.NotEquals, OperatorMethod: null } test => IsNull(test.LeftOperand) || IsNull(test.RightOperand),
        IIsPatternOperation { Pattern: var pattern } => (pattern is INegatedPatternOperation negated ? negated.Pattern : pattern) is IConstantPatternOperation { Value: var tested } && IsNull(tested),
        _ => false,
    };

    private static bool IsNull(IOperation operation) => operation.WithoutImplicitConversions().ConstantValue is { HasValue: true, Value: null };

    private static string? Either(string? one, string? other) =>
        one is null || one == other ? other : other is null ? one : TimerAndRegistration;

    /// <summary>What a new source holds: a parent registration (linked), a timer (a finite delay), or nothing (null).</summary>
    private static string? Holds(IOperation created) =>
        created is IInvocationOperation ? Registration : HoldsTimer((IObjectCreationOperation)created) ? Timer : null;

    /// <summary>
    /// <c>new CancellationTokenSource(t).Token</c> or <c>CreateLinkedTokenSource(p).Token</c>: nothing can ever dispose
    /// the source. The fix holds it in a using variable declared before the statement, where its token does not outlive
    /// the statement and moving the creation there changes nothing the statement does before it.
    /// </summary>
    private static Site? Unheld(IOperation created, IOperation token)
    {
        if (Holds(created) is not { } holds)
        {
            return null;
        }

        // Only where the work that uses the token has ended with its statement is the source sure to be left with its
        // timer or registration; a token handed on (to a change token, to work nobody awaits) may be meant to fire later.
        // A token written into a variable (token = Create…(token, _stopping).Token;) counts where the variable's reads do.
        var function = created.EnclosingFunction();
        var variable = AssignedVariable(token);
        if (variable is null ? MayOutliveTheStatement(token, function) : AssignedTokenMayOutlive(variable, created, function))
        {
            // A linked token handed out (`return CreateLinkedTokenSource(caller, other).Token;`) leaves its registration
            // on the parent for good, as a linked local handed out does: reported, without a fix.
            return holds == Registration && LeavesTheFunction(token) ? new Site(CreatedName(created), holds, null) : null;
        }

        // Before C# 8 a using block holds the statement, and a local it declares is declared before the block.
        var fix = variable is null
            && StatementToHoldBefore(created) is { } statement
            && (UsingPlacement.DeclarationFits(statement) || UsingPlacement.BlockFits(statement, created.SemanticModel))
                ? FixHoldInUsing
                : null;
        return new Site(CreatedName(created), holds, fix);
    }

    private static string CreatedName(IOperation created) =>
        created is IInvocationOperation ? "CancellationTokenSource.CreateLinkedTokenSource(…)" : "new CancellationTokenSource(…)";

    /// <summary>The local or parameter a token is written into by a statement of its own (<c>token = source.Token;</c>).</summary>
    private static ISymbol? AssignedVariable(IOperation token) =>
        token.WithImplicitConversionsAround() is { Parent: ISimpleAssignmentOperation { Parent: IExpressionStatementOperation } assignment } value && assignment.Value == value
            ? assignment.Target switch
            {
                ILocalReferenceOperation { Local.RefKind: RefKind.None } local => local.Local,
                IParameterReferenceOperation { Parameter.RefKind: RefKind.None } parameter => parameter.Parameter,
                _ => null,
            }
            : null;

    /// <summary>
    /// Whether a read of the variable a token was written into may outlive its statement, as <see cref="HeldTokenMayOutlive"/>
    /// asks of a local that holds one. A write puts another token there, and a read inside the source's own creation is
    /// the token before, which the source links to: neither reads this one.
    /// </summary>
    private static bool AssignedTokenMayOutlive(ISymbol variable, IOperation created, IOperation? function)
    {
        foreach (var operation in created.Root().Descendants())
        {
            var symbol = operation switch
            {
                ILocalReferenceOperation local => (ISymbol)local.Local,
                IParameterReferenceOperation parameter => parameter.Parameter,
                _ => null,
            };
            if (SymbolEqualityComparer.Default.Equals(symbol, variable)
                && !created.Syntax.Span.Contains(operation.Syntax.Span)
                && !(operation.Parent is ISimpleAssignmentOperation { Parent: IExpressionStatementOperation } write && write.Target == operation)
                && (operation.EnclosingFunction() != function || MayOutliveTheStatement(operation, function)))
            {
                return true;
            }
        }

        return false;
    }

    /// <summary>
    /// The statement before which a using declaration can take an unheld source: an expression, return or local
    /// declaration statement, a using one too (or an <c>if</c>, the source in its condition, or a <c>using</c> statement,
    /// the source in its resource: <c>using (var linked = Create…(token, new CancellationTokenSource(t).Token))</c>)
    /// standing in a block, the source on its
    /// unconditional path in the same function, and nothing before it in the statement but reads. The source then comes
    /// into being where it did, as far as anything can tell: a call or an await before it would start its timer earlier.
    /// Or the expression body of a method, local function or lambda, which the fix makes a block (<see
    /// cref="ExpressionBodyOf"/>).
    /// </summary>
    public static SyntaxNode? StatementToHoldBefore(IOperation created)
    {
        var operation = created;
        for (; operation.Parent is { } parent && operation.Syntax is not StatementSyntax; operation = parent)
        {
            if (ExpressionBodyOf(parent) is { } body)
            {
                return RunsCodeBefore(parent, created.Syntax.SpanStart) ? null : body;
            }

            if (parent is IUsingOperation { Resources: var resources } && resources == operation)
            {
                continue;
            }

            if ((parent is IConditionalOperation conditional && conditional.Condition != operation)
                || parent.Kind is OperationKind.Coalesce or OperationKind.ConditionalAccess or OperationKind.AnonymousFunction or OperationKind.LocalFunction
                    or OperationKind.SwitchExpression or OperationKind.Loop or OperationKind.Using or OperationKind.Lock or OperationKind.Try
                || parent is IBinaryOperation { OperatorKind: BinaryOperatorKind.ConditionalAnd or BinaryOperatorKind.ConditionalOr } binary && binary.RightOperand == operation)
            {
                return null;
            }
        }

        var statement = operation.Syntax;
        if (statement is not (ExpressionStatementSyntax or ReturnStatementSyntax or LocalDeclarationStatementSyntax or IfStatementSyntax or UsingStatementSyntax)
            || statement.Parent is not (BlockSyntax or GlobalStatementSyntax))
        {
            return null;
        }

        return RunsCodeBefore(operation, created.Syntax.SpanStart) ? null : statement;
    }

    /// <summary>
    /// The expression body the compiler's implicit return or statement stands for (<c>async Task&lt;string&gt; M() =&gt;
    /// await F(…);</c>, a lambda's <c>async () =&gt; await F(…)</c>); null for anything else.
    /// </summary>
    public static ExpressionSyntax? ExpressionBodyOf(IOperation operation) =>
        operation is IReturnOperation { IsImplicit: true } or IExpressionStatementOperation { IsImplicit: true }
        && operation.Syntax is ExpressionSyntax { Parent: ArrowExpressionClauseSyntax { Parent: MethodDeclarationSyntax or LocalFunctionStatementSyntax } or LambdaExpressionSyntax } body
        && (body.Parent is not LambdaExpressionSyntax lambda || lambda.ExpressionBody == body)
            ? body
            : null;

    /// <summary>
    /// Whether what <paramref name="operation"/> evaluates before <paramref name="start"/> (source order is evaluation order
    /// in the statements taken) is more than reads. Another source made there counts as a read: it takes a using before
    /// the statement too, and making one does nothing the other could see.
    /// </summary>
    private static bool RunsCodeBefore(IOperation operation, int start)
    {
        if (operation.Syntax.SpanStart >= start)
        {
            return false;
        }

        if (operation.Syntax.Span.End <= start)
        {
            return !IsReadTree(operation);
        }

        foreach (var child in operation.ChildOperations)
        {
            if (RunsCodeBefore(child, start))
            {
                return true;
            }
        }

        return false;
    }

    private static bool IsReadTree(IOperation operation) => operation switch
    {
        IObjectCreationOperation or IInvocationOperation { TargetMethod.Name: "CreateLinkedTokenSource" } when operation.Type?.Name == "CancellationTokenSource" => true,

        // What other rules' fixes turn into reads counts as one already (TPL0003's cached task for a Task.FromResult,
        // TPL0014's value for a Task.Run of one or an await of a completed task), so which fix runs first does not decide
        // this one's: dotnet format gives the same text on every run.
        IInvocationOperation { TargetMethod.ContainingType.Name: "Task" or "ValueTask" or "TaskFactory" } call =>
            (call.TargetMethod.Name is "FromResult" or "Run" or "StartNew" or "ConfigureAwait"
                || (call.TargetMethod.Name == "Delay" && call.Arguments.Length == 1 && call.Arguments[0].Value.ConstantValue is { HasValue: true, Value: 0 }))
            && call.ChildOperations.All(IsReadTree),
        IDelegateCreationOperation { Target: IAnonymousFunctionOperation lambda } =>
            lambda.Body.Operations.Length == 1 && lambda.Body.Operations[0] is IReturnOperation { ReturnedValue: { } value } && IsReadTree(value),
        _ => IsRead(operation) && operation.ChildOperations.All(IsReadTree),
    };

    /// <summary>
    /// A read: a local, parameter, field, property, <c>this</c>, constant, or a built-in operator or conversion. A getter
    /// runs code, but no more than a read's worth; a call or an await may take long enough to matter to a timer, and so
    /// may a task's <c>Result</c> (it waits) or a <c>Lazy</c>'s <c>Value</c> (it may run the factory).
    /// </summary>
    private static bool IsRead(IOperation operation) =>
        operation.Kind is OperationKind.LocalReference or OperationKind.ParameterReference or OperationKind.FieldReference or OperationKind.InstanceReference
            or OperationKind.Literal or OperationKind.DefaultValue or OperationKind.TypeOf or OperationKind.NameOf or OperationKind.Argument
            or OperationKind.VariableDeclarator or OperationKind.VariableInitializer or OperationKind.Await
        || operation.ConstantValue.HasValue
        || operation is IPropertyReferenceOperation { Property: var property } && !(property.Name is "Result" or "Value" && property.ContainingType.Name is "Task" or "ValueTask" or "Lazy")
        || operation is IConversionOperation { Conversion.IsUserDefined: false } or IBinaryOperation { OperatorMethod: null } or IUnaryOperation { OperatorMethod: null };

    /// <summary>
    /// Whether a statement after the declaration, in its block, disposes the source whichever way it runs (in a
    /// <c>finally</c>, both branches of an <c>if</c>, or plainly), with no <c>return</c>, <c>throw</c> or <c>goto</c>
    /// before it that would leave the block first. A dispose on some paths only (one branch, or after an early return)
    /// leaves the timer or registration held on the others. A declaration outside a block counts as disposed.
    /// </summary>
    private static bool DisposedOnEveryPath(IOperation declaration, ILocalSymbol local)
    {
        if (declaration.Parent is not IBlockOperation block)
        {
            return true;
        }

        bool IsDispose(IOperation statement) =>
            statement is IExpressionStatementOperation { Operation: IInvocationOperation { TargetMethod.Name: "Dispose", Instance: ILocalReferenceOperation { Local: var held } } }
            && SymbolEqualityComparer.Default.Equals(held, local);

        for (var i = block.Operations.IndexOf(declaration) + 1; i > 0 && i < block.Operations.Length; i++)
        {
            var statement = block.Operations[i];
            if (ControlPaths.DoesOnEveryPath(statement, IsDispose))
            {
                return true;
            }

            if (MayLeave(statement, IsDispose))
            {
                return false;
            }
        }

        return false;
    }

    /// <summary>
    /// A <c>return</c>, <c>yield break</c>, <c>throw</c> or <c>goto</c> in the statement, or a <c>break</c> or
    /// <c>continue</c> of a loop around it (one of a loop or <c>switch</c> inside it stays in the block), that leaves
    /// without disposing first (<c>if (done) { source.Dispose(); return; }</c> and <c>catch { source.Dispose(); throw;
    /// }</c> dispose on their way out); lambdas and local functions in it do not count.
    /// </summary>
    private static bool MayLeave(IOperation statement, System.Func<IOperation, bool> isDispose) =>
        OwnOperations.Any(statement, operation => (operation.Kind is OperationKind.Return or OperationKind.YieldBreak or OperationKind.Throw
            || (operation.Kind == OperationKind.Branch && ((IBranchOperation)operation).BranchKind switch
            {
                BranchKind.GoTo => true,
                BranchKind.Break => !HasTargetWithin(operation, statement, orSwitch: true),
                BranchKind.Continue => !HasTargetWithin(operation, statement, orSwitch: false),
                _ => false,
            }))
            && !DisposedBefore(operation, statement, isDispose));

    /// <summary>Whether a statement before the exit, in a block around it within the statement, disposes on every path.</summary>
    private static bool DisposedBefore(IOperation exit, IOperation statement, System.Func<IOperation, bool> isDispose)
    {
        for (var current = exit; current != statement && current.Parent is { } parent; current = parent)
        {
            if (parent is IBlockOperation block)
            {
                foreach (var earlier in block.Operations)
                {
                    if (earlier == current)
                    {
                        break;
                    }

                    if (ControlPaths.DoesOnEveryPath(earlier, isDispose))
                    {
                        return true;
                    }
                }
            }
        }

        return false;
    }

    /// <summary>Whether the loop (or <c>switch</c>) a <c>break</c> or <c>continue</c> ends is the statement or inside it.</summary>
    private static bool HasTargetWithin(IOperation branch, IOperation statement, bool orSwitch)
    {
        for (var current = branch.Parent; current is not null; current = current.Parent)
        {
            if (current.Kind == OperationKind.Loop || (orSwitch && current.Kind == OperationKind.Switch))
            {
                return true;
            }

            if (current == statement)
            {
                return false;
            }
        }

        return false;
    }

    /// <summary>
    /// Whether the token, read at <paramref name="token"/>, may still be in use when the statement ends: anything but an
    /// argument of a call that is awaited in place, waited for in place (<c>Wait()</c>, <c>Result</c>,
    /// <c>GetAwaiter().GetResult()</c>) or returns a plain value, a read of its state, or a local that holds it and is
    /// read only so within <paramref name="function"/>.
    /// </summary>
    private static bool MayOutliveTheStatement(IOperation token, IOperation? function)
    {
        if (LinkedInto(token) is { } linked)
        {
            return LinkedSourceMayOutlive(linked, function);
        }

        if (InitializedLocal(token) is { } held)
        {
            return HeldTokenMayOutlive(held, token, function);
        }

        switch (token.WithImplicitConversionsAround().Parent)
        {
            case IInvocationOperation { TargetMethod.Name: "ThrowIfCancellationRequested" }:
            case IPropertyReferenceOperation { Property.Name: "IsCancellationRequested" or "CanBeCanceled" }:
                return false;
            case IArgumentOperation { Parent: IInvocationOperation call }:
                // A synchronous call of the runtime's own (SemaphoreSlim.Wait, Stream.Read) is done with the token when it
                // returns; one of the user's may start work that keeps it (a void Start(token)), so it does not count.
                if ((call.TargetMethod.ReturnsVoid || call.Type?.SpecialType is not (SpecialType.None or SpecialType.System_Object))
                    && IsTheRuntimes(call.TargetMethod.ContainingNamespace))
                {
                    return false;
                }

                // Awaited in place, ConfigureAwait between: the work the token was given to has ended.
                var awaited = ConfiguredAwait.Around(call.WithImplicitConversionsAround()).WithImplicitConversionsAround();

                return awaited.Parent is not IAwaitOperation && !IsWaitedInPlace(awaited) && !IsEnumeratedInPlace(awaited);
            default:
                return true;
        }
    }

    /// <summary>
    /// A parent's token given to <c>CreateLinkedTokenSource</c> is in use while the linked source's token is: read
    /// where it is made, or through a local whose every read is its token (or a dispose) read within the function.
    /// </summary>
    private static bool LinkedSourceMayOutlive(IInvocationOperation linked, IOperation? function) =>
        TokenRead(linked) is { } token
            ? MayOutliveTheStatement(token, function)
            : InitializedLocal(linked) is not { } holder
                || ReadsAfter(linked, holder).Any(read => read.EnclosingFunction() != function || (TokenRead(read) is { } held
                    ? MayOutliveTheStatement(held, function)
                    : read.Parent is not IInvocationOperation { TargetMethod.Name: "Dispose" or "Cancel" } call || call.Instance != read));

    /// <summary>
    /// <c>var token = source.Token;</c>: every read of the local must keep the token in the statement, as a read of
    /// <c>source.Token</c> must; one in a lambda or local function, or a write, may outlive the block.
    /// </summary>
    private static bool HeldTokenMayOutlive(ILocalSymbol held, IOperation token, IOperation? function) =>
        ReadsAfter(token, held).Any(read => read.EnclosingFunction() != function || MayOutliveTheStatement(read, function));

    /// <summary>
    /// A sequence an <c>await foreach</c> enumerates where it is made (<c>in Read(token)</c>, <c>in
    /// items.WithCancellation(token)</c>): the loop disposes its enumerator when it ends, by any way out, so the work the
    /// token went to ends with the statement.
    /// </summary>
    private static bool IsEnumeratedInPlace(IOperation sequence) =>
        sequence.Parent is IForEachLoopOperation { IsAsynchronous: true } loop && loop.Collection == sequence;

    /// <summary>
    /// A task waited for where it is made: <c>.Wait()</c> without a time-out or token (either may return before the
    /// work ends), <c>.Result</c>, or <c>.GetAwaiter().GetResult()</c>.
    /// </summary>
    private static bool IsWaitedInPlace(IOperation task) => task.Parent switch
    {
        IInvocationOperation { TargetMethod.Name: "Wait", Arguments.IsEmpty: true } wait => wait.Instance == task,
        IPropertyReferenceOperation { Property.Name: "Result" } result => result.Instance == task,
        IInvocationOperation { TargetMethod.Name: "GetAwaiter", Arguments.IsEmpty: true } awaiter =>
            awaiter.Instance == task && awaiter.Parent is IInvocationOperation { TargetMethod.Name: "GetResult", Arguments.IsEmpty: true },
        _ => false,
    };

    /// <summary>A delay that starts a timer: a constructor argument other than an infinite one.</summary>
    private static bool HoldsTimer(IObjectCreationOperation creation)
    {
        if (creation.Arguments.Length == 0)
        {
            return false;
        }

        // -1 and Timeout.Infinite fold to a constant; Timeout.InfiniteTimeSpan is a field.
        var delay = creation.Arguments[0].Value.WithoutImplicitConversions();
        return !(delay.ConstantValue is { HasValue: true, Value: -1 or -1L }
            || delay is IFieldReferenceOperation { Field.Name: "InfiniteTimeSpan" });
    }

    private static bool IsTheRuntimes(INamespaceSymbol? ns)
    {
        while (ns is { ContainingNamespace.IsGlobalNamespace: false })
        {
            ns = ns.ContainingNamespace;
        }

        return ns is { Name: "System" };
    }

    /// <summary>The using the language version allows where the declaration stands; null where none can go.</summary>
    private static string? UsingRewrite(LocalDeclarationStatementSyntax statement)
    {
        return UsingPlacement.DeclarationFits(statement)
            ? FixUsingDeclaration
            : statement.Parent is BlockSyntax ? FixUsingStatement : null;
    }
}
