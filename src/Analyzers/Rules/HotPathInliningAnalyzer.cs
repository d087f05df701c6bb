using System.Globalization;
using System.Linq;
using System.Collections.Immutable;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp.Syntax;
using Microsoft.CodeAnalysis.Diagnostics;
using Microsoft.CodeAnalysis.Operations;
using TplPractices.Analyzers.Internals;

namespace TplPractices.Analyzers.Rules;

/// <summary>
/// TPL0012: a method on a hot path the user has marked, whose fast path (a first <c>if</c> that returns) is followed by
/// code that keeps the JIT from inlining it: every call pays for one even when the fast path is taken. Reported only in
/// members carrying an attribute named in <c>required_attributes</c>: which paths are hot, only the user knows.
/// </summary>
public sealed class HotPathInliningAnalyzer : DiagnosticAnalyzer
{
    internal static readonly DiagnosticDescriptor Rule = DescriptorFactory.Create(
        DiagnosticIds.HotPathInlining,
        title: "Move the slow path out of a hot method so the JIT can inline its fast path",
        messageFormat: "'{0}' is not inlined because the code after its fast path {1}; move that code into a method of its own so callers inline the fast path",
        DiagnosticCategories.Performance,
        DiagnosticSeverity.Info,
        description: "The JIT does not inline a method that catches exceptions or compiles to more than 100 bytes of IL, nor one that "
            + "takes a lock, loops or has a finally block except where .NET 10's dynamic PGO finds the call hot (never under NativeAOT "
            + "or without a profile), so every call pays for a call even when the method returns at its first check. Moving the rest into a method marked NoInlining leaves a fast path small "
            + "enough to inline. Reported only in members carrying an attribute named in tpl_practices.required_attributes.");

    internal static readonly OperationRule Operations =
        OperationRule.Create(Rule, HotPathInlining.Context.TryCreate, Analyze, OperationKind.MethodBody).OnlyWhereAttributesAreRequired();

    public override ImmutableArray<DiagnosticDescriptor> SupportedDiagnostics { get; } = ImmutableArray.Create(Rule);

    public override void Initialize(AnalysisContext context)
    {
        context.EnableConcurrentExecution();
        context.ConfigureGeneratedCodeAnalysis(GeneratedCode.Skipped);
        context.RegisterRule(Operations);
    }

    private static void Analyze(OperationAnalysisContext context, HotPathInlining.Context symbols, RuleOptions options)
    {
        // The shape is read as syntax and the scope looked up before anything is bound: most methods fail the first.
        if (context.Operation is not IMethodBodyOperation { BlockBody: { } body, Syntax: MethodDeclarationSyntax declaration }
            || HotPathInlining.FastPath(declaration) is null
            || !options.For(declaration.SyntaxTree).Scope.NamesRequiredAttributes
            || context.ContainingSymbol is not IMethodSymbol method
            || !options.Includes(method, declaration.SyntaxTree)
            || !HotPathInlining.IsInlineCandidate(method)
            || declaration.IsInBrokenMember()
            || HotPathInlining.WhyNotInlined(body) is not { } reason)
        {
            return;
        }

        var inputs = HotPathInlining.CanMoveTheRest(method) ? HotPathInlining.SlowPathInputs(method, declaration, body) : null;
        var properties = inputs is { } found
            ? DiagnosticPropertyKeys.ForFix(HotPathInlining.FixExtractSlowPath)
                .Add(DiagnosticPropertyKeys.SlowPathInputs, string.Join(",", found.Select(p => p.Ordinal.ToString(CultureInfo.InvariantCulture))))
            : DiagnosticPropertyKeys.ForFix(null);
        context.ReportDiagnostic(Diagnostic.Create(
            Rule,
            declaration.Identifier.GetLocation(),
            properties,
            method.Name,
            reason));
    }
}
