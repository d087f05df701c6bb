using System.Collections.Generic;
using System.Collections.Immutable;
using System.Linq;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp;
using Microsoft.CodeAnalysis.CSharp.Syntax;
using Microsoft.CodeAnalysis.Operations;
using TplPractices.Analyzers.Internals;

namespace TplPractices.Analyzers.Rules;

/// <summary>
/// TPL0001: what a lambda passed to StartNew or ContinueWith captures, and whether the state overload can
/// carry it instead. Shared by the analyzer (report, and whether a fix exists) and the fixer (the rewrite).
/// </summary>
internal sealed class TaskStateCapture
{
    /// <summary>
    /// More values than this read back as a tuple nobody would write by hand: the rule reports without a fix.
    /// Three by default; <c>tpl_practices.TPL0001.max_state_values</c> sets 1 to 7 (a tuple's widest flat form).
    /// </summary>
    public static readonly NumberOption MaxStateValues = new("max_state_values", 3, 1, 7);

    private TaskStateCapture(
        IInvocationOperation invocation,
        IAnonymousFunctionOperation lambda,
        ImmutableArray<ISymbol> captured,
        ISymbol? antecedent,
        string? noFixReason)
    {
        Invocation = invocation;
        Lambda = lambda;
        Captured = captured;
        Antecedent = antecedent;
        NoFixReason = noFixReason;
    }

    public IInvocationOperation Invocation { get; }

    public IAnonymousFunctionOperation Lambda { get; }

    /// <summary>
    /// What travels as state, in order of first use: locals, parameters, and the containing type standing
    /// for <c>this</c>. Empty when the only capture was the antecedent task.
    /// </summary>
    public ImmutableArray<ISymbol> Captured { get; }

    /// <summary>A captured variable that holds the continuation's own antecedent task; its parameter takes its place.</summary>
    public ISymbol? Antecedent { get; }

    /// <summary>Why no fix is offered; null when the state overload keeps the behaviour.</summary>
    public string? NoFixReason { get; }

    public IEnumerable<string> CapturedNames =>
        (Antecedent is null ? Captured : Captured.Insert(0, Antecedent)).Select(s => s is ITypeSymbol ? "this" : s.Name);

    /// <summary>The capture, or null when the call is not a no-state StartNew/ContinueWith given a capturing lambda.</summary>
    public static TaskStateCapture? Analyze(IInvocationOperation invocation, Context context, int maxStateValues)
    {
        var method = invocation.TargetMethod;
        if (!context.IsTaskMethod(method)
            || method.Parameters.Any(p => p.Name == "state")
            || invocation.Arguments.FirstOrDefault(a => a.Parameter?.Ordinal == 0) is not { } delegateArgument
            || delegateArgument.Value.WithoutImplicitConversions() is not IDelegateCreationOperation { Target: IAnonymousFunctionOperation lambda }
            || lambda.Symbol.IsStatic)
        {
            return null;
        }

        var captured = new List<ISymbol>();
        string? noFix = null;
        foreach (var operation in lambda.Body.Descendants())
        {
            switch (operation)
            {
                case ILocalReferenceOperation local when !IsInside(local.Local.ContainingSymbol, lambda.Symbol):
                    Add(captured, local.Local);
                    break;
                case IParameterReferenceOperation parameter when !IsInside(parameter.Parameter.ContainingSymbol, lambda.Symbol):
                    Add(captured, parameter.Parameter);
                    break;
                case IInstanceReferenceOperation { ReferenceKind: InstanceReferenceKind.ContainingTypeInstance } instance:
                    Add(captured, lambda.Symbol.ContainingType);
                    noFix ??= CanRewriteThis(instance) ? null : "it uses 'base' or a member form the fix cannot requalify";
                    break;
                case IInvocationOperation { TargetMethod: { MethodKind: MethodKind.LocalFunction, IsStatic: false } function }
                    when !IsInside(function.ContainingSymbol, lambda.Symbol):
                case IMethodReferenceOperation { Method: { MethodKind: MethodKind.LocalFunction, IsStatic: false } function2 }
                    when !IsInside(function2.ContainingSymbol, lambda.Symbol):
                    noFix ??= "it calls a local function that may capture variables itself";
                    break;
            }
        }

        if (captured.Count == 0)
        {
            return null;
        }

        // The closure shares these variables; a copy in the state would not see writes to them.
        var variables = captured.Where(s => s is not ITypeSymbol).ToList();
        if (variables.Any(v => TypeOf(v) is { IsValueType: true } type && context.IsMutableStruct(type))
            || IsWrittenUnsafely(variables, lambda, invocation.Root()))
        {
            return null;
        }

        ISymbol? antecedent = null;
        if (method.Name == "ContinueWith"
            && invocation.Instance is ILocalReferenceOperation or IParameterReferenceOperation
            && ReferencedSymbol(invocation.Instance) is { } receiver
            && captured.Contains(receiver, SymbolEqualityComparer.Default)
            && lambda.Symbol.Parameters.Length > 0
            && SymbolEqualityComparer.Default.Equals(TypeOf(receiver), lambda.Symbol.Parameters[0].Type))
        {
            antecedent = receiver;
            captured.Remove(receiver);
        }

        noFix ??= FixBlocker(invocation, lambda, captured, context, maxStateValues);
        return new TaskStateCapture(invocation, lambda, captured.ToImmutableArray(), antecedent, noFix);
    }

    private static string? FixBlocker(IInvocationOperation invocation, IAnonymousFunctionOperation lambda, List<ISymbol> captured, Context context, int maxStateValues)
    {
        // Half-typed code: the rewrite would repeat unresolved names and add errors (found by FuzzTests).
        if (captured.Any(s => TypeOf(s)?.ContainsErrorType() != false)
            || lambda.Body.DescendantsAndSelf().Any(o => o is IInvalidOperation || o.Type is { TypeKind: TypeKind.Error }))
        {
            return "the code does not compile yet";
        }

        if (((CSharpParseOptions)invocation.Syntax.SyntaxTree.Options).LanguageVersion < LanguageVersion.CSharp7)
        {
            return "the state is read back with a tuple deconstruction, which needs C# 7";
        }

        if (invocation.Syntax is not InvocationExpressionSyntax { ArgumentList.Arguments: var arguments }
            || arguments.Any(a => a.NameColon is not null)
            || lambda.Syntax is not AnonymousFunctionExpressionSyntax)
        {
            return "the call uses named arguments";
        }

        if (captured.Count > 0 && context.StateOverloadOf(invocation.TargetMethod) is null)
        {
            return "no state overload takes the same other arguments";
        }

        if (captured.Count > maxStateValues)
        {
            return "more values would travel as the state than max_state_values allows";
        }

        if (captured.Count > 1 && !context.HasValueTuple)
        {
            return "several values need System.ValueTuple, which this target lacks";
        }

        return captured.Any(s => TypeOf(s) is not { } type || !IsNameable(type))
            ? "a captured value has a type that cannot be named (an anonymous type)"
            : null;
    }

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
            if (operation.Syntax.SpanStart >= lambda.Syntax.SpanStart
                || !SymbolEqualityComparer.Default.Equals(EnclosingFunctionSymbol(operation, declaredIn), declaredIn)
                || RunsAgainAfterTheLambda(variable, lambda))
            {
                return true;
            }

            writtenBefore = true;
        }

        return writtenBefore && hasGoto;
    }

    private static bool IsWrite(IOperation reference) => reference.Parent switch
    {
        IAssignmentOperation assignment => assignment.Target == reference,
        IIncrementOrDecrementOperation => true,
        IArgumentOperation { Parameter.RefKind: RefKind.Ref or RefKind.Out } => true,
        IAddressOfOperation or ITupleOperation or IDeclarationExpressionOperation => true,
        IVariableInitializerOperation { Parent: IVariableDeclaratorOperation { Symbol.RefKind: not RefKind.None } } => true,
        _ => reference is ILocalReferenceOperation { IsDeclaration: true } && reference.Parent is not IVariableDeclaratorOperation,
    };

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

    private static bool IsInside(ISymbol? symbol, ISymbol function)
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


    /// <summary>The types TPL0001 binds to, resolved once per compilation.</summary>
    internal sealed class Context
    {
        private readonly INamedTypeSymbol _task;
        private readonly INamedTypeSymbol? _taskOfT;
        private readonly INamedTypeSymbol? _factory;
        private readonly INamedTypeSymbol? _factoryOfT;

        private Context(Compilation compilation, INamedTypeSymbol task)
        {
            _task = task;
            _taskOfT = compilation.GetTypeByMetadataName(WellKnownTypeNames.TaskOfT);
            _factory = compilation.GetTypeByMetadataName(WellKnownTypeNames.TaskFactory);
            _factoryOfT = compilation.GetTypeByMetadataName(WellKnownTypeNames.TaskFactoryOfT);
            HasValueTuple = compilation.GetTypeByMetadataName(WellKnownTypeNames.ValueTuple2) is not null;
        }

        public bool HasValueTuple { get; }

        public static Context? TryCreate(Compilation compilation) =>
            compilation.GetTypeByMetadataName(WellKnownTypeNames.Task) is { } task ? new Context(compilation, task) : null;

        public bool IsTaskMethod(IMethodSymbol method)
        {
            var type = method.ContainingType.OriginalDefinition;
            return method.Name switch
            {
                "StartNew" => Is(type, _factory) || Is(type, _factoryOfT),
                "ContinueWith" => Is(type, _task) || Is(type, _taskOfT),
                _ => false,
            };
        }

        /// <summary>The overload with <c>object state</c> after the delegate and otherwise the same parameters.</summary>
        public IMethodSymbol? StateOverloadOf(IMethodSymbol method)
        {
            var original = method.OriginalDefinition;
            foreach (var candidate in original.ContainingType.GetMembers(original.Name).OfType<IMethodSymbol>())
            {
                if (candidate.Parameters.Length == original.Parameters.Length + 1
                    && candidate.Parameters[1] is { Name: "state", Type.SpecialType: SpecialType.System_Object }
                    && candidate.TypeParameters.Length == original.TypeParameters.Length
                    && Enumerable.Range(1, original.Parameters.Length - 1).All(i =>
                        candidate.Parameters[i + 1].Type.ToDisplayString() == original.Parameters[i].Type.ToDisplayString())
                    && DelegateShapeMatches(original.Parameters[0].Type, candidate.Parameters[0].Type))
                {
                    return candidate;
                }
            }

            return null;
        }

        /// <summary>
        /// A struct other than a primitive, enum or readonly struct: its methods may mutate it. BCL structs that are
        /// readonly on modern .NET count as readonly on every target: older reference assemblies (netstandard2.0,
        /// .NET Framework) do not mark them, but the type behaves the same.
        /// </summary>
        public bool IsMutableStruct(ITypeSymbol type) =>
            type.TypeKind == TypeKind.Struct
            && type.SpecialType == SpecialType.None
            && type is INamedTypeSymbol { IsReadOnly: false } named
            && named.OriginalDefinition.SpecialType != SpecialType.System_Nullable_T
            && !Is(named.OriginalDefinition, _task)
            && !WellKnownTypeNames.ReadOnlyBclStructs.Contains(named.OriginalDefinition.ToDisplayString(MetadataNameFormat));

        private static readonly SymbolDisplayFormat MetadataNameFormat = new(
            typeQualificationStyle: SymbolDisplayTypeQualificationStyle.NameAndContainingTypesAndNamespaces,
            genericsOptions: SymbolDisplayGenericsOptions.None);

        /// <summary>Action → Action&lt;object&gt;, Func&lt;R&gt; → Func&lt;object, R&gt;, Action&lt;Task&gt; → Action&lt;Task, object&gt;.</summary>
        private static bool DelegateShapeMatches(ITypeSymbol withoutState, ITypeSymbol withState) =>
            withoutState is INamedTypeSymbol a && withState is INamedTypeSymbol b
            && a.Name == b.Name
            && b.TypeArguments.Length == a.TypeArguments.Length + 1;

        private static bool Is(INamedTypeSymbol type, INamedTypeSymbol? expected) =>
            expected is not null && SymbolEqualityComparer.Default.Equals(type, expected);
    }
}
