using System.Collections.Generic;
using System.Collections.Immutable;
using System.Linq;
using System.Threading;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp.Syntax;
using Microsoft.CodeAnalysis.Diagnostics;
using Microsoft.CodeAnalysis.Operations;
using TplPractices.Analyzers.Internals;

namespace TplPractices.Analyzers.Rules;

/// <summary>
/// TPL0008: a private or internal async method or a local function returning Task&lt;T&gt; that can return before its first
/// await. Each such call allocates a Task&lt;T&gt;; as ValueTask&lt;T&gt; it allocates nothing. Reported only when
/// every call awaits the result once, directly, so changing the return type is invisible to callers.
/// </summary>
/// <remarks>
/// Only a private method's own type (every partial declaration, nested types included), a local function's
/// containing member or, for an internal method of an assembly without InternalsVisibleTo, the compilation can call
/// it, so that code holds every call. It is read as syntax, by name, once a method qualifies, which most never do:
/// the cost stays with the rare candidate, the answer comes as the IDE analyzes the method, and generated code
/// counts without being analyzed (docs/rules/TPL0008.md).
/// </remarks>
public sealed class ValueTaskFastPathAnalyzer : DiagnosticAnalyzer
{
    public const string FixReturnValueTask = "ReturnValueTask";

    internal static readonly DiagnosticDescriptor Rule = DescriptorFactory.Create(
        DiagnosticIds.ValueTaskFastPath,
        title: "Return ValueTask<T> from a private or internal async method that often completes synchronously",
        messageFormat: "'{0}' can complete without awaiting, and each such call allocates a Task<{1}>; every caller awaits it, so return ValueTask<{1}>",
        DiagnosticCategories.Performance,
        DiagnosticSeverity.Info,
        description: "An async method that completes synchronously (a cache hit, a buffered read, a completed check) still allocates "
            + "the Task<T> it returns, unless the runtime caches the result (bool, small ints, null, zeros). Returning "
            + "ValueTask<T> stores the result in the struct instead. Reported for private and internal methods and local functions "
            + "whose every call awaits the result once, directly, where the change cannot break a caller. A return taken "
            + "only when an argument is null or empty is a guard, not a fast path, and is not counted.");

    // Reported at the fast path's return, and looked for from the returns: an action on MethodBody cost the compiler
    // about 1.1 M instructions a file whatever the callback did, where returns are few and pass a syntax test first;
    // and a diagnostic from a return's action must lie in the body (docs/performance.md). A function that returns no
    // value has no fast path.
    internal static readonly OperationRule Operations = OperationRule.Create(Rule, ValueTaskFastPath.Context.TryCreate, Analyze, OperationKind.Return)
        .QuietWhereRuntimeAsync();

    public override ImmutableArray<DiagnosticDescriptor> SupportedDiagnostics { get; } = ImmutableArray.Create(Rule);

    public override void Initialize(AnalysisContext context)
    {
        context.EnableConcurrentExecution();
        context.ConfigureGeneratedCodeAnalysis(GeneratedCode.Skipped);
        context.RegisterRule(Operations);
    }

    private static void Analyze(OperationAnalysisContext context, ValueTaskFastPath.Context symbols, RuleOptions options)
    {
        // The syntax first: most returns are not in an async function, and the async keyword is cheaper to read than
        // the operations around the return.
        var returned = (IReturnOperation)context.Operation;
        if (returned.ReturnedValue is null
            || ValueTaskFastPath.DeclarationOf(returned.Syntax) is not { } declaration
            || !PassThroughAsync.HasAsyncKeyword(declaration)
            || (returned.EnclosingFunction() ?? returned.Root()) is not { } body
            || body.Kind == OperationKind.AnonymousFunction)
        {
            return;
        }

        var method = body is ILocalFunctionOperation local ? local.Symbol : context.ContainingSymbol as IMethodSymbol;
        if (method is not { IsAsync: true }
            || symbols.AsyncTaskResult(method) is not { } result
            || ValueTaskFastPath.WhoCanCall(method) is var scope && scope == ValueTaskFastPath.CallerScope.None
            || NameOf(method, declaration) is not { } name
            || !ValueTaskFastPath.MayTakeAnUncachedFastPath(returned, result, symbols.CacheLevel)
            || ValueTaskFastPath.FirstUncachedFastPath(body, result, symbols.CacheLevel, upTo: returned) != returned
            || returned.Syntax.IsInBrokenMember()
            || !EveryCallAwaits(method, scope, name, symbols, context.Compilation, context.CancellationToken))
        {
            return;
        }

        var canonical = ValueTaskFastPath.Canonical(method);
        options.Report(context, Diagnostic.Create(
            Rule,
            returned.Syntax.GetLocation(),
            DiagnosticPropertyKeys.ForFix(IsDeclaredIn(canonical, name.SyntaxTree!) ? FixReturnValueTask : null),
            method.Name,
            result.ToDisplayString(SymbolDisplayFormat.MinimallyQualifiedFormat)));
    }

    /// <summary>
    /// True when every call of the method awaits it: the calls are in a local function's containing member, a private
    /// method's type declarations in every file, or, for an internal method, the compilation's files.
    /// </summary>
    private static bool EveryCallAwaits(
        IMethodSymbol method, ValueTaskFastPath.CallerScope scope, SyntaxToken name, ValueTaskFastPath.Context symbols, Compilation compilation, CancellationToken cancellationToken)
    {
        if (scope == ValueTaskFastPath.CallerScope.Assembly)
        {
            return symbols.EveryMentionInAssemblyIsAwaited(method.Name, compilation, cancellationToken) == true;
        }

        var callers = scope == ValueTaskFastPath.CallerScope.ContainingMember
            ? new[] { name.Parent!.Ancestors().FirstOrDefault(a => a is MemberDeclarationSyntax and not GlobalStatementSyntax or CompilationUnitSyntax) ?? name.Parent! }
            : method.ContainingType.DeclaringSyntaxReferences.Select(r => r.GetSyntax(cancellationToken));
        return ValueTaskFastPath.EveryMentionIsAnAwaitedCall(callers, method.Name, ValueTaskFastPath.Context.PassThroughsReturn(compilation, cancellationToken));
    }

    /// <summary>
    /// True when every declaration of the method is in <paramref name="tree"/>. A fix edits one file, so the two
    /// parts of a partial method in two files (one of them generated, often) get no fix.
    /// </summary>
    private static bool IsDeclaredIn(IMethodSymbol method, SyntaxTree tree) =>
        method.DeclaringSyntaxReferences.Concat(method.PartialImplementationPart?.DeclaringSyntaxReferences ?? ImmutableArray<SyntaxReference>.Empty)
            .All(reference => reference.SyntaxTree == tree);

    /// <summary>The name of the method (an ordinary one) or local function the return is in.</summary>
    private static SyntaxToken? NameOf(IMethodSymbol method, SyntaxNode declaration) => declaration switch
    {
        LocalFunctionStatementSyntax local => local.Identifier,
        MethodDeclarationSyntax declared when method.MethodKind == MethodKind.Ordinary => declared.Identifier,
        _ => null,
    };
}
