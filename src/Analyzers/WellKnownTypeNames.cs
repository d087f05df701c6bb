namespace TplPractices.Analyzers;

/// <summary>Metadata names of the types the rules bind to, resolved once per compilation.</summary>
internal static class WellKnownTypeNames
{
    public const string Task = "System.Threading.Tasks.Task";
    public const string TaskOfT = "System.Threading.Tasks.Task`1";
    public const string LinqExpressionOfT = "System.Linq.Expressions.Expression`1";
    public const string TaskFactory = "System.Threading.Tasks.TaskFactory";
    public const string TaskFactoryOfT = "System.Threading.Tasks.TaskFactory`1";
    public const string ConcurrentDictionary = "System.Collections.Concurrent.ConcurrentDictionary`2";
    public const string ConditionalWeakTable = "System.Runtime.CompilerServices.ConditionalWeakTable`2";
    public const string ImmutableInterlocked = "System.Collections.Immutable.ImmutableInterlocked";

    public const string ValueTuple2 = "System.ValueTuple`2";
    public const string IAsyncResult = "System.IAsyncResult";
    public const string WaitHandle = "System.Threading.WaitHandle";
    public const string ValueTask = "System.Threading.Tasks.ValueTask";
    public const string ValueTaskOfT = "System.Threading.Tasks.ValueTask`1";
    public const string TaskExtensions = "System.Threading.Tasks.TaskExtensions";
    public const string ConfigureAwaitOptions = "System.Threading.Tasks.ConfigureAwaitOptions";
    public const string CancellationToken = "System.Threading.CancellationToken";
    public const string ThreadPool = "System.Threading.ThreadPool";
    public const string Timer = "System.Threading.Timer";
    public const string SynchronizationContext = "System.Threading.SynchronizationContext";
    public const string ExecutionContext = "System.Threading.ExecutionContext";
    public const string TaskCreationOptions = "System.Threading.Tasks.TaskCreationOptions";
    public const string TaskContinuationOptions = "System.Threading.Tasks.TaskContinuationOptions";
    public const string TaskScheduler = "System.Threading.Tasks.TaskScheduler";
    public const string TaskCompletionSource = "System.Threading.Tasks.TaskCompletionSource";
    public const string TaskCompletionSourceOfT = "System.Threading.Tasks.TaskCompletionSource`1";
    public const string AsyncStateMachineAttribute = "System.Runtime.CompilerServices.AsyncStateMachineAttribute";

    /// <summary>
    /// Structs that modern .NET declares readonly and that netstandard2.0 or .NET Framework reference assemblies
    /// also carry without the marker (full names, no arity): copying one never loses a mutation. ReadOnlyBclStructsTests
    /// fails when a type readonly on net10.0 but unmarked in netstandard2.0 is missing here.
    /// </summary>
    public static readonly System.Collections.Immutable.ImmutableHashSet<string> ReadOnlyBclStructs = System.Collections.Immutable.ImmutableHashSet.Create(
        "System.Threading.CancellationToken",
        "System.TimeSpan",
        "System.DateTime",
        "System.DateTimeOffset",
        "System.Guid",
        "System.Collections.Generic.KeyValuePair",
        "System.ArraySegment",
        "System.Memory",
        "System.ReadOnlyMemory",
        "System.Threading.Tasks.ValueTask",
        "System.Collections.Specialized.BitVector32.Section",
        "System.ComponentModel.Design.Serialization.MemberRelationship",
        "System.ConsoleKeyInfo",
        "System.Diagnostics.SymbolStore.SymbolToken",
        "System.Drawing.Color",
        "System.Numerics.BigInteger",
        "System.Numerics.Complex",
        "System.Reflection.CustomAttributeNamedArgument",
        "System.Reflection.CustomAttributeTypedArgument",
        "System.Reflection.Emit.OpCode",
        "System.Reflection.ParameterModifier",
        "System.Runtime.CompilerServices.ConfiguredTaskAwaitable",
        "System.Runtime.CompilerServices.ConfiguredTaskAwaitable.ConfiguredTaskAwaiter",
        "System.Runtime.CompilerServices.TaskAwaiter",
        "System.Runtime.CompilerServices.YieldAwaitable",
        "System.Runtime.CompilerServices.YieldAwaitable.YieldAwaiter",
        "System.Runtime.InteropServices.ArrayWithOffset",
        "System.Runtime.InteropServices.HandleRef",
        "System.Runtime.InteropServices.OSPlatform",
        "System.Runtime.Serialization.SerializationEntry",
        "System.Runtime.Serialization.StreamingContext",
        "System.Security.Cryptography.HashAlgorithmName",
        "System.Threading.AsyncLocalValueChangedArgs",
        "System.Threading.CancellationTokenRegistration",
        "System.TimeZoneInfo.TransitionTime");
}
