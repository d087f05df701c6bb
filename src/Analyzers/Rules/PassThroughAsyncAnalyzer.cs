using System.Collections.Generic;
using System.Collections.Immutable;
using System.Linq;
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
        messageFormat: "{0} only awaits {1}: drop 'async' and return a task directly, saving a state machine and a second task",
        DiagnosticCategories.Performance,
        DiagnosticSeverity.Info,
        description: "An async method, local function or lambda whose every path ends in one 'await' of a task, with nothing "
            + "after it, allocates a state machine and a task of its own and runs a continuation, only to give its caller the "
            + "same result. Dropping 'async' and returning the task is the same program where nothing before the await can "
            + "throw: the tests choosing a path only compare values, the callee is an async method that no override replaces "
            + "(or a Task factory whose checks the arguments pass), called on 'this' or statically, with parameters, "
            + "constants or defaults as arguments, and its task has the function's return type exactly.");

    internal static readonly OperationRule Operations = OperationRule.Create(Rule, PassThroughAsync.Context.TryCreate, Analyze, OperationKind.Await, InjectedServices.TrustOption)
        .QuietWhereRuntimeAsync();

    public override ImmutableArray<DiagnosticDescriptor> SupportedDiagnostics { get; } = ImmutableArray.Create(Rule);

    public override void Initialize(AnalysisContext context)
    {
        context.EnableConcurrentExecution();
        context.ConfigureGeneratedCodeAnalysis(GeneratedCode.Skipped);
        context.RegisterRule(Operations);
    }

    private static void Analyze(OperationAnalysisContext context, PassThroughAsync.Context symbols, RuleOptions options)
    {
        if (PassThroughAsync.Analyze((IAwaitOperation)context.Operation, context.ContainingSymbol, symbols, options) is { } site
            && !site.Declaration.IsInBrokenMember()
            && !PassThroughAsync.GivesWayToOtherRules(context, site, symbols))
        {
            // The fixer finds each path's await where the analyzer found it: the first is the location, the rest its parts.
            options.Report(context, Diagnostic.Create(
                Rule,
                ((AwaitExpressionSyntax)site.Awaits[0].Syntax).AwaitKeyword.GetLocation(),
                site.Awaits.Skip(1).Select(a => a.Syntax.GetLocation()),
                PassThroughAsync.FixNeedsOneTarget(context, site, symbols)
                    ? Properties(site).Add(PassThroughAsync.ConstantKey, "1")
                    : Properties(site),
                Name(site.Declaration),
                string.Join(" or ", site.Tasks.SelectMany(Callees).Distinct().Select(n => "'" + n + "'")) + (site.Value is null ? string.Empty : ", complete already, then returns a value")));
        }
    }

    private static ImmutableDictionary<string, string?> Properties(PassThroughAsync.Site site) =>
        DiagnosticPropertyKeys.ForFix(site.Value is null ? PassThroughAsync.FixReturnTask : PassThroughAsync.FixReturnValue);

    private static string Name(SyntaxNode declaration) => declaration switch
    {
        MethodDeclarationSyntax method => "'" + method.Identifier.ValueText + "'",
        LocalFunctionStatementSyntax local => "'" + local.Identifier.ValueText + "'",
        AnonymousMethodExpressionSyntax => "This anonymous method",
        _ => "This lambda",
    };

    /// <summary>The names of the methods a task expression calls, through <c>?:</c> and switch expression arms.</summary>
    private static IEnumerable<string> Callees(IOperation task) => task switch
    {
        IInvocationOperation call => new[] { call.TargetMethod.Name },
        IPropertyReferenceOperation property => new[] { property.Property.Name },
        IConditionalOperation choice => Callees(choice.WhenTrue).Concat(Callees(choice.WhenFalse!)),
        ISwitchExpressionOperation choice => choice.Arms.SelectMany(arm => Callees(arm.Value.WithoutImplicitConversions())),
        _ => new[] { task.Syntax.ToString() },
    };
}
