using System;
using System.Collections.Immutable;
using System.Collections.Generic;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.Diagnostics;
using Microsoft.CodeAnalysis.Operations;

namespace TplPractices.Analyzers.Internals;

internal static class RuleRegistration
{
    /// <summary>Registers one rule as an analyzer of its own: the compiler decides per file whether to call it.</summary>
    public static void RegisterRule(this AnalysisContext context, OperationRule rule) =>
        context.RegisterCompilationStartAction(start =>
        {
            if (rule.CallbackFor(start.Compilation, start.Options) is { } callback)
            {
                var names = rule.InvokedNames;
                start.RegisterOperationAction(
                    names is null
                        ? callback
                        : c =>
                        {
                            string? invoked = null;
                            if (OperationRule.LooksAt(names, c.Operation, ref invoked))
                            {
                                callback(c);
                            }
                        },
                    rule.Kinds);
            }
        });

    /// <summary>
    /// Registers several rules as one analyzer: one callback per operation, handed to the rules that look at its kind
    /// (and, for an invocation, at the method's name, read once for them all) and are on for its file. The compiler's
    /// work per analyzer (a walk over each body's operations, its bookkeeping for each member) is then paid once for
    /// all of them, which cost more than the rules' own checks (docs/performance.md). The selector says at which severities the analyzer runs a rule; a rule it runs nowhere
    /// registers nothing.
    /// </summary>
    public static void RegisterRules(this AnalysisContext context, ImmutableArray<OperationRule> rules, RuleSwitches.Selector selector) =>
        context.RegisterCompilationStartAction(start =>
        {
            // Arrays and loops rather than LINQ over tuples: each generic instantiation over a value type is code the
            // JIT compiles in every compiler process, a one-off cost this registration must not add.
            var switches = new RuleSwitches(start.Compilation, rules, selector, start.CancellationToken);
            var handlers = new List<Handler>();
            var kinds = ImmutableArray<OperationKind>.Empty;
            var maxKind = 0;
            for (var i = 0; i < rules.Length; i++)
            {
                if (switches.MayBeOnAnywhere(i) && rules[i].CallbackFor(start.Compilation, start.Options) is { } callback)
                {
                    foreach (var kind in rules[i].Kinds)
                    {
                        handlers.Add(new Handler(kind, i, callback, rules[i].InvokedNames));
                        maxKind = Math.Max(maxKind, (int)kind);
                        if (kinds.IndexOf(kind) < 0)
                        {
                            kinds = kinds.Add(kind);
                        }
                    }
                }
            }

            if (handlers.Count == 0)
            {
                return;
            }

            // Each kind's handlers in one array, indexed by the kind: the callback reads one slot rather than testing
            // every handler, and looks the file's switches up once rather than once per handler.
            var byKind = new Handler[maxKind + 1][];
            foreach (var kind in kinds)
            {
                var ofKind = new List<Handler>();
                foreach (var handler in handlers)
                {
                    if (handler.Kind == kind)
                    {
                        ofKind.Add(handler);
                    }
                }

                byKind[(int)kind] = ofKind.ToArray();
            }

            // An invocation's handlers by the method's name: one lookup instead of a test of every rule's names, at
            // the operation a build meets most often.
            var calls = byKind.Length > (int)OperationKind.Invocation && byKind[(int)OperationKind.Invocation] is { } ofCalls
                ? new CallHandlers(ofCalls)
                : null;
            start.RegisterOperationAction(
                c =>
                {
                    var operation = c.Operation;
                    var on = switches.ForFileOf(operation);
                    var handlers = calls is not null && operation is IInvocationOperation invocation
                        ? calls.For(invocation.TargetMethod.Name)
                        : byKind[(int)operation.Kind];
                    foreach (var handler in handlers)
                    {
                        if (on[handler.Rule])
                        {
                            handler.Callback(c);
                        }
                    }
                },
                kinds);
        });

    /// <summary>The invocation handlers that look at a method name: those naming it and those that look at every call, in rule order.</summary>
    private sealed class CallHandlers
    {
        private readonly Dictionary<string, Handler[]> _byName = new(StringComparer.Ordinal);
        private readonly Handler[] _everyCall;

        public CallHandlers(Handler[] handlers)
        {
            var everyCall = new List<Handler>();
            var names = new List<string>();
            foreach (var handler in handlers)
            {
                if (handler.InvokedNames is null)
                {
                    everyCall.Add(handler);
                }
                else
                {
                    names.AddRange(handler.InvokedNames);
                }
            }

            _everyCall = everyCall.ToArray();
            foreach (var name in names)
            {
                if (!_byName.ContainsKey(name))
                {
                    var named = new List<Handler>();
                    foreach (var handler in handlers)
                    {
                        if (handler.InvokedNames is null || Array.IndexOf(handler.InvokedNames, name) >= 0)
                        {
                            named.Add(handler);
                        }
                    }

                    _byName.Add(name, named.ToArray());
                    _lengths |= 1UL << Math.Min(name.Length, 63);
                }
            }
        }

        /// <summary>A bit for each length of the names (63 for longer ones): most calls are told apart by it, without hashing the name.</summary>
        private readonly ulong _lengths;

        public Handler[] For(string name) =>
            (_lengths & (1UL << Math.Min(name.Length, 63))) != 0 && _byName.TryGetValue(name, out var handlers) ? handlers : _everyCall;
    }

    private sealed class Handler
    {
        public Handler(OperationKind kind, int rule, Action<OperationAnalysisContext> callback, string[]? invokedNames)
        {
            Kind = kind;
            Rule = rule;
            Callback = callback;
            InvokedNames = invokedNames;
        }

        public OperationKind Kind { get; }

        /// <summary>The rule's index in the shared analyzer's list.</summary>
        public int Rule { get; }

        public Action<OperationAnalysisContext> Callback { get; }

        /// <summary>The rule's <see cref="OperationRule.InvokedNames"/>.</summary>
        public string[]? InvokedNames { get; }
    }
}
