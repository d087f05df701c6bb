using System.Linq;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp;
using Microsoft.CodeAnalysis.CSharp.Syntax;
using Microsoft.CodeAnalysis.Operations;
using TplPractices.Analyzers.Internals;

namespace TplPractices.Analyzers.Rules;

/// <summary>
/// TPL0017: <c>Task.Delay</c> used as a timer. Two shapes: a loop that ends each pass with an await of the same delay
/// (a timer and a task per pass, where one <c>PeriodicTimer</c> would tick for the whole loop), and a delay racing a
/// task in <c>Task.WhenAny</c> without a token (its timer stays queued until it fires, whoever wins).
/// </summary>
internal static class DelayTimer
{
    /// <summary>The loop's delay becomes a PeriodicTimer's tick.</summary>
    public const string FixPeriodicTimer = "PeriodicTimer";

    public const string LoopMessage = "each pass of this loop makes a timer and a task for Task.Delay; one PeriodicTimer can tick for the whole loop";

    public const string RaceMessage = "a Task.Delay racing in Task.WhenAny keeps its timer queued until it fires, whoever wins; use WaitAsync or cancel the delay";

    internal sealed class Context
    {
        private Context(INamedTypeSymbol task, INamedTypeSymbol? periodicTimer, INamedTypeSymbol? timeSpan, INamedTypeSymbol? operationCanceled)
        {
            Task = task;
            PeriodicTimer = periodicTimer;
            TimeSpan = timeSpan;
            OperationCanceled = operationCanceled;
        }

        public INamedTypeSymbol Task { get; }

        /// <summary>.NET 6 and later; without it, loops are not reported.</summary>
        public INamedTypeSymbol? PeriodicTimer { get; }

        public INamedTypeSymbol? TimeSpan { get; }

        public INamedTypeSymbol? OperationCanceled { get; }

        public static Context? TryCreate(Compilation compilation) =>
            compilation.GetTypeByMetadataName(WellKnownTypeNames.Task) is { } task
                ? new Context(
                    task,
                    compilation.GetTypeByMetadataName("System.Threading.PeriodicTimer"),
                    compilation.GetTypeByMetadataName("System.TimeSpan"),
                    compilation.GetTypeByMetadataName("System.OperationCanceledException"))
                : null;
    }

    /// <summary>A reported delay: its shape's message, and the fix kind where the loop keeps its meaning.</summary>
    internal sealed class Site
    {
        public Site(string message, string? fixKind, IWhileLoopOperation? loop)
        {
            Message = message;
            FixKind = fixKind;
            Loop = loop;
        }

        public string Message { get; }

        public string? FixKind { get; }

        /// <summary>The timer loop, for the loop shape.</summary>
        public IWhileLoopOperation? Loop { get; }
    }

    public static Site? Analyze(IInvocationOperation delay, Context context)
    {
        if (delay.TargetMethod is not { Name: "Delay", IsStatic: true } method
            || !SymbolEqualityComparer.Default.Equals(method.ContainingType, context.Task))
        {
            return null;
        }

        if (IsRacedWithoutToken(delay))
        {
            return new Site(RaceMessage, null, null);
        }

        return context.PeriodicTimer is not null && TimerLoopOf(delay) is { } loop
            ? new Site(LoopMessage, CanFix(delay, loop, context) ? FixPeriodicTimer : null, loop)
            : null;
    }

    /// <summary><c>Task.WhenAny(work, Task.Delay(t))</c>: a delay with no token, passed straight to WhenAny.</summary>
    private static bool IsRacedWithoutToken(IInvocationOperation delay)
    {
        if (delay.Arguments.Length != 1)
        {
            return false;
        }

        IOperation current = delay.WithImplicitConversionsAround();
        if (current.Parent is IArrayInitializerOperation { Parent: IArrayCreationOperation creation })
        {
            current = creation;
        }

        return current.Parent is IArgumentOperation { Parent: IInvocationOperation { TargetMethod: { Name: "WhenAny", IsStatic: true } whenAny } }
            && SymbolEqualityComparer.Default.Equals(whenAny.ContainingType, delay.TargetMethod.ContainingType);
    }

    /// <summary>
    /// The while loop whose body ends with <c>await Task.Delay(…)</c> (ConfigureAwait allowed), runs while a token is not
    /// canceled or forever, awaits nothing else, and waits the same time every pass.
    /// </summary>
    private static IWhileLoopOperation? TimerLoopOf(IInvocationOperation delay)
    {
        IOperation awaited = delay;
        if (delay.Parent is IInvocationOperation { TargetMethod.Name: "ConfigureAwait" } configured && configured.Instance == delay)
        {
            awaited = configured;
        }

        if (awaited.Parent is not IAwaitOperation { Parent: IExpressionStatementOperation statement }
            || statement.Parent is not IBlockOperation { Parent: IWhileLoopOperation { ConditionIsTop: true, ConditionIsUntil: false } loop } body
            || body.Operations.LastOrDefault() != statement
            || !RunsUntilCanceled(loop.Condition)
            || delay.Arguments.Length == 0
            || !IsSameEveryPass(delay.Arguments[0].Value, loop))
        {
            return null;
        }

        // Another await in the pass (not in a lambda or local function) makes the delay one wait among others.
        foreach (var operation in body.Descendants())
        {
            if (operation.Kind is OperationKind.Await && operation != awaited.Parent && operation.EnclosingFunction() == delay.EnclosingFunction())
            {
                return null;
            }
        }

        return loop;
    }

    private static bool RunsUntilCanceled(IOperation? condition) => condition switch
    {
        null => false,
        { ConstantValue: { HasValue: true, Value: true } } => true,
        IUnaryOperation { OperatorKind: UnaryOperatorKind.Not, Operand: IPropertyReferenceOperation { Property.Name: "IsCancellationRequested" } } => true,
        _ => false,
    };

    /// <summary>A constant, or a parameter, local or readonly field nothing in the loop writes, or TimeSpan.FromX of one.</summary>
    private static bool IsSameEveryPass(IOperation period, IWhileLoopOperation loop)
    {
        period = period.WithoutImplicitConversions();
        return period.ConstantValue.HasValue
            || period switch
            {
                IParameterReferenceOperation or ILocalReferenceOperation => StateCapture.ReferencedSymbol(period) is { } variable && !StateCapture.IsWrittenAnywhere(variable, loop),
                IFieldReferenceOperation { Field.IsReadOnly: true } or IFieldReferenceOperation { Field.IsConst: true } => true,
                IInvocationOperation { TargetMethod: { IsStatic: true, Name: var name, ContainingType.Name: "TimeSpan" }, Arguments.Length: 1 } from
                    when name.StartsWith("From", System.StringComparison.Ordinal) => IsSameEveryPass(from.Arguments[0].Value, loop),
                _ => false,
            };
    }

    /// <summary>
    /// The fix keeps the loop's meaning: a positive constant period (PeriodicTimer throws for zero or infinite, where
    /// Task.Delay(0) returns at once), and no other exception: the delay takes no token, or a catch of
    /// OperationCanceledException around the loop takes both exceptions alike (the delay throws TaskCanceledException,
    /// the tick OperationCanceledException). C# 8 for the using declaration.
    /// </summary>
    private static bool CanFix(IInvocationOperation delay, IWhileLoopOperation loop, Context context) =>
        ((CSharpParseOptions)delay.Syntax.SyntaxTree.Options).LanguageVersion >= LanguageVersion.CSharp8
        && loop.Syntax.Parent is BlockSyntax or GlobalStatementSyntax
        && PositivePeriod(delay.Arguments[0].Value)
        && delay.TargetMethod.Parameters.Skip(1).All(p => p.Type.Name == "CancellationToken") // a TimeProvider: no fix
        && (delay.Arguments.Length == 1 || IsCaughtAsCancellation(loop, context));

    private static bool PositivePeriod(IOperation period)
    {
        period = period.WithoutImplicitConversions();
        if (period is IInvocationOperation { TargetMethod.ContainingType.Name: "TimeSpan", Arguments.Length: 1 } from)
        {
            period = from.Arguments[0].Value.WithoutImplicitConversions();
        }

        return period.ConstantValue is { HasValue: true, Value: int or long or double } constant
            && System.Convert.ToDouble(constant.Value, System.Globalization.CultureInfo.InvariantCulture) is > 0 and < int.MaxValue;
    }

    /// <summary>
    /// A try around the loop, in the same function, whose first catch that takes a cancellation takes it as an
    /// OperationCanceledException or a base type, with no filter, no variable and no rethrow: the handler cannot tell
    /// the delay's TaskCanceledException from the tick's OperationCanceledException.
    /// </summary>
    private static bool IsCaughtAsCancellation(IWhileLoopOperation loop, Context context)
    {
        if (context.OperationCanceled is not { } canceled)
        {
            return false;
        }

        for (var current = loop.Parent; current is not null && current.Kind is not OperationKind.AnonymousFunction and not OperationKind.LocalFunction; current = current.Parent)
        {
            if (current is not ITryOperation attempt || !attempt.Body.Syntax.Span.Contains(loop.Syntax.Span))
            {
                continue;
            }

            foreach (var handler in attempt.Catches)
            {
                var takesBoth = handler.ExceptionType is INamedTypeSymbol caught && canceled.IsOrDerivesFrom(caught);
                if (takesBoth || handler.ExceptionType.IsOrDerivesFrom(canceled))
                {
                    return takesBoth
                        && handler.Filter is null
                        && handler.Locals.IsEmpty
                        && !handler.Handler.Descendants().Any(o => o is IThrowOperation { Exception: null });
                }
            }
        }

        return false;
    }
}
