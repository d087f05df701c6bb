using System.Collections.Generic;
using System.Collections.Immutable;
using System.Linq;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.Diagnostics;
using Microsoft.CodeAnalysis.CSharp;
using Microsoft.CodeAnalysis.CSharp.Syntax;
using Microsoft.CodeAnalysis.Operations;
using TplPractices.Analyzers.Internals;

namespace TplPractices.Analyzers.Rules;

/// <summary>
/// TPL0002: a chain of <c>x.ContinueWith(f).Unwrap()</c> links, shared by the analyzer (which reports it and
/// decides whether it can become sequential awaits) and the fixer (which rewrites it).
/// </summary>
internal sealed class ContinueWithChain
{
    public const string FixAwait = "Await";

    /// <summary>
    /// Diagnostic property: per link, how many <c>.Result</c> reads follow its returned task among the parts, with
    /// <c>f</c> where the link returns <c>Task.FromResult</c> (<c>"1,0f"</c>); see <see cref="FixParts"/>.
    /// </summary>
    public const string LinksKey = "ChainLinks";

    /// <summary>Diagnostic property, present when the function made async returns a value (<c>Task&lt;T&gt;</c>).</summary>
    public const string ReturnsValueKey = "ChainReturnsValue";

    private ContinueWithChain(IInvocationOperation outermost, IOperation antecedent, ImmutableArray<Link> links)
    {
        Outermost = outermost;
        Antecedent = antecedent;
        Links = links;
    }

    /// <summary>The last Unwrap call: the whole chain's value.</summary>
    public IInvocationOperation Outermost { get; }

    /// <summary>The task the first ContinueWith is called on.</summary>
    public IOperation Antecedent { get; }

    /// <summary>The links, first to last.</summary>
    public ImmutableArray<Link> Links { get; }

    /// <summary>One <c>.ContinueWith(continuation).Unwrap()</c>.</summary>
    public sealed class Link
    {
        public Link(IInvocationOperation continueWith, IAnonymousFunctionOperation? continuation)
        {
            ContinueWith = continueWith;
            Continuation = continuation;
        }

        public IInvocationOperation ContinueWith { get; }

        /// <summary>The lambda or anonymous method passed, or null for a method group or a delegate value.</summary>
        public IAnonymousFunctionOperation? Continuation { get; }

        /// <summary>The single expression the continuation returns, when its body is just that.</summary>
        public IOperation? ReturnedTask => Continuation?.Body.Operations is { Length: 1 } operations
            && operations[0] is IReturnOperation { ReturnedValue: { } value }
                ? value.WithoutImplicitConversions()
                : null;

        /// <summary>
        /// The call when the continuation returns <c>Task.FromResult(value)</c>: its await is the value (TPL0014's
        /// rewrite), which the fix writes at once so that the two rules' fixes agree in one run.
        /// </summary>
        public IInvocationOperation? ReturnedFromResult => ReturnedTask is IInvocationOperation
        {
            TargetMethod: { Name: "FromResult", IsStatic: true, ContainingType.Name: "Task", ContainingType.ContainingNamespace.Name: "Tasks" },
            Arguments.Length: 1,
        } call
            ? call
            : null;

        /// <summary>The continuation's antecedent parameter, when it has one.</summary>
        public IParameterSymbol? AntecedentParameter => Continuation?.Symbol.Parameters.FirstOrDefault();

        /// <summary>Every use of the continuation's antecedent parameter.</summary>
        public IEnumerable<IParameterReferenceOperation> AntecedentUses() =>
            Continuation is null || AntecedentParameter is not { } parameter
                ? Enumerable.Empty<IParameterReferenceOperation>()
                : Continuation.Body.Descendants()
                    .OfType<IParameterReferenceOperation>()
                    .Where(r => SymbolEqualityComparer.Default.Equals(r.Parameter, parameter));

        /// <summary>The <c>antecedent.Result</c> reads in the continuation; with the parameter unused otherwise, they become the awaited value.</summary>
        public IEnumerable<IPropertyReferenceOperation> ResultReads() =>
            AntecedentUses().Select(r => r.Parent).OfType<IPropertyReferenceOperation>();
    }

    /// <summary>The symbols the rule binds to, resolved once per compilation.</summary>
    public sealed class Context
    {
        private Context(INamedTypeSymbol taskExtensions, INamedTypeSymbol task, INamedTypeSymbol taskOfT)
        {
            TaskExtensions = taskExtensions;
            Task = task;
            TaskOfT = taskOfT;
        }

        private INamedTypeSymbol TaskExtensions { get; }

        private INamedTypeSymbol Task { get; }

        private INamedTypeSymbol TaskOfT { get; }

        public static Context? TryCreate(Compilation compilation) =>
            compilation.GetTypeByMetadataName(WellKnownTypeNames.TaskExtensions) is { } extensions
            && compilation.GetTypeByMetadataName(WellKnownTypeNames.Task) is { } task
            && compilation.GetTypeByMetadataName(WellKnownTypeNames.TaskOfT) is { } taskOfT
                ? new Context(extensions, task, taskOfT)
                : null;

        public bool IsTaskType(ITypeSymbol? type) =>
            type is INamedTypeSymbol named
            && (SymbolEqualityComparer.Default.Equals(named, Task) || SymbolEqualityComparer.Default.Equals(named.OriginalDefinition, TaskOfT));

        /// <summary>The task <c>Unwrap</c> is called on, if <paramref name="invocation"/> is <c>TaskExtensions.Unwrap</c>.</summary>
        public IOperation? UnwrappedTask(IInvocationOperation invocation) =>
            invocation.TargetMethod.Name == "Unwrap"
            && invocation.Arguments.Length == 1
            && SymbolEqualityComparer.Default.Equals(invocation.TargetMethod.ContainingType, TaskExtensions)
                ? invocation.Arguments[0].Value.WithoutImplicitConversions()
                : null;

        /// <summary>True for <c>Task.ContinueWith</c> and <c>Task&lt;T&gt;.ContinueWith</c>, any overload.</summary>
        public bool IsContinueWith(IOperation? operation) =>
            operation is IInvocationOperation { TargetMethod.Name: "ContinueWith", Instance: not null } call
            && IsTaskType(call.TargetMethod.ContainingType);
    }

    /// <summary>
    /// The chain that ends in <paramref name="unwrap"/>, or null when it is not the end of one: it unwraps
    /// something other than a ContinueWith, or it is itself an inner link of a longer chain (reported once, there).
    /// </summary>
    public static ContinueWithChain? TryCreate(IInvocationOperation unwrap, Context context)
    {
        if (context.UnwrappedTask(unwrap) is not { } unwrapped || !context.IsContinueWith(unwrapped) || IsInnerLink(unwrap, context))
        {
            return null;
        }

        var links = new List<Link>();
        IOperation current = unwrap;
        while (current is IInvocationOperation call
            && context.UnwrappedTask(call) is IInvocationOperation continueWith
            && context.IsContinueWith(continueWith))
        {
            links.Add(new Link(continueWith, Continuation(continueWith)));
            current = continueWith.Instance!.WithoutImplicitConversions();
        }

        links.Reverse();
        return new ContinueWithChain(unwrap, current, links.ToImmutableArray());
    }

    /// <summary>
    /// Whether <paramref name="continueWith"/> is a link of a chain TPL0002 rewrites into awaits, which removes the
    /// continuation: another rule's fix of the same call then stays silent there (see <see cref="OtherRule"/>).
    /// </summary>
    public static bool IsTakenByChainRule(OperationAnalysisContext context, IInvocationOperation continueWith, Context? chains) =>
        chains is not null
        && OfLink(continueWith, chains) is { } chain
        && chain.CanBecomeAwaits(chains, context.ContainingSymbol)
        && OtherRule.IsOn(context.Compilation, context.Options, continueWith.Syntax.SyntaxTree, context.ContainingSymbol, ContinueWithUnwrapAnalyzer.Rule, context.CancellationToken)
        && !chain.HoldsAChainToRewrite(chains, context.ContainingSymbol);

    /// <summary>
    /// Whether <paramref name="fromResult"/> is the <c>Task.FromResult</c> a link of a chain TPL0002 rewrites returns:
    /// that fix writes its value, so TPL0003 leaves it (see <see cref="OtherRule"/>).
    /// </summary>
    public static bool IsReturnedByTakenLink(OperationAnalysisContext context, IInvocationOperation fromResult, Context? chains)
    {
        var lambda = fromResult.WithImplicitConversionsAround().Parent is IReturnOperation { Parent: IBlockOperation { Parent: IAnonymousFunctionOperation function } }
            ? function
            : null;
        return lambda?.WithImplicitConversionsAround().Parent is IDelegateCreationOperation creation
            && creation.WithImplicitConversionsAround().Parent is IArgumentOperation { Parent: IInvocationOperation continueWith }
            && chains is not null
            && OfLink(continueWith, chains) is { } chain
            && chain.Links.Any(link => link.ReturnedFromResult == fromResult)
            && IsTakenByChainRule(context, continueWith, chains);
    }

    /// <summary>The chain <paramref name="continueWith"/> is a link of, or null when its task is not unwrapped.</summary>
    public static ContinueWithChain? OfLink(IInvocationOperation continueWith, Context context)
    {
        if (continueWith.WithImplicitConversionsAround().Parent is not IArgumentOperation { Parent: IInvocationOperation unwrap }
            || context.UnwrappedTask(unwrap) != continueWith)
        {
            return null;
        }

        while (Outer(unwrap, context) is { } outer)
        {
            unwrap = outer;
        }

        return TryCreate(unwrap, context);
    }

    /// <summary>The Unwrap of the next link, when this chain's result is its antecedent.</summary>
    private static IInvocationOperation? Outer(IInvocationOperation unwrap, Context context)
    {
        var value = unwrap.WithImplicitConversionsAround();
        return value.Parent is IInvocationOperation next
            && next.Instance == value
            && context.IsContinueWith(next)
            && next.WithImplicitConversionsAround().Parent is IArgumentOperation { Parent: IInvocationOperation outer }
            && context.UnwrappedTask(outer) == next
                ? outer
                : null;
    }

    /// <summary>True when the chain's result is the antecedent of a further ContinueWith that is unwrapped too.</summary>
    private static bool IsInnerLink(IInvocationOperation unwrap, Context context) => Outer(unwrap, context) is not null;

    private static IAnonymousFunctionOperation? Continuation(IInvocationOperation continueWith) =>
        continueWith.Arguments.FirstOrDefault()?.Value is IDelegateCreationOperation { Target: IAnonymousFunctionOperation lambda }
            ? lambda
            : null;

    /// <summary>
    /// Whether the fix can rewrite the chain into sequential awaits without changing what compiles: it is the
    /// only value a non-async method, local function or lambda returns, and every continuation is a plain
    /// lambda that reads its antecedent only through <c>.Result</c> and passes no scheduler, options or token.
    /// </summary>
    public bool CanBecomeAwaits(Context context, ISymbol containingSymbol) =>
        Links.All(link => IsInlinable(link, context))
        && ReturnSite() is { } site
        && Function(site, containingSymbol) is { } function
        && CanBecomeAsync(function, site, context);

    /// <summary>
    /// Whether a continuation of this chain returns a chain of its own that can become awaits (itself, not a lambda
    /// inside it, such as one given to <c>Task.Run</c>). Fix All rewrites that inner chain first, which makes its
    /// link's lambda async: this chain is then no longer one the fix inlines, so the rules that leave its calls to
    /// TPL0002 must not, or one dotnet format run leaves work for the next.
    /// </summary>
    public bool HoldsAChainToRewrite(Context context, ISymbol containingSymbol)
    {
        foreach (var link in Links)
        {
            if (link.Continuation is null)
            {
                continue;
            }

            foreach (var operation in link.Continuation.Body.Descendants())
            {
                if (operation is IInvocationOperation { TargetMethod.Name: "Unwrap" } unwrap
                    && TryCreate(unwrap, context) is { } inner
                    && inner.ReturnSite()?.EnclosingFunction() == link.Continuation
                    && inner.CanBecomeAwaits(context, containingSymbol))
                {
                    return true;
                }
            }
        }

        return false;
    }

    /// <summary>
    /// What the fixer rewrites, for a chain that <see cref="CanBecomeAwaits"/>: the antecedent, the function made async
    /// (its declaration or lambda), the return site, then per link its returned task and its <c>.Result</c> reads. The
    /// properties say how many reads each link has and whether the function returns a value.
    /// </summary>
    public (List<Location> Parts, ImmutableDictionary<string, string?> Properties)? FixParts(ISymbol containingSymbol)
    {
        if (ReturnSite() is not { } site
            || Function(site, containingSymbol) is not { } function
            || (function.Operation?.Syntax ?? site.Syntax.FirstAncestorOrSelf<MethodDeclarationSyntax>()) is not { } functionSyntax)
        {
            return null;
        }

        var parts = new List<Location> { Antecedent.Syntax.GetLocation(), functionSyntax.GetLocation(), site.Syntax.GetLocation() };
        var links = new List<string>();
        foreach (var link in Links)
        {
            var reads = link.ResultReads().Select(r => r.Syntax.GetLocation()).ToList();
            parts.Add(link.ReturnedTask!.Syntax.GetLocation());
            parts.AddRange(reads);
            links.Add(reads.Count.ToString(System.Globalization.CultureInfo.InvariantCulture) + (link.ReturnedFromResult is null ? string.Empty : "f"));
        }

        var properties = DiagnosticPropertyKeys.ForFix(FixAwait).Add(LinksKey, string.Join(",", links));
        if (function.Symbol.ReturnType is INamedTypeSymbol { IsGenericType: true })
        {
            properties = properties.Add(ReturnsValueKey, "1");
        }

        return (parts, properties);
    }

    /// <summary>The return the chain is the value of, explicit or the implicit one of an expression body.</summary>
    public IReturnOperation? ReturnSite() =>
        Outermost.WithImplicitConversionsAround().Parent as IReturnOperation;

    /// <summary>
    /// The function the chain is returned from: its symbol, its operation (null for the member itself) and
    /// the operation holding its body.
    /// </summary>
    public static (IMethodSymbol Symbol, IOperation? Operation, IOperation Scope)? Function(IReturnOperation site, ISymbol containingSymbol) =>
        site.EnclosingFunction() switch
        {
            IAnonymousFunctionOperation lambda => (lambda.Symbol, lambda, lambda.Body),
            ILocalFunctionOperation local => (local.Symbol, local, local),
            null when containingSymbol is IMethodSymbol { MethodKind: MethodKind.Ordinary or MethodKind.ExplicitInterfaceImplementation } method
                => (method, null, site.Root()),
            _ => null,
        };

    private static bool IsInlinable(Link link, Context context) =>
        link.ContinueWith.Arguments.Length == 1
        && link.Continuation is { Symbol.IsAsync: false } continuation
        && link.ReturnedTask is { } returned
        && context.IsTaskType(returned.Type)
        && !returned.Syntax.DeclaresVariables()
        && link.AntecedentUses().All(r => r.Parent is IPropertyReferenceOperation { Property.Name: "Result" } read && read.Instance == r);

    private bool CanBecomeAsync((IMethodSymbol Symbol, IOperation? Operation, IOperation Scope) function, IReturnOperation site, Context context)
    {
        var (symbol, operation, scope) = function;
        if (symbol.IsAsync
            || symbol.ReturnsByRef
            || symbol.ReturnsByRefReadonly
            || !context.IsTaskType(symbol.ReturnType)
            || (symbol.ReturnType is INamedTypeSymbol { IsGenericType: true } && !SymbolEqualityComparer.Default.Equals(symbol.ReturnType, Outermost.Type))
            || symbol.Parameters.Any(p => p.RefKind != RefKind.None || p.Type.IsRefLikeType || p.Type is IPointerTypeSymbol)
            || IsUnsafeOrLocked(site.Syntax))
        {
            return false;
        }

        // Async methods cannot hold ref or ref-like locals (before C# 13), and every other return would
        // have to change too: the fix handles the common shape, one return.
        var own = scope.Descendants().Where(o => o.EnclosingFunction() == operation).ToList();
        return own.OfType<IReturnOperation>().Count(r => r.ReturnedValue is not null) == 1
            && !own.OfType<IVariableDeclaratorOperation>().Any(d => d.Symbol.IsRef || d.Symbol.Type.IsRefLikeType);
    }

    private static bool IsUnsafeOrLocked(SyntaxNode node) =>
        node.AncestorsAndSelf().Any(n => n is LockStatementSyntax or UnsafeStatementSyntax or FixedStatementSyntax
            || (n is MemberDeclarationSyntax member && member.Modifiers.Any(SyntaxKind.UnsafeKeyword))
            || (n is LocalFunctionStatementSyntax local && local.Modifiers.Any(SyntaxKind.UnsafeKeyword)));
}
