using System;
using System.Collections.Immutable;
using System.Linq;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp;
using Microsoft.CodeAnalysis.CSharp.Syntax;
using Microsoft.CodeAnalysis.Diagnostics;
using Microsoft.CodeAnalysis.Operations;
using TplPractices.Analyzers.Internals;

namespace TplPractices.Analyzers.Rules;

/// <summary>
/// TPL0010: a lock, an Interlocked or Volatile operation, or LazyInitializer.EnsureInitialized on the object's own
/// field in its constructor (or in a non-virtual method of the type the constructor calls), before <c>this</c> can have reached
/// another thread. Nothing can contend for the field yet, so the protection costs without protecting.
/// </summary>
public sealed class ConstructorConcurrencyAnalyzer : DiagnosticAnalyzer
{
    public const string FixPlainOperation = "PlainOperation";

    internal static readonly DiagnosticDescriptor Rule = DescriptorFactory.Create(
        DiagnosticIds.ConstructorConcurrency,
        title: "Do not protect the object's own fields while its constructor runs",
        messageFormat: "{0} on '{1}' runs before this object can be seen by another thread; the protection costs without protecting",
        DiagnosticCategories.Performance,
        DiagnosticSeverity.Info,
        description: "Until a constructor lets 'this' escape (passes or stores it, captures it, calls a virtual method, "
            + "subscribes to an event, or starts a thread, task or timer), no other thread can reach the object, so a lock, "
            + "an Interlocked or Volatile operation, or LazyInitializer.EnsureInitialized on its own fields cannot meet "
            + "contention. Use the plain operation on the constructor path, for example through a private method that "
            + "takes a flag saying whether protection is needed.");

    internal static readonly OperationRule Operations = OperationRule.Create(Rule, ConstructorPath.Context.TryCreate, Analyze, OperationKind.ConstructorBody);

    public override ImmutableArray<DiagnosticDescriptor> SupportedDiagnostics { get; } = ImmutableArray.Create(Rule);

    public override void Initialize(AnalysisContext context)
    {
        context.EnableConcurrentExecution();
        context.ConfigureGeneratedCodeAnalysis(GeneratedCode.Skipped);
        context.RegisterRule(Operations);
    }

    private static void Analyze(OperationAnalysisContext context, ConstructorPath.Context symbols, RuleOptions options)
    {
        var body = (IConstructorBodyOperation)context.Operation;
        if (context.ContainingSymbol is not IMethodSymbol { MethodKind: MethodKind.Constructor } constructor
            || !MayHoldAMeasure(body.Syntax, constructor.ContainingType)
            || body.Syntax.IsInBrokenMember())
        {
            return;
        }

        foreach (var measure in ConstructorPath.Analyze(body, constructor, symbols))
        {
            var name = measure.Helper is null ? "'" + measure.Name + "'" : "'" + measure.Name + "' in '" + measure.Helper.Name + "'";
            var fix = measure.Helper is null && ConstructorConcurrencyRewrite.CanRewrite(measure.Operation, measure.Field, constructor)
                ? FixPlainOperation
                : null;
            options.Report(context, Diagnostic.Create(
                Rule,
                Location(measure.Operation),
                DiagnosticPropertyKeys.ForFix(fix),
                name,
                measure.Field.Name));
        }
    }

    /// <summary>The lock keyword, or the call.</summary>
    private static Location Location(IOperation operation) =>
        operation.Syntax is LockStatementSyntax lockStatement
            ? lockStatement.LockKeyword.GetLocation()
            : operation.Syntax.GetLocation();

    /// <summary>
    /// The cheap test before any semantic work: the constructor's text names a measure, or calls a non-virtual instance method
    /// of the type (declared in this file) whose text does.
    /// </summary>
    private static bool MayHoldAMeasure(SyntaxNode constructor, INamedTypeSymbol type)
    {
        if (NamesAMeasure(constructor))
        {
            return true;
        }

        foreach (var invocation in constructor.DescendantNodes().OfType<InvocationExpressionSyntax>())
        {
            var name = invocation.Expression switch
            {
                IdentifierNameSyntax identifier => identifier.Identifier.ValueText,
                MemberAccessExpressionSyntax { Expression: ThisExpressionSyntax, Name: IdentifierNameSyntax member } => member.Identifier.ValueText,
                _ => null,
            };
            if (name is not null
                && type.GetMembers(name).Any(m => m is IMethodSymbol { IsVirtual: false, IsStatic: false }
                    && m.DeclaringSyntaxReferences.Any(r => r.SyntaxTree == constructor.SyntaxTree && NamesAMeasure(r.GetSyntax()))))
            {
                return true;
            }
        }

        return false;
    }

    private static bool NamesAMeasure(SyntaxNode node) =>
        node.HasTokenNamed("lock", SyntaxKind.LockKeyword)
        || node.HasTokenNamed("Interlocked", SyntaxKind.IdentifierToken)
        || node.HasTokenNamed("Volatile", SyntaxKind.IdentifierToken)
        || node.HasTokenNamed("EnsureInitialized", SyntaxKind.IdentifierToken);
}
