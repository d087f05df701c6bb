using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp;
using Microsoft.CodeAnalysis.CSharp.Syntax;
using Microsoft.CodeAnalysis.Operations;
using TplPractices.Analyzers.Internals;
using TplPractices.Analyzers.Rules;
using TplPractices.Analyzers.Tests.Verifiers;

namespace TplPractices.Analyzers.Tests.Meta;

/// <summary>
/// A rule that looks at invocations names the methods it looks at, and the registration reads an invocation's method
/// name once for all the rules of an analyzer (docs/performance.md). Every rule test runs through that filter, so a
/// name left out shows as a missed hit there; these tests hold the filter itself to its contract.
/// </summary>
public sealed class InvokedNameDispatchTests
{
    /// <summary>TPL0015 alone looks at every call: a state overload has no name to look for.</summary>
    [Fact]
    public void EveryRuleOnInvocations_NamesTheMethodsItLooksAt()
    {
        var unnamed = WarningRulesAnalyzer.Rules
            .Where(r => r.Kinds.Contains(OperationKind.Invocation) && r.InvokedNames is null && !r.LooksAtEveryCall)
            .Select(r => r.Descriptor.Id)
            .ToList();
        Assert.Empty(unnamed);
        Assert.Equal([DiagnosticIds.StateOverload], WarningRulesAnalyzer.Rules.Where(r => r.LooksAtEveryCall).Select(r => r.Descriptor.Id));
    }

    [Fact]
    public void OnlyInvocationsAreFilteredByName()
    {
        var operations = Operations("""
            using System.Threading.Tasks;
            class C
            {
                object M(Task t)
                {
                    Task.Run(() => { });
                    Task.Delay(1);
                    return new object();
                }
            }
            """);
        var run = operations.OfType<IInvocationOperation>().Single(i => i.TargetMethod.Name == "Run");
        var delay = operations.OfType<IInvocationOperation>().Single(i => i.TargetMethod.Name == "Delay");
        var creation = operations.Single(o => o.Kind == OperationKind.ObjectCreation);
        string[] names = ["Run"];

        Assert.True(LooksAt(names, run));
        Assert.False(LooksAt(names, delay));
        Assert.True(LooksAt(names, creation));
        Assert.True(LooksAt(null, delay));
    }

    private static bool LooksAt(string[]? names, IOperation operation)
    {
        string? invoked = null;
        return OperationRule.LooksAt(names, operation, ref invoked);
    }

    private static List<IOperation> Operations(string code)
    {
        var tree = CSharpSyntaxTree.ParseText(code);
        var compilation = CSharpCompilation.Create("probe", [tree], TestTarget.Net80.References());
        var method = tree.GetRoot().DescendantNodes().OfType<MethodDeclarationSyntax>().Single();
        var body = compilation.GetSemanticModel(tree).GetOperation(method)!;
        return body.DescendantsAndSelf().ToList();
    }
}
