using System.Collections.Generic;
using System.Collections.Immutable;
using System.Linq;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp;
using Microsoft.CodeAnalysis.CSharp.Syntax;
using Microsoft.CodeAnalysis.Operations;

namespace TplPractices.Analyzers.Internals;

/// <summary>
/// What a lambda passed to a callback API captures, and whether a state can carry it instead: the analysis that
/// TPL0001 (StartNew, ContinueWith), TPL0006 (ThreadPool, CancellationToken, Timer …) and TPL0007 (Task.Run)
/// share, and the fixes' input for the rewrite.
/// </summary>
internal sealed partial class StateCapture
{
    /// <summary>
    /// More values than this read back as a tuple nobody would write by hand: the rule reports without a fix.
    /// Three by default; <c>tpl_practices.TPLnnnn.max_state_values</c> sets 1 to 7 (a tuple's widest flat form).
    /// </summary>
    public static readonly NumberOption MaxStateValues = new("max_state_values", 3, 1, 7);

    private StateCapture(
        IOperation call,
        IAnonymousFunctionOperation lambda,
        StateShape shape,
        ImmutableArray<ISymbol> captured,
        ISymbol? antecedent,
        string? noFixReason)
    {
        Call = call;
        Lambda = lambda;
        Shape = shape;
        Captured = captured;
        Antecedent = antecedent;
        NoFixReason = noFixReason;
    }

    /// <summary>The invocation or object creation the lambda is passed to.</summary>
    public IOperation Call { get; }

    public IAnonymousFunctionOperation Lambda { get; }

    public StateShape Shape { get; }

    /// <summary>
    /// What travels as state, in order of first use: locals, parameters, and the containing type standing
    /// for <c>this</c>. Empty when the only capture was the antecedent task.
    /// </summary>
    public ImmutableArray<ISymbol> Captured { get; }

    /// <summary>A captured variable that holds the continuation's own antecedent task; its parameter takes its place.</summary>
    public ISymbol? Antecedent { get; }

    /// <summary>Why no fix is offered; null when the state form keeps the behaviour.</summary>
    public string? NoFixReason { get; }

    /// <summary>A capture the analyzer found and reported with a fix, as its fixer reads it back (<see cref="StateFacts"/>).</summary>
    public static StateCapture Reported(IOperation call, IAnonymousFunctionOperation lambda, StateShape shape, ImmutableArray<ISymbol> captured, ISymbol? antecedent) =>
        new(call, lambda, shape, captured, antecedent, noFixReason: null);

    /// <summary>The same capture without a fix, for a reason the API gives that only the whole call shows.</summary>
    public StateCapture WithNoFix(string reason) => new(Call, Lambda, Shape, Captured, Antecedent, NoFixReason ?? reason);

    public IEnumerable<string> CapturedNames =>
        (Antecedent is null ? Captured : Captured.Insert(0, Antecedent)).Select(s => s is ITypeSymbol ? "this" : s.Name);


    /// <summary>The lambda argument of a call, or null when the argument is anything else (a method group, a static lambda).</summary>
    public static IAnonymousFunctionOperation? LambdaOf(IArgumentOperation? argument) =>
        argument?.Value.WithoutImplicitConversions() is IDelegateCreationOperation { Target: IAnonymousFunctionOperation lambda }
        && !lambda.Symbol.IsStatic
            ? lambda
            : null;

    /// <summary>
    /// The capture, or null when the lambda captures nothing or must share what it captures with the code around
    /// it. <paramref name="apiNoFix"/> gives the API's own reason for no fix (no state overload); it is asked last,
    /// and only for a capture, because finding the overload compares signatures. <paramref name="key"/> is the variable
    /// the call passes as the key its factory is handed (with a shape that reads it from the first parameter).
    /// </summary>
    public static StateCapture? Of(IOperation call, IAnonymousFunctionOperation lambda, StateShape shape, int maxStateValues, bool hasValueTuple, System.Func<string?>? apiNoFix = null, ISymbol? key = null)
    {
        var (captured, noFix) = OuterUses(lambda, shape);
        if (captured.Count == 0)
        {
            return null;
        }

        // The closure shares these variables; a copy in the state would not see writes to them.
        var variables = captured.Where(s => s is not ITypeSymbol).ToList();
        if (variables.Any(v => TypeOf(v) is { IsValueType: true } type && IsMutableStruct(type))
            || IsWrittenUnsafely(variables, lambda, call.Root())
            || variables.Any(IsPrimaryConstructorParameterWrittenAnywhere))
        {
            return null;
        }

        ISymbol? antecedent = null;
        if (shape.HasAntecedent
            && call is IInvocationOperation { Instance: { } receiverOperation }
            && ReferencedSymbol(receiverOperation) is { } receiver
            && captured.Contains(receiver, SymbolEqualityComparer.Default)
            && CanStandFor(lambda, receiver, keepsName: ReferencesFirstParameter(lambda)))
        {
            antecedent = receiver;
            captured.Remove(receiver);
        }
        else if (shape.HasAntecedent
            && key is not null
            && captured.Contains(key, SymbolEqualityComparer.Default)
            && CanStandFor(lambda, key, keepsName: ReferencesFirstParameter(lambda)))
        {
            // A dictionary hands its factory the key of the call: the first parameter holds it.
            antecedent = key;
            captured.Remove(key);
        }

        noFix ??= FixBlocker(call, lambda, shape, captured, maxStateValues, hasValueTuple) ?? (captured.Count > 0 ? apiNoFix?.Invoke() : null);
        return new StateCapture(call, lambda, shape, captured.ToImmutableArray(), antecedent, noFix);
    }

    /// <summary>
    /// What the lambda uses from the code around it (locals, parameters, the containing type standing for <c>this</c>), in
    /// order of first use, and the first reason its state form could not be written, if any.
    /// </summary>
    private static (List<ISymbol> Captured, string? NoFix) OuterUses(IAnonymousFunctionOperation lambda, StateShape shape)
    {
        var captured = new List<ISymbol>();
        string? noFix = null;
        var function = lambda.Symbol;
        // By kind first: a type test per interface, on every operation of every lambda, cost more than the rest.
        foreach (var operation in lambda.Body.Descendants())
        {
            switch (operation.Kind)
            {
                // A const local is compiled in as its value, and nameof(x) reads no variable: neither is captured.
                case OperationKind.LocalReference:
                    var local = ((ILocalReferenceOperation)operation).Local;
                    if (!local.IsConst && !IsInside(local.ContainingSymbol, function) && !IsInNameOf(operation))
                    {
                        Add(captured, local);
                    }

                    break;
                case OperationKind.ParameterReference:
                    var parameter = ((IParameterReferenceOperation)operation).Parameter;
                    if (IsInNameOf(operation))
                    {
                        break;
                    }

                    if (!IsInside(parameter.ContainingSymbol, function))
                    {
                        Add(captured, parameter);
                    }
                    else if (shape.ReplacesParameter
                        && SymbolEqualityComparer.Default.Equals(parameter, ParameterAt(lambda, shape.StateParameter))
                        && !IsDiscardOnceRenamed((IParameterReferenceOperation)operation, lambda))
                    {
                        noFix ??= "the callback reads the state it is given";
                    }

                    break;
                // nameof(Work) binds Work through an implicit 'this' (even in a static class), yet reads nothing.
                case OperationKind.InstanceReference when operation is IInstanceReferenceOperation { ReferenceKind: InstanceReferenceKind.ContainingTypeInstance } instance
                    && !IsInNameOf(operation):
                    Add(captured, function.ContainingType);
                    noFix ??= CanRewriteThis(instance) ? null : "it uses 'base' or a member form the fix cannot requalify";
                    break;
                case OperationKind.Invocation when ((IInvocationOperation)operation).TargetMethod is { MethodKind: MethodKind.LocalFunction, IsStatic: false } called
                    && !IsInside(called.ContainingSymbol, function):
                case OperationKind.MethodReference when ((IMethodReferenceOperation)operation).Method is { MethodKind: MethodKind.LocalFunction, IsStatic: false } referenced
                    && !IsInside(referenced.ContainingSymbol, function):
                    noFix ??= "it calls a local function that may capture variables itself";
                    break;
            }
        }

        return (captured, noFix);
    }

    /// <summary>
    /// Whether the lambda uses nothing of the code around it (no outer local or parameter, no <c>this</c>, no local
    /// function that could capture): it can be made <c>static</c> and handed a state it does not read.
    /// </summary>
    public static bool CapturesNothing(IAnonymousFunctionOperation lambda, StateShape shape) =>
        OuterUses(lambda, shape) is { Captured.Count: 0, NoFix: null };

    /// <summary>
    /// Whether the lambda uses nothing of the code around it but <paramref name="variable"/>, which no write can change
    /// between the call and the lambda's run (the same checks as a copy into a state), and which is no mutable struct
    /// (a method called on a copy would not change the variable).
    /// </summary>
    public static bool UsesOnly(IAnonymousFunctionOperation lambda, ISymbol variable, IOperation root) =>
        OuterUses(lambda, StateShape.NewObjectState) is { NoFix: null, Captured: { Count: 1 } captured }
        && SymbolEqualityComparer.Default.Equals(captured[0], variable)
        && TypeOf(variable) is { } type && !(type.IsValueType && IsMutableStruct(type))
        && !IsWrittenUnsafely(new List<ISymbol> { variable }, lambda, root)
        && !IsPrimaryConstructorParameterWrittenAnywhere(variable);

    /// <summary>
    /// Whether the lambda's first parameter can replace its reads of <paramref name="variable"/>: it has the variable's
    /// type, and where the rewrite keeps the parameter's name (<paramref name="keepsName"/>) no function nested in the
    /// body declares that name, or a read written with it there would bind to the inner one. Any identifier with the
    /// name that is not a plain name read counts as a declaration: cheap, and never too lenient.
    /// </summary>
    public static bool CanStandFor(IAnonymousFunctionOperation lambda, ISymbol variable, bool keepsName) =>
        lambda.Symbol.Parameters.FirstOrDefault() is { } parameter
        && SymbolEqualityComparer.Default.Equals(TypeOf(variable), parameter.Type)
        && !(keepsName && lambda.Body.Syntax.HasTokenNamed(parameter.Name, SyntaxKind.IdentifierToken, t => t.Parent is not IdentifierNameSyntax));

    /// <summary>
    /// Whether the body refers to the lambda's first parameter at all (<c>nameof</c> too): the state rewrite then keeps
    /// its name for the antecedent, and renames it otherwise.
    /// </summary>
    private static bool ReferencesFirstParameter(IAnonymousFunctionOperation lambda) =>
        ParameterAt(lambda, 0) is { } parameter
        && lambda.Body.Descendants().Any(o => o is IParameterReferenceOperation reference && SymbolEqualityComparer.Default.Equals(reference.Parameter, parameter));

    /// <summary>
    /// Whether the reference is <c>_ = Work();</c> on a lone parameter named <c>_</c>, which C# binds to the parameter,
    /// not to a discard (<c>new Timer(_ =&gt; _ = RefreshAsync(), null, …)</c>). The value is written and never read;
    /// once the state rewrite renames the parameter, the same text is a discard, unless another <c>_</c> is in scope
    /// where the lambda stands (a field, an outer local), which it would then write.
    /// </summary>
    private static bool IsDiscardOnceRenamed(IParameterReferenceOperation reference, IAnonymousFunctionOperation lambda) =>
        reference.Parameter.Name == "_"
        && reference.Parent is ISimpleAssignmentOperation { Parent: IExpressionStatementOperation } assignment
        && assignment.Target == reference
        && lambda.SemanticModel is { } model
        && model.LookupSymbols(lambda.Syntax.SpanStart, name: "_").IsEmpty;

    /// <summary>
    /// Whether the lambda reads its parameter at <paramref name="ordinal"/> (outside <c>nameof</c>; a write that is a
    /// discard once the parameter is renamed is no read).
    /// </summary>
    public static bool ReadsParameter(IAnonymousFunctionOperation lambda, int ordinal)
    {
        if (ParameterAt(lambda, ordinal) is not { } parameter)
        {
            return false;
        }

        foreach (var operation in lambda.Body.Descendants())
        {
            if (operation is IParameterReferenceOperation reference
                && SymbolEqualityComparer.Default.Equals(reference.Parameter, parameter)
                && !IsInNameOf(operation)
                && !IsDiscardOnceRenamed(reference, lambda))
            {
                return true;
            }
        }

        return false;
    }

    /// <summary>Whether the reference is the argument of a <c>nameof</c>, which the compiler turns into a string.</summary>
    public static bool IsInNameOf(IOperation reference)
    {
        for (var current = reference.Parent; current is not null && current.Kind != OperationKind.AnonymousFunction; current = current.Parent)
        {
            if (current.Kind == OperationKind.NameOf)
            {
                return true;
            }
        }

        return false;
    }

    private static IParameterSymbol? ParameterAt(IAnonymousFunctionOperation lambda, int ordinal) =>
        ordinal < lambda.Symbol.Parameters.Length ? lambda.Symbol.Parameters[ordinal] : null;

    private static string? FixBlocker(IOperation call, IAnonymousFunctionOperation lambda, StateShape shape, List<ISymbol> captured, int maxStateValues, bool hasValueTuple)
    {
        // Half-typed code: the rewrite would repeat unresolved names and add errors (found by FuzzTests).
        if (captured.Any(s => TypeOf(s)?.ContainsErrorType() != false)
            || lambda.Body.DescendantsAndSelf().Any(o => o is IInvalidOperation || o.Type is { TypeKind: TypeKind.Error }))
        {
            return "the code does not compile yet";
        }

        if (((CSharpParseOptions)call.Syntax.SyntaxTree.Options).LanguageVersion < LanguageVersion.CSharp7)
        {
            return "the state is read back with a tuple deconstruction, which needs C# 7";
        }

        // Where the values fill the call's own state argument, every argument keeps its place and its name; where they
        // are inserted after the lambda, a name before them would leave them out of position, unless they go in named.
        if (ArgumentsOf(call.Syntax) is not { } arguments
            || (!shape.FillsArgument && shape.NamedState is null && NamesMoveOutOfPlace(arguments, lambda, shape))
            || lambda.Syntax is not AnonymousFunctionExpressionSyntax)
        {
            return "the call uses named arguments";
        }

        if (captured.Count > maxStateValues)
        {
            return "more values would travel as the state than max_state_values allows";
        }

        if (captured.Count > 1 && !hasValueTuple)
        {
            return "several values need System.ValueTuple, which this target lacks";
        }

        return captured.Any(s => TypeOf(s) is not { } type || !IsNameable(type))
            ? "a captured value has a type that cannot be named (an anonymous type)"
            : null;
    }

    /// <summary>
    /// Whether a value inserted positionally would break the call's named arguments: any named argument, unless the
    /// values go right after the delegate and every named argument comes after it (positional, then named: every C#
    /// version accepts it, and the overload keeps those names).
    /// </summary>
    private static bool NamesMoveOutOfPlace(SeparatedSyntaxList<ArgumentSyntax> arguments, IAnonymousFunctionOperation lambda, StateShape shape)
    {
        var lambdaIndex = -1;
        for (var i = 0; i < arguments.Count; i++)
        {
            if (arguments[i].Span.Contains(lambda.Syntax.Span))
            {
                lambdaIndex = i;
            }

            if (arguments[i].NameColon is not null && (!shape.AfterTheDelegate || lambdaIndex < 0 || lambdaIndex == i))
            {
                return true;
            }
        }

        return false;
    }

    /// <summary>The written arguments of an invocation or object creation.</summary>
    private static SeparatedSyntaxList<ArgumentSyntax>? ArgumentsOf(SyntaxNode call) => call switch
    {
        InvocationExpressionSyntax invocation => invocation.ArgumentList.Arguments,
        BaseObjectCreationExpressionSyntax { ArgumentList: { } list } => list.Arguments,
        _ => null,
    };

    /// <summary>
    /// A write the copy into the state would miss: inside any lambda or local function, after the lambda,
    /// by ref, or before it in a loop iteration that reuses the variable, or before it with a backward goto
    /// in the body. One walk of the body covers every captured variable.
    /// </summary>
    private static bool IsWrittenUnsafely(List<ISymbol> variables, IAnonymousFunctionOperation lambda, IOperation root)
    {
        if (variables.Count == 0)
        {
            return false;
        }

        var writtenBefore = false;
        var hasGoto = false;
        foreach (var operation in root.Descendants())
        {
            hasGoto |= operation is IBranchOperation { BranchKind: BranchKind.GoTo };
            if (ReferencedSymbol(operation) is not { } variable
                || !variables.Contains(variable, SymbolEqualityComparer.Default)
                || !IsWrite(operation))
            {
                continue;
            }

            var declaredIn = variable.ContainingSymbol;
            if ((WrittenAt(operation).Span.End > lambda.Syntax.SpanStart && !AssignsAFunctionAroundTheLambda(operation, lambda))
                || !SymbolEqualityComparer.Default.Equals(EnclosingFunctionSymbol(operation, declaredIn), declaredIn)
                || RunsAgainAfterTheLambda(variable, lambda))
            {
                return true;
            }

            writtenBefore = true;
        }

        return writtenBefore && hasGoto;
    }

    /// <summary>
    /// A primary constructor's parameter that any member of its type writes: it lives as long as the object, so a
    /// callback that runs later reads what another member wrote since, where a copy in the state would not. The walk of
    /// one member's body cannot see those writes.
    /// </summary>
    private static bool IsPrimaryConstructorParameterWrittenAnywhere(ISymbol variable) =>
        variable.IsPrimaryConstructorParameter() && variable.IsWrittenInItsType();

    /// <summary>
    /// Whether anything in <paramref name="root"/> writes the variable, or, for a primary constructor's parameter, any
    /// member of its type; with <paramref name="countDeclaration"/> false, the declaration that sets it (an <c>out
    /// var</c>) does not count.
    /// </summary>
    public static bool IsWrittenAnywhere(ISymbol variable, IOperation root, bool countDeclaration = true) =>
        IsPrimaryConstructorParameterWrittenAnywhere(variable)
        || root.Descendants().Any(o => SymbolEqualityComparer.Default.Equals(ReferencedSymbol(o), variable)
            && (countDeclaration || o is not ILocalReferenceOperation { IsDeclaration: true })
            && IsWrite(o));

    /// <summary>Whether the reference (to a local, parameter or field) writes it: assigned, incremented, passed by ref or out, deconstructed into.</summary>
    public static bool IsWrite(IOperation reference) => reference.Parent switch
    {
        // A value tuple's element is part of the variable: pair.Item1 = x writes pair.
        IFieldReferenceOperation { Field.ContainingType.IsTupleType: true } element when element.Instance == reference => IsWrite(element),
        IAssignmentOperation assignment => assignment.Target == reference,
        IIncrementOrDecrementOperation => true,
        IArgumentOperation { Parameter.RefKind: RefKind.Ref or RefKind.Out } => true,
        IAddressOfOperation or IDeclarationExpressionOperation => true,
        // A tuple is written only as the target of a deconstruction; Use((a, b)) reads a and b.
        ITupleOperation tuple => IsDeconstructionTarget(tuple),
        IVariableInitializerOperation { Parent: IVariableDeclaratorOperation { Symbol.RefKind: not RefKind.None } } => true,
        _ => reference is ILocalReferenceOperation { IsDeclaration: true } && reference.Parent is not IVariableDeclaratorOperation,
    };

    private static bool IsDeconstructionTarget(ITupleOperation tuple)
    {
        IOperation current = tuple;
        while (current.Parent is ITupleOperation outer)
        {
            current = outer;
        }

        return current.Parent is IDeconstructionAssignmentOperation deconstruction && deconstruction.Target == current
            || current.Parent is IForEachLoopOperation loop && loop.LoopControlVariable == current;
    }

    /// <summary>
    /// The write stores a lambda or anonymous method that contains this one (<c>body = x =&gt; … StartNew(() =&gt; body(x))</c>):
    /// the inner lambda is created only when the outer one runs, which cannot happen before the write has stored it.
    /// </summary>
    private static bool AssignsAFunctionAroundTheLambda(IOperation reference, IAnonymousFunctionOperation lambda)
    {
        if (reference.Parent is not ISimpleAssignmentOperation assignment || assignment.Target != reference)
        {
            return false;
        }

        var value = assignment.Value;
        while (value is IConversionOperation or IDelegateCreationOperation)
        {
            value = value is IConversionOperation conversion ? conversion.Operand : ((IDelegateCreationOperation)value).Target;
        }

        return value is IAnonymousFunctionOperation outer && outer != lambda && outer.Syntax.Span.Contains(lambda.Syntax.Span);
    }

    /// <summary>
    /// The expression whose evaluation completes the write: the assignment, the increment, or the call taking the
    /// variable by ref. A lambda inside it is created before the write lands (<c>timer = new Timer(_ => timer…)</c>), so
    /// a copy made at the call would miss it.
    /// </summary>
    private static SyntaxNode WrittenAt(IOperation reference)
    {
        var write = reference.Parent;
        while (write is ITupleOperation or IDeclarationExpressionOperation or IArgumentOperation or IFieldReferenceOperation { Field.ContainingType.IsTupleType: true })
        {
            write = write.Parent;
        }

        return (write ?? reference).Syntax;
    }

    /// <summary>
    /// True when a loop around the lambda reuses the variable across iterations, so an earlier write in the
    /// next iteration would reach a closure made in this one: a for-loop's own variables, or any variable
    /// declared outside the loop.
    /// </summary>
    private static bool RunsAgainAfterTheLambda(ISymbol variable, IAnonymousFunctionOperation lambda)
    {
        var declaration = variable.DeclaringSyntaxReferences.FirstOrDefault()?.Span;
        for (var current = lambda.Parent; current is not null; current = current.Parent)
        {
            if (current is ILoopOperation loop
                && (declaration is not { } span || !loop.Syntax.Span.Contains(span)
                    || (loop is IForLoopOperation forLoop && forLoop.Locals.Contains(variable, SymbolEqualityComparer.Default))))
            {
                return true;
            }
        }

        return false;
    }

    private static ISymbol? EnclosingFunctionSymbol(IOperation operation, ISymbol declaredIn)
    {
        for (var current = operation.Parent; current is not null; current = current.Parent)
        {
            switch (current)
            {
                case IAnonymousFunctionOperation lambda:
                    return lambda.Symbol;
                case ILocalFunctionOperation local:
                    return local.Symbol;
            }
        }

        return declaredIn is IMethodSymbol { MethodKind: MethodKind.AnonymousFunction or MethodKind.LocalFunction } ? null : declaredIn;
    }

    /// <summary>The implicit or explicit <c>this</c> can be replaced: <c>this</c> itself, or a simple member name.</summary>
    private static bool CanRewriteThis(IInstanceReferenceOperation instance) =>
        instance.Syntax is ThisExpressionSyntax
        || (instance.IsImplicit && MemberNameOf(instance) is not null);

    /// <summary>For an implicit <c>this</c>, the simple name of the member used through it (<c>Count</c> in <c>Count + 1</c>).</summary>
    public static SimpleNameSyntax? MemberNameOf(IInstanceReferenceOperation instance) => instance.Parent?.Syntax switch
    {
        SimpleNameSyntax name => name,
        InvocationExpressionSyntax { Expression: SimpleNameSyntax name } => name,
        _ => null,
    };

    public static ITypeSymbol? TypeOf(ISymbol symbol) => symbol switch
    {
        ILocalSymbol local => local.Type,
        IParameterSymbol parameter => parameter.Type,
        ITypeSymbol type => type,
        _ => null,
    };

    /// <summary>The local or parameter an operation reads or writes, or null.</summary>
    public static ISymbol? ReferencedSymbol(IOperation operation) => operation switch
    {
        ILocalReferenceOperation local => local.Local,
        IParameterReferenceOperation parameter => parameter.Parameter,
        _ => null,
    };

    private static bool IsNameable(ITypeSymbol type) => type switch
    {
        { IsAnonymousType: true } => false,
        IArrayTypeSymbol array => IsNameable(array.ElementType),
        IPointerTypeSymbol or IFunctionPointerTypeSymbol => false,
        INamedTypeSymbol named => named.TypeArguments.All(IsNameable),
        _ => true,
    };

    internal static bool IsInside(ISymbol? symbol, ISymbol function)
    {
        for (var current = symbol; current is not null; current = current.ContainingSymbol)
        {
            if (SymbolEqualityComparer.Default.Equals(current, function))
            {
                return true;
            }
        }

        return false;
    }

    private static void Add(List<ISymbol> captured, ISymbol symbol)
    {
        if (!captured.Contains(symbol, SymbolEqualityComparer.Default))
        {
            captured.Add(symbol);
        }
    }

    /// <summary>
    /// A struct other than a primitive, enum or readonly struct: its methods may mutate it. A value tuple's methods do
    /// not, and writes to its elements count as writes of the variable (<see cref="IsWrite"/>), so a tuple is mutable
    /// only through a mutable element. BCL structs that are
    /// readonly on modern .NET count as readonly on every target: older reference assemblies (netstandard2.0,
    /// .NET Framework) do not mark them, but the type behaves the same.
    /// </summary>
    public static bool IsMutableStruct(ITypeSymbol type) =>
        type is INamedTypeSymbol { IsTupleType: true } tuple
            ? tuple.TupleElements.Any(e => e.Type.IsValueType && IsMutableStruct(e.Type))
            : type.TypeKind == TypeKind.Struct
            && type.SpecialType == SpecialType.None
            && type is INamedTypeSymbol { IsReadOnly: false } named
            && named.OriginalDefinition.SpecialType != SpecialType.System_Nullable_T
            && !WellKnownTypeNames.ReadOnlyBclStructs.Contains(named.OriginalDefinition.ToDisplayString(MetadataNameFormat));

    private static readonly SymbolDisplayFormat MetadataNameFormat = new(
        typeQualificationStyle: SymbolDisplayTypeQualificationStyle.NameAndContainingTypesAndNamespaces,
        genericsOptions: SymbolDisplayGenericsOptions.None);
}
