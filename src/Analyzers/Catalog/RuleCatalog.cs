using System.Collections.Immutable;
using TplPractices.Analyzers.Rules;
using static TplPractices.Analyzers.Catalog.FixTargets;

namespace TplPractices.Analyzers.Catalog;

/// <summary>
/// Every rule the package ships, in one place: the name its files carry, what its fix rewrites, which rules it gives
/// way to, and (through its analyzer's descriptor) its ID, severity and whether it is on by default. The shared
/// analyzers run what this lists; the presets, the tests that cover every rule, the scripts' rule lists and the
/// readmes' rule tables are derived from it or checked against it (CatalogTests, which also fails for a rule whose
/// analyzer is not listed here). Adding a rule: its own files, one entry here, one release-tracking line.
/// </summary>
internal static class RuleCatalog
{
    public static readonly CatalogEntry UseTaskState = new(
        "UseTaskState", TaskCallArguments, () => UseTaskStateAnalyzer.Operations,
        DiagnosticIds.ContinueWithUnwrapChain, DiagnosticIds.AvailableValue);

    public static readonly CatalogEntry ContinueWithUnwrap = new(
        "ContinueWithUnwrap", FixTargets.ContinueWithChain | Signature, () => ContinueWithUnwrapAnalyzer.Operations);

    public static readonly CatalogEntry CacheConstantTaskResult = new(
        "CacheConstantTaskResult", CompletedTask | TypeMembers, () => CacheConstantTaskResultAnalyzer.Operations,
        DiagnosticIds.ContinueWithUnwrapChain, DiagnosticIds.AwaitInLoop, DiagnosticIds.AvailableValue);

    public static readonly CatalogEntry AsyncWaitHandle = new(
        "AsyncWaitHandle", WaitCall, () => AsyncWaitHandleAnalyzer.Operations);

    public static readonly CatalogEntry AwaitInLoop = new(
        "AwaitInLoop", Loop | Await | TaskRunCall, () => AwaitInLoopAnalyzer.Operations);

    public static readonly CatalogEntry CallbackState = new(
        "CallbackState", CallbackAndState, () => CallbackStateAnalyzer.Operations);

    public static readonly CatalogEntry TaskRunState = new(
        "TaskRunState", TaskRunCall, () => TaskRunStateAnalyzer.Operations,
        DiagnosticIds.AwaitInLoop, DiagnosticIds.AvailableValue);

    public static readonly CatalogEntry ValueTaskFastPath = new(
        "ValueTaskFastPath", Signature, () => ValueTaskFastPathAnalyzer.Operations,
        DiagnosticIds.PassThroughAsync);

    public static readonly CatalogEntry AttachedToParent = new(
        "AttachedToParent", TaskCallArguments | CompletionSourceOptions, () => AttachedToParentAnalyzer.Operations);

    public static readonly CatalogEntry ConstructorConcurrency = new(
        "ConstructorConcurrency", ConstructorStatement, () => ConstructorConcurrencyAnalyzer.Operations);

    public static readonly CatalogEntry TrivialContinuation = new(
        "TrivialContinuation", TaskCallArguments, () => TrivialContinuationAnalyzer.Operations,
        DiagnosticIds.ContinueWithUnwrapChain);

    public static readonly CatalogEntry HotPathInlining = new(
        "HotPathInlining", TypeMembers, () => HotPathInliningAnalyzer.Operations);

    public static readonly CatalogEntry CompletionSourceContinuations = new(
        "CompletionSourceContinuations", CompletionSourceOptions, () => CompletionSourceContinuationsAnalyzer.Operations,
        DiagnosticIds.AttachedToParent);

    public static readonly CatalogEntry AvailableValue = new(
        "AvailableValue", TaskRunCall | CompletedTask | Await, () => AvailableValueAnalyzer.Operations,
        DiagnosticIds.AwaitInLoop);

    public static readonly CatalogEntry StateOverload = new(
        "StateOverload", CallbackAndState, () => StateOverloadAnalyzer.Operations,
        DiagnosticIds.UseTaskState, DiagnosticIds.CallbackState, DiagnosticIds.TaskRunState);

    public static readonly CatalogEntry PassThroughAsync = new(
        "PassThroughAsync", Signature | Await | TaskRunCall | CompletedTask, () => PassThroughAsyncAnalyzer.Operations,
        DiagnosticIds.CacheConstantTaskResult, DiagnosticIds.TaskRunState, DiagnosticIds.AvailableValue);

    public static readonly CatalogEntry DelayTimer = new(
        "DelayTimer", Loop, () => DelayTimerAnalyzer.Operations);

    public static readonly CatalogEntry SecondContinuation = new(
        "SecondContinuation", None, () => SecondContinuationAnalyzer.Operations);

    public static readonly CatalogEntry ExplicitScheduler = new(
        "ExplicitScheduler", TaskCallArguments, () => ExplicitSchedulerAnalyzer.Operations,
        DiagnosticIds.ContinueWithUnwrapChain, DiagnosticIds.AvailableValue);

    public static readonly CatalogEntry DisposeTokenSource = new(
        "DisposeTokenSource", LocalDeclaration, () => DisposeTokenSourceAnalyzer.Operations);

    /// <summary>In ID order; declared after the entries, which static initialization runs first.</summary>
    public static readonly ImmutableArray<CatalogEntry> All = ImmutableArray.Create(
        UseTaskState, ContinueWithUnwrap, CacheConstantTaskResult, AsyncWaitHandle, AwaitInLoop, CallbackState,
        TaskRunState, ValueTaskFastPath, AttachedToParent, ConstructorConcurrency, TrivialContinuation, HotPathInlining,
        CompletionSourceContinuations, AvailableValue, StateOverload, PassThroughAsync, DelayTimer, SecondContinuation,
        ExplicitScheduler, DisposeTokenSource);
}
