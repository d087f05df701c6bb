namespace TplPractices.Analyzers;

/// <summary>
/// Every rule ID the package issues. An ID is never reused: a retired rule moves to "Removed Rules" in
/// AnalyzerReleases.Shipped.md and its constant stays here, marked obsolete.
/// </summary>
public static class DiagnosticIds
{
    public const string UseTaskState = "TPL0001";
    public const string ContinueWithUnwrapChain = "TPL0002";
    public const string CacheConstantTaskResult = "TPL0003";
    public const string AsyncWaitHandle = "TPL0004";
    public const string AwaitInLoop = "TPL0005";
    public const string CallbackState = "TPL0006";
    public const string TaskRunState = "TPL0007";
    public const string ValueTaskFastPath = "TPL0008";
    public const string AttachedToParent = "TPL0009";
    public const string ConstructorConcurrency = "TPL0010";
    public const string TrivialContinuation = "TPL0011";
    public const string HotPathInlining = "TPL0012";
    public const string CompletionSourceContinuations = "TPL0013";
    public const string AvailableValue = "TPL0014";
    public const string StateOverload = "TPL0015";
    public const string PassThroughAsync = "TPL0016";
    public const string DelayTimer = "TPL0017";
    public const string SecondContinuation = "TPL0018";
    public const string ExplicitScheduler = "TPL0019";
    public const string DisposeTokenSource = "TPL0020";
}
