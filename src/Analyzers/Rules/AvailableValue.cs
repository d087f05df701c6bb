using System.Collections.Generic;
using System.Linq;
using System.Threading.Tasks;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp;
using Microsoft.CodeAnalysis.CSharp.Syntax;
using Microsoft.CodeAnalysis.Diagnostics;
using Microsoft.CodeAnalysis.Operations;
using TplPractices.Analyzers.Internals;

namespace TplPractices.Analyzers.Rules;

/// <summary>
/// TPL0014's questions: does a Task.Run or Task.Factory.StartNew delegate only return a value that is already
/// available (or do nothing), does an await outside a loop await a task that is already complete, and which rewrite
/// keeps the program's meaning. Awaits in loops are TPL0005's (<see cref="AwaitInLoop"/>), which shares the completed
/// shapes and the value rewrite.
/// </summary>
internal static class AvailableValue
{
    /// <summary>The delegate task becomes <c>Task.FromResult(value)</c>, or <c>Task.CompletedTask</c> for a delegate that does nothing.</summary>
    public const string FixCompletedTask = "UseCompletedTask";

    /// <summary>The await becomes the value (or goes, as a statement): <see cref="AwaitInLoop.FixUseValue"/>.</summary>
    public const string FixUseValue = AwaitInLoop.FixUseValue;

    internal sealed class Context
    {
        private Context(Compilation compilation, AwaitInLoop.Context loops)
        {
            Loops = loops;
            HasCompletedTask = !loops.TaskType.GetMembers("CompletedTask").IsEmpty;
            CacheLevel = TaskResultCache.LevelOf(loops.TaskType);
            RuntimeAsync = Internals.RuntimeAsync.IsOn(compilation);
        }

        /// <summary>
        /// Async methods are runtime-async: an await of a completed task costs nothing to save, so the await half of
        /// TPL0014 (and TPL0003 on a task only awaited) is quiet.
        /// </summary>
        public bool RuntimeAsync { get; }

        /// <summary>TPL0005's symbols: the task types and the completed shapes.</summary>
        public AwaitInLoop.Context Loops { get; }

        public bool HasCompletedTask { get; }

        public TaskCacheLevel CacheLevel { get; }

        public static Context? TryCreate(Compilation compilation) =>
            AwaitInLoop.Context.TryCreate(compilation) is { } loops ? new Context(compilation, loops) : null;
    }

    /// <summary>A reported site: the call or the await, what the message says of it, the value and the rewrite.</summary>
    public sealed class Site
    {
        public Site(IOperation reported, string shape, IOperation? value, string? fix, IAwaitOperation? awaited = null)
        {
            Reported = reported;
            Shape = shape;
            Value = value;
            Fix = fix;
            Awaited = awaited;
        }

        /// <summary>For a value used in place of its await, that await.</summary>
        public IAwaitOperation? Awaited { get; }

        /// <summary>
        /// What the fixer rewrites, as additional locations: the await and the value for a used value
        /// (<see cref="AwaitInLoop.ValueParts"/>), the value for a completed task; none without a fix.
        /// </summary>
        public IEnumerable<Location>? Parts() => Fix switch
        {
            FixUseValue when Awaited is not null => AwaitInLoop.ValueParts(Awaited, Value),
            FixCompletedTask when Value is not null => new[] { Value.Syntax.GetLocation() },
            _ => null,
        };

        public IOperation Reported { get; }

        public string Shape { get; }

        /// <summary>The value the task gives; null for a task without one.</summary>
        public IOperation? Value { get; }

        public string? Fix { get; }
    }

    /// <summary>
    /// A Task.Run or Task.Factory.StartNew whose delegate only returns an available value or does nothing. Awaited in a
    /// loop body it is TPL0005's (which moves the loop). A constant TPL0003 (while on) would cache once written as
    /// Task.FromResult would be its site on the next dotnet format run, so such a site gets no fix here.
    /// </summary>
    public static Site? OfDelegateTask(OperationAnalysisContext analysis, IInvocationOperation call, Context context)
    {
        var member = analysis.ContainingSymbol;
        if (!MayReturnOnlyAValue(call, context.Loops)
            || Lambda(call) is not { } lambda
            || Returned(lambda) is var value && value is not null && !IsAvailable(value, member, call))
        {
            return null;
        }

        var awaited = AwaitOf(call, context.Loops);
        if (awaited is not null && AwaitInLoop.InnermostLoopWithBodyAround(awaited) is not null)
        {
            return null;
        }

        var shape = value is null
            ? "queues a delegate that does nothing; use Task.CompletedTask"
            : "queues a delegate only to return a value that is already available; use Task.FromResult";
        if (awaited is not null && AwaitInLoop.CompletedByFix(awaited, call, value).CanUseValue(context.Loops))
        {
            return new Site(call, shape, value, FixUseValue, awaited);
        }

        var fix = value is null
            ? (context.HasCompletedTask ? FixCompletedTask : null)
            : (IsCachedByRule(value, call, member, context)
                && OtherRule.IsOn(analysis.Compilation, analysis.Options, call.Syntax.SyntaxTree, member, CacheConstantTaskResultAnalyzer.Rule, analysis.CancellationToken)
                    ? null
                    : FixCompletedTask);
        return new Site(call, shape, value, fix);
    }

    /// <summary>
    /// An await outside any loop body of a task that is already complete, where the value can take its place; or a zero
    /// delay awaited as the function's only await with work after it (<see cref="IsWorkAfter"/>), reported without a
    /// fix: it reads as a yield that never happens, and only its author knows whether Task.Yield() was meant.
    /// </summary>
    public static Site? OfAwait(IAwaitOperation await, Context context)
    {
        if (AwaitInLoop.AlreadyCompleted(await, context.Loops) is not { } completed
            || AwaitInLoop.InnermostLoopWithBodyAround(await) is not null)
        {
            return null;
        }

        var isDelay = completed.Task is IInvocationOperation { TargetMethod.Name: "Delay" };
        if (completed.CanUseValue(context.Loops))
        {
            return new Site(await, isDelay ? ZeroDelay : "awaits a task that is already complete; use the value directly", completed.Value, FixUseValue, await);
        }

        return isDelay && IsWorkAfter(await) ? new Site(await, LoneZeroDelay, null, null) : null;
    }

    /// <summary>
    /// Whether a statement after the await, in its block, runs code (a call or a <c>new</c>) other than a throw: the
    /// shape of a yield meant before the work. An await last in the function, or followed only by a throw or a return
    /// of a value, is the idiom that keeps a function async so its exception goes into the task (left alone).
    /// </summary>
    private static bool IsWorkAfter(IAwaitOperation await)
    {
        // Top-level statements have no caller waiting for a task: nothing there reads as a yield. A body holding an #if
        // may await elsewhere in another build, where this would not be its only await.
        if (await.Parent is not IExpressionStatementOperation statement || statement.Parent is not IBlockOperation block
            || await.Syntax.EnclosingFunction() is not { } function || function is GlobalStatementSyntax
            || function.BodyOf()?.HasConditionalBranches() == true)
        {
            return false;
        }

        var after = false;
        foreach (var next in block.Operations)
        {
            if (after && next is not (IThrowOperation or IExpressionStatementOperation { Operation: IThrowOperation } or ILocalFunctionOperation)
                && next.DescendantsAndSelf().Any(o => o is IInvocationOperation or IObjectCreationOperation or IDynamicInvocationOperation))
            {
                return true;
            }

            after |= next == statement;
        }

        return false;
    }

    /// <summary>
    /// A zero delay used as a task, not awaited (awaits are <see cref="OfAwait"/>'s, TPL0005's in loops, TPL0016's where
    /// alone): it is the completed task, and <c>Task.CompletedTask</c> says so. Discarded as a statement it is reported
    /// without a fix: a delay nobody awaits is more often a missing await than a task to keep, and only its author knows.
    /// </summary>
    public static Site? OfZeroDelay(IInvocationOperation call, Context context) =>
        context.HasCompletedTask && AwaitInLoop.IsZeroDelayCall(call, context.Loops) && AwaitOf(call, context.Loops) is null
            ? call.Parent is IExpressionStatementOperation
                ? new Site(call, "makes a zero delay, a task already complete, and discards it: it waits for nothing; remove it (or await a real delay, or Task.Yield(), if a wait was meant)", null, null)
                : new Site(call, "is a zero delay, which every runtime completes at once: it is Task.CompletedTask; use that", null, FixCompletedTask)
            : null;

    private const string LoneZeroDelay = "is the function's only await, of a zero delay, a task already complete: it does not yield, so the code after it runs before the caller gets the task (await Task.Yield() if a yield was meant)";

    private const string ZeroDelay = "awaits a zero delay, which is a task already complete: it does not yield (await Task.Yield() if a yield was meant); remove the await";

    /// <summary>
    /// Whether TPL0014 takes the Task.Run or StartNew call that TPL0001 or TPL0007 would give state: its fix removes the
    /// delegate (see <see cref="OtherRule"/>).
    /// </summary>
    public static bool IsTakenByValueRule(OperationAnalysisContext context, IInvocationOperation call, Context? values) =>
        values is not null
        && OfDelegateTask(context, call, values) is { Fix: not null }
        && OtherRule.IsOn(context.Compilation, context.Options, call.Syntax.SyntaxTree, context.ContainingSymbol, AvailableValueAnalyzer.Rule, context.CancellationToken);

    /// <summary>
    /// Whether an await rule takes the awaited Task.FromResult that TPL0003 would cache: TPL0005 in a loop body, TPL0014
    /// elsewhere, where their fix uses the value and removes the task (see <see cref="OtherRule"/>).
    /// </summary>
    public static bool IsTakenByAwaitRule(OperationAnalysisContext context, IInvocationOperation fromResult, Context? values)
    {
        if (values is null || AwaitOf(fromResult, values.Loops) is not { } await)
        {
            return false;
        }

        var inLoop = AwaitInLoop.InnermostLoopWithBodyAround(await) is not null;
        var fix = inLoop ? AwaitInLoop.Classify(await, values.Loops)?.Fix(values.Loops) : OfAwait(await, values)?.Fix;
        return fix == FixUseValue
            && (inLoop || !values.RuntimeAsync)
            && OtherRule.IsOn(context.Compilation, context.Options, await.Syntax.SyntaxTree, context.ContainingSymbol, inLoop ? AwaitInLoopAnalyzer.Rule : AvailableValueAnalyzer.Rule, context.CancellationToken);
    }

    /// <summary>
    /// The shape alone, without asking whether variables are written: Task.Run or Task.Factory.StartNew with one argument,
    /// a lambda that is not async, whose body is empty or returns a constant, a variable, a field, <c>this</c> or a default.
    /// </summary>
    public static bool MayReturnOnlyAValue(IInvocationOperation call, AwaitInLoop.Context context)
    {
        // A lambda first: most Run and StartNew calls fail there, before any symbol is compared. Loops, not LINQ: this
        // runs at every such call, and LINQ over the argument array cost more than the rest of the test (boxing, casts).
        if (Lambda(call) is not { } lambda)
        {
            return false;
        }

        var arguments = call.Arguments;
        for (var i = 1; i < arguments.Length; i++)
        {
            if (!IsNeutral(arguments[i], call, context))
            {
                return false;
            }
        }

        var method = call.TargetMethod;
        var isRun = method.Name == "Run" && method.IsStatic && SymbolEqualityComparer.Default.Equals(method.ContainingType, context.TaskType);
        var isStartNew = method.Name == "StartNew"
            && context.IsTaskFactory(method.ContainingType)
            && call.Instance is IPropertyReferenceOperation { Property: { Name: "Factory", IsStatic: true } factory }
            && SymbolEqualityComparer.Default.Equals(factory.ContainingType.OriginalDefinition, context.TaskType);
        if (!(isRun || isStartNew)
            || call.Type is null
            || call.Type.ContainsErrorType()
            || lambda.Symbol.IsAsync
            || context.IsAwaitable(lambda.Symbol.ReturnType))
        {
            return false;
        }

        var operations = lambda.Body.Operations;
        if (!lambda.Symbol.ReturnsVoid)
        {
            return operations.Length == 1 && operations[0] is IReturnOperation { ReturnedValue: { } value } && IsValueShape(Plain(value));
        }

        foreach (var operation in operations)
        {
            if (operation is not IReturnOperation { ReturnedValue: null, IsImplicit: true })
            {
                return false;
            }
        }

        return true;
    }

    private static IAnonymousFunctionOperation? Lambda(IInvocationOperation call) =>
        call.Arguments.Length >= 1
        && call.Arguments[0].Value.WithoutImplicitConversions() is IDelegateCreationOperation { Target: IAnonymousFunctionOperation lambda }
            ? lambda
            : null;

    /// <summary>
    /// An argument after the delegate that leaves the task as a completed one would be: a token that cannot be canceled
    /// (<c>CancellationToken.None</c>, <c>default</c>), constant creation options without <c>AttachedToParent</c> (which
    /// would make the task a child of the current one) unless attaching does nothing where the call runs (TPL0009 removes
    /// the flag there, and either fix may run first), <c>TaskScheduler.Default</c> (another scheduler might never run it).
    /// </summary>
    private static bool IsNeutral(IArgumentOperation argument, IInvocationOperation call, AwaitInLoop.Context context)
    {
        var value = argument.Value.WithoutImplicitConversions();
        return argument.Parameter?.Type.Name switch
        {
            "CancellationToken" => SafeTests.IsUncancelableToken(value),
            "TaskCreationOptions" => argument.Value.ConstantValue is { HasValue: true, Value: int options }
                && ((options & (int)TaskCreationOptions.AttachedToParent) == 0 || context.Attaching is { } attaching && AttachedToParent.RunsWhereAttachingIsANoOp(call, attaching)),
            "TaskScheduler" => value is IPropertyReferenceOperation { Property: { Name: "Default", IsStatic: true } },
            _ => false,
        };
    }

    /// <summary>The value the call's delegate returns (under the lambda's implicit conversion); null for a delegate that returns nothing.</summary>
    public static IOperation? ValueOf(IInvocationOperation call) => Lambda(call) is { } lambda ? Returned(lambda) : null;

    private static IOperation? Returned(IAnonymousFunctionOperation lambda) =>
        lambda.Body.Operations is { Length: > 0 } operations && operations[0] is IReturnOperation { ReturnedValue: { } value } ? value : null;

    /// <summary>The value under the implicit conversions the compiler built in, unless one runs user code.</summary>
    public static IOperation Plain(IOperation value)
    {
        var current = value;
        while (current is IConversionOperation { IsImplicit: true, OperatorMethod: null } conversion)
        {
            current = conversion.Operand;
        }

        return current;
    }

    private static bool IsValueShape(IOperation value) =>
        value.ConstantValue.HasValue
        || value is IDefaultValueOperation or IInstanceReferenceOperation or ILocalReferenceOperation or IParameterReferenceOperation
            or IFieldReferenceOperation;

    /// <summary>
    /// The value reads the same when the delegate runs as when the call is made, and reading it cannot throw: a
    /// constant, a default, <c>this</c>, a local or by-value parameter nothing writes after its declaration, or a
    /// readonly field of this type read outside the constructors that set it.
    /// </summary>
    private static bool IsAvailable(IOperation returned, ISymbol member, IOperation call)
    {
        var value = Plain(returned);
        if (value.ConstantValue.HasValue || value is IDefaultValueOperation or IInstanceReferenceOperation)
        {
            return true;
        }

        return value switch
        {
            ILocalReferenceOperation local => !local.Local.IsRef && IsNeverWritten(local.Local, local.Type, call),
            IParameterReferenceOperation parameter => parameter.Parameter.RefKind == RefKind.None && IsNeverWritten(parameter.Parameter, parameter.Type, call),
            IFieldReferenceOperation { Field: { IsReadOnly: true } field } reference => IsStableField(field, reference, member),
            _ => false,
        };
    }

    /// <summary>Nothing in the member writes the variable, and it is no struct whose own methods could change it.</summary>
    private static bool IsNeverWritten(ISymbol variable, ITypeSymbol? type, IOperation call) =>
        type is not null && !StateCapture.IsMutableStruct(type) && !StateCapture.IsWrittenAnywhere(variable, call.Root(), countDeclaration: false);

    /// <summary>
    /// A readonly field of the type (or a type around it) whose value is settled before any other code of the instance
    /// or type runs: set only by its initializer, or (an instance field) by constructors that run no code of the
    /// instance (<see cref="ConstructorsRunNoCodeOfTheInstance"/>). Read through <c>this</c> for an instance field,
    /// outside the initializers and constructors themselves. A field a constructor sets after calling a method of the
    /// instance could be read by that method before it is set, and by the delegate after.
    /// </summary>
    private static bool IsStableField(IFieldSymbol field, IFieldReferenceOperation reference, ISymbol member)
    {
        if (member is IFieldSymbol or IPropertySymbol && member.IsStatic == field.IsStatic
            || member is IMethodSymbol { MethodKind: MethodKind.Constructor or MethodKind.StaticConstructor }
            || !field.IsStatic && reference.Instance is not IInstanceReferenceOperation
            || field.DeclaringSyntaxReferences.Length != 1
            || field.DeclaringSyntaxReferences[0].GetSyntax() is not VariableDeclaratorSyntax declarator
            || (IsSetByAConstructor(field) ? field.IsStatic || !ConstructorsRunNoCodeOfTheInstance(field.ContainingType) : declarator.Initializer is null))
        {
            return false;
        }

        for (var type = member.ContainingType; type is not null; type = type.ContainingType)
        {
            if (SymbolEqualityComparer.Default.Equals(type, field.ContainingType))
            {
                return true;
            }
        }

        return false;
    }

    /// <summary>Any assignment in a constructor to a name spelled as the field's (read from the text: a false match only withholds the report).</summary>
    private static bool IsSetByAConstructor(IFieldSymbol field) =>
        field.ContainingType.Constructors.Any(constructor => constructor.IsStatic == field.IsStatic
            && constructor.DeclaringSyntaxReferences.Any(reference => reference.GetSyntax().DescendantNodes().OfType<AssignmentExpressionSyntax>()
                .Any(assignment => assignment.Left.DescendantNodesAndSelf().OfType<SimpleNameSyntax>().Any(name => name.Identifier.ValueText == field.Name))));

    /// <summary>
    /// A class whose base is <c>object</c> (no base constructor can call an override first) and whose every constructor,
    /// read as syntax, only assigns fields from values that run no code of the instance: no <c>this</c>, no lambda, no
    /// call of a bare name (a method of the type), no name of a property, method or event of the type; calls on other
    /// receivers (<c>ArgumentNullException.ThrowIfNull(x)</c>), <c>new</c>, and <c>if (…) throw …;</c> guards are fine.
    /// Nothing of the instance runs before such a constructor returns, so its fields hold their final values by then.
    /// </summary>
    private static bool ConstructorsRunNoCodeOfTheInstance(INamedTypeSymbol type)
    {
        if (type.TypeKind != TypeKind.Class || type.BaseType?.SpecialType != SpecialType.System_Object)
        {
            return false;
        }

        var fields = new HashSet<string>(type.GetMembers().OfType<IFieldSymbol>().Where(f => !f.IsImplicitlyDeclared).Select(f => f.Name));
        var others = new HashSet<string>(type.GetMembers().Where(m => m is not IFieldSymbol && !m.IsImplicitlyDeclared).Select(m => m.Name));
        bool Plain(ExpressionSyntax? expression) =>
            expression is null
            || !expression.DescendantNodesAndSelf().Any(node => node switch
            {
                ThisExpressionSyntax or BaseExpressionSyntax or AnonymousFunctionExpressionSyntax or AssignmentExpressionSyntax => true,
                InvocationExpressionSyntax { Expression: SimpleNameSyntax { Identifier.ValueText: not "nameof" } } => true,
                SimpleNameSyntax name => others.Contains(name.Identifier.ValueText),
                _ => false,
            });
        bool IsField(ExpressionSyntax target) =>
            target is IdentifierNameSyntax { Identifier.ValueText: var name } && fields.Contains(name)
            || target is MemberAccessExpressionSyntax { Expression: ThisExpressionSyntax, Name.Identifier.ValueText: var named } && fields.Contains(named);
        bool Effect(ExpressionSyntax expression) => expression switch
        {
            AssignmentExpressionSyntax { RawKind: (int)SyntaxKind.SimpleAssignmentExpression } assignment => IsField(assignment.Left) && Plain(assignment.Right),
            InvocationExpressionSyntax { Expression: MemberAccessExpressionSyntax } call => Plain(call),
            _ => false,
        };
        bool Statement(StatementSyntax statement) => statement switch
        {
            ExpressionStatementSyntax { Expression: var expression } => Effect(expression),
            IfStatementSyntax { Else: null } guard => Plain(guard.Condition) && Statement(guard.Statement),
            BlockSyntax block => block.Statements.All(Statement),
            ThrowStatementSyntax thrown => Plain(thrown.Expression),
            _ => false,
        };

        foreach (var constructor in type.InstanceConstructors)
        {
            if (constructor.IsImplicitlyDeclared)
            {
                continue;
            }

            if (constructor.DeclaringSyntaxReferences is not { Length: 1 } references
                || references[0].GetSyntax() is not ConstructorDeclarationSyntax declaration
                || declaration.Initializer is { } initializer && !initializer.ArgumentList.Arguments.All(a => Plain(a.Expression))
                || declaration.ExpressionBody is { } arrow && !Effect(arrow.Expression)
                || declaration.Body is { } body && !Statement(body))
            {
                return false;
            }
        }

        return true;
    }

    /// <summary>The await around the call (through ConfigureAwait), or null.</summary>
    public static IAwaitOperation? AwaitOf(IInvocationOperation call, AwaitInLoop.Context context)
    {
        IOperation awaited = call.WithImplicitConversionsAround();
        if (context.IsAwaitable(awaited.Type))
        {
            awaited = ConfiguredAwait.AroundTask(awaited).WithImplicitConversionsAround();
        }

        return awaited.Parent as IAwaitOperation;
    }

    /// <summary>Whether TPL0003 would report <c>Task.FromResult(value)</c> written at the call: a constant the runtime does not cache, in code that runs repeatedly.</summary>
    private static bool IsCachedByRule(IOperation value, IInvocationOperation call, ISymbol member, Context context) =>
        ConstantResult.TryGet(value, out var constant)
        && call.Type is INamedTypeSymbol { TypeArguments.Length: 1 } task
        && !TaskResultCache.IsCachedByRuntime(task.TypeArguments[0], constant, context.CacheLevel)
        && call.RunsRepeatedly(member);
}
