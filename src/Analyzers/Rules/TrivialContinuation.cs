using System.Collections.Generic;
using System.Collections.Immutable;
using System.Globalization;
using System.Linq;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp.Syntax;
using Microsoft.CodeAnalysis.Operations;
using TplPractices.Analyzers.Internals;

namespace TplPractices.Analyzers.Rules;

/// <summary>
/// TPL0011's questions: is a ContinueWith call's delegate provably trivial, is it queued where it could run
/// synchronously, and can the flag be added without changing anything else about the call.
/// </summary>
/// <remarks>
/// Trivial is what the continuation costs, whatever the spelling: a bounded amount of the runtime's own code that
/// cannot block, loop or call user code. A lambda whose every path runs at most <see cref="MaxStatements"/>
/// statements (an if counts its longer branch, not both), each of them one of: completing a TaskCompletionSource held
/// in a variable, field or parameter (SetResult, TrySetResult, SetException, TrySetException, SetCanceled,
/// TrySetCanceled); assigning a field, captured variable or discard; returning; with values built only from
/// constants, variables, fields, parameters, the antecedent's own properties (Result, Status, Exception, IsFaulted…),
/// the language's built-in operators, conversions and patterns (constant, relational, type; a switch expression of
/// them), and text made of values whose formatting is the runtime's (primitives, strings, enums: concatenation,
/// interpolation or ToString alike). No other call, no object creation, no property of another type, no loop,
/// lock, await or nested function. Completing a TaskCompletionSource can run its own synchronous continuations; that
/// was so before the fix too, on whichever thread ran the continuation.
/// </remarks>
internal static class TrivialContinuation
{
    public const string FixAddFlag = "AddExecuteSynchronously";

    public const int MaxStatements = 2;

    private const long LongRunning = 2;
    private const long ExecuteSynchronously = 0x80000;

    private static readonly ImmutableHashSet<string> AntecedentProperties = ImmutableHashSet.Create(
        "Result", "Status", "Exception", "IsCompleted", "IsCompletedSuccessfully", "IsFaulted", "IsCanceled", "Id", "AsyncState", "CreationOptions");

    internal sealed class Context
    {
        private Context(Compilation compilation, INamedTypeSymbol task, INamedTypeSymbol options)
        {
            Task = task;
            TaskOfT = compilation.GetTypeByMetadataName(WellKnownTypeNames.TaskOfT);
            Options = options;
            Scheduler = compilation.GetTypeByMetadataName(WellKnownTypeNames.TaskScheduler);
            Sources = new CompletionSources(compilation);
            Chains = ContinueWithChain.Context.TryCreate(compilation);
        }

        public ContinueWithChain.Context? Chains { get; }

        public INamedTypeSymbol Task { get; }

        public INamedTypeSymbol? TaskOfT { get; }

        public INamedTypeSymbol Options { get; }

        public INamedTypeSymbol? Scheduler { get; }

        public CompletionSources Sources { get; }

        public static Context? TryCreate(Compilation compilation) =>
            compilation.GetTypeByMetadataName(WellKnownTypeNames.Task) is { } task
            && compilation.GetTypeByMetadataName(WellKnownTypeNames.TaskContinuationOptions) is { } options
                ? new Context(compilation, task, options)
                : null;

        public bool IsTaskType(ITypeSymbol? type) =>
            SymbolEqualityComparer.Default.Equals(type, Task) || SymbolEqualityComparer.Default.Equals(type?.OriginalDefinition, TaskOfT);
    }

    /// <summary>What the continuation does, for the message; null when it is not trivial.</summary>
    public sealed class Site
    {
        public Site(string shape, bool canFix)
        {
            Shape = shape;
            CanFix = canFix;
        }

        public string Shape { get; }

        public bool CanFix { get; }
    }

    /// <summary>The reportable ContinueWith call, or null: a Task's own ContinueWith, a trivial lambda, no ExecuteSynchronously yet, nothing that rules it out.</summary>
    public static Site? Analyze(IInvocationOperation call, Context symbols)
    {
        var method = call.TargetMethod;
        if (method.IsStatic
            || !symbols.IsTaskType(method.ContainingType)
            || IsLinkAfterTheFirst(call)
            || !NothingResumesOnItsTask(call)
            || call.Arguments.FirstOrDefault(a => a.Parameter?.Ordinal == 0)?.Value is not IDelegateCreationOperation { Target: IAnonymousFunctionOperation lambda }
            || lambda.Symbol.IsAsync
            || Shape(lambda, new Antecedent(lambda.Symbol.Parameters.FirstOrDefault(), call), symbols) is not { } shape
            || ContinuesAContinuationHeldInALocal(call))
        {
            return null;
        }

        foreach (var argument in call.Arguments)
        {
            var type = argument.Parameter?.Type;
            // A value the analyzer cannot read, one that already has the flag, or LongRunning (the two throw together).
            if (SymbolEqualityComparer.Default.Equals(type, symbols.Options)
                && (argument.Value.ConstantValue is not { HasValue: true, Value: { } value }
                    || (System.Convert.ToInt64(value, CultureInfo.InvariantCulture) & (ExecuteSynchronously | LongRunning)) != 0))
            {
                return null;
            }

            // A scheduler of the caller's (a UI thread's, an exclusive pair's) decides where the continuation runs.
            if (SymbolEqualityComparer.Default.Equals(type, symbols.Scheduler) && !IsStandardScheduler(argument.Value, symbols))
            {
                return null;
            }
        }

        // The fix adds the flag to the options, or adds the options after the delegate (and state): every target has
        // those overloads. A token or scheduler without options moves to the overload with all four (TPL0019's rewrite,
        // TaskScheduler.Current written out where none was passed), so the two rules' fixes give one text in either order.
        // A source the continuation completes runs its awaiters inside the completion unless it was made to run them
        // asynchronously: with the flag they would move to the antecedent's completing thread (TrivialContinuationSources).
        var canFix = call.Arguments.All(a => a.Written() is { NameColon: null })
            && TrivialContinuationSources.AllRunContinuationsAsynchronously(lambda, call, symbols.Sources);
        return new Site(shape, canFix);
    }

    /// <summary>
    /// A continuation of a continuation: its antecedent runs on a thread-pool thread, which takes the queued
    /// continuation from its own local queue next. Measured on .NET 10, the seed's chain of such links gains 0 to 11 %
    /// from the flag (docs/rules/TPL0011.md), so they are not reported; the first link, whose antecedent completes
    /// anywhere, gains about twentyfold.
    /// </summary>
    private static bool IsLinkAfterTheFirst(IInvocationOperation call) =>
        call.Instance?.WithoutImplicitConversions() is IInvocationOperation { TargetMethod.Name: "ContinueWith" };

    /// <summary>
    /// With ExecuteSynchronously the continuation runs inside the code that completes the antecedent, and so does
    /// whatever resumes on the continuation's own task without blocking: an await (the rest of an async method; a
    /// hosted service's start-up resuming inside the host's notification), a further continuation, any caller it is
    /// returned or handed to. Only a task nothing resumes on is safe: dropped, or waited for by a blocked thread
    /// (Wait, Result, GetAwaiter().GetResult()), which goes on on its own thread.
    /// </summary>
    private static bool NothingResumesOnItsTask(IInvocationOperation call)
    {
        var use = call.WithImplicitConversionsAround().Parent;
        if (use is IConditionalAccessOperation access && access.WhenNotNull == call)
        {
            use = access.WithImplicitConversionsAround().Parent;
        }

        return use switch
        {
            IExpressionStatementOperation => true,
            ISimpleAssignmentOperation { Target: IDiscardOperation } => true,
            IInvocationOperation { TargetMethod.Name: "Wait" } => true,
            IPropertyReferenceOperation { Property.Name: "Result" } => true,
            IInvocationOperation { TargetMethod.Name: "GetAwaiter", Parent: IInvocationOperation { TargetMethod.Name: "GetResult" } } => true,
            _ => false,
        };
    }

    /// <summary>
    /// The same link written through a local (<c>var d = s.ContinueWith(…); d.ContinueWith(…)</c>): the local is
    /// initialised with a ContinueWith and nothing else writes it. Asked last: it walks the method's body.
    /// </summary>
    private static bool ContinuesAContinuationHeldInALocal(IInvocationOperation call) =>
        call.Instance?.WithoutImplicitConversions() is ILocalReferenceOperation { Local: var local }
        && call.Root().OnlyValueOf(local)?.WithoutImplicitConversions() is IInvocationOperation { TargetMethod.Name: "ContinueWith" };

    private static bool IsStandardScheduler(IOperation value, Context symbols) =>
        value.WithoutImplicitConversions() is IPropertyReferenceOperation { Property: { IsStatic: true, Name: "Default" or "Current" } property }
        && SymbolEqualityComparer.Default.Equals(property.ContainingType, symbols.Scheduler);

    /// <summary>How the lambda's body reads, when it is trivial.</summary>
    private static string? Shape(IAnonymousFunctionOperation lambda, Antecedent antecedent, Context symbols)
    {
        var statements = new List<IOperation>();
        foreach (var operation in lambda.Body.Operations)
        {
            if (operation is not IReturnOperation { IsImplicit: true, ReturnedValue: null })
            {
                statements.Add(operation);
            }
        }

        var budget = MaxStatements;
        var shape = statements.Count == 0 ? Shapes.Empty : Shapes.Returns;
        return AreTrivial(statements, antecedent, symbols, ref budget, ref shape) ? shape : null;
    }

    /// <summary>
    /// The variable or parameter the call continues (<c>task</c> in <c>task.ContinueWith(…)</c>), when nothing writes
    /// it: read in the lambda, it is then the antecedent, complete. A variable written elsewhere could hold a task
    /// still running by then, and its Result would block.
    /// </summary>
    private static ISymbol? ReceiverOf(IInvocationOperation call)
    {
        ISymbol? variable = call.Instance?.WithoutImplicitConversions() switch
        {
            ILocalReferenceOperation local => local.Local,
            IParameterReferenceOperation { Parameter.RefKind: RefKind.None } parameter => parameter.Parameter,
            _ => null,
        };
        return variable is not null && !StateCapture.IsWrittenAnywhere(variable, call.Root()) ? variable : null;
    }

    /// <summary>
    /// The antecedent, as the lambda can name it: its own first parameter, or the variable the call continues, which
    /// the lambda captures (<c>task.ContinueWith(_ =&gt; done.SetResult(task.Result))</c>; TPL0001's fix turns that
    /// capture into the parameter, and the continuation must stay trivial either way).
    /// </summary>
    private sealed class Antecedent
    {
        private readonly IParameterSymbol? _parameter;
        private readonly IInvocationOperation _call;
        private ISymbol? _receiver;
        private bool _receiverKnown;

        public Antecedent(IParameterSymbol? parameter, IInvocationOperation call)
        {
            _parameter = parameter;
            _call = call;
        }

        public bool Is(IOperation operation) => operation switch
        {
            IParameterReferenceOperation reference when SymbolEqualityComparer.Default.Equals(reference.Parameter, _parameter) => true,
            IParameterReferenceOperation or ILocalReferenceOperation => SymbolEqualityComparer.Default.Equals(StateCapture.ReferencedSymbol(operation), Receiver()),
            _ => false,
        };

        // Worked out only when the lambda reads a captured variable's property: it walks the method's body.
        private ISymbol? Receiver()
        {
            if (!_receiverKnown)
            {
                _receiver = ReceiverOf(_call);
                _receiverKnown = true;
            }

            return _receiver;
        }
    }

    /// <summary>What a trivial continuation does, strongest first: the message names it.</summary>
    private static class Shapes
    {
        public const string Completes = "completes a TaskCompletionSource";
        public const string Sets = "sets a field or variable";
        public const string Returns = "returns the antecedent's result or status";
        public const string Empty = "does nothing";
    }

    private static bool AreTrivial(IEnumerable<IOperation> statements, Antecedent antecedent, Context symbols, ref int budget, ref string shape)
    {
        foreach (var statement in statements)
        {
            if (Counts(statement) && --budget < 0)
            {
                return false;
            }

            switch (statement)
            {
                case IExpressionStatementOperation { Operation: ISimpleAssignmentOperation { Target: IDiscardOperation } discard }
                    when IsTrivialValue(discard.Value, antecedent, symbols):
                    break; // reads a value and drops it, as a declared local nobody reads does
                case IExpressionStatementOperation { Operation: ISimpleAssignmentOperation assignment }
                    when IsPlainStore(assignment.Target) && IsTrivialValue(assignment.Value, antecedent, symbols):
                    shape = shape == Shapes.Completes ? shape : Shapes.Sets;
                    break;
                case IExpressionStatementOperation { Operation: IInvocationOperation completion } when IsCompletion(completion, antecedent, symbols):
                case IReturnOperation { ReturnedValue: IInvocationOperation returned } when IsCompletion(returned, antecedent, symbols):
                    shape = Shapes.Completes;
                    break;
                case IReturnOperation { ReturnedValue: var value } when value is null || IsTrivialValue(value, antecedent, symbols):
                    break;
                case IVariableDeclarationGroupOperation group when group.Declarations.SelectMany(d => d.Declarators)
                    .All(d => d.Initializer is { } initializer && IsTrivialValue(initializer.Value, antecedent, symbols)):
                case IExpressionStatementOperation { Operation: IDeconstructionAssignmentOperation { Value: { Type.IsTupleType: true } tuple } }
                    when IsTrivialValue(tuple, antecedent, symbols):
                    break;
                case IConditionalOperation { IsRef: false } branch when IsTrivialValue(branch.Condition, antecedent, symbols):
                    // One branch runs: the longer one is what the continuation costs (an if/else-if/else forwarding
                    // an outcome to a TaskCompletionSource is one completion, whichever way it goes).
                    var whenTrue = budget;
                    var whenFalse = budget;
                    if (!AreTrivial(Flatten(branch.WhenTrue), antecedent, symbols, ref whenTrue, ref shape)
                        || (branch.WhenFalse is { } otherwise && !AreTrivial(Flatten(otherwise), antecedent, symbols, ref whenFalse, ref shape)))
                    {
                        return false;
                    }

                    budget = System.Math.Min(whenTrue, whenFalse);
                    break;
                default:
                    return false;
            }
        }

        return true;
    }

    /// <summary>
    /// Whether a statement counts against the budget. Free: unpacking the state into locals, as TPL0001's fix writes it
    /// (<c>var self = (C)state!;</c>), so that the two fixes give the same text in either order; and an if, whose
    /// branches count instead.
    /// </summary>
    private static bool Counts(IOperation statement) =>
        statement is not (IVariableDeclarationGroupOperation or IConditionalOperation or IExpressionStatementOperation { Operation: IDeconstructionAssignmentOperation });

    private static IEnumerable<IOperation> Flatten(IOperation statement) => statement is IBlockOperation block ? block.Operations : new[] { statement };

    private static bool IsCompletion(IInvocationOperation call, Antecedent antecedent, Context symbols) =>
        symbols.Sources.IsCompletion(call.TargetMethod)
        && call.Instance is { } instance
        && IsPlainStore(instance.WithoutImplicitConversions())
        && call.Arguments.All(a => IsTrivialValue(a.Value, antecedent, symbols));

    /// <summary>A variable, parameter or field (of this object, or static): reading or writing it runs no code.</summary>
    private static bool IsPlainStore(IOperation operation) => operation switch
    {
        ILocalReferenceOperation or IParameterReferenceOperation => true,
        IConversionOperation { OperatorMethod: null, Conversion.IsReference: true } cast => IsPlainStore(cast.Operand),
        IFieldReferenceOperation field => field.Instance is null or IInstanceReferenceOperation || IsPlainStore(field.Instance),
        _ => false,
    };

    /// <summary>Exception.InnerException and AggregateException.InnerExceptions: neither virtual, each returns a field.</summary>
    private static bool IsInnerExceptions(IPropertySymbol property) =>
        property is { Name: "InnerException" or "InnerExceptions", ContainingType: { Name: "Exception" or "AggregateException" } type }
        && type.ContainingNamespace is { Name: "System", ContainingNamespace.IsGlobalNamespace: true };

    private static bool IsTrivialValue(IOperation value, Antecedent antecedent, Context symbols) => value switch
    {
        _ when value.ConstantValue.HasValue => true,
        IDefaultValueOperation or ITypeOfOperation or IInstanceReferenceOperation => true,
        ILocalReferenceOperation or IParameterReferenceOperation or IFieldReferenceOperation => IsPlainStore(value),
        IPropertyReferenceOperation { Instance: { } owner } property when antecedent.Is(owner) =>
            AntecedentProperties.Contains(property.Property.Name)
            && symbols.IsTaskType(property.Property.ContainingType),
        IPropertyReferenceOperation { Instance: { } exception } inner when IsInnerExceptions(inner.Property) =>
            IsTrivialValue(exception, antecedent, symbols),
        IConversionOperation { OperatorMethod: null } conversion => IsTrivialValue(conversion.Operand, antecedent, symbols),
        // Text: concatenation formats each operand; the operand's own ToString must be the runtime's.
        IBinaryOperation { OperatorMethod: null, Type.SpecialType: SpecialType.System_String } concatenation =>
            IsFormattedByTheRuntime(concatenation.LeftOperand, antecedent, symbols) && IsFormattedByTheRuntime(concatenation.RightOperand, antecedent, symbols),
        IBinaryOperation { OperatorMethod: null } binary => IsTrivialValue(binary.LeftOperand, antecedent, symbols) && IsTrivialValue(binary.RightOperand, antecedent, symbols),
        IInterpolatedStringOperation text => text.Parts.All(part => part switch
        {
            IInterpolatedStringTextOperation => true,
            IInterpolationOperation hole => (hole.Alignment is null || hole.Alignment.ConstantValue.HasValue)
                && (hole.FormatString is null || hole.FormatString.ConstantValue.HasValue)
                && IsFormattedByTheRuntime(hole.Expression, antecedent, symbols),
            _ => false,
        }),
        IInvocationOperation { TargetMethod: { Name: nameof(ToString), IsStatic: false }, Instance: { } formatted } toString =>
            toString.Arguments.All(a => a.Value.ConstantValue.HasValue) && IsFormattedByTheRuntime(formatted, antecedent, symbols),
        ISwitchExpressionOperation choice => IsTrivialValue(choice.Value, antecedent, symbols)
            && choice.Arms.All(arm => IsTrivialPattern(arm.Pattern)
                && (arm.Guard is null || IsTrivialValue(arm.Guard, antecedent, symbols))
                && IsTrivialValue(arm.Value, antecedent, symbols)),
        IIsPatternOperation test => IsTrivialValue(test.Value, antecedent, symbols) && IsTrivialPattern(test.Pattern),
        IUnaryOperation { OperatorMethod: null } unary => IsTrivialValue(unary.Operand, antecedent, symbols),
        IConditionalOperation { IsRef: false, WhenFalse: { } whenFalse } choice =>
            IsTrivialValue(choice.Condition, antecedent, symbols) && IsTrivialValue(choice.WhenTrue, antecedent, symbols) && IsTrivialValue(whenFalse, antecedent, symbols),
        _ => false,
    };

    /// <summary>
    /// A trivial value whose text the runtime makes without user code: a constant, or a primitive, string or enum
    /// (a struct's or class's own ToString could do anything).
    /// </summary>
    private static bool IsFormattedByTheRuntime(IOperation value, Antecedent antecedent, Context symbols)
    {
        var operand = value.WithoutImplicitConversions();
        return operand.ConstantValue.HasValue
            || (operand.Type is { } type
                && (type.TypeKind == TypeKind.Enum || type.SpecialType is >= SpecialType.System_Boolean and <= SpecialType.System_String)
                && IsTrivialValue(operand, antecedent, symbols));
    }

    /// <summary>Patterns that compare or test a type, and bind nothing but a local: no member of an unknown type is read.</summary>
    private static bool IsTrivialPattern(IPatternOperation pattern) => pattern switch
    {
        IConstantPatternOperation or IDiscardPatternOperation or IRelationalPatternOperation or ITypePatternOperation or IDeclarationPatternOperation => true,
        INegatedPatternOperation negated => IsTrivialPattern(negated.Pattern),
        IBinaryPatternOperation both => IsTrivialPattern(both.LeftPattern) && IsTrivialPattern(both.RightPattern),
        _ => false,
    };
}
