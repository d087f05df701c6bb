using System.Linq;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp.Syntax;
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
    /// The fix is offered only where the receiver cannot be null: a delegate bound to null throws at the call, where the
    /// state form would throw later, in the callback. That is <c>this</c>, a local made with <c>new</c> that nothing
    /// writes again, and a readonly field of this class instance that only its initializer sets, with <c>new</c> (field
    /// initializers run before any constructor, so no code of the instance reads it unset; a struct's default value
    /// skips them). Both forms take the receiver's value at the call, so a later write would not matter.
    /// </summary>
    public bool HasExactFix => CannotBeNull(Receiver);

    private static bool CannotBeNull(IOperation receiver) => receiver switch
    {
        IInstanceReferenceOperation => true,
        ILocalReferenceOperation { Local: var local } => receiver.Root().OnlyValueOf(local)?.WithoutImplicitConversions() is IObjectCreationOperation,
        IFieldReferenceOperation { Field: { IsStatic: false, ContainingType.TypeKind: TypeKind.Class } field, Instance: IInstanceReferenceOperation { ReferenceKind: InstanceReferenceKind.ContainingTypeInstance } } =>
            field.OnlyInitializerOf() is BaseObjectCreationExpressionSyntax,
        _ => false,
    };

    /// <summary>
    /// The bound group in <paramref name="argument"/>, or null. Not reported: static, extension and local functions (a
    /// local function's group has an implicit <c>this</c> even where it captures nothing, and no receiver can call it
    /// through a state; what it captures is not followed, as for a lambda that calls one), receivers
    /// of value types (the delegate holds its own boxed copy, which the state form would not share between calls),
    /// <c>base</c> (the state form would call the override), and delegates that take parameters.
    /// </summary>
    public static MethodGroupCapture? Of(IArgumentOperation? argument) =>
        argument?.Value.WithoutImplicitConversions() is IDelegateCreationOperation
        {
            Type: INamedTypeSymbol { DelegateInvokeMethod.Parameters.Length: 0 },
            Target: IMethodReferenceOperation { Method: { IsStatic: false, IsExtensionMethod: false, MethodKind: not MethodKind.LocalFunction }, Instance: { Type.IsReferenceType: true } receiver } group,
        }
        && receiver is not IInstanceReferenceOperation { ReferenceKind: not InstanceReferenceKind.ContainingTypeInstance }
        && receiver.Syntax is not BaseExpressionSyntax
            ? new MethodGroupCapture(group, receiver)
            : null;

    /// <summary>
    /// For a state overload (TPL0015): a method of a reference type given as a callback that takes parameters
    /// (<c>cache.GetOrAdd(key, Open)</c>), bound to a receiver that cannot be null (<see cref="HasExactFix"/>: <c>this</c>,
    /// a local made with <c>new</c>, a readonly field only its initializer sets with <c>new</c>) and so allocated on every
    /// call. Only where <c>state.Open(k)</c> in the new lambda calls the same method: no other method of that name in the
    /// receiver's type or its bases (an overload could win for the lambda's parameter types), not generic (inference could
    /// differ), no <c>ref</c> parameters; never <c>base.Open</c>, which the lambda would turn into a virtual call.
    /// </summary>
    public static MethodGroupCapture? OfReceiverThatCannotBeNull(IArgumentOperation? argument) =>
        argument?.Value.WithoutImplicitConversions() is IDelegateCreationOperation
        {
            Type: INamedTypeSymbol { DelegateInvokeMethod: { Parameters.Length: > 0 } invoke },
            Target: IMethodReferenceOperation
            {
                Method: { IsStatic: false, IsExtensionMethod: false, IsGenericMethod: false, MethodKind: not MethodKind.LocalFunction } method,
                Instance: { Type: { IsReferenceType: true } type } receiver,
            } group,
        }
        && receiver is not IInstanceReferenceOperation { ReferenceKind: not InstanceReferenceKind.ContainingTypeInstance }
        && receiver.Syntax is not BaseExpressionSyntax
        && invoke.Parameters.All(p => p.RefKind == RefKind.None)
        && method.Parameters.Length == invoke.Parameters.Length
        && method.Parameters.All(p => p.RefKind == RefKind.None && !p.IsParams)
        && IsTheOnlyMethodNamed(method.Name, type)
        && CannotBeNull(receiver) // last: a local's only value is read from its whole function
            ? new MethodGroupCapture(group, receiver)
            : null;

    private static bool IsTheOnlyMethodNamed(string name, ITypeSymbol type) => type.MembersNamedInHierarchy(name).Take(2).Count() == 1;

    /// <summary>
    /// Reports the group on the state rule's descriptor: "captures 'receiver', so each call allocates a delegate";
    /// <c>groupState</c> says where a state overload puts the state (TPL0015; see <see cref="StateFacts"/>), and
    /// <c>oneSiteReason</c> what the rewrite rests on where it is offered one site at a time
    /// (<see cref="DiagnosticPropertyKeys.OneSiteReason"/>), and <c>closing</c> the message's last words where the rule's
    /// message ends in what it passes instead.
    /// </summary>
    public void Report(OperationAnalysisContext context, RuleOptions options, DiagnosticDescriptor rule, bool hasStateOverload, (int Position, int ArgumentIndex)? groupState = null, string? oneSiteReason = null, string closing = "it")
    {
        var name = Receiver is IInstanceReferenceOperation ? "this" : Receiver.Syntax.ToString();
        var fixable = hasStateOverload && HasExactFix;
        var properties = DiagnosticPropertyKeys.WithOneSiteReason(DiagnosticPropertyKeys.ForFix(fixable ? FixMethodGroupState : null), fixable ? oneSiteReason : null);

        options.Report(context, Diagnostic.Create(
            rule,
            Group.Syntax.GetLocation(),
            fixable && groupState is var (position, index) ? StateFacts.WithGroupState(properties, position, index) : properties,
            MessageText.QuotedList(new[] { name }),
            "a delegate",
            closing));
    }
}
