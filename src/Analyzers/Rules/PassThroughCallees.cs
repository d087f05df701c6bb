using System.Collections.Generic;
using System.Collections.Immutable;
using System.Linq;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp.Syntax;
using Microsoft.CodeAnalysis.Operations;
using TplPractices.Analyzers.Internals;

namespace TplPractices.Analyzers.Rules;

/// <summary>
/// TPL0016's question of an awaited task expression: can evaluating it throw before the task exists? An <c>async</c>
/// method puts such an exception in its task and a plain one throws it at the call, so only expressions that cannot
/// are returned in place of their await. They are calls on <c>this</c>, <c>base</c> or no receiver, with arguments that
/// are plain reads (<see cref="SafeTests"/>), of a callee that puts every exception in its task; the Task factories
/// whose checks the arguments provably pass; <c>Task.CompletedTask</c>; and <c>?:</c> or switch expressions between
/// such expressions.
/// </summary>
internal static class PassThroughCallees
{
    /// <summary>How many plain methods or nested task expressions a chain may pass through: a fixed pass-through is one link.</summary>
    private const int Depth = 4;

    /// <param name="task">The awaited expression.</param>
    /// <param name="context">The rule's symbols.</param>
    /// <param name="trustServices">Whether <c>trust_injected_services</c> is on (<see cref="InjectedServices"/>).</param>
    public static bool CannotThrow(IOperation task, PassThroughAsync.Context context, bool trustServices) =>
        CannotThrow(task, context, Depth, ImmutableStack<IMethodSymbol>.Empty, trustServices);

    /// <summary>
    /// TPL0007's weaker question of the task a <c>Task.Run</c> lambda returns: can making it throw
    /// OperationCanceledException (which Task.Run's unwrap turns into cancellation and StartNew(…).Unwrap() into a
    /// fault)? As <see cref="CannotThrow(IOperation, PassThroughAsync.Context, bool)"/>, except that the call's arguments
    /// may also read a CancellationTokenSource's <c>Token</c>, whose getter throws only ObjectDisposedException, which
    /// both unwraps report alike (<c>Task.Run(() =&gt; ResolveNowAsync(_cts.Token))</c> in grpc-dotnet's resolver).
    /// </summary>
    public static bool CannotThrowCancellation(IOperation task, PassThroughAsync.Context context) =>
        CannotThrow(task, context, Depth, ImmutableStack<IMethodSymbol>.Empty, trustServices: false, sourceTokens: true);

    /// <param name="task">The expression.</param>
    /// <param name="context">The rule's symbols.</param>
    /// <param name="depth">How many more links the chain may take.</param>
    /// <param name="chain">The plain methods whose returned call is being checked, innermost first.</param>
    /// <param name="trustServices">Whether calls on injected services count.</param>
    /// <param name="sourceTokens">Whether the call's arguments may read a CancellationTokenSource's Token (<see cref="CannotThrowCancellation"/>).</param>
    private static bool CannotThrow(IOperation task, PassThroughAsync.Context context, int depth, ImmutableStack<IMethodSymbol> chain, bool trustServices = false, bool sourceTokens = false) => depth > 0 && task switch
    {
        IInvocationOperation call when context.IsTask(call.TargetMethod.ContainingType) => TaskFactoryCall(call, context, depth, chain),
        IInvocationOperation { Instance: IFieldReferenceOperation { Instance: IInstanceReferenceOperation { ReferenceKind: InstanceReferenceKind.ContainingTypeInstance }, Field: var service } } call
            when trustServices => call.Arguments.All(a => SafeArgument(a.Value)) && InjectedServices.IsNeverNull(service),
        IInvocationOperation { Instance: IParameterReferenceOperation { Parameter: var service } } call
            when trustServices => call.Arguments.All(a => SafeArgument(a.Value)) && InjectedServices.IsNeverNullService(service),
        IInvocationOperation call => Call(call, context, depth, chain, sourceTokens),
        IPropertyReferenceOperation { Property: { Name: "CompletedTask", IsStatic: true } property } => context.IsTask(property.ContainingType),
        IConditionalOperation { WhenFalse: { } whenFalse } choice =>
            SafeTests.Condition(choice.Condition) && CannotThrow(choice.WhenTrue, context, depth - 1, chain, trustServices) && CannotThrow(whenFalse, context, depth - 1, chain, trustServices),
        ISwitchExpressionOperation choice => SafeTests.SwitchExpression(choice, arm => CannotThrow(arm, context, depth - 1, chain, trustServices)),

        // `held ?? Task.FromResult(0)`: a read of a task that exists already, or one made here when it is null; the
        // result is never null, so the caller awaits the same task either way.
        ICoalesceOperation { Value: var held, WhenNull: var made } =>
            SafeTests.Read(held) && CannotThrow(made.WithoutImplicitConversions(), context, depth - 1, chain, trustServices),
        _ => false,
    };

    /// <summary>
    /// A call whose receiver cannot be null and whose arguments run no code, of a callee that puts every exception in its
    /// task and that no override can replace. The receiver is <c>this</c>, <c>base</c>, none, or a readonly field (or a
    /// get-only auto-property) of this instance that is never null: set by a <c>new</c> in its initializer, or in every constructor from a parameter
    /// checked for null (<see cref="InjectedServices.IsNeverNull(IFieldSymbol, bool)"/>; a parameter only declared non-nullable is not enough
    /// here, since <c>null!</c> passes it); or a static readonly field a <c>new</c> in its initializer sets.
    /// </summary>
    private static bool Call(IInvocationOperation call, PassThroughAsync.Context context, int depth, ImmutableStack<IMethodSymbol> chain, bool sourceTokens)
    {
        var callee = call.TargetMethod.OriginalDefinition;
        var viaBase = call.Instance?.Syntax is BaseExpressionSyntax;
        // A member of this type as the receiver; its test runs last, since it reads the type's constructors.
        ISymbol? member = call.Instance switch
        {
            IFieldReferenceOperation { Instance: IInstanceReferenceOperation { ReferenceKind: InstanceReferenceKind.ContainingTypeInstance } } field => field.Field,
            IFieldReferenceOperation { Instance: null, Field.IsStatic: true } field => field.Field,
            IPropertyReferenceOperation { Instance: IInstanceReferenceOperation { ReferenceKind: InstanceReferenceKind.ContainingTypeInstance }, Arguments.IsEmpty: true } property => property.Property,
            _ => null,
        };
        return (member is not null || call.Instance is null or IInstanceReferenceOperation { ReferenceKind: InstanceReferenceKind.ContainingTypeInstance })
            && (viaBase || !(callee.IsVirtual || callee.IsAbstract || callee.IsOverride) || callee.IsSealed || callee.ContainingType.IsSealed || callee.ContainingType.IsValueType)
            && call.Arguments.All(a => SafeArgument(a.Value) || (sourceTokens && ReadsASourcesToken(a.Value)))
            && PutsExceptionsInItsTask(callee, call.SemanticModel, context, depth, chain)
            && member switch
            {
                IFieldSymbol field => InjectedServices.IsNeverNull(field, checkedOnly: true),
                IPropertySymbol property => InjectedServices.IsNeverNull(property, checkedOnly: true),
                _ => true,
            };
    }

    /// <summary>
    /// An argument whose evaluation cannot throw: a read, a built-in test or unchecked arithmetic of reads
    /// (<see cref="SafeTests.Condition"/>), a TimeSpan of constants in range (<see cref="DelayTimeSpan"/>), or a
    /// delegate made of a lambda or
    /// of a method that is static or of this instance (making a delegate of another receiver's method throws where it
    /// is null).
    /// </summary>
    private static bool SafeArgument(IOperation value) =>
        SafeTests.Condition(value)
        || DelayTimeSpan.IsAccepted(value)
        || value.WithoutImplicitConversions() is IDelegateCreationOperation { Target: var target }
            && (target is IAnonymousFunctionOperation
                || target is IMethodReferenceOperation { Method.IsExtensionMethod: false, Instance: null or IInstanceReferenceOperation { ReferenceKind: InstanceReferenceKind.ContainingTypeInstance } });

    /// <summary>A plain read of a CancellationTokenSource's <c>Token</c> (<see cref="CannotThrowCancellation"/>).</summary>
    private static bool ReadsASourcesToken(IOperation value) =>
        value.WithoutImplicitConversions() is IPropertyReferenceOperation { Property: { Name: "Token", IsStatic: false } property, Instance: { } source }
        && property.ContainingType.IsSystemThreadingType("CancellationTokenSource")
        && SafeTests.Read(source);

    /// <summary>
    /// Task.FromResult of a value that cannot throw (<see cref="SafeArgument"/>); Task.Delay of a constant it accepts (-1 or more, or a TimeSpan of constants,
    /// <see cref="DelayTimeSpan"/>), with a token; Task.Run of a lambda or a
    /// method of this type, with a token; Task.WhenAll and WhenAny of tasks that cannot throw either (WhenAny of at least
    /// one: of none it throws).
    /// </summary>
    private static bool TaskFactoryCall(IInvocationOperation call, PassThroughAsync.Context context, int depth, ImmutableStack<IMethodSymbol> chain)
    {
        var arguments = call.Arguments;
        switch (call.TargetMethod.Name)
        {
            case "FromResult":
                return arguments.Length == 1 && SafeArgument(arguments[0].Value);
            case "Delay":
                return arguments.Length is 1 or 2
                    && (arguments[0].Value.ConstantValue is { HasValue: true, Value: int milliseconds } ? milliseconds >= -1 : DelayTimeSpan.IsAccepted(arguments[0].Value))
                    && (arguments.Length == 1 || IsToken(arguments[1], context));
            case "Run":
                return arguments.Length is 1 or 2
                    && arguments[0].Value.WithoutImplicitConversions() is IDelegateCreationOperation { Target: var target }
                    && (target is IAnonymousFunctionOperation
                        || target is IMethodReferenceOperation { Instance: null or IInstanceReferenceOperation { ReferenceKind: InstanceReferenceKind.ContainingTypeInstance } })
                    && (arguments.Length == 1 || IsToken(arguments[1], context));
            case "WhenAll" or "WhenAny":
                var tasks = TasksOf(arguments);
                return tasks is not null
                    && (call.TargetMethod.Name == "WhenAll" || tasks.Count > 0)
                    && tasks.All(t => CannotThrow(t.WithoutImplicitConversions(), context, depth - 1, chain));
            default:
                return false;
        }
    }

    /// <summary>
    /// The tasks a WhenAll or WhenAny takes: an array (a params array or a written one), a collection expression (a
    /// params span since .NET 9), or the two of <c>WhenAny(task1, task2)</c> (.NET Core 3.0 and later); null otherwise.
    /// </summary>
    private static List<IOperation>? TasksOf(ImmutableArray<IArgumentOperation> arguments)
    {
        if (arguments.Length == 2)
        {
            return arguments.Select(a => a.Value).ToList();
        }

        return arguments.Length != 1 ? null : arguments[0].Value.WithoutImplicitConversions() switch
        {
            IArrayCreationOperation { Initializer: { } initializer } => initializer.ElementValues.ToList(),
            var collection when collection.IsCollectionExpression() => collection.ChildOperations.ToList(),
            _ => null,
        };
    }

    private static bool IsToken(IArgumentOperation argument, PassThroughAsync.Context context) =>
        SymbolEqualityComparer.Default.Equals(argument.Parameter?.Type, context.CancellationToken) && SafeTests.Read(argument.Value);

    /// <summary>
    /// An async method: of this compilation, or of a referenced assembly that marks it with the attribute the compiler
    /// puts on async methods (the build reads the version it compiles against; see the rule's page on version drift). Or,
    /// in the same file, a plain one whose body returns such a call after statements that cannot throw (what this rule's
    /// fix leaves), so that a chain of pass-throughs is reported the same whichever link is fixed first. A plain method
    /// met again in its own chain only ever calls itself down that path: it ends in a stack overflow, which no code can
    /// catch, with or without <c>async</c>. Other files would need a semantic model an analyzer must not make.
    /// </summary>
    private static bool PutsExceptionsInItsTask(IMethodSymbol callee, SemanticModel? model, PassThroughAsync.Context context, int depth, ImmutableStack<IMethodSymbol> chain)
    {
        if (callee.IsAsync || IsCompiledAsync(callee, context))
        {
            return true;
        }

        if (model is null || callee.DeclaringSyntaxReferences.Length != 1 || callee.DeclaringSyntaxReferences[0].SyntaxTree != model.SyntaxTree)
        {
            return false;
        }

        if (chain.Contains(callee, SymbolEqualityComparer.Default))
        {
            return true;
        }

        var returned = callee.DeclaringSyntaxReferences[0].GetSyntax() switch
        {
            MethodDeclarationSyntax { ExpressionBody.Expression: var expression } => expression,
            LocalFunctionStatementSyntax { ExpressionBody.Expression: var expression } => expression,
            MethodDeclarationSyntax { Body.Statements: var statements } => ReturnedAfterQuietStatements(statements, model),
            LocalFunctionStatementSyntax { Body.Statements: var statements } => ReturnedAfterQuietStatements(statements, model),
            _ => null,
        };
        return returned is not null
            && model.GetOperation(returned) is { } inner
            && SymbolEqualityComparer.IncludeNullability.Equals(inner.Type, callee.ReturnType)
            && CannotThrow(inner, context, depth - 1, chain.Push(callee));
    }

    /// <summary>
    /// The expression a body ends by returning, where every statement before it cannot throw: a local function, or a
    /// local each of whose values is a plain read or a delegate of a lambda (<see cref="SafeArgument"/>); null otherwise.
    /// </summary>
    private static ExpressionSyntax? ReturnedAfterQuietStatements(SyntaxList<StatementSyntax> statements, SemanticModel model)
    {
        if (statements.LastOrDefault() is not ReturnStatementSyntax { Expression: { } returned })
        {
            return null;
        }

        for (var i = 0; i < statements.Count - 1; i++)
        {
            var quiet = statements[i] switch
            {
                LocalFunctionStatementSyntax => true,
                LocalDeclarationStatementSyntax { UsingKeyword.RawKind: 0, Declaration.Variables: var variables } =>
                    variables.All(v => model.GetOperation(v) is IVariableDeclaratorOperation { Initializer.Value: var value } && SafeArgument(value)),
                _ => false,
            };
            if (!quiet)
            {
                return null;
            }
        }

        return returned;
    }

    /// <summary>A method of a referenced assembly that the compiler built as a state machine.</summary>
    private static bool IsCompiledAsync(IMethodSymbol callee, PassThroughAsync.Context context) =>
        context.AsyncStateMachineAttribute is { } attribute
        && callee.DeclaringSyntaxReferences.IsEmpty
        && callee.GetAttributes().Any(a => SymbolEqualityComparer.Default.Equals(a.AttributeClass, attribute));
}
