using System.Collections.Immutable;
using System.Linq;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp.Syntax;
using Microsoft.CodeAnalysis.Operations;
using TplPractices.Analyzers.Internals;

namespace TplPractices.Analyzers.Rules;

/// <summary>
/// TPL0004: what an <c>IAsyncResult.AsyncWaitHandle</c> access is used for, shared by the analyzer (which
/// reports it and names the fix) and the fixer (which rewrites it). Every decision is made here once.
/// </summary>
internal sealed class AsyncWaitHandleUse
{
    public const string FixWaitAny = "WaitAny";
    public const string FixWaitAnyWithTimeout = "WaitAnyWithTimeout";
    public const string FixAwaitWhenAny = "AwaitWhenAny";
    public const string FixAwaitSuppressThrowing = "AwaitSuppressThrowing";
    public const string FixWaitAllTasks = "WaitAllTasks";
    public const string FixWaitAllTasksWithTimeout = "WaitAllTasksWithTimeout";
    public const string FixWaitAnyTask = "WaitAnyTask";

    /// <summary>
    /// Why the await fix is offered one site at a time, never in Fix All: the blocked thread went on with the method once
    /// the task was done, where the await hands the thread back at once, so the caller (and a UI context's other
    /// events) run before the rest of the method does.
    /// </summary>
    public const string AwaitReason = "the caller then runs on before the task is done, and the method resumes later";

    /// <summary>The await fixes, which let the thread go (<see cref="AwaitReason"/>).</summary>
    public static bool IsAwaitFix(string? fix) => fix is FixAwaitWhenAny or FixAwaitSuppressThrowing;

    private AsyncWaitHandleUse(string? fix, IOperation? replaced, ImmutableArray<IOperation> tasks, IOperation? timeout, bool resultUsed)
    {
        Fix = fix;
        Replaced = replaced;
        Tasks = tasks;
        Timeout = timeout;
        ResultUsed = resultUsed;
    }

    /// <summary>The rewrite, or null when none keeps the behaviour.</summary>
    public string? Fix { get; }

    /// <summary>The call the fix replaces: WaitOne, or WaitHandle.WaitAll/WaitAny.</summary>
    public IOperation? Replaced { get; }

    /// <summary>The tasks whose handles are waited on, in order: each Task-typed, or a local known to hold one.</summary>
    public ImmutableArray<IOperation> Tasks { get; }

    public IOperation? Timeout { get; }

    /// <summary>False when the replaced call is a statement of its own, so its result is discarded.</summary>
    public bool ResultUsed { get; }

    /// <summary>
    /// What the fixer rewrites, as the diagnostic's additional locations: the replaced call, each task, then the timeout
    /// where the fix keeps one. None where there is no fix.
    /// </summary>
    public System.Collections.Generic.IEnumerable<Location>? Parts() =>
        Fix is null || Replaced is null
            ? null
            : Tasks.Prepend(Replaced).Concat(Timeout is null ? Enumerable.Empty<IOperation>() : new[] { Timeout }).Select(o => o.Syntax.GetLocation());

    /// <summary>
    /// The task behind <paramref name="instance"/> (the receiver of AsyncWaitHandle): a Task converted to
    /// IAsyncResult, or a local IAsyncResult every write of which stores a Task. Null for anything else,
    /// such as a real APM result from Stream.BeginRead, whose origin is unknown here.
    /// </summary>
    public static IOperation? TaskBehind(IOperation instance, INamedTypeSymbol task)
    {
        for (var current = instance; current is IConversionOperation conversion; current = conversion.Operand)
        {
            if (conversion.Operand.Type.IsOrDerivesFrom(task))
            {
                return conversion.Operand;
            }
        }

        return instance is ILocalReferenceOperation local && OnlyHoldsTasks(local.Local, instance.Root(), task)
            ? instance
            : null;
    }

    /// <summary>
    /// The value a property pattern's input stands for: the operand of the <c>is</c> or <c>switch</c> around it; null for
    /// a pattern nested in another one's property, whose input is that property.
    /// </summary>
    public static IOperation? PatternInputOf(IOperation member)
    {
        var recursive = 0;
        for (var current = member.Parent; current is not null; current = current.Parent)
        {
            switch (current)
            {
                case IIsPatternOperation isPattern:
                    return isPattern.Value.WithoutImplicitConversions();
                case ISwitchExpressionOperation switchExpression:
                    return switchExpression.Value.WithoutImplicitConversions();
                case ISwitchOperation switchStatement:
                    return switchStatement.Value.WithoutImplicitConversions();
                case IRecursivePatternOperation:
                    recursive++;
                    break;
                case IPropertySubpatternOperation when recursive > 0:
                    return null;
                case IPropertySubpatternOperation or IPatternOperation or IPatternCaseClauseOperation or ISwitchExpressionArmOperation or ISwitchCaseOperation:
                    break;
                default:
                    return null;
            }
        }

        return null;
    }

    /// <summary>
    /// True when the handle is what a member that must return one returns: an implementation of an interface's
    /// member or an override (<c>WaitHandle AsyncWaitHandle => ((IAsyncResult)_task).AsyncWaitHandle</c> in an
    /// IAsyncResult over a task). Nothing waits there, and the contract leaves no way to follow the advice. A helper of
    /// the user's own that hands the handle out is still reported: its signature can change.
    /// </summary>
    public static bool IsRequiredByContract(IPropertyReferenceOperation handle, ISymbol containingSymbol)
    {
        var value = handle.Parent is IConversionOperation { IsImplicit: true } conversion ? conversion : (IOperation)handle;
        if (value.Parent is not IReturnOperation { Kind: OperationKind.Return } returned
            || returned.EnclosingFunction() is not null
            || containingSymbol is not IMethodSymbol method)
        {
            return false;
        }

        ISymbol member = method.AssociatedSymbol ?? method;
        if (member.IsOverride || !(member switch
            {
                IPropertySymbol property => property.ExplicitInterfaceImplementations.IsEmpty,
                IMethodSymbol m => m.ExplicitInterfaceImplementations.IsEmpty,
                _ => true,
            }))
        {
            return true;
        }

        var type = member.ContainingType;
        return type.AllInterfaces
            .SelectMany(i => i.GetMembers(member.Name))
            .Any(required => SymbolEqualityComparer.Default.Equals(type.FindImplementationForInterfaceMember(required), member));
    }

    public static AsyncWaitHandleUse Classify(IPropertyReferenceOperation handle, IOperation task, Context context, ISymbol containingSymbol)
    {
        var none = new AsyncWaitHandleUse(null, null, ImmutableArray.Create(task), null, true);

        // handle.WaitOne(), handle.WaitOne(timeout)
        if (handle.Parent is IInvocationOperation { TargetMethod.Name: "WaitOne" } waitOne
            && waitOne.Instance == handle
            && context.IsWaitHandleMethod(waitOne.TargetMethod))
        {
            var used = IsResultUsed(waitOne);
            if (!used && IsDiscardedByALambda(waitOne))
            {
                return none;
            }

            return waitOne.Arguments.Length switch
            {
                0 when !used && context.CanAwaitAt(waitOne, containingSymbol) => new(context.AwaitFix, waitOne, ImmutableArray.Create(task), null, used),
                0 => new(FixWaitAny, waitOne, ImmutableArray.Create(task), null, used),
                1 => new(FixWaitAnyWithTimeout, waitOne, ImmutableArray.Create(task), waitOne.Arguments[0].Value, used),
                _ => none,
            };
        }

        // WaitHandle.WaitAll(new[] { h1, h2 }) and WaitAny: every element must be a task's handle.
        var element = handle.Parent is IConversionOperation { IsImplicit: true } c ? c : (IOperation)handle;
        if (element.Parent is not IArrayInitializerOperation initializer
            || initializer.Parent is not IArrayCreationOperation creation
            || (creation.Parent is IConversionOperation { IsImplicit: true } ? creation.Parent.Parent : creation.Parent)
                is not IArgumentOperation argument
            || argument.Parent is not IInvocationOperation waitMany
            || !context.IsWaitHandleMethod(waitMany.TargetMethod)
            || waitMany.Arguments[0] != argument)
        {
            return none;
        }

        var tasks = ImmutableArray.CreateBuilder<IOperation>();
        foreach (var value in initializer.ElementValues)
        {
            if (value.WithoutImplicitConversions() is not IPropertyReferenceOperation { Instance: { } instance } other
                || !context.IsAsyncWaitHandle(other.Property)
                || TaskBehind(instance, context.Task) is not { } elementTask)
            {
                return none;
            }

            tasks.Add(elementTask);
        }

        var resultUsed = IsResultUsed(waitMany);
        if (!resultUsed && IsDiscardedByALambda(waitMany))
        {
            return none;
        }

        var fix = (waitMany.TargetMethod.Name, waitMany.Arguments.Length) switch
        {
            ("WaitAll", 1) => FixWaitAllTasks,
            ("WaitAll", 2) => FixWaitAllTasksWithTimeout,
            ("WaitAny", 1) => FixWaitAnyTask,
            _ => null, // WaitAny's timeout value (258) differs from Task.WaitAny's (-1); exitContext has no equivalent.
        };
        return new(fix, waitMany, tasks.ToImmutable(), fix == FixWaitAllTasksWithTimeout ? waitMany.Arguments[1].Value : null, resultUsed);
    }

    /// <summary>
    /// Whether the code goes on with the wait's result: not a statement of its own, nor a void method's expression body
    /// (an expression statement too). The fixer asks the same of the call it replaces.
    /// </summary>
    public static bool IsResultUsed(IOperation wait) => wait.Parent is not IExpressionStatementOperation;

    /// <summary>
    /// A wait that is the expression body of a lambda whose delegate returns nothing (<c>Action a = () =&gt; h.WaitOne();</c>):
    /// the task wait written there returns an int or a task, and the lambda could then bind another overload of the call
    /// it is given to (<c>M(Action)</c> beside <c>M(Func&lt;int&gt;)</c>). No fix; a method's own expression body is fixed.
    /// </summary>
    private static bool IsDiscardedByALambda(IOperation wait) => wait.Syntax.Parent is LambdaExpressionSyntax;

    /// <summary>True when every write of the local stores a Task, and nothing can write it behind our back.</summary>
    private static bool OnlyHoldsTasks(ILocalSymbol local, IOperation root, INamedTypeSymbol task)
    {
        if (local.RefKind != RefKind.None)
        {
            return false;
        }

        var sawValue = false;
        foreach (var operation in root.DescendantsAndSelf())
        {
            switch (operation)
            {
                case IVariableDeclaratorOperation declarator when SymbolEqualityComparer.Default.Equals(declarator.Symbol, local):
                    if (declarator.GetVariableInitializer() is { } initializer)
                    {
                        if (!IsTaskValue(initializer.Value, task))
                        {
                            return false;
                        }

                        sawValue = true;
                    }

                    break;
                case ILocalReferenceOperation reference when SymbolEqualityComparer.Default.Equals(reference.Local, local):
                    if (reference.IsDeclaration
                        || reference.Parent is IArgumentOperation { Parameter.RefKind: not RefKind.None }
                            or IAddressOfOperation or IDeconstructionAssignmentOperation or ITupleOperation
                            or IVariableInitializerOperation { Parent: IVariableDeclaratorOperation { Symbol.RefKind: not RefKind.None } })
                    {
                        return false;
                    }

                    if (reference.Parent is IAssignmentOperation assignment && assignment.Target == reference)
                    {
                        if (assignment is not ISimpleAssignmentOperation { IsRef: false } simple || !IsTaskValue(simple.Value, task))
                        {
                            return false;
                        }

                        sawValue = true;
                    }

                    break;
                case IDeclarationPatternOperation pattern when SymbolEqualityComparer.Default.Equals(pattern.DeclaredSymbol, local):
                case IForEachLoopOperation loop when loop.Locals.Contains(local, SymbolEqualityComparer.Default):
                    return false;
            }
        }

        return sawValue;
    }

    private static bool IsTaskValue(IOperation value, INamedTypeSymbol task)
    {
        for (var current = value; ; current = ((IConversionOperation)current).Operand)
        {
            if (current.Type.IsOrDerivesFrom(task))
            {
                return true;
            }

            if (current is not IConversionOperation)
            {
                return false;
            }
        }
    }

    /// <summary>The symbols TPL0004 binds to, resolved once per compilation.</summary>
    internal sealed class Context
    {
        private readonly IPropertySymbol _asyncWaitHandle;
        private readonly INamedTypeSymbol _waitHandle;

        private Context(INamedTypeSymbol task, IPropertySymbol asyncWaitHandle, INamedTypeSymbol waitHandle, bool hasSuppressThrowing)
        {
            Task = task;
            _asyncWaitHandle = asyncWaitHandle;
            _waitHandle = waitHandle;
            AwaitFix = hasSuppressThrowing ? FixAwaitSuppressThrowing : FixAwaitWhenAny;
        }

        public INamedTypeSymbol Task { get; }

        /// <summary>ConfigureAwaitOptions.SuppressThrowing (.NET 8+) awaits without allocating; Task.WhenAny works everywhere.</summary>
        public string AwaitFix { get; }

        public static Context? TryCreate(Compilation compilation) =>
            compilation.GetTypeByMetadataName(WellKnownTypeNames.Task) is { } task
            && compilation.GetTypeByMetadataName(WellKnownTypeNames.IAsyncResult)?.GetMembers("AsyncWaitHandle").OfType<IPropertySymbol>().FirstOrDefault() is { } property
            && compilation.GetTypeByMetadataName(WellKnownTypeNames.WaitHandle) is { } waitHandle
                ? new Context(task, property, waitHandle, compilation.GetTypeByMetadataName(WellKnownTypeNames.ConfigureAwaitOptions)?.GetMembers("SuppressThrowing").IsEmpty == false)
                : null;

        public bool IsAsyncWaitHandle(IPropertySymbol property) =>
            SymbolEqualityComparer.Default.Equals(property.OriginalDefinition, _asyncWaitHandle);

        public bool IsWaitHandleMethod(IMethodSymbol method) =>
            SymbolEqualityComparer.Default.Equals(method.ContainingType, _waitHandle);

        /// <summary>
        /// True where an await compiles and keeps the code's meaning: in an async function, outside lock
        /// bodies, catch filters and unsafe code, and in a function without ref or ref-struct locals (which
        /// cannot live across an await before C# 13).
        /// </summary>
        public bool CanAwaitAt(IOperation operation, ISymbol containingSymbol)
        {
            if (!operation.IsInAsyncFunction(containingSymbol))
            {
                return false;
            }

            var function = operation.EnclosingFunction();
            for (var current = operation.Parent; current is not null && current != function; current = current.Parent)
            {
                if (current is ILockOperation || current.Syntax is CatchFilterClauseSyntax)
                {
                    return false;
                }
            }

            if (operation.Syntax.AncestorsAndSelf().Any(n => n is UnsafeStatementSyntax
                || (n is MemberDeclarationSyntax member && member.Modifiers.Any(m => m.ValueText == "unsafe"))))
            {
                return false;
            }

            var body = function ?? operation.Root();
            return !body.Descendants().OfType<IVariableDeclaratorOperation>()
                .Any(d => d.Symbol.RefKind != RefKind.None || d.Symbol.Type.IsRefLikeType);
        }
    }
}
