using System.Collections.Immutable;
using System.Linq;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp.Syntax;
using Microsoft.CodeAnalysis.Diagnostics;
using Microsoft.CodeAnalysis.Operations;
using TplPractices.Analyzers.Internals;

namespace TplPractices.Analyzers.Rules;

/// <summary>
/// TPL0003: <c>Task.FromResult(constant)</c> in code that runs repeatedly allocates a new task each time,
/// although the result never changes. Values the target runtime already caches are not reported.
/// </summary>
public sealed class CacheConstantTaskResultAnalyzer : DiagnosticAnalyzer
{
    /// <summary>Values of <see cref="DiagnosticPropertyKeys.FixKind"/>.</summary>
    public const string FixUseCompletedTask = "UseCompletedTask";
    public const string FixUseCachedField = "UseCachedField";

    private const int MaxValueTextLength = 40;

    internal static readonly DiagnosticDescriptor Rule = DescriptorFactory.Create(
        DiagnosticIds.CacheConstantTaskResult,
        title: "Cache the task of a constant result",
        messageFormat: "'Task.FromResult({0})' allocates a new {1} every time it runs; reuse one cached task",
        DiagnosticCategories.Performance,
        DiagnosticSeverity.Warning,
        description: "Task.FromResult with a constant argument creates an identical, already-completed task on "
            + "every call. Return Task.CompletedTask where the caller only sees a Task, or a static readonly "
            + "field created once. Values the target runtime already caches (null, bool, ints -1 to 8, and "
            + "zeros: integral ones since .NET 6, most small value types since .NET 8) are not reported there.");

    internal static readonly OperationRule Operations = OperationRule.Create(Rule, AnalyzerContext.TryCreate, static (c, analyzerContext, options) => analyzerContext.AnalyzeInvocation(c, options), OperationKind.Invocation)
        .OnlyForCallsOf("FromResult");

    public override ImmutableArray<DiagnosticDescriptor> SupportedDiagnostics { get; } = ImmutableArray.Create(Rule);

    public override void Initialize(AnalysisContext context)
    {
        context.EnableConcurrentExecution();
        context.ConfigureGeneratedCodeAnalysis(GeneratedCode.Skipped);
        context.RegisterRule(Operations);
    }

    private sealed class AnalyzerContext
    {
        private readonly INamedTypeSymbol _task;
        private readonly bool _hasCompletedTask;
        private readonly TaskCacheLevel _cacheLevel;

        private readonly AvailableValue.Context? _values;
        private readonly ContinueWithChain.Context? _chains;

        private AnalyzerContext(Compilation compilation, INamedTypeSymbol task)
        {
            _values = AvailableValue.Context.TryCreate(compilation);
            _chains = ContinueWithChain.Context.TryCreate(compilation);
            _task = task;
            _hasCompletedTask = !task.GetMembers("CompletedTask").IsEmpty;
            _cacheLevel = TaskResultCache.LevelOf(task);
        }

        public static AnalyzerContext? TryCreate(Compilation compilation) =>
            compilation.GetTypeByMetadataName(WellKnownTypeNames.Task) is { } task
                ? new AnalyzerContext(compilation, task)
                : null;

        /// <summary>
        /// A task awaited where it is made, in a runtime-async method: the JIT takes Task.FromResult as an intrinsic
        /// there and never creates the task, so a cached one saves nothing.
        /// </summary>
        private bool IsOnlyAwaitedUnderRuntimeAsync(IInvocationOperation fromResult) =>
            _values is { RuntimeAsync: true }
            && fromResult.WithImplicitConversionsAround().Parent is IAwaitOperation;

        public void AnalyzeInvocation(OperationAnalysisContext context, RuleOptions options)
        {
            var invocation = (IInvocationOperation)context.Operation;
            var method = invocation.TargetMethod;
            if (method.Name != "FromResult"
                || !method.IsStatic
                || method.TypeArguments.Length != 1
                || invocation.Arguments.Length != 1
                || !SymbolEqualityComparer.Default.Equals(method.ContainingType, _task))
            {
                return;
            }

            var resultType = method.TypeArguments[0];
            var argument = invocation.Arguments[0].Value;
            if (resultType.TypeKind is TypeKind.TypeParameter
                || resultType.ContainsErrorType()
                || invocation.Syntax.IsInBrokenMember()
                || !ConstantResult.TryGet(argument, out var constant)
                || TaskResultCache.IsCachedByRuntime(resultType, constant, _cacheLevel)
                || !invocation.RunsRepeatedly(context.ContainingSymbol)
                || LazyStore.IsCachedOnce(invocation)
                || IsOnlyAwaitedUnderRuntimeAsync(invocation)
                || AvailableValue.IsTakenByAwaitRule(context, invocation, _values)
                || ContinueWithChain.IsReturnedByTakenLink(context, invocation, _chains))
            {
                return;
            }

            var properties = ImmutableDictionary<string, string?>.Empty;
            if (ChooseFix(invocation, resultType, context.ContainingSymbol) is { } fix)
            {
                properties = properties.Add(DiagnosticPropertyKeys.FixKind, fix);
            }

            options.Report(context, Diagnostic.Create(
                Rule,
                invocation.Syntax.GetLocation(),
                properties,
                Shorten(argument.Syntax.ToString()),
                method.ReturnType.ToDisplayString(SymbolDisplayFormat.MinimallyQualifiedFormat)));
        }

        private string? ChooseFix(IInvocationOperation invocation, ITypeSymbol resultType, ISymbol containingSymbol)
        {
            // A discarded call is a valid statement; a field or property reference is not (found by FuzzTests).
            if (invocation.Parent is IExpressionStatementOperation)
            {
                return null;
            }

            if (_hasCompletedTask
                && invocation.Parent is IConversionOperation { Type: { } target }
                && SymbolEqualityComparer.Default.Equals(target, _task))
            {
                return FixUseCompletedTask;
            }

            // The field goes into the class or struct declaration around the call. Top-level statements have
            // none, interfaces may not allow fields at this language version, a method type parameter cannot
            // appear in a field's type, and another part's static initializer might call this code before the
            // new field is set. A local constant the field spells out goes once unused, except where #if branches
            // share its block: their reads are out of sight.
            var type = containingSymbol.ContainingType;
            return type is { TypeKind: TypeKind.Class or TypeKind.Struct }
                && invocation.Syntax.FirstAncestorOrSelf<TypeDeclarationSyntax>() is { } declaration
                && !resultType.MentionsMethodTypeParameter()
                && !StaticInitializers.OtherPartMayRunCode(type, declaration)
                && !invocation.Arguments[0].Value.DescendantsAndSelf().OfType<ILocalReferenceOperation>().Any(ScopeHasDirectives)
                    ? FixUseCachedField
                    : null;
        }

        private static bool ScopeHasDirectives(ILocalReferenceOperation local) =>
            local.Local.DeclaringSyntaxReferences.FirstOrDefault()?.GetSyntax().FirstAncestorOrSelf<BlockSyntax>() is not { } scope
            || scope.HasDirectiveInside();

        private static string Shorten(string text) =>
            text.Length <= MaxValueTextLength ? text : text.Substring(0, MaxValueTextLength - 3) + "...";
    }
}
