using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.Diagnostics;
using Microsoft.CodeAnalysis.Operations;

namespace TplPractices.Analyzers.Internals;

/// <summary>
/// An instance method group given as a callback (<c>token.Register(_cts.Cancel)</c>): the delegate is bound to its
/// receiver and allocated on every call, as for a lambda that captures only that receiver. Shared by TPL0001 and
/// TPL0006, for the delegates without parameters (Action, Func&lt;T&gt;) whose state form takes the receiver as state.
/// </summary>
internal sealed class MethodGroupCapture
{
    /// <summary>Fix kind: the group becomes <c>state => ((T)state).M()</c> with the receiver as the state.</summary>
    public const string FixMethodGroupState = "MethodGroupState";

    private MethodGroupCapture(IOperation syntaxOwner, IOperation receiver)
    {
        Group = syntaxOwner;
        Receiver = receiver;
    }

    /// <summary>The method group as written.</summary>
    public IOperation Group { get; }

    public IOperation Receiver { get; }

    /// <summary>
    /// The fix is offered only where the receiver is <c>this</c>: any other receiver may be null, and a delegate bound to
    /// null throws at the call, where the state form would throw later, in the callback.
    /// </summary>
    public bool HasExactFix => Receiver is IInstanceReferenceOperation;

    /// <summary>
    /// The bound group in <paramref name="argument"/>, or null. Not reported: static and extension methods, receivers
    /// of value types (the delegate holds its own boxed copy, which the state form would not share between calls),
    /// <c>base</c> (the state form would call the override), and delegates that take parameters.
    /// </summary>
    public static MethodGroupCapture? Of(IArgumentOperation? argument) =>
        argument?.Value.WithoutImplicitConversions() is IDelegateCreationOperation
        {
            Type: INamedTypeSymbol { DelegateInvokeMethod.Parameters.Length: 0 },
            Target: IMethodReferenceOperation { Method: { IsStatic: false, IsExtensionMethod: false }, Instance: { Type.IsReferenceType: true } receiver } group,
        }
        && receiver is not IInstanceReferenceOperation { ReferenceKind: not InstanceReferenceKind.ContainingTypeInstance }
        && receiver.Syntax is not Microsoft.CodeAnalysis.CSharp.Syntax.BaseExpressionSyntax
            ? new MethodGroupCapture(group, receiver)
            : null;

    /// <summary>Reports the group on the state rule's descriptor: "captures 'receiver', so each call allocates a delegate".</summary>
    public void Report(OperationAnalysisContext context, RuleOptions options, DiagnosticDescriptor rule, bool hasStateOverload)
    {
        var name = Receiver is IInstanceReferenceOperation ? "this" : Receiver.Syntax.ToString();
        options.Report(context, Diagnostic.Create(
            rule,
            Group.Syntax.GetLocation(),
            DiagnosticPropertyKeys.ForFix(hasStateOverload && HasExactFix ? FixMethodGroupState : null),
            MessageText.QuotedList(new[] { name }),
            "a delegate",
            "it"));
    }
}
