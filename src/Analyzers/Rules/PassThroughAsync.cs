using System.Collections.Generic;
using System.Linq;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp;
using Microsoft.CodeAnalysis.CSharp.Syntax;
using Microsoft.CodeAnalysis.Diagnostics;
using Microsoft.CodeAnalysis.Operations;
using TplPractices.Analyzers.Internals;

namespace TplPractices.Analyzers.Rules;

/// <summary>
/// TPL0016: an async method, local function or lambda whose every path ends in one awaited task and does nothing else
/// (<c>=&gt; await N(x)</c>, <c>{ return await N(x); }</c>, <c>{ await N(x); }</c>, <c>var r = await N(x); return r;</c>, or
/// <c>if</c>/<c>switch</c>/<c>?:</c> choosing which call to await) pays for a state machine, a task and a continuation to
/// give its caller what the awaited task already is. Reported only where returning that task is the same program: the
/// task's type is the return type exactly, the tests that choose a path cannot throw, and neither can evaluating the
/// awaited expression (<see cref="PassThroughCallees"/>), because an <c>async</c> function puts such an exception in its
/// task and a plain one throws it at the call. Paths: <see cref="PassThroughPaths"/>.
/// </summary>
internal static class PassThroughAsync
{
    public const string FixReturnTask = "ReturnTask";

    /// <summary><c>async Task&lt;T&gt; M() { await Task.CompletedTask; return x; }</c> → <c>Task&lt;T&gt; M() { return Task.FromResult(x); }</c>.</summary>
    public const string FixReturnValue = "ReturnValue";

    internal sealed class Context
    {
        private readonly INamedTypeSymbol _task;
        private readonly INamedTypeSymbol? _taskOfT;
        private readonly INamedTypeSymbol? _valueTask;
        private readonly INamedTypeSymbol? _valueTaskOfT;

        /// <summary>Whether ValueTask has its constructor from a Task (the 4.3 package's had none): looked up once.</summary>
        private readonly bool _valueTaskTakesTask;

        private Context(Compilation compilation, INamedTypeSymbol task)
        {
            _task = task;
            _taskOfT = compilation.GetTypeByMetadataName(WellKnownTypeNames.TaskOfT);
            _valueTask = compilation.GetTypeByMetadataName(WellKnownTypeNames.ValueTask);
            _valueTaskOfT = compilation.GetTypeByMetadataName(WellKnownTypeNames.ValueTaskOfT);
            _valueTaskTakesTask = _valueTask?.InstanceConstructors.Any(c => c.Parameters.Length == 1 && IsTask(c.Parameters[0].Type)) == true;
            CancellationToken = compilation.GetTypeByMetadataName(WellKnownTypeNames.CancellationToken);
            AsyncStateMachineAttribute = compilation.GetTypeByMetadataName(WellKnownTypeNames.AsyncStateMachineAttribute);
            Values = AvailableValue.Context.TryCreate(compilation);
        }

        /// <summary>TPL0014's symbols: which awaits it takes the value of.</summary>
        public AvailableValue.Context? Values { get; }

        public INamedTypeSymbol? CancellationToken { get; }

        public INamedTypeSymbol? AsyncStateMachineAttribute { get; }

        public static Context? TryCreate(Compilation compilation) =>
            compilation.GetTypeByMetadataName(WellKnownTypeNames.Task) is { } task ? new Context(compilation, task) : null;

        /// <summary>Task, Task&lt;T&gt;, ValueTask, ValueTask&lt;T&gt;: the builders the compiler knows (a custom one could do anything).</summary>
        public bool IsTaskType(ITypeSymbol type) =>
            type.OriginalDefinition is var definition
            && (SymbolEqualityComparer.Default.Equals(definition, _task)
                || SymbolEqualityComparer.Default.Equals(definition, _taskOfT)
                || SymbolEqualityComparer.Default.Equals(definition, _valueTask)
                || SymbolEqualityComparer.Default.Equals(definition, _valueTaskOfT));

        /// <summary>Task&lt;T&gt; of any T.</summary>
        public bool IsTaskOfT(ITypeSymbol type) => SymbolEqualityComparer.Default.Equals(type.OriginalDefinition, _taskOfT);

        /// <summary>System.Threading.Tasks.Task itself.</summary>
        public bool IsTask(ITypeSymbol? type) => SymbolEqualityComparer.Default.Equals(type, _task);

        public bool IsTaskRun(IMethodSymbol? method) => method is { Name: "Run", IsStatic: true } && IsTask(method.ContainingType);

        /// <summary>
        /// A <c>ValueTask&lt;T&gt;</c> return type for a <c>Task&lt;T&gt;</c> of the same <c>T</c> (nullability included), or
        /// a <c>ValueTask</c> for any task where it has its constructor from a Task: <c>new ValueTask&lt;T&gt;(task)</c>
        /// awaits as the task does.
        /// </summary>
        public bool WrapsInValueTask(ITypeSymbol? task, ITypeSymbol returnType)
        {
            if (task is null || returnType is not INamedTypeSymbol named)
            {
                return false;
            }

            if (SymbolEqualityComparer.Default.Equals(named.OriginalDefinition, _valueTaskOfT))
            {
                return IsTaskOfT(task) && task is INamedTypeSymbol taskOfT
                    && SymbolEqualityComparer.IncludeNullability.Equals(taskOfT.TypeArguments[0], named.TypeArguments[0]);
            }

            return _valueTaskTakesTask
                && SymbolEqualityComparer.Default.Equals(named, _valueTask)
                && (IsTask(task) || IsTaskOfT(task));
        }
    }

    /// <summary>A reported function: its declaration and the awaits that end its paths, in source order.</summary>
    internal sealed class Site
    {
        public Site(SyntaxNode declaration, IMethodSymbol function, IReadOnlyList<IAwaitOperation> awaits, IInvocationOperation? givenTo, IOperation? value = null)
        {
            Declaration = declaration;
            Function = function;
            Awaits = awaits;
            GivenTo = givenTo;
            Value = value;
        }

        /// <summary>
        /// For <c>await done; return value;</c> (<see cref="FixReturnValue"/>), the value: the function returns
        /// <c>Task.FromResult(value)</c> instead of the awaited task.
        /// </summary>
        public IOperation? Value { get; }

        /// <summary>For a lambda given to a call as an argument, the call.</summary>
        public IInvocationOperation? GivenTo { get; }

        /// <summary>The method, local function or lambda.</summary>
        public SyntaxNode Declaration { get; }

        public IMethodSymbol Function { get; }

        public IReadOnlyList<IAwaitOperation> Awaits { get; }

        /// <summary>The awaited expressions, inside any <c>ConfigureAwait(true|false)</c>.</summary>
        public IEnumerable<IOperation> Tasks => Awaits.Select(a => Awaited(a.Operation)!);
    }

    /// <summary>
    /// Rules whose fix rewrites a task this rule would return, while they are on: TPL0007 turns a capturing Task.Run (one
    /// awaited here, or one this lambda is given to) into StartNew with state, TPL0003 caches a Task.FromResult of a
    /// constant, TPL0014 takes the value of a completed task awaited on one path where another path awaits too, and
    /// TPL0017 cancels a delay racing in WhenAny after the race (its fix needs the await). Their rewrites leave nothing this rule returns, and a task this rule returned
    /// would become their site only on a second dotnet format run; so the site is theirs.
    /// </summary>
    public static bool GivesWayToOtherRules(OperationAnalysisContext analysis, Site site, Context context)
    {
        var calls = Calls(site);
        return (GetsStateFromTaskRunRule(site.GivenTo, analysis.Compilation, context) || calls.Any(c => GetsStateFromTaskRunRule(c, analysis.Compilation, context)))
                && IsOn(analysis, site, TaskRunStateAnalyzer.Rule)
            || (calls.Any(c => IsConstantResult(c, context, uncachedOnly: true)) || IsUncachedConstant(site, context))
                && IsOn(analysis, site, CacheConstantTaskResultAnalyzer.Rule)
            || context.Values is { } values
                && site.Awaits.Any(a => AvailableValue.OfAwait(a, values) is { Fix: not null })
                && IsOn(analysis, site, AvailableValueAnalyzer.Rule)
            || calls.Any(c => c.TargetMethod is { Name: "Delay", IsStatic: true } && context.IsTask(c.TargetMethod.ContainingType) && DelayTimer.IsReportedRace(c))
                && IsOn(analysis, site, DelayTimerAnalyzer.Rule);
    }

    /// <summary>
    /// A Task.Run that TPL0007 reports: its lambda captures (a lambda that captures nothing, or a method group, is no site
    /// of TPL0007's, and giving the pass-through away there left it to no rule).
    /// </summary>
    private static bool GetsStateFromTaskRunRule(IInvocationOperation? call, Compilation compilation, Context context) =>
        call is not null
        && context.IsTaskRun(call.TargetMethod)
        && PerCompilation<TaskRunState.Context>.GetOrCreate(compilation, TaskRunState.Context.TryCreate) is { } runs
        && TaskRunState.Analyze(call, runs, StateCapture.MaxStateValues.Default) is not null;

    /// <summary>
    /// Whether the fix is offered only where the file has one target (<see cref="ConstantKey"/>): the site returns a
    /// constant, or returns a <c>Task.FromResult</c> of one that this target's runtime caches while TPL0003 is on (another
    /// target's runtime may not cache it, and TPL0003 would take the returned task there on a second run).
    /// </summary>
    public static bool FixNeedsOneTarget(OperationAnalysisContext analysis, Site site, Context context) =>
        site.Value?.ConstantValue.HasValue == true
        || Calls(site).Any(c => IsConstantResult(c, context, uncachedOnly: false)) && IsOn(analysis, site, CacheConstantTaskResultAnalyzer.Rule);

    /// <summary>The calls in the returned tasks' own code (not in the lambdas they are given: those run later, apart).</summary>
    private static List<IInvocationOperation> Calls(Site site)
    {
        var calls = new List<IInvocationOperation>();
        foreach (var task in site.Tasks)
        {
            calls.AddRange(OwnOperations.Of(task).OfType<IInvocationOperation>());
        }

        return calls;
    }

    private static bool IsOn(OperationAnalysisContext analysis, Site site, DiagnosticDescriptor rule) =>
        OtherRule.IsOn(analysis.Compilation, analysis.Options, site.Declaration.SyntaxTree, analysis.ContainingSymbol, rule, analysis.CancellationToken);

    /// <summary>
    /// A constant returned after an await of a completed task that this target's runtime does not cache: the
    /// <c>Task.FromResult</c> the fix writes would be TPL0003's site. One it caches (<c>true</c>, <c>null</c>, small
    /// numbers on .NET) is this rule's, fixed where the file has no other target (<see cref="ConstantKey"/>).
    /// </summary>
    private static bool IsUncachedConstant(Site site, Context context) =>
        site.Value is { } value
        && ConstantResult.TryGet(value, out var constant)
        && !(context.Values is { } values && TaskResultCache.IsCachedByRuntime(value.Type!, constant, values.CacheLevel));

    /// <summary>
    /// The property that marks a site fixed only where the file has one target (<see cref="FixNeedsOneTarget"/>): it
    /// returns a constant, or a <c>Task.FromResult</c> of one this target caches, and another target's runtime may not
    /// cache it, so that TPL0003 would take the task on a second run.
    /// </summary>
    public const string ConstantKey = "Constant";

    /// <summary>
    /// Task.FromResult of a constant: TPL0003's shape, read generously; with <paramref name="uncachedOnly"/>, of one this
    /// target's runtime does not cache (TPL0003 reports it here). A cached one is this rule's, fixed where the file has
    /// one target (<see cref="FixNeedsOneTarget"/>), since netstandard2.0 caches nothing.
    /// </summary>
    private static bool IsConstantResult(IInvocationOperation call, Context context, bool uncachedOnly) =>
        call.TargetMethod is { Name: "FromResult", IsStatic: true, TypeArguments.Length: 1 } method
        && context.IsTask(method.ContainingType)
        && call.Arguments.Length == 1
        && ConstantResult.TryGet(call.Arguments[0].Value, out var constant)
        && !(uncachedOnly && context.Values is { } values && TaskResultCache.IsCachedByRuntime(method.TypeArguments[0], constant, values.CacheLevel));

    /// <summary>
    /// The site whose first path-ending await is <paramref name="await"/> (where it is reported), or null. The syntax is
    /// read first: most awaits end no path of a pass-through; the option is read only for a function that is one.
    /// </summary>
    public static Site? Analyze(IAwaitOperation await, ISymbol containingSymbol, Context context, RuleOptions options)
    {
        if (await.Syntax is not AwaitExpressionSyntax syntax
            || FunctionOf(syntax) is not { } declaration
            || !HasAsyncKeyword(declaration)
            || IsFollowedByMoreWork(syntax)
            || Body(await, declaration) is not { } body
            || Symbol(body, containingSymbol) is not { IsAsync: true, ReturnsVoid: false } function
            || !context.IsTaskType(function.ReturnType)
            || function.ReturnType.ContainsErrorType()
            || HasMethodBuilder(function)
            || body.Block is not { } block
            // Another build of the file (another OS, Debug or Release, another target) compiles other code here: what
            // this one sees as a pass-through may await more there (a "keep it async" await beside an #if'd body).
            || block.Syntax.HasConditionalBranches())
        {
            return null;
        }

        // The paths first: the lambda's test below looks up the overloads of the call it is given to.
        var awaits = PassThroughPaths.Of(block, returnsValue: function.ReturnType is INamedTypeSymbol { IsGenericType: true }, out var computed);
        var value = awaits is null ? CompletedThenValue(await, block, function.ReturnType, context) : null;
        if ((awaits is null ? value is null : awaits[0] != await)
            || !(body.Function is not IAnonymousFunctionOperation lambda || LambdaKeepsItsType(lambda, context)))
        {
            return null;
        }

        var givenTo = body.Function is IAnonymousFunctionOperation { Parent.Parent: IArgumentOperation { Parent: IInvocationOperation call } } ? call : null;
        if (awaits is null)
        {
            return new Site(declaration, function, new[] { await }, givenTo, value);
        }

        var trustServices = options.For(await.Syntax.SyntaxTree).Number(InjectedServices.TrustOption) == 1;
        var held = computed is null ? null : HeldTasks(computed, awaits, block, context, trustServices);
        if (computed is not null && held is null)
        {
            return null;
        }

        var mayWiden = body.Function is not IAnonymousFunctionOperation asLambda || HasWrittenDelegateType(asLambda);
        var mayWrap = body.Function is not IAnonymousFunctionOperation;
        foreach (var ending in awaits)
        {
            if (Awaited(ending.Operation) is not { } task
                || (held is not null && task is ILocalReferenceOperation local && held.TryGetValue(local.Local, out var made)
                    ? !CanReturn(made.Type, function.ReturnType, context, mayWiden, mayWrap)
                    : !CanReturn(task.Type, function.ReturnType, context, mayWiden, mayWrap) || !PassThroughCallees.CannotThrow(task, context, trustServices)))
            {
                return null;
            }
        }

        return new Site(declaration, function, awaits, givenTo);
    }

    /// <summary>
    /// <c>var t = Task.Delay(5); await t;</c>: each local declared ahead of the paths with an initializer that is no plain
    /// read holds a task made by an expression that cannot throw (<see cref="PassThroughCallees"/>), and is read only as
    /// the task a path awaits. Then returning it is the same program. The locals with their initializers, or null.
    /// </summary>
    private static Dictionary<ILocalSymbol, IOperation>? HeldTasks(
        List<IVariableDeclaratorOperation> computed,
        IReadOnlyList<IAwaitOperation> awaits,
        IBlockOperation block,
        Context context,
        bool trustServices)
    {
        var held = new Dictionary<ILocalSymbol, IOperation>(SymbolEqualityComparer.Default);
        foreach (var declarator in computed)
        {
            if (declarator.Initializer?.Value is not { } value
                || !PassThroughCallees.CannotThrow(value.WithoutImplicitConversions(), context, trustServices))
            {
                return null;
            }

            held[declarator.Symbol] = value;
        }

        var awaited = 0;
        foreach (var ending in awaits)
        {
            if (Awaited(ending.Operation) is ILocalReferenceOperation local && held.ContainsKey(local.Local))
            {
                awaited++;
            }
        }

        // A held task is read only where a path awaits it (no test, no assignment).
        var reads = 0;
        foreach (var reference in block.Descendants())
        {
            if (reference is ILocalReferenceOperation read && held.ContainsKey(read.Local))
            {
                reads++;
            }
        }

        return reads == awaited ? held : null;
    }

    /// <summary>
    /// <c>await done; return value;</c> in a function of <c>Task&lt;T&gt;</c>: the body's only await is of a task complete
    /// already (<c>Task.CompletedTask</c>, <c>Task.FromResult</c>, <c>Task.Delay(0)</c>) that cannot throw, and the value
    /// is a read (a parameter, a constant, a field of <c>this</c>) of the result type itself, nullability included, so that
    /// <c>Task.FromResult(value)</c> infers the return type. Nothing then can throw or wait, and that is the same task; the
    /// value, or null.
    /// </summary>
    private static IOperation? CompletedThenValue(IAwaitOperation await, IBlockOperation block, ITypeSymbol returnType, Context context)
    {
        var statements = block.Operations;
        return returnType is INamedTypeSymbol { IsGenericType: true, TypeArguments.Length: 1 } task
            && context.IsTaskOfT(task)
            && statements.Length == 2
            && statements[0] is IExpressionStatementOperation { Operation: var first } && first == await
            && statements[1] is IReturnOperation { ReturnedValue: { } value }
            && context.Values?.Loops is { } loops
            && AwaitInLoop.AlreadyCompleted(await, loops) is not null
            && Awaited(await.Operation) is { } awaited
            && PassThroughCallees.CannotThrow(awaited, context, trustServices: false)
            && SafeTests.Read(value)
            && value.WithoutImplicitConversions() is { Type: { } type } read
            && read is not IDefaultValueOperation
            && !type.ContainsErrorType()
            && SymbolEqualityComparer.IncludeNullability.Equals(type, task.TypeArguments[0])
                ? read
                : null;
    }

    /// <summary>
    /// Whether the lambda's delegate type is written where it stands (a typed variable, an assignment, a member's
    /// return), so that a body returning a <c>Task&lt;T&gt;</c> still converts to it. Given as an argument (overloads,
    /// inferred type arguments), held in a <c>var</c> (its natural type) or returned from a lambda, the type follows the
    /// body, and there a <c>Task&lt;T&gt;</c> is no <c>Task</c>.
    /// </summary>
    private static bool HasWrittenDelegateType(IAnonymousFunctionOperation lambda) => lambda.Parent switch
    {
        IDelegateCreationOperation { Parent: ISimpleAssignmentOperation } => true,
        IDelegateCreationOperation { Parent: IReturnOperation returned } => returned.EnclosingFunction() is not IAnonymousFunctionOperation,
        IDelegateCreationOperation { Parent: IVariableInitializerOperation { Parent: IVariableDeclaratorOperation { Parent: IVariableDeclarationOperation declaration } } } =>
            declaration.Syntax is VariableDeclarationSyntax { Type.IsVar: false },
        _ => false,
    };

    /// <summary>
    /// The awaited task can be returned as it is: it has the return type (<see cref="IsReturnType"/>), or it is a
    /// <c>Task&lt;T&gt;</c> where the function returns <c>Task</c>, which converts without a warning. The caller then holds
    /// a <c>Task&lt;T&gt;</c> typed as <c>Task</c>: only a type test could tell, as only <c>ReferenceEquals</c> tells it now
    /// holds the callee's task (the page's caveats). Not for a lambda whose delegate type follows its body
    /// (<paramref name="mayWiden"/> false, <see cref="HasWrittenDelegateType"/>). A method or local function
    /// (<paramref name="mayWrap"/>) returning a <c>ValueTask</c> returns the task wrapped in one
    /// (<see cref="Context.WrapsInValueTask"/>).
    /// </summary>
    private static bool CanReturn(ITypeSymbol? task, ITypeSymbol returnType, Context context, bool mayWiden, bool mayWrap) =>
        IsReturnType(task, returnType)
        || mayWiden && task is not null && context.IsTask(returnType) && context.IsTaskOfT(task)
        || mayWrap && context.WrapsInValueTask(task, returnType);

    /// <summary>
    /// The task's type is the return type, nullability included, so the rewrite cannot warn; a return type that may be
    /// null (Task.Run's <c>Func&lt;Task&lt;T&gt;?&gt;</c> makes a lambda's so) takes a task that is not.
    /// </summary>
    private static bool IsReturnType(ITypeSymbol? task, ITypeSymbol returnType) =>
        task is not null
        && SymbolEqualityComparer.IncludeNullability.Equals(
            returnType.NullableAnnotation == NullableAnnotation.Annotated ? task.WithNullableAnnotation(NullableAnnotation.Annotated) : task,
            returnType);

    /// <summary>The function's body block and the operation that owns it, found by walking up from the await.</summary>
    private static (IBlockOperation? Block, IOperation? Function)? Body(IOperation await, SyntaxNode declaration)
    {
        for (var current = await.Parent; current is not null; current = current.Parent)
        {
            switch (current)
            {
                case IAnonymousFunctionOperation lambda:
                    return lambda.Syntax == declaration ? (lambda.Body, lambda) : null;
                case ILocalFunctionOperation local:
                    return local.Syntax == declaration ? (local.Body ?? local.IgnoredBody, local) : null;
                case IMethodBodyOperation method:
                    return method.Syntax == declaration ? (method.BlockBody ?? method.ExpressionBody, method) : null;
            }
        }

        return null;
    }

    /// <summary>
    /// A method's symbol is the analysis's containing symbol (its body is the operation block being analyzed): asking the
    /// semantic model for it cost more than the rest of the check.
    /// </summary>
    private static IMethodSymbol? Symbol((IBlockOperation? Block, IOperation? Function)? body, ISymbol containingSymbol) => body?.Function switch
    {
        IAnonymousFunctionOperation lambda => lambda.Symbol,
        ILocalFunctionOperation local => local.Symbol,
        IMethodBodyOperation => containingSymbol is IMethodSymbol method ? method.PartialImplementationPart ?? method : null,
        _ => null,
    };

    /// <summary>
    /// A lambda binds to the same delegate without <c>async</c> where its target type is written down (a variable, an
    /// assignment, a return) or the call it is given to has no other overload to choose; Task.Run's overloads choose
    /// the same one for <c>() =&gt; N()</c> as for <c>async () =&gt; await N()</c>.
    /// </summary>
    private static bool LambdaKeepsItsType(IAnonymousFunctionOperation lambda, Context context)
    {
        if (lambda.Parent is not IDelegateCreationOperation creation)
        {
            return false;
        }

        return creation.Parent switch
        {
            IVariableInitializerOperation or IReturnOperation => true,
            ISimpleAssignmentOperation assignment => assignment.Value == creation,
            IArgumentOperation { Parent: IInvocationOperation { TargetMethod: var method } } =>
                !method.IsExtensionMethod
                && (method.ContainingType.GetMembers(method.Name).Length == 1
                    || context.IsTaskRun(method)),
            _ => false,
        };
    }

    /// <summary>Whether <paramref name="node"/> is a value its parent chooses: in parentheses, or an arm of a <c>?:</c> or a switch expression.</summary>
    private static bool IsArm(SyntaxNode node) => node.Parent switch
    {
        ParenthesizedExpressionSyntax => true,
        ConditionalExpressionSyntax choice => choice.Condition != node,
        SwitchExpressionArmSyntax arm => arm.Expression == node,
        SwitchExpressionSyntax choice => choice.GoverningExpression != node,
        _ => false,
    };

    /// <summary>
    /// The function whose paths may each end in this await: the await (inside parentheses and <c>?:</c> arms) is an
    /// expression body, a returned value, a statement or a local's initializer, and the statements around it are blocks,
    /// <c>if</c>s and switch sections up to a method's, local function's or lambda's body.
    /// </summary>
    public static SyntaxNode? FunctionOf(AwaitExpressionSyntax await)
    {
        SyntaxNode node = await;
        while (IsArm(node))
        {
            node = node.Parent!;
        }

        switch (node.Parent)
        {
            case ArrowExpressionClauseSyntax { Parent: MethodDeclarationSyntax or LocalFunctionStatementSyntax } arrow:
                return arrow.Parent;
            case AnonymousFunctionExpressionSyntax lambda when lambda.Body == node:
                return lambda;
            case ReturnStatementSyntax or ExpressionStatementSyntax:
                node = node.Parent;
                break;
            case EqualsValueClauseSyntax { Parent: VariableDeclaratorSyntax { Parent: VariableDeclarationSyntax { Variables.Count: 1, Parent: LocalDeclarationStatementSyntax statement } } }:
                node = statement;
                break;
            default:
                return null;
        }

        while (true)
        {
            // Most awaits stand among statements that do other work: such a block ends no path of a pass-through.
            if (node.Parent is BlockSyntax { Statements: var statements } && !AllMayEndAPath(statements)
                || node.Parent is SwitchSectionSyntax { Statements: var section } && !AllMayEndAPath(section))
            {
                return null;
            }

            switch (node.Parent)
            {
                case BlockSyntax { Parent: MethodDeclarationSyntax or LocalFunctionStatementSyntax or AnonymousFunctionExpressionSyntax } body:
                    return body.Parent;
                case BlockSyntax or IfStatementSyntax or ElseClauseSyntax or SwitchSectionSyntax or SwitchStatementSyntax:
                    node = node.Parent;
                    break;
                default:
                    return null;
            }
        }
    }

    // A loop, not LINQ: this runs at every await, and All boxed the list and made a delegate each time.
    private static bool AllMayEndAPath(SyntaxList<StatementSyntax> statements)
    {
        foreach (var statement in statements)
        {
            if (!MayEndAPath(statement))
            {
                return false;
            }
        }

        return true;
    }

    /// <summary>
    /// A statement a pass-through's body may hold, read from the syntax: a return, a branch, a switch, a block, a local
    /// function, an awaited statement, a <c>break</c>, or a local the await initializes (returned next).
    /// </summary>
    private static bool MayEndAPath(StatementSyntax statement) => statement switch
    {
        ReturnStatementSyntax or IfStatementSyntax or SwitchStatementSyntax or BlockSyntax or LocalFunctionStatementSyntax or BreakStatementSyntax => true,
        ExpressionStatementSyntax { Expression: var expression } => expression is AwaitExpressionSyntax,
        LocalDeclarationStatementSyntax { Declaration.Variables: { Count: 1 } variables } when variables[0].Initializer?.Value is AwaitExpressionSyntax => true,
        LocalDeclarationStatementSyntax local => IsPlainDeclaration(local),
        _ => false,
    };

    /// <summary>
    /// Locals declared ahead of the paths (<c>bool found = false;</c>, <c>var t = Task.Delay(5);</c>): no <c>using</c>, no
    /// await in an initializer. Whether their initializers can throw is the operations' question (<see cref="PassThroughPaths"/>).
    /// </summary>
    private static bool IsPlainDeclaration(LocalDeclarationStatementSyntax local)
    {
        if (local.UsingKeyword != default || local.AwaitKeyword != default)
        {
            return false;
        }

        foreach (var variable in local.Declaration.Variables)
        {
            if (variable.Initializer is { } initializer && initializer.Value.DescendantNodesAndSelf().Any(n => n is AwaitExpressionSyntax))
            {
                return false;
            }
        }

        return true;
    }

    /// <summary>
    /// Read from the syntax alone, for TPL0008's search of a method's calls: false only where this rule surely does not
    /// report the await (no path of a function ends in it, not async, a receiver, argument or test that calls, creates or
    /// indexes), so that the two rules never both count one await as theirs.
    /// </summary>
    public static bool MayBePassThrough(AwaitExpressionSyntax await)
    {
        if (FunctionOf(await) is not { } declaration || !HasAsyncKeyword(declaration))
        {
            return false;
        }

        var awaited = await.Expression;
        if (awaited is InvocationExpressionSyntax { Expression: MemberAccessExpressionSyntax { Name.Identifier.ValueText: "ConfigureAwait", Expression: var configured } })
        {
            awaited = configured;
        }

        // A local that the await initializes must be returned next; an awaited statement must end its list.
        if (await.Parent is EqualsValueClauseSyntax { Parent: VariableDeclaratorSyntax declarator, Parent.Parent.Parent: LocalDeclarationStatementSyntax local }
            && !(Next(local) is ReturnStatementSyntax { Expression: IdentifierNameSyntax returned } && returned.Identifier.ValueText == declarator.Identifier.ValueText))
        {
            return false;
        }

        if (await.Parent is ExpressionStatementSyntax statement && Next(statement) is not (null or ReturnStatementSyntax { Expression: null } or BreakStatementSyntax))
        {
            return false;
        }

        // The tests that choose the await's path must not run code either.
        for (var node = await.Parent; node is not null && node != declaration; node = node.Parent)
        {
            if (node is IfStatementSyntax { Condition: var condition } && RunsCode(condition)
                || node is SwitchStatementSyntax { Expression: var value } && RunsCode(value)
                || node is ConditionalExpressionSyntax { Condition: var test } && RunsCode(test)
                || node is SwitchExpressionSyntax { GoverningExpression: var governing } && RunsCode(governing)
                || node is SwitchExpressionArmSyntax { WhenClause.Condition: var guard } && RunsCode(guard))
            {
                return false;
            }
        }

        // A choice between tasks (?: or a switch expression): the operations decide.
        while (awaited is ParenthesizedExpressionSyntax parenthesized)
        {
            awaited = parenthesized.Expression;
        }

        if (awaited is ConditionalExpressionSyntax or SwitchExpressionSyntax)
        {
            return true;
        }

        var receiver = (awaited as InvocationExpressionSyntax)?.Expression is MemberAccessExpressionSyntax access ? access.Expression : null;
        return awaited is InvocationExpressionSyntax call
            && !RunsCode(receiver)
            && !(receiver is IdentifierNameSyntax variable && NamesAVariable(variable.Identifier.ValueText, declaration))
            && call.ArgumentList.Arguments.All(a => !RunsCode(a.Expression) || a.Expression is AnonymousFunctionExpressionSyntax || DelayTimeSpan.MayBeAccepted(a.Expression));
    }

    /// <summary>The statement after <paramref name="statement"/> in its block or switch section, passing over local functions.</summary>
    public static StatementSyntax? Next(StatementSyntax statement)
    {
        var statements = statement.Parent switch
        {
            BlockSyntax block => block.Statements,
            SwitchSectionSyntax section => section.Statements,
            _ => default,
        };

        // A loop, not LINQ: asked at every await of an async function.
        var passed = false;
        foreach (var each in statements)
        {
            if (passed && each is not LocalFunctionStatementSyntax)
            {
                return each;
            }

            passed |= each == statement;
        }

        return null;
    }

    /// <summary>
    /// Read from the syntax, before any operation or symbol: an await whose value something else takes (an operand, an
    /// argument), an awaited statement that other work follows, or a local the await sets that is not returned next.
    /// Such an await ends no path (most awaits of a method are these); the shapes the rule takes are a body, a return or
    /// a statement that ends its list or is followed by <c>return</c> (a value after a completed task) or <c>break</c>.
    /// </summary>
    private static bool IsFollowedByMoreWork(AwaitExpressionSyntax await)
    {
        // The await's value must be what the body, a return or a statement takes, through parentheses and the branches
        // of ?: and switch expressions: one that is an operand, an argument or a receiver ends no path.
        SyntaxNode node = await;
        while (node.Parent is ParenthesizedExpressionSyntax
            || node.Parent is ConditionalExpressionSyntax choice && choice.Condition != node
            || node.Parent is SwitchExpressionArmSyntax arm && arm.Expression == node
            || node.Parent is SwitchExpressionSyntax switched && switched.GoverningExpression != node)
        {
            node = node.Parent;
        }

        return node.Parent switch
        {
            ExpressionStatementSyntax statement => Next(statement) is not (null or ReturnStatementSyntax or BreakStatementSyntax),
            EqualsValueClauseSyntax { Parent: VariableDeclaratorSyntax declarator, Parent.Parent.Parent: LocalDeclarationStatementSyntax local } =>
                !(Next(local) is ReturnStatementSyntax { Expression: IdentifierNameSyntax returned } && returned.Identifier.ValueText == declarator.Identifier.ValueText),
            ReturnStatementSyntax or ArrowExpressionClauseSyntax or AnonymousFunctionExpressionSyntax => false,
            _ => true,
        };
    }

    /// <summary>A function whose builder is its own (<c>[AsyncMethodBuilder]</c>): its tasks are not the ones a return would give.</summary>
    private static bool HasMethodBuilder(IMethodSymbol function)
    {
        foreach (var attribute in function.GetAttributes())
        {
            if (attribute.AttributeClass?.Name == "AsyncMethodBuilderAttribute")
            {
                return true;
            }
        }

        return false;
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
                ParenthesizedLambdaExpressionSyntax lambda => lambda.ParameterList.Parameters.Any(p => p.Identifier.ValueText == name),
                SimpleLambdaExpressionSyntax lambda => lambda.Parameter.Identifier.ValueText == name,
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
            or AssignmentExpressionSyntax or ConditionalAccessExpressionSyntax or AwaitExpressionSyntax or AnonymousFunctionExpressionSyntax);

    public static bool HasAsyncKeyword(SyntaxNode declaration) => ModifiersOf(declaration).Any(SyntaxKind.AsyncKeyword);

    /// <summary>The modifiers of a method, local function or lambda (<see cref="FunctionOf"/>'s declarations).</summary>
    public static SyntaxTokenList ModifiersOf(SyntaxNode declaration) => declaration switch
    {
        MethodDeclarationSyntax method => method.Modifiers,
        LocalFunctionStatementSyntax local => local.Modifiers,
        AnonymousFunctionExpressionSyntax lambda => lambda.Modifiers,
        _ => default,
    };

    /// <summary>
    /// The awaited task, looking through a ConfigureAwait that only chooses the context (<see cref="ConfiguredAwait"/>);
    /// other options (SuppressThrowing, ForceYielding) change what the await does, so such an await has no task to return.
    /// </summary>
    public static IOperation? Awaited(IOperation operation)
    {
        if (operation is IInvocationOperation { TargetMethod.Name: "ConfigureAwait", Instance: { } inner } configure)
        {
            return ConfiguredAwait.OnlyChoosesContext(configure) ? inner : null;
        }

        return operation;
    }
}
