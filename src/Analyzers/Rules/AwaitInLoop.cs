using System.Collections.Concurrent;
using System.Linq;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp;
using Microsoft.CodeAnalysis.CSharp.Syntax;
using Microsoft.CodeAnalysis.Operations;
using TplPractices.Analyzers.Internals;

namespace TplPractices.Analyzers.Rules;

/// <summary>
/// TPL0005: an await in a loop body whose operation cannot be worth a suspension per iteration. Shared by the
/// analyzer (which reports it and names the fix) and the fixer (which rewrites it).
/// </summary>
internal sealed partial class AwaitInLoop
{
    public const string FixMoveLoop = "MoveLoopIntoTaskRun";
    public const string FixUseValue = "UseCompletedValue";

    public enum Case
    {
        /// <summary>(a) Task.Run or StartNew of a synchronous delegate.</summary>
        SynchronousWork,

        /// <summary>(b) Task.FromResult, Task.CompletedTask or a ValueTask built from a value.</summary>
        AlreadyCompleted,

        /// <summary>(c) an async method of this compilation whose body never awaits.</summary>
        AsyncMethodWithoutAwait,
    }

    private AwaitInLoop(IAwaitOperation await, IOperation task, Case kind, IOperation? value)
    {
        Await = await;
        Task = task;
        Kind = kind;
        Value = value;
    }

    public IAwaitOperation Await { get; }

    /// <summary>The awaited task, under any ConfigureAwait call.</summary>
    public IOperation Task { get; }

    public Case Kind { get; }

    /// <summary>Case (b): the value the completed task holds, or null for a task without a value.</summary>
    public IOperation? Value { get; }

    /// <summary>The awaited call as the message shows it: short code in full, a long call as <c>Task.Run(...)</c>.</summary>
    public string Display => MessageText.ShortCode(Task.Syntax);

    /// <summary>The words the message uses for each case.</summary>
    public string Reason => Kind switch
    {
        Case.SynchronousWork => "queues synchronous work to the thread pool on every iteration; run the whole loop in one Task.Run",
        Case.AlreadyCompleted => "awaits a task that is already complete on every iteration; use the value directly",
        _ => "calls an async method that never awaits, paying for a state machine on every iteration; make it synchronous",
    };

    /// <summary>The symbols the rule binds to, resolved once per compilation, and a per-compilation cache.</summary>
    public sealed class Context
    {
        // Keyed by the declaration, which every copy of the compilation shares (this context serves them all).
        private readonly ConcurrentDictionary<SyntaxNode, bool> _neverAwaits = new();

        private Context(INamedTypeSymbol task, INamedTypeSymbol? taskFactory, INamedTypeSymbol? taskFactoryOfT, INamedTypeSymbol? valueTask, INamedTypeSymbol? valueTaskOfT, AttachedToParent.Context? attaching)
        {
            Attaching = attaching;
            TaskType = task;
            TaskFactory = taskFactory;
            TaskFactoryOfT = taskFactoryOfT;
            ValueTask = valueTask;
            ValueTaskOfT = valueTaskOfT;
        }

        public INamedTypeSymbol TaskType { get; }

        /// <summary>TPL0009's symbols: where attaching to a parent does nothing.</summary>
        public AttachedToParent.Context? Attaching { get; }

        private INamedTypeSymbol? TaskFactory { get; }

        private INamedTypeSymbol? TaskFactoryOfT { get; }

        private INamedTypeSymbol? ValueTask { get; }

        private INamedTypeSymbol? ValueTaskOfT { get; }

        public static Context? TryCreate(Compilation compilation) =>
            compilation.GetTypeByMetadataName(WellKnownTypeNames.Task) is { } task
                ? new Context(
                    task,
                    compilation.GetTypeByMetadataName(WellKnownTypeNames.TaskFactory),
                    compilation.GetTypeByMetadataName(WellKnownTypeNames.TaskFactoryOfT),
                    compilation.GetTypeByMetadataName(WellKnownTypeNames.ValueTask),
                    compilation.GetTypeByMetadataName(WellKnownTypeNames.ValueTaskOfT),
                    AttachedToParent.Context.TryCreate(compilation))
                : null;

        public bool IsTask(ITypeSymbol? type) => type.IsOrDerivesFrom(TaskType);

        public bool IsValueTask(ITypeSymbol? type) =>
            type is not null
            && (SymbolEqualityComparer.Default.Equals(type.OriginalDefinition, ValueTask)
                || SymbolEqualityComparer.Default.Equals(type.OriginalDefinition, ValueTaskOfT));

        public bool IsAwaitable(ITypeSymbol? type) => IsTask(type) || IsValueTask(type);

        public bool IsTaskFactory(ITypeSymbol? type) =>
            type is not null
            && (SymbolEqualityComparer.Default.Equals(type.OriginalDefinition, TaskFactory)
                || SymbolEqualityComparer.Default.Equals(type.OriginalDefinition, TaskFactoryOfT));

        /// <summary>
        /// True for a method of this compilation declared async whose body has no await of its own. A call binds to
        /// a partial method's declaring part, which has no body: the implementing part is the one read.
        /// </summary>
        public bool NeverAwaits(IMethodSymbol method) =>
            (method.PartialImplementationPart ?? method).IsAsync
            && (!method.IsVirtual && !method.IsAbstract && !method.IsOverride || method.IsSealed || method.ContainingType.IsSealed)
            && (method.PartialImplementationPart ?? method).OriginalDefinition.DeclaringSyntaxReferences is { Length: 1 } references
            && _neverAwaits.GetOrAdd(references[0].GetSyntax(), static declaration =>
                declaration is not BaseMethodDeclarationSyntax { Body: null, ExpressionBody: null }
                && !HasAwait(declaration));

        /// <summary>
        /// Any await keyword in the body (await, await foreach, await using), not counting nested functions. The word is
        /// searched in the text: walking every token of the body cost more than the rest of the rule's work on it.
        /// </summary>
        private static bool HasAwait(SyntaxNode declaration) =>
            declaration.HasTokenNamed("await", SyntaxKind.AwaitKeyword, token => !InNestedFunction(token.Parent, declaration));

        private static bool InNestedFunction(SyntaxNode? node, SyntaxNode declaration)
        {
            for (; node is not null && node != declaration; node = node.Parent)
            {
                if (node is AnonymousFunctionExpressionSyntax or LocalFunctionStatementSyntax)
                {
                    return true;
                }
            }

            return false;
        }
    }

    /// <summary>The await's case, when it is in a loop body and one applies; null for any other await.</summary>
    public static AwaitInLoop? Classify(IAwaitOperation await, Context context)
    {
        // The loop first: a short walk up, and most awaits are not in one, which spares the scan of an
        // awaited async method's body for case (c).
        if (InnermostLoopWithBodyAround(await) is null)
        {
            return null;
        }

        var task = UnderConfigureAwait(await.Operation.WithoutImplicitConversions(), context);
        if (AlreadyCompleted(await, task, context) is { } completed)
        {
            return completed;
        }

        if (task is not IInvocationOperation call)
        {
            return null;
        }

        var method = call.TargetMethod;
        return method.Name switch
        {
            "Run" when SymbolEqualityComparer.Default.Equals(method.ContainingType, context.TaskType) && RunsSynchronousDelegate(call, context)
                => new AwaitInLoop(await, call, Case.SynchronousWork, null),
            "StartNew" when context.IsTaskFactory(method.ContainingType) && RunsSynchronousDelegate(call, context)
                => new AwaitInLoop(await, call, Case.SynchronousWork, null),
            _ => context.NeverAwaits(method) ? new AwaitInLoop(await, call, Case.AsyncMethodWithoutAwait, null) : null,
        };
    }

    /// <summary>
    /// Case (b) wherever the await is, in a loop or not (TPL0014 takes the awaits outside loops): Task.FromResult,
    /// CompletedTask, or a ValueTask built from a value.
    /// </summary>
    public static AwaitInLoop? AlreadyCompleted(IAwaitOperation await, Context context) =>
        AlreadyCompleted(await, UnderConfigureAwait(await.Operation.WithoutImplicitConversions(), context), context);

    /// <summary>
    /// An await whose task is complete once a rule's fix has run (TPL0014 turns a delegate task that only returns a
    /// value into Task.FromResult or Task.CompletedTask), with the value it then gives.
    /// </summary>
    public static AwaitInLoop CompletedByFix(IAwaitOperation await, IOperation task, IOperation? value) =>
        new(await, task, Case.AlreadyCompleted, value);

    private static AwaitInLoop? AlreadyCompleted(IAwaitOperation await, IOperation task, Context context) => task switch
    {
        IInvocationOperation { TargetMethod: { Name: "FromResult", IsStatic: true } method, Arguments.Length: 1 } call
            when context.IsAwaitable(method.ContainingType) => new AwaitInLoop(await, call, Case.AlreadyCompleted, call.Arguments[0].Value),
        IPropertyReferenceOperation { Property.Name: "CompletedTask", Property.IsStatic: true } property
            when context.IsAwaitable(property.Property.ContainingType) => new AwaitInLoop(await, task, Case.AlreadyCompleted, null),
        IObjectCreationOperation creation when context.IsValueTask(creation.Type) && creation.Arguments.Length <= 1
            && (creation.Arguments.Length == 0 || !context.IsAwaitable(creation.Arguments[0].Value.WithoutImplicitConversions().Type))
            => new AwaitInLoop(await, task, Case.AlreadyCompleted, creation.Arguments.FirstOrDefault()?.Value),
        IDefaultValueOperation { Type: var type } when context.IsValueTask(type) => new AwaitInLoop(await, task, Case.AlreadyCompleted, null),
        IInvocationOperation { TargetMethod.Name: "Delay" } call when IsZeroDelayCall(call, context) => new AwaitInLoop(await, call, Case.AlreadyCompleted, null),
        _ => null,
    };

    /// <summary>
    /// <c>Task.Delay(0)</c> or <c>Task.Delay(TimeSpan.Zero)</c>, alone or with a token that cannot be canceled
    /// (<c>CancellationToken.None</c>, <c>default</c>): every runtime returns a completed task for it (.NET Framework
    /// 4.5 on, and .NET, return their cached completed task). Not the TimeProvider overloads, which check their provider.
    /// </summary>
    public static bool IsZeroDelayCall(IInvocationOperation call, Context context)
    {
        if (call.TargetMethod is not { Name: "Delay", IsStatic: true } method
            || !SymbolEqualityComparer.Default.Equals(method.ContainingType, context.TaskType)
            || call.Arguments.Length is not (1 or 2))
        {
            return false;
        }

        foreach (var argument in call.Arguments)
        {
            var plain = argument.Value.WithoutImplicitConversions();
            var passes = argument.Parameter switch
            {
                { Ordinal: 0 } => IsZeroDelay(argument.Value),
                { Type.Name: "CancellationToken" } => SafeTests.IsUncancelableToken(plain),
                _ => false,
            };
            if (!passes)
            {
                return false;
            }
        }

        return true;
    }

    /// <summary>A delay of <c>0</c> or <c>TimeSpan.Zero</c>: no timer is made for it.</summary>
    public static bool IsZeroDelay(IOperation delay) =>
        delay.ConstantValue is { HasValue: true, Value: 0 }
        || delay is IFieldReferenceOperation { Field: { Name: "Zero", IsStatic: true, ContainingType: { Name: "TimeSpan", ContainingNamespace.Name: "System" } } };

    /// <summary>The delegate is not async and returns no task: its work runs start to end on the pool thread.</summary>
    private static bool RunsSynchronousDelegate(IInvocationOperation call, Context context) =>
        call.Arguments.FirstOrDefault(a => a.Parameter?.Ordinal == 0)?.Value.WithoutImplicitConversions() is IDelegateCreationOperation creation
        && creation.Target is not IAnonymousFunctionOperation { Symbol.IsAsync: true }
        && creation.Type is INamedTypeSymbol { DelegateInvokeMethod: { } invoke }
        && !context.IsAwaitable(invoke.ReturnType);

    /// <summary>The awaited task under a ConfigureAwait that only chooses the context, or the awaited operation itself.</summary>
    public static IOperation UnderConfigureAwait(IOperation awaited, Context context) =>
        awaited is IInvocationOperation { TargetMethod.Name: "ConfigureAwait", Instance: { } instance }
        && context.IsAwaitable(instance.Type)
            ? ConfiguredAwait.TaskOf(awaited)
            : awaited;

    /// <summary>The innermost loop whose body (not condition, collection or increment) holds the operation, in the same function.</summary>
    public static ILoopOperation? InnermostLoopWithBodyAround(IOperation operation)
    {
        var child = operation;
        for (var current = operation.Parent; current is not null; child = current, current = current.Parent)
        {
            if (current.Kind is OperationKind.AnonymousFunction or OperationKind.LocalFunction)
            {
                return null;
            }

            if (current is ILoopOperation loop && loop.Body == child)
            {
                return loop;
            }
        }

        return null;
    }
}
