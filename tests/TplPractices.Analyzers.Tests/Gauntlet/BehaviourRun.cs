using System.Collections;
using System.Reflection;
using System.Runtime.Loader;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp;
using Microsoft.CodeAnalysis.CSharp.Syntax;
using TplPractices.Analyzers.Tests.Verifiers;

namespace TplPractices.Analyzers.Tests.Gauntlet;

/// <summary>
/// Runs what a case lets run, so the gauntlet can compare the original with the fixed program: every method of a
/// type it can make (static, or with a parameterless constructor) whose parameters it can fill, and the static
/// probes a context adds. Each runs on its own thread with a time limit; what depends on timing or the allocator
/// (Stopwatch, allocated bytes, thread IDs) is left out. A <see cref="Setting"/> can run each call on a thread with a
/// single-threaded SynchronizationContext (as a UI thread has), and pass tasks still running instead of completed ones.
/// Those complete on a thread of their own (as an I/O or timer callback would), and where a returned task was still
/// running when the call returned, the run also says which thread completed it: the caller's context, that completer,
/// or the pool (an entry named "… thread").
/// </summary>
internal static class BehaviourRun
{
    /// <summary>Static fields with this prefix are read (running their type's initializer) and described.</summary>
    public const string ProbePrefix = "GauntletProbe";

    // QueueUserWorkItem as Timer: its callback runs on a pool thread nothing waits for, and one that throws (a helper
    // given a field no setup filled, as CompletionSourceContinuationsCalleeTests' guild) ends the test host itself.
    private static readonly string[] Nondeterministic =
    [
        "GC.", "Stopwatch", "DateTime", "TickCount", "ManagedThreadId", "Random", "Timer", "QueueUserWorkItem",
        "Environment.ProcessorCount", "GetHashCode", "Interlocked.CompareExchange", "WhenAny",
    ];

    private static readonly TimeSpan Limit = TimeSpan.FromSeconds(2);

    /// <summary>What each runnable method did, by name; null when the code does not compile for .NET 10.</summary>
    public static IReadOnlyDictionary<string, string>? Run(IEnumerable<string> sources, OutputKind outputKind, Setting setting = default)
    {
        var trees = sources.Select(s => CSharpSyntaxTree.ParseText(s, new CSharpParseOptions(LanguageVersion.Latest, preprocessorSymbols: ["NET", "NET10_0", "NETCOREAPP"]))).ToList();
        if (outputKind != OutputKind.DynamicallyLinkedLibrary)
        {
            return null;
        }

        var compilation = CSharpCompilation.Create(
            "Behaviour" + Guid.NewGuid().ToString("N"),
            trees,
            TestTarget.Net100.References(),
            new CSharpCompilationOptions(OutputKind.DynamicallyLinkedLibrary, nullableContextOptions: NullableContextOptions.Enable, optimizationLevel: OptimizationLevel.Release));
        using var image = new MemoryStream();
        if (!compilation.Emit(image).Success)
        {
            return null;
        }

        var skipped = SkippedMethods(trees, setting.PendingTasks);
        var context = new AssemblyLoadContext("gauntlet", isCollectible: true);
        try
        {
            image.Position = 0;
            var results = new SortedDictionary<string, string>(StringComparer.Ordinal);
            foreach (var type in context.LoadFromStream(image).GetTypes().Where(t => !t.IsGenericTypeDefinition && !t.IsNested && !t.Name.Contains('<')))
            {
                foreach (var field in type.GetFields(BindingFlags.Static | BindingFlags.Public | BindingFlags.NonPublic).Where(f => f.Name.StartsWith(ProbePrefix, StringComparison.Ordinal)))
                {
                    results[$"{type.Name}.{field.Name}"] = Outcome(() => field.GetValue(null), typeof(object), setting, null, out _);
                }

                var canMake = type.IsAbstract && type.IsSealed ? false : type.GetConstructor(Type.EmptyTypes) is not null;
                foreach (var method in type.GetMethods(BindingFlags.Public | BindingFlags.NonPublic | BindingFlags.Static | BindingFlags.Instance | BindingFlags.DeclaredOnly))
                {
                    var completer = setting.PendingTasks ? new Completer() : null;
                    if (method.IsSpecialName || method.ContainsGenericParameters || method.Name.Contains('<') || skipped.Contains(method.Name)
                        || (!method.IsStatic && !canMake) || Arguments(method, completer) is not { } arguments)
                    {
                        continue;
                    }

                    var name = $"{type.Name}.{method.Name}({method.GetParameters().Length})";
                    results[name] = Outcome(
                        () => method.Invoke(method.IsStatic ? null : Activator.CreateInstance(type), arguments),
                        method.ReturnType,
                        setting,
                        completer,
                        out var finishedOn);
                    if (finishedOn is not null)
                    {
                        results[name + " thread"] = finishedOn;
                    }
                }
            }

            return results;
        }
        finally
        {
            context.Unload();
        }
    }

    /// <summary>
    /// Methods whose text names something that depends on timing, the allocator or the machine (with pending tasks,
    /// also blocking waits, which with a time-out race the antecedents), and the methods that call them by name: a
    /// caller of a race is as much a race (a 3 ms work against a cancellation the caller makes at once).
    /// </summary>
    private static HashSet<string> SkippedMethods(IEnumerable<SyntaxTree> trees, bool pending)
    {
        var methods = trees.SelectMany(t => t.GetRoot().DescendantNodes().OfType<MethodDeclarationSyntax>()).ToList();
        var skipped = methods
            .Where(m => Nondeterministic.Append(pending ? "Wait" : "GC.").Any(word => m.ToString().Contains(word, StringComparison.Ordinal)))
            .Select(m => m.Identifier.ValueText)
            .ToHashSet();
        for (var grew = true; grew;)
        {
            grew = false;
            foreach (var method in methods.Where(m => !skipped.Contains(m.Identifier.ValueText)))
            {
                if (method.DescendantNodes().OfType<IdentifierNameSyntax>().Any(n => skipped.Contains(n.Identifier.ValueText))
                    && skipped.Add(method.Identifier.ValueText))
                {
                    grew = true;
                }
            }
        }

        return skipped;
    }

    private static object?[]? Arguments(MethodInfo method, Completer? completer)
    {
        // Each argument its own value (two task parameters get two tasks), the same in every run.
        var arguments = new List<object?>();
        foreach (var parameter in method.GetParameters())
        {
            var n = arguments.Count;
            object? value = parameter.ParameterType switch
            {
                var t when t == typeof(int) => 3 + n,
                var t when t == typeof(long) => 3L + n,
                var t when t == typeof(string) => "ab" + n,
                var t when t == typeof(bool) => true,
                var t when t == typeof(object) => "state" + n,
                var t when t == typeof(CancellationToken) => CancellationToken.None,
                var t when t == typeof(Task) || t == typeof(Task<int>) => completer?.Later(21 + n, n) ?? Task.FromResult(21 + n),
                var t when t == typeof(Task<string>) => completer?.Later("x" + n, n) ?? Task.FromResult("x" + n),
                var t when t == typeof(int[]) => new[] { 1, -2, 3 + n },
                _ => Missing.Value,
            };
            if (value == Missing.Value || parameter.IsOut || parameter.ParameterType.IsByRef)
            {
                return null;
            }

            arguments.Add(value);
        }

        return arguments.ToArray();
    }

    /// <summary>
    /// Runs the call on its own thread (it may block), waits for a returned task or value task, and describes what
    /// happened as the declared return type lets a caller see it (a result only through <c>Task&lt;T&gt;</c>). On a
    /// context, the thread runs what is posted to it while it waits, as a UI thread's message loop does. Where the
    /// returned task was still running, <paramref name="finishedOn"/> says which thread completed it; the pending
    /// arguments start only once that is being watched, so the answer does not depend on timing.
    /// </summary>
    private static string Outcome(Func<object?> call, Type returnType, Setting setting, Completer? completer, out string? finishedOn)
    {
        string? outcome = null;
        string? where = null;
        var thread = new Thread(() =>
        {
            var context = setting.OnContext ? new PumpedContext() : null;
            SynchronizationContext.SetSynchronizationContext(context);
            try
            {
                var value = call();
                if (value is not null && value.GetType().IsValueType && value.GetType().Name.StartsWith("ValueTask", StringComparison.Ordinal))
                {
                    value = value.GetType().GetMethod("AsTask")!.Invoke(value, null);
                }

                if (value is Task task)
                {
                    // Only a task that waits for the pending arguments finishes at a time this run decides.
                    var watched = completer?.Thread is not null && !task.IsCompleted;
                    if (watched)
                    {
                        // Completed while the watch is set up, by a thread this run does not drive: unknown ("").
                        var caller = Thread.CurrentThread;
                        var registering = true;
                        task.ContinueWith(
                            _ => where = registering && Thread.CurrentThread == caller ? ""
                                : Thread.CurrentThread == caller ? "on the caller's context"
                                : Thread.CurrentThread == completer!.Thread ? "on the completer"
                                : Thread.CurrentThread.IsThreadPoolThread ? "on the pool" : "elsewhere",
                            CancellationToken.None,
                            TaskContinuationOptions.ExecuteSynchronously,
                            TaskScheduler.Default);
                        registering = false;
                    }

                    completer?.Start();
                    context?.RunUntil(task, Limit);
                    var typed = returnType.IsGenericType;
                    outcome = !task.Wait(Limit) ? "timed out" : typed ? "returned " + Describe(task) : "returned Task " + task.Status;
                    SpinWait.SpinUntil(() => !watched || where is not null, Limit);
                    return;
                }

                completer?.Start();
                outcome = "returned " + Describe(value);
            }
            catch (Exception e)
            {
                completer?.Start();
                outcome = "threw " + Describe(e);
            }
        }) { IsBackground = true };
        thread.Start();
        var joined = thread.Join(Limit);
        finishedOn = joined && where is { Length: > 0 } ? where : null;
        return joined ? outcome ?? "nothing" : "timed out";
    }

    /// <summary>Waits for a task a result holds (a Task&lt;Task&gt;, say), so its state does not depend on timing.</summary>
    private static bool Settled(Task task)
    {
        try
        {
            task.Wait(Limit);
        }
        catch (AggregateException)
        {
        }

        return true;
    }

    private static string Describe(object? value) => value switch
    {
        null => "null",
        TargetInvocationException { InnerException: { } inner } => Describe(inner),
        // How deep a fault is wrapped is left out: an await throws the first inner exception that .Result wraps.
        AggregateException aggregate => string.Join(",", aggregate.InnerExceptions.Select(Describe)),
        TypeInitializationException { InnerException: { } inner } => "TypeInitializationException(" + Describe(inner) + ")",
        Exception e => e.GetType().Name,
        Task task when Settled(task) && task.GetType().IsGenericType && task.Status == TaskStatus.RanToCompletion => "Task " + Describe(task.GetType().GetProperty("Result")!.GetValue(task)),
        Task task => "Task " + task.Status,
        string or bool or int or long or double => value.ToString()!,
        IEnumerable sequence => "[" + string.Join(",", sequence.Cast<object?>().Take(20).Select(Describe)) + "]",
        _ => value.GetType().Name,
    };

    /// <summary>How a run calls the code: on a single-threaded context or not, with pending or completed antecedents.</summary>
    internal readonly record struct Setting(bool OnContext, bool PendingTasks);

    /// <summary>A single-threaded SynchronizationContext: what is posted runs on the thread that pumps it, in order.</summary>
    private sealed class PumpedContext : SynchronizationContext
    {
        private readonly System.Collections.Concurrent.BlockingCollection<(SendOrPostCallback Callback, object? State)> _posted = new();

        public override void Post(SendOrPostCallback d, object? state) => _posted.Add((d, state));

        public override SynchronizationContext CreateCopy() => this;

        /// <summary>Runs what is posted until the task completes or the limit passes.</summary>
        public void RunUntil(Task task, TimeSpan limit)
        {
            var deadline = DateTime.UtcNow + limit;
            while (!task.IsCompleted && DateTime.UtcNow < deadline)
            {
                if (_posted.TryTake(out var item, 10))
                {
                    item.Callback(item.State);
                }
            }
        }
    }

    /// <summary>
    /// Completes the pending arguments of one call on a thread of its own, in their order and well apart, so which
    /// finishes first does not depend on the machine. It starts once the caller watches the returned task, or after
    /// half a second where the call blocks on an argument before it returns.
    /// </summary>
    private sealed class Completer
    {
        private readonly List<(Action Complete, int Position)> _pending = [];
        private readonly ManualResetEventSlim _started = new();

        /// <summary>The thread that completes the arguments; null until the first one is made.</summary>
        public Thread? Thread { get; private set; }

        public Task<T> Later<T>(T value, int position)
        {
            var source = new TaskCompletionSource<T>();
            lock (_pending)
            {
                _pending.Add((() => source.SetResult(value), position));
            }

            if (Thread is null)
            {
                Thread = new Thread(Run) { IsBackground = true, Name = "gauntlet completer" };
                Thread.Start();
            }

            return source.Task;
        }

        public void Start() => _started.Set();

        private void Run()
        {
            _started.Wait(TimeSpan.FromMilliseconds(500));
            var elapsed = 0;
            List<(Action Complete, int Position)> pending;
            lock (_pending)
            {
                pending = [.. _pending.OrderBy(p => p.Position)];
            }

            foreach (var (complete, position) in pending)
            {
                var due = 30 + (100 * position);
                System.Threading.Thread.Sleep(due - elapsed);
                elapsed = due;
                complete();
            }
        }
    }
}
