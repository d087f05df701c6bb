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
/// task in <c>Task.WhenAny</c> or <c>Task.WaitAny</c> without a token or on the caller's (its timer stays queued until it fires, whoever wins).
/// </summary>
internal static partial class DelayTimer
{
    /// <summary>The loop's delay becomes a PeriodicTimer's tick.</summary>
    public const string FixPeriodicTimer = "PeriodicTimer";

    /// <summary>The raced delay takes the token of a source canceled right after the race.</summary>
    public const string FixCancelDelay = "CancelDelay";

    /// <summary>
    /// As <see cref="FixCancelDelay"/>, for a race whose result the statement goes on to use (<c>if (await
    /// Task.WhenAny(…) != work)</c>): the race moves into a local of its own, the cancel follows it, and the statement
    /// reads the local.
    /// </summary>
    public const string FixCancelDelayAfterWinner = "CancelDelayAfterWinner";

    /// <summary>
    /// Why a hosted service's timer loop is fixed one site at a time (<see cref="LeavesAHostedService"/>): the title's "(…)".
    /// </summary>
    public const string HostedServiceReason = "a stopped service's ExecuteTask then holds an OperationCanceledException, not a TaskCanceledException";

    /// <summary>
    /// Why a timer loop whose passes do work is fixed one site at a time (<see cref="PacesWork"/>): the gap after each
    /// pass becomes a period from one pass's start to the next, which a rate limit or a pause after each message relies on.
    /// </summary>
    public const string RhythmReason = "passes then start every period, not a period after each pass's work";

    public const string LoopMessage = "each pass of this loop makes a timer and a task for Task.Delay; one PeriodicTimer can tick for the whole loop";

    public const string RaceMessage = "a Task.Delay racing in Task.WhenAny or Task.WaitAny keeps its timer queued until it fires, whoever wins; cancel the delay once the race is decided";

    public const string OwnSourceRaceMessage = "a Task.Delay racing in Task.WhenAny or Task.WaitAny keeps its timer queued, and its registration on a source that nothing cancels, until it fires, whoever wins; cancel the delay once the race is decided";

    public const string LeftSourceRaceMessage = "a Task.Delay racing in Task.WhenAny or Task.WaitAny keeps its timer queued, and its registration on a source that nothing cancels when the other task wins, until it fires; cancel the delay once the race is decided";

    public const string TokenRaceMessage = "a Task.Delay racing in Task.WhenAny or Task.WaitAny keeps its timer queued, and its registration on the caller's token, until it fires or the token is canceled, whoever wins; cancel the delay once the race is decided";

    internal sealed class Context
    {
        private Context(INamedTypeSymbol task, INamedTypeSymbol? periodicTimer, INamedTypeSymbol? timeSpan, INamedTypeSymbol? operationCanceled, INamedTypeSymbol? backgroundService)
        {
            Task = task;
            PeriodicTimer = periodicTimer;
            TimeSpan = timeSpan;
            OperationCanceled = operationCanceled;
            BackgroundService = backgroundService;
        }

        public INamedTypeSymbol Task { get; }

        /// <summary>.NET 6 and later; without it, loops are not reported.</summary>
        public INamedTypeSymbol? PeriodicTimer { get; }

        public INamedTypeSymbol? TimeSpan { get; }

        public INamedTypeSymbol? OperationCanceled { get; }

        /// <summary>Microsoft.Extensions.Hosting's base of hosted services, where the project references it.</summary>
        public INamedTypeSymbol? BackgroundService { get; }

        public static Context? TryCreate(Compilation compilation) =>
            compilation.GetTypeByMetadataName(WellKnownTypeNames.Task) is { } task
                ? new Context(
                    task,
                    compilation.GetTypeByMetadataName("System.Threading.PeriodicTimer"),
                    compilation.GetTypeByMetadataName("System.TimeSpan"),
                    compilation.GetTypeByMetadataName("System.OperationCanceledException"),
                    compilation.GetTypeByMetadataName("Microsoft.Extensions.Hosting.BackgroundService"))
                : null;
    }

    /// <summary>A reported delay: its shape's message, and the fix kind where the loop keeps its meaning.</summary>
    internal sealed class Site
    {
        public Site(string message, string? fixKind, ILoopOperation? loop, SyntaxNode? raceStatement = null, SyntaxNode? linkedToken = null, SyntaxNode? winner = null, SyntaxNode? heldIn = null, System.Collections.Generic.IReadOnlyList<IInvocationOperation>? earlyDelays = null, string? oneSiteReason = null, System.Collections.Generic.IReadOnlyList<IInvocationOperation>? alsoRaced = null)
        {
            AlsoRaced = alsoRaced ?? System.Array.Empty<IInvocationOperation>();
            Message = message;
            OneSiteReason = oneSiteReason;
            EarlyDelays = earlyDelays ?? System.Array.Empty<IInvocationOperation>();
            FixKind = fixKind;
            Loop = loop;
            RaceStatement = raceStatement;
            LinkedToken = linkedToken;
            Winner = winner;
            HeldIn = heldIn;
        }

        /// <summary>
        /// For the loop shape: the same delay awaited before a <c>continue</c> on another path of the pass, which the
        /// tick replaces too.
        /// </summary>
        public System.Collections.Generic.IReadOnlyList<IInvocationOperation> EarlyDelays { get; }

        /// <summary>
        /// For the race shape: the race's other delays that nothing can cancel (<c>Task.WhenAny(Task.Delay(1000),
        /// Task.Delay(2000), work)</c>), which take the same source's token: one source, canceled once, for the race.
        /// </summary>
        public System.Collections.Generic.IReadOnlyList<IInvocationOperation> AlsoRaced { get; }

        /// <summary>The declaration of the local that holds the delay before the race; the source goes before it.</summary>
        public SyntaxNode? HeldIn { get; }

        /// <summary>The awaited race the statement uses, which the fix moves into a local of its own; null otherwise.</summary>
        public SyntaxNode? Winner { get; }

        /// <summary>The statement that holds the race, for the race shape's fix.</summary>
        public SyntaxNode? RaceStatement { get; }

        /// <summary>The token the delay took (the caller's, or an own source's nothing cancels), which the race fix's source links to; null for a delay without one.</summary>
        public SyntaxNode? LinkedToken { get; }

        /// <summary>
        /// What the fixer rewrites, as the diagnostic's additional locations: the loop the timer replaces, then the delays
        /// awaited before a <c>continue</c> that its tick replaces too; or the statement
        /// that holds the race, then (each where there is one, told apart by its kind of node) the awaited race the
        /// statement uses, the token to link to, the declaration that holds the delay and the race's other delays (calls of
        /// <c>Task.Delay</c>, told apart from a WaitAny call by their method). None without a fix.
        /// </summary>
        public System.Collections.Generic.IEnumerable<Location>? Parts() => FixKind switch
        {
            FixPeriodicTimer when Loop is not null => new[] { Loop.Syntax.GetLocation() }.Concat(EarlyDelays.Select(d => d.Syntax.GetLocation())).ToArray(),
            FixCancelDelay or FixCancelDelayAfterWinner when RaceStatement is not null =>
                new[] { RaceStatement, Winner, LinkedToken, HeldIn }.Concat(AlsoRaced.Select(d => d.Syntax)).Where(n => n is not null).Select(n => n!.GetLocation()).ToArray(),
            _ => null,
        };

        public string Message { get; }

        /// <summary>What the fix changes where it is offered one site at a time and kept out of Fix All; null otherwise.</summary>
        public string? OneSiteReason { get; }

        public string? FixKind { get; }

        /// <summary>The timer loop, for the loop shape.</summary>
        public ILoopOperation? Loop { get; }
    }

    public static Site? Analyze(IInvocationOperation delay, Context context)
    {
        if (delay.TargetMethod is not { Name: "Delay", IsStatic: true } method
            || !SymbolEqualityComparer.Default.Equals(method.ContainingType, context.Task)
            || MakesNoTimer(delay))
        {
            return null;
        }

        // A delay that cannot be canceled races alone; one on a token the race cannot cancel (the caller's, an own source's
        // that nothing cancels) races with a source linked to it.
        if (CannotBeCanceled(delay) || LinkableToken(delay, proven: false) is not null)
        {
            if (RacedIn(delay) is { } race)
            {
                return RaceSite(delay, race.WhenAny);
            }

            if (delay.WithImplicitConversionsAround().Parent is IVariableInitializerOperation { Parent: IVariableDeclaratorOperation declarator }
                && RacedThrough(declarator.Symbol, delay) is { } heldRace)
            {
                // Held in a local, the delay is there to be compared with the winner after the race.
                return RaceSite(delay, heldRace, declarator);
            }

            if (HeldInACollection(delay) is { } collection)
            {
                // The tasks are held in a local for the race: the source goes before it as before a held delay.
                return RaceSite(delay, collection.Race, collection.Holder);
            }
        }

        var earlyDelays = new System.Collections.Generic.List<IInvocationOperation>();
        return context.PeriodicTimer is not null && TimerLoopOf(delay, earlyDelays) is { } found
            ? LoopSite(delay, found.Loop, earlyDelays, context, found.ByHand)
            : null;
    }

    /// <summary>
    /// A zero delay makes no timer: its task is complete at once (TPL0014 reports it). Nor does an infinite one
    /// (<c>-1</c>, <c>Timeout.Infinite</c>, <c>Timeout.InfiniteTimeSpan</c>): it never fires, and with a token it is the
    /// usual way to turn a token into a task (<c>var closed = Task.Delay(-1, token);</c>, raced again and again).
    /// </summary>
    public static bool MakesNoTimer(IInvocationOperation delay) =>
        delay.Arguments.Length > 0 && (AwaitInLoop.IsZeroDelay(PeriodOf(delay).Value) || IsInfinite(PeriodOf(delay).Value));

    private static bool IsInfinite(IOperation period)
    {
        period = period.WithoutImplicitConversions();
        if (period is IInvocationOperation { TargetMethod: { Name: "FromMilliseconds", IsStatic: true, ContainingType.Name: "TimeSpan" }, Arguments.Length: 1 } from)
        {
            period = from.Arguments[0].Value.WithoutImplicitConversions();
        }

        return period.ConstantValue is { HasValue: true, Value: -1 or -1L or -1d }
            || period is IFieldReferenceOperation { Field: { Name: "InfiniteTimeSpan", IsStatic: true, ContainingType.Name: "Timeout" } };
    }

    /// <summary>
    /// <c>Task.Delay(t)</c> or <c>Task.Delay(t, timeProvider)</c>, or with a token that cannot be canceled
    /// (<c>CancellationToken.None</c>, <c>default</c>).
    /// </summary>
    private static bool CannotBeCanceled(IInvocationOperation delay) =>
        TokenOf(delay) is not { } token ? !delay.TargetMethod.Parameters.Any(IsToken) : SafeTests.IsUncancelableToken(token);

    private static bool IsToken(IParameterSymbol parameter) => parameter.Type.Name == "CancellationToken";

    /// <summary>
    /// Whether a source can go before <paramref name="statement"/>, as a using declaration or in a using block around it
    /// (<see cref="UsingPlacement"/>). A loop takes its source inside each pass.
    /// </summary>
    private static bool CanHoldASource(SyntaxNode statement, SemanticModel? model) =>
        statement is WhileStatementSyntax or DoStatementSyntax || UsingPlacement.DeclarationFits(statement) || UsingPlacement.BlockFits(statement, model);

    /// <summary>The period's argument, first or named in another place.</summary>
    public static IArgumentOperation PeriodOf(IInvocationOperation delay) =>
        delay.Arguments.FirstOrDefault(a => a.Parameter?.Ordinal == 0) ?? delay.Arguments[0];

    /// <summary>
    /// The token of <c>Task.Delay(t, token)</c> or <c>Task.Delay(t, timeProvider, token)</c>, written in any place (named
    /// arguments), or null.
    /// </summary>
    private static IOperation? TokenOf(IInvocationOperation delay)
    {
        foreach (var argument in delay.Arguments)
        {
            if (argument.Parameter is { } parameter && IsToken(parameter))
            {
                return argument.Value;
            }
        }

        return null;
    }

    /// <summary>
    /// The loop (<c>while</c>, <c>do … while</c>, <c>for (;;)</c>) whose body starts or ends with <c>await Task.Delay(…)</c>
    /// (ConfigureAwait allowed), or with a <c>try</c> that starts or ends so on the same side (<c>try { await WorkAsync();
    /// await Task.Delay(p, token); } catch (OperationCanceledException) { break; }</c>, the usual hosted service), runs
    /// forever or until a token or a flag stops it, and waits the same time every pass. Another delay awaited in the
    /// pass is allowed only as the same delay ending a path of its own before a <c>continue</c> (<c>if (!ok) { await
    /// Task.Delay(p, token); continue; }</c>, collected in <paramref name="earlyDelays"/>): each pass still waits once.
    /// Or a pass that keeps its period by hand (<see cref="KeepsAPeriodByHand"/>, <c>ByHand</c>), its wait last and
    /// guarded or not.
    /// </summary>
    private static (ILoopOperation Loop, bool ByHand)? TimerLoopOf(IInvocationOperation delay, System.Collections.Generic.List<IInvocationOperation> earlyDelays)
    {
        // A tick takes the context-only ConfigureAwait the delay had; it has no SuppressThrowing to keep.
        var awaited = ConfiguredAwait.AroundTask(delay);

        if (awaited.Parent is not IAwaitOperation { Parent: IExpressionStatementOperation wait }
            || delay.Arguments.Length == 0)
        {
            return null;
        }

        // The step of the pass that waits: the await, or the guard of a wait the pass keeps by hand.
        var guard = GuardOf(wait);
        IOperation statement = guard ?? (IOperation)wait;
        if (PassOf(statement) is not { } pass)
        {
            return null;
        }

        var (loop, body, steps) = pass;
        var byHand = !IsSameEveryPass(PeriodOf(delay).Value, loop);
        if (byHand && !KeepsAPeriodByHand(PeriodOf(delay).Value, loop)
            || guard is not null && !byHand)
        {
            return null;
        }

        if (!Starts(steps, statement, loop) && LeavesBeforeTheDelay(body, loop)
            || TestsBeforeTheFirstPass(loop) && (WaitsOnly(steps, statement, loop) && WaitsOnAnother(loop) || TestsAPassResult(loop)))
        {
            return null;
        }

        // The pass's work may await (await WorkAsync(); await Task.Delay(period);, the usual polling service): the timer
        // ticks the same. Another delay awaited in the pass makes this one a pause among others, unless it is the same
        // wait on a path that ends the pass early.
        var endsThePass = steps.Last() is var last && (last == statement || last is ITryOperation attempt && Steps(attempt.Body, loop).LastOrDefault() == statement);
        foreach (var operation in body.Descendants())
        {
            if (operation is IAwaitOperation other
                && other != awaited.Parent
                && other.Operation.WithoutImplicitConversions() is IInvocationOperation awaitedCall
                && ConfiguredAwait.Inside(awaitedCall) is IInvocationOperation { TargetMethod: { Name: "Delay", IsStatic: true } } otherDelay
                && other.EnclosingFunction() == delay.EnclosingFunction())
            {
                if (!endsThePass || !IsEarlyWait(other, otherDelay, (IAwaitOperation)awaited.Parent, loop))
                {
                    return null;
                }

                earlyDelays.Add(otherDelay);
            }
        }

        // A kept period waits what is left of it after the work: last in the pass, never first.
        return byHand && !endsThePass ? null : (loop, byHand);
    }

    /// <summary>
    /// <c>await Task.Delay(…);</c> as a statement followed by a <c>continue</c> of the loop, the same call as the pass's
    /// last delay (the same arguments and ConfigureAwait): the path waits once and starts the next pass.
    /// </summary>
    private static bool IsEarlyWait(IAwaitOperation wait, IInvocationOperation early, IAwaitOperation last, ILoopOperation loop) =>
        wait.Parent is IExpressionStatementOperation { Parent: IBlockOperation block } statement
        && block.Operations.IndexOf(statement) is var index
        && index + 1 < block.Operations.Length
        && block.Operations[index + 1] is IBranchOperation { BranchKind: BranchKind.Continue } next
        && SymbolEqualityComparer.Default.Equals(next.Target, loop.ContinueLabel)
        && ConfiguredAwait.Inside(last.Operation.WithoutImplicitConversions()) is IInvocationOperation lastDelay
        && SymbolEqualityComparer.Default.Equals(early.TargetMethod, lastDelay.TargetMethod)
        && SyntaxFactory.AreEquivalent(wait.Operation.Syntax, last.Operation.Syntax);

    /// <summary>
    /// A constant, a const, static readonly or readonly field (only initializers and constructors set one), a local or
    /// parameter nothing in the loop writes (one declared in the pass only where its initializer is such a value), a
    /// primary-constructor parameter nothing in its type writes, built-in arithmetic of such values, or TimeSpan.FromX of one.
    /// </summary>
    private static bool IsSameEveryPass(IOperation period, ILoopOperation loop)
    {
        period = period.WithoutImplicitConversions();
        return period.ConstantValue.HasValue
            || period switch
            {
                // A local declared in the pass is set again each pass: the same only where its value is.
                ILocalReferenceOperation { Local: var local } when IsDeclaredInThePass(local, loop) =>
                    PassValueOf(local, loop) is { } value && IsSameEveryPass(value, loop),
                // A primary constructor's parameter counts writes anywhere in its type (IsWrittenAnywhere).
                IParameterReferenceOperation or ILocalReferenceOperation => StateCapture.ReferencedSymbol(period) is { } variable && !StateCapture.IsWrittenAnywhere(variable, loop),
                IFieldReferenceOperation { Field.IsReadOnly: true } or IFieldReferenceOperation { Field.IsConst: true } => true,
                // Built-in arithmetic of such values (seconds * 1000) gives the same each pass too.
                IBinaryOperation { OperatorMethod: null, OperatorKind: BinaryOperatorKind.Add or BinaryOperatorKind.Subtract or BinaryOperatorKind.Multiply or BinaryOperatorKind.Divide } arithmetic =>
                    IsSameEveryPass(arithmetic.LeftOperand, loop) && IsSameEveryPass(arithmetic.RightOperand, loop),
                IInvocationOperation { TargetMethod: { IsStatic: true, Name: var name, ContainingType.Name: "TimeSpan" }, Arguments.Length: 1 } from
                    when name.StartsWith("From", System.StringComparison.Ordinal) => IsSameEveryPass(from.Arguments[0].Value, loop),
                _ => false,
            };
    }

    private static bool IsDeclaredInThePass(ILocalSymbol local, ILoopOperation loop) =>
        loop.Syntax.Span.Contains(local.Locations.FirstOrDefault()?.SourceSpan ?? default);

    /// <summary>
    /// The value of a local the pass declares and nothing else writes, set again each pass: its initializer, where that
    /// is the only value <see cref="PassValuesOf"/> finds; null otherwise.
    /// </summary>
    private static IOperation? PassValueOf(ILocalSymbol local, ILoopOperation loop) =>
        PassValuesOf(local, loop) is { Count: 1 } values && values[0] == loop.Body.InitializerOf(local) ? values[0] : null;

    /// <summary>
    /// The fix keeps the loop's meaning: a positive constant period (PeriodicTimer throws for zero or infinite, where
    /// Task.Delay(0) returns at once), and no other exception: the delay takes no token (or one that cannot cancel,
    /// which the tick takes alike), or a catch of OperationCanceledException around the loop takes both exceptions
    /// alike (the delay throws TaskCanceledException, the tick OperationCanceledException). C# 8 for the using
    /// declaration.
    /// </summary>
    private static bool CanFix(IInvocationOperation delay, ILoopOperation loop, Context context) =>
        ((CSharpParseOptions)delay.Syntax.SyntaxTree.Options).LanguageVersion >= LanguageVersion.CSharp8
        && loop.Syntax.Parent is BlockSyntax or GlobalStatementSyntax
        && PositivePeriod(PeriodOf(delay).Value)
        && delay.TargetMethod.Parameters.Skip(1).All(IsToken) // a TimeProvider: no fix
        && (KeepsItsException(delay, context) || LeavesAHostedService(delay, context));

    private static bool KeepsItsException(IInvocationOperation delay, Context context) =>
        CannotBeCanceled(delay) || IsCaughtAsCancellation(delay, context);

    /// <summary>
    /// The loop's site: fixed where every delay the tick replaces can be, in Fix All where each keeps its exception,
    /// one site at a time where a hosted service's task is the only place the other exception shows; never where the
    /// pass keeps its period by hand (<paramref name="byHand"/>).
    /// </summary>
    private static Site LoopSite(IInvocationOperation delay, ILoopOperation loop, System.Collections.Generic.List<IInvocationOperation> earlyDelays, Context context, bool byHand)
    {
        var delays = earlyDelays.Prepend(delay).ToList();
        var fixable = !byHand && delays.All(d => CanFix(d, loop, context));
        var reasons = new[]
        {
            fixable && PacesWork(loop, earlyDelays) ? RhythmReason : null,
            fixable && !delays.All(d => KeepsItsException(d, context)) ? HostedServiceReason : null,
        }.Where(r => r is not null);
        var oneSiteReason = string.Join("; ", reasons);
        return new Site(LoopMessage, fixable ? FixPeriodicTimer : null, loop, earlyDelays: earlyDelays, oneSiteReason: oneSiteReason.Length == 0 ? null : oneSiteReason);
    }

    /// <summary>
    /// A pass that does more than wait: the delay waited a period after its work, the timer ticks a period after the
    /// last tick, the work's time included. Only a pass that holds its delay and nothing else but stop tests (in a
    /// <c>try</c> without <c>finally</c> or not) keeps its rhythm, and Fix All takes only that one.
    /// </summary>
    private static bool PacesWork(ILoopOperation loop, System.Collections.Generic.IReadOnlyCollection<IInvocationOperation> earlyDelays) =>
        earlyDelays.Count > 0
        || loop.Body is not IBlockOperation body
        || Steps(body, loop) is not { Count: 1 } steps
        || steps[0] is not (IExpressionStatementOperation or ITryOperation { Finally: null })
        || steps[0] is ITryOperation { Body: var attempt } && Steps(attempt, loop).Count != 1;

    /// <summary>
    /// A period both accept alike: PeriodicTimer takes whole milliseconds from 1 to uint.MaxValue - 1 and throws for
    /// less, where Task.Delay(TimeSpan.FromMilliseconds(0.5)) waits nothing; more throws in the timer's constructor,
    /// before the first pass, where each delay threw after a pass's work.
    /// </summary>
    private static bool PositivePeriod(IOperation period) =>
        (DelayTimeSpan.MillisecondsOf(period) ?? FieldMilliseconds(period)) is { } milliseconds
        && System.Math.Floor(milliseconds) >= 1 && milliseconds <= uint.MaxValue - 1d;

    /// <summary>
    /// A readonly field's period, static or not, that only its initializer sets (<c>static readonly TimeSpan Interval =
    /// TimeSpan.FromSeconds(30);</c>): read once before the loop, it is the value every pass read.
    /// </summary>
    private static double? FieldMilliseconds(IOperation period) =>
        period.WithoutImplicitConversions() is IFieldReferenceOperation { Field: var field } reference
        && field.OnlyValueOf(reference) is { } value
            ? DelayTimeSpan.MillisecondsOf(value)
            : null;

    /// <summary>
    /// The innermost try around the delay (in the pass or around the loop), in the same function, that catches a
    /// cancellation takes it as an OperationCanceledException or a base type, with no filter, no variable and no
    /// rethrow: the handler cannot tell the delay's TaskCanceledException from the tick's OperationCanceledException.
    /// </summary>
    private static bool IsCaughtAsCancellation(IInvocationOperation delay, Context context) =>
        context.OperationCanceled is { } canceled
        && CancellationHandler(delay, canceled) is { } handler
        && handler.ExceptionType is INamedTypeSymbol caught && canceled.IsOrDerivesFrom(caught)
        && handler.Filter is null
        && handler.Locals.IsEmpty
        && !handler.Handler.Descendants().Any(o => o is IThrowOperation { Exception: null });

    /// <summary>
    /// The catch of the innermost try around the delay, in the same function, that can take a cancellation (its type or a
    /// base of it, or a type derived from it); null where none can.
    /// </summary>
    private static ICatchClauseOperation? CancellationHandler(IInvocationOperation delay, INamedTypeSymbol canceled)
    {
        for (var current = delay.Parent; current is not null && current.Kind is not OperationKind.AnonymousFunction and not OperationKind.LocalFunction; current = current.Parent)
        {
            if (current is not ITryOperation attempt || !attempt.Body.Syntax.Span.Contains(delay.Syntax.Span))
            {
                continue;
            }

            foreach (var handler in attempt.Catches)
            {
                if (handler.ExceptionType is INamedTypeSymbol caught && canceled.IsOrDerivesFrom(caught) || handler.ExceptionType.IsOrDerivesFrom(canceled))
                {
                    return handler;
                }
            }
        }

        return null;
    }

    /// <summary>
    /// The delay waits on the stopping token of a <c>BackgroundService.ExecuteAsync</c> override, in the method's own body,
    /// and nothing there catches its cancellation: the exception ends the method's task, which only the host awaits. The
    /// token is canceled only when the host stops the service, and the host then passes over a canceled task whose
    /// exception is any OperationCanceledException, the delay's TaskCanceledException and the tick's alike.
    /// </summary>
    private static bool LeavesAHostedService(IInvocationOperation delay, Context context)
    {
        if (context.BackgroundService is not { } hosted
            || context.OperationCanceled is not { } canceled
            || delay.EnclosingFunction() is not null
            || TokenOf(delay)?.WithoutImplicitConversions() is not IParameterReferenceOperation { Parameter: { Ordinal: 0, ContainingSymbol: IMethodSymbol method } token }
            || !method.IsOverride
            || method.Name != "ExecuteAsync"
            || CancellationHandler(delay, canceled) is not null)
        {
            return false;
        }

        for (var overridden = method.OverriddenMethod; overridden is not null; overridden = overridden.OverriddenMethod)
        {
            if (SymbolEqualityComparer.Default.Equals(overridden.ContainingType, hosted))
            {
                return !StateCapture.IsWrittenAnywhere(token, delay.Root());
            }
        }

        return false;
    }
}
