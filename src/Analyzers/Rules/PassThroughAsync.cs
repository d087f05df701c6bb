using System.Linq;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp;
using Microsoft.CodeAnalysis.CSharp.Syntax;
using Microsoft.CodeAnalysis.Operations;
using TplPractices.Analyzers.Internals;

namespace TplPractices.Analyzers.Rules;

/// <summary>
/// TPL0016: an async method or local function whose whole body awaits one call and hands its result on
/// (<c>=&gt; await N(x)</c>, <c>{ return await N(x); }</c>, <c>{ await N(x); }</c>) pays for a state machine, a task and a
/// continuation to give its caller what <c>N</c>'s task already is. Reported only where returning that task is the
/// same program: the task's type is the return type exactly, and nothing before the await can throw, because an
/// <c>async</c> method puts such an exception in its task and a plain one throws it at the call. So the call's receiver
/// is <c>this</c>, <c>base</c> or none, its arguments are parameters, constants, defaults, fields of <c>this</c> or
/// <c>CancellationToken.None</c>, and the callee is an <c>async</c> method of this compilation (or, in the same file, a
/// plain method that only returns such a call) that no override can replace.
/// </summary>
internal static class PassThroughAsync
{
    public const string FixReturnTask = "ReturnTask";

    internal sealed class Context
    {
        private readonly INamedTypeSymbol _task;
        private readonly INamedTypeSymbol? _taskOfT;
        private readonly INamedTypeSymbol? _valueTask;
        private readonly INamedTypeSymbol? _valueTaskOfT;

        private Context(Compilation compilation, INamedTypeSymbol task)
        {
            _task = task;
            _taskOfT = compilation.GetTypeByMetadataName(WellKnownTypeNames.TaskOfT);
            _valueTask = compilation.GetTypeByMetadataName(WellKnownTypeNames.ValueTask);
            _valueTaskOfT = compilation.GetTypeByMetadataName(WellKnownTypeNames.ValueTaskOfT);
            CancellationToken = compilation.GetTypeByMetadataName(WellKnownTypeNames.CancellationToken);
        }

        public INamedTypeSymbol? CancellationToken { get; }

        public static Context? TryCreate(Compilation compilation) =>
            compilation.GetTypeByMetadataName(WellKnownTypeNames.Task) is { } task ? new Context(compilation, task) : null;

        /// <summary>Task, Task&lt;T&gt;, ValueTask, ValueTask&lt;T&gt;: the builders the compiler knows (a custom one could do anything).</summary>
        public bool IsTaskType(ITypeSymbol type) =>
            type.OriginalDefinition is var definition
            && (SymbolEqualityComparer.Default.Equals(definition, _task)
                || SymbolEqualityComparer.Default.Equals(definition, _taskOfT)
                || SymbolEqualityComparer.Default.Equals(definition, _valueTask)
                || SymbolEqualityComparer.Default.Equals(definition, _valueTaskOfT));
    }

    /// <summary>A reported function: its declaration, the await, and the call whose task it returns.</summary>
    internal sealed class Site
    {
        public Site(SyntaxNode declaration, IAwaitOperation await, IInvocationOperation call)
        {
            Declaration = declaration;
            Await = await;
            Call = call;
        }

        /// <summary>The method or local function.</summary>
        public SyntaxNode Declaration { get; }

        public IAwaitOperation Await { get; }

        /// <summary>The awaited call, inside any <c>ConfigureAwait(true|false)</c>.</summary>
        public IInvocationOperation Call { get; }
    }

    /// <summary>The site an await makes, or null. The syntax is read first: most awaits are not a whole body.</summary>
    public static Site? Analyze(IAwaitOperation await, Context context)
    {
        if (await.Syntax is not AwaitExpressionSyntax syntax
            || WholeBodyOf(syntax) is not { } declaration
            || !HasAsyncKeyword(declaration)
            || await.SemanticModel?.GetDeclaredSymbol(declaration) is not IMethodSymbol { IsAsync: true, ReturnsVoid: false } function
            || !context.IsTaskType(function.ReturnType)
            || function.ReturnType.ContainsErrorType()
            || function.GetAttributes().Any(a => a.AttributeClass?.Name == "AsyncMethodBuilderAttribute")
            || Awaited(await.Operation) is not { } call
            || !SymbolEqualityComparer.IncludeNullability.Equals(call.Type, function.ReturnType)
            || !CannotThrowAtTheCall(call, context))
        {
            return null;
        }

        return new Site(declaration, await, call);
    }

    /// <summary>
    /// The method or local function whose body is the await alone: <c>=&gt; await x</c>, or a block holding only
    /// <c>return await x;</c> or <c>await x;</c>.
    /// </summary>
    public static SyntaxNode? WholeBodyOf(AwaitExpressionSyntax await)
    {
        var owner = await.Parent switch
        {
            ArrowExpressionClauseSyntax arrow => arrow.Parent,
            ReturnStatementSyntax or ExpressionStatementSyntax => await.Parent.Parent is BlockSyntax { Statements.Count: 1 } block ? block.Parent : null,
            _ => null,
        };
        return owner is MethodDeclarationSyntax or LocalFunctionStatementSyntax ? owner : null;
    }

    /// <summary>
    /// Read from the syntax alone, for TPL0008's search of a method's calls: false only where this rule surely does not
    /// report the await (not a whole body, not async, a receiver or argument that calls, creates or indexes), so that
    /// the two rules never both count one await as theirs.
    /// </summary>
    public static bool MayBePassThrough(AwaitExpressionSyntax await)
    {
        if (WholeBodyOf(await) is not { } declaration || !HasAsyncKeyword(declaration))
        {
            return false;
        }

        var awaited = await.Expression;
        if (awaited is InvocationExpressionSyntax { Expression: MemberAccessExpressionSyntax { Name.Identifier.ValueText: "ConfigureAwait", Expression: var configured } })
        {
            awaited = configured;
        }

        var receiver = (awaited as InvocationExpressionSyntax)?.Expression is MemberAccessExpressionSyntax access ? access.Expression : null;
        return awaited is InvocationExpressionSyntax call
            && !RunsCode(receiver)
            && !(receiver is IdentifierNameSyntax variable && NamesAVariable(variable.Identifier.ValueText, declaration))
            && call.ArgumentList.Arguments.All(a => !RunsCode(a.Expression));
    }

    /// <summary>A parameter of the function or a field or property of its type: a receiver that may be null, not a type.</summary>
    private static bool NamesAVariable(string name, SyntaxNode declaration)
    {
        foreach (var node in declaration.AncestorsAndSelf())
        {
            var declared = node switch
            {
                BaseMethodDeclarationSyntax method => method.ParameterList.Parameters.Any(p => p.Identifier.ValueText == name),
                LocalFunctionStatementSyntax local => local.ParameterList.Parameters.Any(p => p.Identifier.ValueText == name),
                TypeDeclarationSyntax type => type.Members.Any(m => m switch
                {
                    FieldDeclarationSyntax field => field.Declaration.Variables.Any(v => v.Identifier.ValueText == name),
                    PropertyDeclarationSyntax property => property.Identifier.ValueText == name,
                    _ => false,
                }) || type.ParameterList?.Parameters.Any(p => p.Identifier.ValueText == name) == true,
                _ => false,
            };
            if (declared)
            {
                return true;
            }
        }

        return false;
    }

    private static bool RunsCode(ExpressionSyntax? expression) =>
        expression is not null
        && expression.DescendantNodesAndSelf().Any(n => n is InvocationExpressionSyntax or BaseObjectCreationExpressionSyntax or ElementAccessExpressionSyntax
            or CastExpressionSyntax or AssignmentExpressionSyntax or ConditionalAccessExpressionSyntax or AwaitExpressionSyntax or AnonymousFunctionExpressionSyntax);

    public static bool HasAsyncKeyword(SyntaxNode declaration) => ModifiersOf(declaration).Any(SyntaxKind.AsyncKeyword);

    /// <summary>The modifiers of a method or local function (<see cref="WholeBodyOf"/>'s declarations).</summary>
    public static SyntaxTokenList ModifiersOf(SyntaxNode declaration) =>
        declaration is MethodDeclarationSyntax method ? method.Modifiers : ((LocalFunctionStatementSyntax)declaration).Modifiers;

    /// <summary>
    /// The awaited call, looking through <c>ConfigureAwait(true|false)</c>; other options (SuppressThrowing) change what
    /// the await does. The fixer takes the call it returns from here, trusting the diagnostic rather than checking again.
    /// </summary>
    public static IInvocationOperation? Awaited(IOperation operation)
    {
        if (operation is IInvocationOperation { TargetMethod.Name: "ConfigureAwait", Instance: IInvocationOperation inner, Arguments.Length: 1 } configure
            && configure.Arguments[0].Value.ConstantValue is { HasValue: true, Value: bool })
        {
            return inner;
        }

        return operation as IInvocationOperation;
    }

    /// <summary>How many plain methods a chain of calls may pass through before an async one: a fixed pass-through is one.</summary>
    private const int ChainDepth = 4;

    /// <summary>
    /// Whether evaluating the call can throw before its task exists: the receiver is never null, each argument is read
    /// without running code, and the callee puts every exception in its task and no override can replace it.
    /// </summary>
    private static bool CannotThrowAtTheCall(IInvocationOperation call, Context context, int depth = ChainDepth)
    {
        var callee = call.TargetMethod.OriginalDefinition;
        var viaBase = call.Instance?.Syntax is BaseExpressionSyntax;
        return (call.Instance is null || call.Instance is IInstanceReferenceOperation { ReferenceKind: InstanceReferenceKind.ContainingTypeInstance })
            && (viaBase || !(callee.IsVirtual || callee.IsAbstract || callee.IsOverride) || callee.IsSealed || callee.ContainingType.IsSealed || callee.ContainingType.IsValueType)
            && call.Arguments.All(a => IsPlainRead(a.Value, context))
            && PutsExceptionsInItsTask(callee, call.SemanticModel, context, depth);
    }

    /// <summary>
    /// An async method; or, in the same file, a plain one whose whole body returns such a call (what this rule's fix
    /// leaves), so that a chain of pass-throughs is reported the same whichever link is fixed first. Other files would
    /// need a semantic model an analyzer must not make.
    /// </summary>
    private static bool PutsExceptionsInItsTask(IMethodSymbol callee, SemanticModel? model, Context context, int depth)
    {
        if (callee.IsAsync)
        {
            return true;
        }

        if (depth == 0 || model is null || callee.DeclaringSyntaxReferences.Length != 1 || callee.DeclaringSyntaxReferences[0].SyntaxTree != model.SyntaxTree)
        {
            return false;
        }

        var returned = callee.DeclaringSyntaxReferences[0].GetSyntax() switch
        {
            MethodDeclarationSyntax { ExpressionBody.Expression: var expression } => expression,
            LocalFunctionStatementSyntax { ExpressionBody.Expression: var expression } => expression,
            MethodDeclarationSyntax { Body.Statements: { Count: 1 } statements } => (statements[0] as ReturnStatementSyntax)?.Expression,
            LocalFunctionStatementSyntax { Body.Statements: { Count: 1 } statements } => (statements[0] as ReturnStatementSyntax)?.Expression,
            _ => null,
        };
        return returned is not null
            && model.GetOperation(returned) is IInvocationOperation inner
            && SymbolEqualityComparer.IncludeNullability.Equals(inner.Type, callee.ReturnType)
            && CannotThrowAtTheCall(inner, context, depth - 1);
    }

    /// <summary>
    /// A value read without running code: a parameter, local, constant, default, <c>this</c> or one of its fields (a static
    /// field's first read may run its type's initializer), <c>CancellationToken.None</c>, a params array of those.
    /// </summary>
    private static bool IsPlainRead(IOperation value, Context context)
    {
        while (value is IConversionOperation { IsImplicit: true, Conversion.IsUserDefined: false } conversion)
        {
            value = conversion.Operand;
        }

        return value.ConstantValue.HasValue
            || value switch
            {
                IParameterReferenceOperation or ILocalReferenceOperation or IDefaultValueOperation or IInstanceReferenceOperation => true,
                IFieldReferenceOperation { Field.IsStatic: false, Instance: IInstanceReferenceOperation { ReferenceKind: InstanceReferenceKind.ContainingTypeInstance } } => true,
                IPropertyReferenceOperation { Property: { Name: "None", IsStatic: true } property } =>
                    SymbolEqualityComparer.Default.Equals(property.ContainingType, context.CancellationToken),
                IArrayCreationOperation { IsImplicit: true, Initializer: { } initializer } => initializer.ElementValues.All(e => IsPlainRead(e, context)),
                _ => false,
            };
    }
}
