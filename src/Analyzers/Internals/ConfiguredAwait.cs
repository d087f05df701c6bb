using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.Operations;

namespace TplPractices.Analyzers.Internals;

/// <summary>
/// <c>task.ConfigureAwait(…)</c> where it only chooses the context the await resumes on: a constant <c>bool</c>, or
/// <c>ConfigureAwaitOptions</c> constants of <c>None</c> and <c>ContinueOnCapturedContext</c> (a computed argument may
/// run code a fix would drop). Only through such a call
/// may a rule read the await as an await of the task. <c>ForceYielding</c> makes even a completed task yield (the
/// .NET 8 spelling of <c>Task.Yield()</c>), and <c>SuppressThrowing</c> swallows what the task would throw: a fix that
/// removes the await, or moves the task elsewhere, would drop either.
/// </summary>
internal static class ConfiguredAwait
{
    private const long ContinueOnCapturedContext = 1;

    public static bool OnlyChoosesContext(IInvocationOperation configure) =>
        configure.Arguments.Length == 1
        && configure.Arguments[0].Value.ConstantValue is { HasValue: true, Value: { } choice }
        && (choice is bool
            || configure.Arguments[0].Value.Type is { TypeKind: TypeKind.Enum, Name: "ConfigureAwaitOptions" }
                && (System.Convert.ToInt64(choice, System.Globalization.CultureInfo.InvariantCulture) & ~ContinueOnCapturedContext) == 0);

    /// <summary>The task an await of <paramref name="awaited"/> takes: under a context-only ConfigureAwait, or itself.</summary>
    public static IOperation TaskOf(IOperation awaited) =>
        awaited is IInvocationOperation configure && OnlyChoosesContext(configure) ? Inside(awaited) : awaited;

    /// <summary>The context-only ConfigureAwait call that configures <paramref name="task"/>, or the task itself.</summary>
    public static IOperation AroundTask(IOperation task) =>
        Around(task) is IInvocationOperation configure && configure != task && OnlyChoosesContext(configure) ? configure : task;

    /// <summary>
    /// The ConfigureAwait call that configures <paramref name="task"/>, whatever its argument, or the task itself: for a
    /// rule that keeps the await as it is written (a race's, a token's work awaited in place).
    /// </summary>
    public static IOperation Around(IOperation task) =>
        task.Parent is IInvocationOperation { TargetMethod.Name: "ConfigureAwait" } configure && configure.Instance == task ? configure : task;

    /// <summary>The task any ConfigureAwait call configures, or the operation itself.</summary>
    public static IOperation Inside(IOperation awaited) =>
        awaited is IInvocationOperation { TargetMethod.Name: "ConfigureAwait", Instance: { } task } ? task.WithoutImplicitConversions() : awaited;
}
