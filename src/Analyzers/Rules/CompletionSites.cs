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
/// TPL0013: where the code that can complete a source does so, read from the syntax of the code that can name it: its
/// function for a local, its type's declarations for a field. Asked only for a site about to be reported. Two answers:
/// whether a completer relies on continuations running inline (it reads a task's state right after completing), and
/// whether every completion is the last thing a thread-pool work item or continuation does, with no lock held, where
/// running the awaiting code inline costs nothing and the flag would only add a queue hop.
/// </summary>
internal sealed class CompletionSites
{
    private static readonly ImmutableHashSet<string> StateNames = ImmutableHashSet.Create(
        "IsCompleted", "IsCompletedSuccessfully", "IsFaulted", "IsCanceled", "Status");

    /// <summary>
    /// Calls whose delegate runs as a work item of its own on the pool, or as a task's continuation, with the type that
    /// must name the static ones (a method of the user's own called <c>Run</c> may run the delegate inline, under a lock).
    /// </summary>
    private static readonly ImmutableDictionary<string, string?> PoolWork = new Dictionary<string, string?>
    {
        ["Run"] = "Task",
        ["QueueUserWorkItem"] = "ThreadPool",
        ["UnsafeQueueUserWorkItem"] = "ThreadPool",
        ["StartNew"] = null,
        ["ContinueWith"] = null,
    }.ToImmutableDictionary();

    /// <summary>What code can do with a source's task without continuing on it: wait for it, or read its state.</summary>
    private static readonly ImmutableHashSet<string> BlockingUses = StateNames.Union(new[] { "Wait", "Result", "Exception", "Id" });

    private readonly List<InvocationExpressionSyntax> _completions;

    /// <summary>Where code that calls a completing method can be: the function for a local, the outermost type for a field.</summary>
    private readonly IEnumerable<SyntaxNode> _callers;

    /// <summary>The scopes read hold every mention the language allows: a local's function, a private field's type.</summary>
    private readonly bool _everyMentionRead;

    private CompletionSites(List<InvocationExpressionSyntax> completions, bool allKnown, bool taskContinued, bool elementHeld, bool handedToPool, IEnumerable<SyntaxNode>? callers = null, bool everyMentionRead = false)
    {
        _completions = completions;
        _callers = callers ?? Enumerable.Empty<SyntaxNode>();
        _everyMentionRead = everyMentionRead;
        AllKnown = allKnown;
        TaskContinued = taskContinued;
        ElementHeld = elementHeld;
        HandedToPool = handedToPool;
    }

    /// <summary>Every mention of the source is a completion, a read of its task, or a store of a new source: none hands it to other code.</summary>
    private bool AllKnown { get; }

    /// <summary>Some read of the source's task may attach a continuation: it is awaited, returned, stored or passed on.</summary>
    private bool TaskContinued { get; }

    /// <summary>The source was made straight into an element of a local array: one of a set.</summary>
    private bool ElementHeld { get; }

    /// <summary>
    /// Some mention hands the source to a method of the project that completes it only as the last act of pool work
    /// (<c>source.TrySetResultAsync(x)</c>, whose body is <c>Task.Run(() => source.TrySetResult(x))</c>).
    /// </summary>
    private bool HandedToPool { get; }

    /// <summary>
    /// The sites of the local, field or local array's element a creation is stored into; null where it goes elsewhere
    /// (a call, another object's member).
    /// </summary>
    public static CompletionSites? Of(IObjectCreationOperation creation)
    {
        var value = creation.WithImplicitConversionsAround();
        var model = creation.SemanticModel;
        return value.Parent switch
        {
            IVariableInitializerOperation { Parent: IVariableDeclaratorOperation declarator } => InFunction(declarator.Symbol.Name, declarator.Root().Syntax, model),
            ISimpleAssignmentOperation { Target: ILocalReferenceOperation local } => InFunction(local.Local.Name, local.Root().Syntax, model),
            ISimpleAssignmentOperation { Target: IFieldReferenceOperation field } => Of(field.Field, model),
            ISimpleAssignmentOperation { Target: IArrayElementReferenceOperation { ArrayReference: ILocalReferenceOperation array } } =>
                Find(array.Local.Name, new[] { array.Root().Syntax }, model, elementHeld: true),
            IFieldInitializerOperation { InitializedFields.Length: 1 } initializer => Of(initializer.InitializedFields[0], model),
            _ => null,
        };
    }

    private static CompletionSites Of(IFieldSymbol field, SemanticModel? model)
    {
        var outermost = field.ContainingType;
        while (outermost.ContainingType is { } containing)
        {
            outermost = containing;
        }

        return Find(field.Name, field.ContainingType.DeclaringSyntaxReferences.Select(r => r.GetSyntax()), model)
            .WithCallers(outermost.DeclaringSyntaxReferences.Select(r => r.GetSyntax()), field.DeclaredAccessibility == Accessibility.Private);
    }

    private static CompletionSites InFunction(string name, SyntaxNode function, SemanticModel? model) =>
        Find(name, new[] { function }, model).WithCallers(new[] { function }, everyMentionRead: true);

    private CompletionSites WithCallers(IEnumerable<SyntaxNode> callers, bool everyMentionRead) =>
        new(_completions, AllKnown, TaskContinued, ElementHeld, HandedToPool, callers, everyMentionRead);

    /// <summary>
    /// No code can complete the source: every mention the language allows was read, and each only reads its task or
    /// stores a new source (a private <c>_never</c> whose task stands for "not yet", forever).
    /// </summary>
    public bool NothingCompletes => _everyMentionRead && AllKnown && _completions.Count == 0 && !HandedToPool;

    /// <summary>
    /// Reads every mention of <paramref name="name"/> in <paramref name="scopes"/>. For an array of sources a mention
    /// is an element (<c>sources[i]</c>) or a <c>foreach</c> over them, whose variable is read the same way.
    /// A copy into a local (<c>var pending = _read; _read = null; pending.TrySetResult(n);</c>, the take-and-clear of a
    /// field) is read the same way in its function, one copy deep. A source handed to a completing helper
    /// (<see cref="IsPoolCompleter"/>) is followed into it where <paramref name="model"/> can bind the call.
    /// </summary>
    private static CompletionSites Find(string name, IEnumerable<SyntaxNode> scopes, SemanticModel? model, bool elementHeld = false, bool copied = false)
    {
        var completions = new List<InvocationExpressionSyntax>();
        var allKnown = true;
        var taskContinued = false;
        var handedToPool = false;
        foreach (var scope in scopes)
        {
            foreach (var token in scope.TokensNamed(name, SyntaxKind.IdentifierToken))
            {
                if (token.Parent is not IdentifierNameSyntax mention || mention.Parent is VariableDeclaratorSyntax)
                {
                    continue;
                }

                // this._read, or another instance's (self._read in a static callback given the instance as its state).
                var reference = Outermost(mention.Parent is MemberAccessExpressionSyntax { Expression: ThisExpressionSyntax or IdentifierNameSyntax } self && self.Name == mention ? self : mention);
                if (elementHeld)
                {
                    if (reference.Parent is ForEachStatementSyntax loop && loop.Expression == reference)
                    {
                        var each = Find(loop.Identifier.ValueText, new[] { loop.Statement }, model);
                        completions.AddRange(each._completions);
                        allKnown &= each.AllKnown;
                        taskContinued |= each.TaskContinued;
                        handedToPool |= each.HandedToPool;
                        continue;
                    }

                    if (reference.Parent is not ElementAccessExpressionSyntax element || element.Expression != reference)
                    {
                        allKnown = false;
                        continue;
                    }

                    reference = Outermost(element);
                }

                switch (reference.Parent)
                {
                    case ConditionalAccessExpressionSyntax { WhenNotNull: InvocationExpressionSyntax { Expression: MemberBindingExpressionSyntax binding } call } access
                        when access.Expression == reference && CompletionSources.IsCompletionName(binding.Name.Identifier.ValueText):
                        completions.Add(call);
                        break;
                    case MemberAccessExpressionSyntax { Name.Identifier.ValueText: var member, Parent: InvocationExpressionSyntax call } access
                        when access.Expression == reference && CompletionSources.IsCompletionName(member):
                        completions.Add(call);
                        break;
                    case MemberAccessExpressionSyntax { Name.Identifier.ValueText: "Task" } access when access.Expression == reference:
                        taskContinued |= !IsWaitedOrRead(access);
                        break;
                    case AssignmentExpressionSyntax assignment when assignment.Left == reference:
                        break;
                    case EqualsValueClauseSyntax { Parent: VariableDeclaratorSyntax copy } when !copied && !elementHeld && copy.Parent?.Parent is LocalDeclarationStatementSyntax
                        && copy.EnclosingFunction()?.BodyOf() is { } body:
                        var held = Find(copy.Identifier.ValueText, new[] { body }, model, copied: true);
                        completions.AddRange(held._completions);
                        allKnown &= held.AllKnown;
                        taskContinued |= held.TaskContinued;
                        handedToPool |= held.HandedToPool;
                        break;
                    case MemberAccessExpressionSyntax { Parent: InvocationExpressionSyntax call } access when access.Expression == reference && IsPoolCompleter(model, call, reference):
                    case ArgumentSyntax { Parent: ArgumentListSyntax { Parent: InvocationExpressionSyntax passedTo } } when IsPoolCompleter(model, passedTo, reference):
                        handedToPool = true;
                        break;
                    case ArgumentSyntax state when IsReadBackByPoolWork(state, name, out var completedThere):
                        // The state of pool work, read back under its own name (the completions there are mentions
                        // too) or completed as it is read.
                        if (completedThere is not null)
                        {
                            completions.Add(completedThere);
                        }

                        break;
                    default:
                        allKnown = false;
                        break;
                }
            }
        }

        return new CompletionSites(completions, allKnown, taskContinued, elementHeld, handedToPool);
    }

    /// <summary>
    /// <paramref name="call"/> hands <paramref name="source"/> to a method of the project, not one an override can
    /// replace, whose body completes that parameter only as the last act of pool work, and otherwise reads its task:
    /// Discord.Net's <c>TrySetResultAsync</c> extensions complete their sources on the pool so that no awaiting code
    /// runs inside the caller. Bound only in the tree <paramref name="model"/> covers.
    /// </summary>
    private static bool IsPoolCompleter(SemanticModel? model, InvocationExpressionSyntax call, ExpressionSyntax source)
    {
        if (model is null || call.SyntaxTree != model.SyntaxTree
            || model.GetOperation(call) is not IInvocationOperation { TargetMethod: var method } invocation
            || method.IsVirtual || method.IsAbstract || (method.IsOverride && !method.IsSealed)
            || invocation.Arguments.FirstOrDefault(a => a.Value.WithoutImplicitConversions().Syntax == source)?.Parameter is not { RefKind: RefKind.None } parameter
            || method.OriginalDefinition.DeclaringSyntaxReferences is not { Length: 1 } declarations
            || declarations[0].GetSyntax() is not { } declaration || declaration is not (BaseMethodDeclarationSyntax or LocalFunctionStatementSyntax))
        {
            return false;
        }

        var inside = Find(parameter.Name, new[] { declaration }, model: null);
        return inside.AllKnown && inside.OnlyEndPoolWork();
    }

    /// <summary>
    /// <paramref name="argument"/> (or the tuple it is an element of) is the state of pool work whose lambda reads the
    /// state only under <paramref name="name"/>: its parameter has the name, or its one read declares a local of it
    /// (<c>var source = (TaskCompletionSource&lt;int&gt;)state;</c>, <c>var (source, value) = state;</c>), as the state
    /// fixes write it, or its one read is completed at once (<c>((TaskCompletionSource&lt;int&gt;)state).SetResult(1)</c>,
    /// given in <paramref name="completion"/>). So every use of the source in the work item is one this search reads.
    /// </summary>
    private static bool IsReadBackByPoolWork(ArgumentSyntax argument, string name, out InvocationExpressionSyntax? completion)
    {
        completion = null;
        var state = argument.Parent is TupleExpressionSyntax { Parent: ArgumentSyntax tupleArgument } ? tupleArgument : argument;
        if (state.Parent is not ArgumentListSyntax { Parent: InvocationExpressionSyntax { Expression: MemberAccessExpressionSyntax access } } arguments
            || !IsPoolWorkCall(access)
            || arguments.Arguments.Select(a => a.Expression).OfType<AnonymousFunctionExpressionSyntax>().ToList() is not { Count: 1 } lambdas
            || lambdas[0] is not { Body: not null } work
            || arguments.Arguments.IndexOf(a => a.Expression == work) > arguments.Arguments.IndexOf(state))
        {
            return false;
        }

        var parameter = work switch
        {
            SimpleLambdaExpressionSyntax simple => simple.Parameter,
            ParenthesizedLambdaExpressionSyntax { ParameterList.Parameters: { Count: > 0 } parameters } => parameters.Last(),
            _ => null,
        };
        if (parameter is null)
        {
            return false;
        }

        if (parameter.Identifier.ValueText == name)
        {
            return true;
        }

        if (work.Body.TokensNamed(parameter.Identifier.ValueText, SyntaxKind.IdentifierToken).ToList() is not { Count: 1 } reads
            || reads[0].Parent is not IdentifierNameSyntax read)
        {
            return false;
        }

        var value = Outermost(read, throughCasts: true);

        if (value.Parent is MemberAccessExpressionSyntax { Name.Identifier.ValueText: var member, Parent: InvocationExpressionSyntax call } completed
            && completed.Expression == value && CompletionSources.IsCompletionName(member))
        {
            completion = call;
            return true;
        }

        return value.Parent switch
        {
            EqualsValueClauseSyntax { Parent: VariableDeclaratorSyntax local } => local.Identifier.ValueText == name,
            AssignmentExpressionSyntax { Left: var declared } assignment when assignment.Right == value =>
                declared.DescendantNodesAndSelf().OfType<SingleVariableDesignationSyntax>().Any(d => d.Identifier.ValueText == name),
            _ => false,
        };
    }

    /// <summary><c>source.Task.Wait()</c>, <c>.Result</c>, <c>.GetAwaiter().GetResult()</c>, a state read, or an argument (or array item) of <c>Task.WaitAll/WaitAny</c>.</summary>
    private static bool IsWaitedOrRead(ExpressionSyntax task)
    {
        task = Outermost(task);
        SyntaxNode outer = task.Parent is InitializerExpressionSyntax { Parent: ExpressionSyntax array } && array is ArrayCreationExpressionSyntax or ImplicitArrayCreationExpressionSyntax
            ? array
            : task;
        if (outer.Parent is ArgumentSyntax { Parent: ArgumentListSyntax { Parent: InvocationExpressionSyntax { Expression: MemberAccessExpressionSyntax { Name.Identifier.ValueText: "WaitAll" or "WaitAny" } } } })
        {
            return true;
        }

        return task.Parent switch
        {
            MemberAccessExpressionSyntax { Name.Identifier.ValueText: "GetAwaiter", Parent: InvocationExpressionSyntax { Parent: MemberAccessExpressionSyntax { Name.Identifier.ValueText: "GetResult" } } } => true,
            MemberAccessExpressionSyntax { Name.Identifier.ValueText: var member } access => access.Expression == task && BlockingUses.Contains(member),
            _ => false,
        };
    }

    /// <summary>
    /// Whether the rule stays silent on what it saw: a completion relies on inline continuations, or (where every
    /// mention is known) nothing continues on the task or every completion ends pool work. For a source made into an
    /// array element, whose completions may go through copies the rule does not follow, it speaks only for a visible
    /// completion that is a hazard.
    /// </summary>
    public bool AreHarmless()
    {
        if (AreReliedOn())
        {
            return true;
        }

        if (ElementHeld)
        {
            return _completions.All(EndsPoolWork);
        }

        return AllKnown && (!TaskContinued || OnlyEndPoolWork());
    }

    /// <summary><c>name</c> with the parentheses and <c>!</c> around it, and the casts where asked (a state read back as the source).</summary>
    private static ExpressionSyntax Outermost(ExpressionSyntax reference, bool throughCasts = false)
    {
        while (reference.Parent is ParenthesizedExpressionSyntax or PostfixUnaryExpressionSyntax { RawKind: (int)SyntaxKind.SuppressNullableWarningExpression }
            || throughCasts && reference.Parent is CastExpressionSyntax)
        {
            reference = (ExpressionSyntax)reference.Parent;
        }

        return reference;
    }

    /// <summary>
    /// Some completion is followed, in its member, by a read of a task's state that can run after it: a read in
    /// another branch (<c>if (t.IsCanceled) s.TrySetCanceled(); else if (t.IsFaulted) …</c>) runs instead of it.
    /// </summary>
    private bool AreReliedOn() =>
        _completions.Any(completion => IsStateReadAfter(completion) || CallersReadState(completion));

    private static bool IsStateReadAfter(SyntaxNode call) =>
        call.EnclosingFunction() is { } body
        && body.DescendantNodes().Any(n => n.SpanStart >= call.Span.End && IsStateRead(n) && ControlPaths.MayBothRun(call, n));

    /// <summary>
    /// One call deep: the completion is made by a method (or local function) that code in <see cref="_callers"/> calls
    /// and then reads a task's state, as DotNetty's TLS handler feeds its stream a packet, whose method completes the
    /// pending read, and then asks whether the SSL stream's read finished. A lambda between the completion and its
    /// method is crossed only where it runs inline: <c>new Task(…).RunSynchronously(…)</c>.
    /// </summary>
    private bool CallersReadState(SyntaxNode completion)
    {
        var function = completion.EnclosingFunction();
        while (function is AnonymousFunctionExpressionSyntax lambda && RunsInline(lambda))
        {
            function = lambda.Parent?.EnclosingFunction();
        }

        var name = function switch
        {
            MethodDeclarationSyntax method => method.Identifier.ValueText,
            LocalFunctionStatementSyntax local => local.Identifier.ValueText,
            _ => null,
        };
        return name is not null
            && _callers.Any(scope => scope.TokensNamed(name, SyntaxKind.IdentifierToken).Any(token =>
                token.Parent is SimpleNameSyntax called
                && (called.Parent as InvocationExpressionSyntax ?? (called.Parent as MemberAccessExpressionSyntax)?.Parent as InvocationExpressionSyntax) is { } call
                && RightmostName(call.Expression) == name
                && !function!.Span.Contains(call.Span)
                && IsStateReadAfter(call)));
    }

    /// <summary>A lambda given to <c>new Task(…)</c> whose task is run at once with <c>RunSynchronously</c>.</summary>
    private static bool RunsInline(AnonymousFunctionExpressionSyntax lambda) =>
        CreationOf(lambda, "Task")?.Parent is MemberAccessExpressionSyntax { Name.Identifier.ValueText: "RunSynchronously", Parent: InvocationExpressionSyntax };

    /// <summary>The <c>new T(…)</c> the lambda is an argument of, where <c>T</c> is written <paramref name="type"/>.</summary>
    private static ObjectCreationExpressionSyntax? CreationOf(AnonymousFunctionExpressionSyntax lambda, string type) =>
        lambda.Parent is ArgumentSyntax { Parent: ArgumentListSyntax { Parent: ObjectCreationExpressionSyntax creation } } && RightmostName(creation.Type) == type
            ? creation
            : null;

    /// <summary>
    /// Every completion (and there is one) is the last statement, or the expression body, of a lambda given to
    /// Task.Run, StartNew, ContinueWith or ThreadPool.QueueUserWorkItem, outside any lock or loop, or is made by a
    /// helper that completes it so (<see cref="HandedToPool"/>). That nothing else can complete it (<see cref="AllKnown"/>)
    /// is the caller's test.
    /// </summary>
    private bool OnlyEndPoolWork() => (_completions.Count > 0 || HandedToPool) && _completions.All(EndsPoolWork);

    private static bool EndsPoolWork(InvocationExpressionSyntax completion)
    {
        SyntaxNode node = completion.Parent is AssignmentExpressionSyntax { Left: IdentifierNameSyntax { Identifier.ValueText: "_" } } discard ? discard : completion;
        if (node.Parent is AnonymousFunctionExpressionSyntax { ExpressionBody: { } body } expressionLambda && body == node)
        {
            return IsPoolWork(expressionLambda);
        }

        // A statement, or the value a continuation's block returns (`return done.TrySetResult(t.Result);`, as the state
        // fixes write an expression body).
        if (node.Parent is not (ExpressionStatementSyntax or ReturnStatementSyntax) || node.Parent is not StatementSyntax statement)
        {
            return false;
        }

        // Out through what ends when the statement does: the last statement of a block, a branch of an `if`
        // (`if (signaled) done.SetResult(x); else done.SetException(e);`), a try or catch block with no finally to run
        // after it (`try { done.SetResult(Work()); } catch (Exception e) { done.SetException(e); }` on an STA thread of
        // its own), up to the lambda's body. A loop, a lock or a using runs more after it.
        while (true)
        {
            SyntaxNode? outer = statement.Parent;
            if (outer is BlockSyntax block)
            {
                if (block.Statements.Last() != statement)
                {
                    return false;
                }

                outer = block.Parent;
            }

            switch (outer)
            {
                case AnonymousFunctionExpressionSyntax lambda:
                    return IsPoolWork(lambda);
                case IfStatementSyntax branch:
                    statement = branch;
                    break;
                case ElseClauseSyntax { Parent: IfStatementSyntax branch }:
                    statement = branch;
                    break;
                case TryStatementSyntax { Finally: null } tried when tried.Block == statement.Parent:
                    statement = tried;
                    break;
                case CatchClauseSyntax { Parent: TryStatementSyntax { Finally: null } caught }:
                    statement = caught;
                    break;
                default:
                    return false;
            }
        }
    }

    /// <summary>A lambda a pool work item or continuation runs (<see cref="PoolWork"/>), or the start of a thread of its own (<c>new Thread(…)</c>).</summary>
    private static bool IsPoolWork(AnonymousFunctionExpressionSyntax lambda) => lambda.Parent switch
    {
        ArgumentSyntax { Parent: ArgumentListSyntax { Parent: InvocationExpressionSyntax { Expression: MemberAccessExpressionSyntax access } } } => IsPoolWorkCall(access),
        _ => CreationOf(lambda, "Thread") is not null,
    };

    private static bool IsPoolWorkCall(MemberAccessExpressionSyntax access) =>
        PoolWork.TryGetValue(access.Name.Identifier.ValueText, out var type) && (type is null || RightmostName(access.Expression) == type);

    private static string? RightmostName(ExpressionSyntax expression) => expression switch
    {
        SimpleNameSyntax simple => simple.Identifier.ValueText,
        MemberAccessExpressionSyntax access => access.Name.Identifier.ValueText,
        AliasQualifiedNameSyntax alias => alias.Name.Identifier.ValueText,
        QualifiedNameSyntax qualified => qualified.Right.Identifier.ValueText,
        _ => null,
    };

    private static bool IsStateRead(SyntaxNode node) =>
        node is MemberAccessExpressionSyntax { Name.Identifier.ValueText: var member } && StateNames.Contains(member)
        || node is MemberBindingExpressionSyntax { Name.Identifier.ValueText: var bound } && StateNames.Contains(bound);
}
