using System.Collections.Immutable;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp.Syntax;
using Microsoft.CodeAnalysis.Diagnostics;
using Microsoft.CodeAnalysis.Operations;
using TplPractices.Analyzers.Internals;

namespace TplPractices.Analyzers.Rules;

/// <summary>
/// TPL0016: an async method whose whole body awaits one call's task and hands its result on; returning that task
/// costs no state machine, no second task and no continuation. Reported only where the rewrite is the same program
/// (<see cref="PassThroughAsync"/>).
/// </summary>
public sealed class PassThroughAsyncAnalyzer : DiagnosticAnalyzer
{
    internal static readonly DiagnosticDescriptor Rule = DescriptorFactory.Create(
        DiagnosticIds.PassThroughAsync,
        title: "Return the task of a pass-through async method instead of awaiting it",
        messageFormat: "'{0}' only awaits '{1}' and hands on its result: return its task instead of making a state machine and a second task",
        DiagnosticCategories.Performance,
        DiagnosticSeverity.Info,
        description: "An async method whose body is one 'await' of another method's task, with nothing after it, allocates a "
            + "state machine and a task of its own and runs a continuation, only to give its caller the same result. Dropping "
            + "'async' and returning the task is the same program where nothing before the await can throw: the callee is an "
            + "async method of this project that no override replaces, called on 'this' or statically, with parameters, "
            + "constants or defaults as arguments, and its task has the method's return type exactly.");

    internal static readonly OperationRule Operations = OperationRule.Create(Rule, PassThroughAsync.Context.TryCreate, Analyze, OperationKind.Await);

    public override ImmutableArray<DiagnosticDescriptor> SupportedDiagnostics { get; } = ImmutableArray.Create(Rule);

    public override void Initialize(AnalysisContext context)
    {
        context.EnableConcurrentExecution();
        context.ConfigureGeneratedCodeAnalysis(GeneratedCode.Skipped);
        context.RegisterRule(Operations);
    }

    private static void Analyze(OperationAnalysisContext context, PassThroughAsync.Context symbols, RuleOptions options)
    {
        if (PassThroughAsync.Analyze((IAwaitOperation)context.Operation, symbols) is { } site
            && !site.Declaration.IsInBrokenMember())
        {
            var name = site.Declaration is MethodDeclarationSyntax method
                ? method.Identifier.ValueText
                : ((LocalFunctionStatementSyntax)site.Declaration).Identifier.ValueText;
            options.Report(context, Diagnostic.Create(
                Rule,
                ((AwaitExpressionSyntax)site.Await.Syntax).AwaitKeyword.GetLocation(),
                DiagnosticPropertyKeys.ForFix(PassThroughAsync.FixReturnTask),
                name,
                site.Call.TargetMethod.Name));
        }
    }
}
