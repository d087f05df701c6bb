using System.Collections.Generic;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.Operations;
using TplPractices.Analyzers.Internals;

namespace TplPractices.Analyzers.Rules;

/// <summary>
/// TPL0009's questions: is an <c>AttachedToParent</c> flag passed to a TPL API, and is it a no-op where it runs
/// because the task running that code denies child attachment.
/// </summary>
internal static class AttachedToParent
{
    /// <summary>The value of <c>AttachedToParent</c> in both TaskCreationOptions and TaskContinuationOptions.</summary>
    private const long AttachedToParentFlag = 4;

    /// <summary>The value of <c>DenyChildAttach</c> in both enums.</summary>
    private const long DenyChildAttachFlag = 8;

    internal sealed class Context
    {
        private Context(INamedTypeSymbol creationOptions, INamedTypeSymbol? continuationOptions, INamedTypeSymbol task)
        {
            CreationOptions = creationOptions;
            ContinuationOptions = continuationOptions;
            Task = task;
        }

        public INamedTypeSymbol CreationOptions { get; }

        public INamedTypeSymbol? ContinuationOptions { get; }

        public INamedTypeSymbol Task { get; }

        public static Context? TryCreate(Compilation compilation) =>
            compilation.GetTypeByMetadataName(WellKnownTypeNames.TaskCreationOptions) is { } creation
            && compilation.GetTypeByMetadataName(WellKnownTypeNames.Task) is { } task
                ? new Context(creation, compilation.GetTypeByMetadataName(WellKnownTypeNames.TaskContinuationOptions), task)
                : null;

        public bool IsOptionsEnum(ITypeSymbol? type) =>
            SymbolEqualityComparer.Default.Equals(type, CreationOptions) || SymbolEqualityComparer.Default.Equals(type, ContinuationOptions);
    }

    /// <summary>
    /// Adds the flags an options argument of a TPL call holds: <c>AttachedToParent</c> itself, or a constant of the
    /// user's that holds it, alone or OR-ed with other flags, through implicit conversions, and in either branch of a
    /// choice made at the call (<c>attach ? AttachedToParent : None</c>).
    /// </summary>
    public static void AddFlagsIn(IOperation value, Context symbols, ref List<IOperation>? flags)
    {
        switch (value)
        {
            case IBinaryOperation { OperatorKind: BinaryOperatorKind.Or } or:
                AddFlagsIn(or.LeftOperand, symbols, ref flags);
                AddFlagsIn(or.RightOperand, symbols, ref flags);
                break;
            case IConversionOperation { IsImplicit: true } conversion:
                AddFlagsIn(conversion.Operand, symbols, ref flags);
                break;
            case IConditionalOperation { IsRef: false, WhenFalse: { } whenFalse } choice:
                AddFlagsIn(choice.WhenTrue, symbols, ref flags);
                AddFlagsIn(whenFalse, symbols, ref flags);
                break;
            case IFieldReferenceOperation member when IsTheEnumMember(member, symbols):
            case IFieldReferenceOperation { Field: { IsConst: true } field } when IsConstantHoldingTheFlag(field, field.Type, symbols):
            case ILocalReferenceOperation { Local: { IsConst: true } local } when IsConstantHoldingTheFlag(local, local.Type, symbols):
                (flags ??= new List<IOperation>()).Add(value);
                break;
        }
    }

    /// <summary>
    /// True when <paramref name="call"/> runs directly in a lambda given to Task.Run, or to a StartNew, a Task
    /// constructor or a ContinueWith whose options include DenyChildAttach: the task that runs the lambda refuses
    /// children, so attaching to it does nothing. (After an await in an async lambda no task is current, which
    /// makes the flag a no-op there too.) Code in a nested lambda or local function may run elsewhere: false.
    /// </summary>
    public static bool RunsWhereAttachingIsANoOp(IOperation call, Context symbols)
    {
        if (call.EnclosingFunction() is not IAnonymousFunctionOperation lambda
            || lambda.Parent is not IDelegateCreationOperation { Parent: IArgumentOperation { Parent: { } starter } }
            || starter.Call() is not { } target
            || !IsInTasksNamespace(target.Method.ContainingType))
        {
            return false;
        }

        if (target.Method.Name == "Run" && SymbolEqualityComparer.Default.Equals(target.Method.ContainingType, symbols.Task))
        {
            return true;
        }

        foreach (var argument in target.Arguments)
        {
            if (symbols.IsOptionsEnum(argument.Value.Type)
                && argument.Value.ConstantValue is { HasValue: true, Value: { } value }
                && (System.Convert.ToInt64(value, System.Globalization.CultureInfo.InvariantCulture) & DenyChildAttachFlag) != 0)
            {
                return true;
            }
        }

        return false;
    }

    /// <summary>
    /// True inside an extension method named for attaching (<c>factory.StartAttached(…)</c>,
    /// <c>task.ContinueAsAttachedChild(…)</c>): attaching is its job, so the flag there cannot go, and its callers chose
    /// to attach by calling it. A warning there would leave the user nothing to do but suppress it. An ordinary
    /// method that happens to be called Attach still reports.
    /// </summary>
    public static bool IsInAnApiForAttaching(ISymbol containingSymbol)
    {
        var member = containingSymbol;
        while (member is IMethodSymbol { MethodKind: MethodKind.AnonymousFunction or MethodKind.LocalFunction } && member.ContainingSymbol is { } outer)
        {
            member = outer;
        }

        return member is IMethodSymbol { MethodKind: MethodKind.Ordinary, IsExtensionMethod: true } method
            && method.Name.IndexOf("Attach", System.StringComparison.Ordinal) >= 0;
    }

    public static bool IsInTasksNamespace(INamedTypeSymbol? type) =>
        type?.ContainingNamespace is { Name: "Tasks", ContainingNamespace: { Name: "Threading", ContainingNamespace: { Name: "System", ContainingNamespace.IsGlobalNamespace: true } } };

    /// <summary>
    /// True for the enum member <c>AttachedToParent</c> itself, as opposed to a constant of the user's that holds it:
    /// only the member can be removed by the fix.
    /// </summary>
    public static bool IsTheEnumMember(IOperation flag, Context symbols) =>
        flag is IFieldReferenceOperation { Field: { Name: "AttachedToParent" } field } && symbols.IsOptionsEnum(field.ContainingType);

    /// <summary>
    /// True for a constant of the user's own (a const field or local of an options type) whose value holds the
    /// flag: <c>const TaskCreationOptions Options = TaskCreationOptions.AttachedToParent | …</c>.
    /// </summary>
    /// <remarks>The types first: reading a constant's value boxes it, and every enum member read is a constant field.</remarks>
    public static bool IsConstantHoldingTheFlag(ISymbol constant, ITypeSymbol type, Context symbols) =>
        symbols.IsOptionsEnum(type)
        && !symbols.IsOptionsEnum(constant.ContainingType)
        && (constant switch { IFieldSymbol field => field.ConstantValue, ILocalSymbol local => local.ConstantValue, _ => null }) is { } value
        && (System.Convert.ToInt64(value, System.Globalization.CultureInfo.InvariantCulture) & AttachedToParentFlag) != 0;
}
