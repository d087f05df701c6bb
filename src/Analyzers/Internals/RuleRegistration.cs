using System;
using System.Collections.Immutable;
using System.Linq;
using System.Runtime.CompilerServices;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.Diagnostics;

namespace TplPractices.Analyzers.Internals;

internal static class RuleRegistration
{
    /// <summary>Registers one rule as an analyzer of its own: the compiler decides per file whether to call it.</summary>
    public static void RegisterRule(this AnalysisContext context, OperationRule rule) =>
        context.RegisterCompilationStartAction(start =>
        {
            if (rule.CallbackFor(start.Compilation, start.Options) is { } callback)
            {
                start.RegisterOperationAction(callback, rule.Kinds);
            }
        });

    /// <summary>
    /// Registers several rules as one analyzer: one callback per operation, handed to the rules that look at its kind
    /// and are on for its file. The compiler's work per analyzer (a walk over each body's operations, its bookkeeping
    /// for each member) is then paid once for all of them, which cost more than the rules' own checks
    /// (docs/performance.md). A rule that is off everywhere registers nothing.
    /// </summary>
    public static void RegisterRules(this AnalysisContext context, ImmutableArray<OperationRule> rules) =>
        context.RegisterCompilationStartAction(start =>
        {
            var switches = new RuleSwitches(start.Compilation, rules.Select(r => r.Descriptor).ToImmutableArray(), start.CancellationToken);
            var handlers = ImmutableArray.CreateBuilder<(OperationKind Kind, DiagnosticDescriptor Rule, Action<OperationAnalysisContext> Callback)>();
            foreach (var rule in rules)
            {
                if (switches.MayBeOnAnywhere(rule.Descriptor) && rule.CallbackFor(start.Compilation, start.Options) is { } callback)
                {
                    handlers.AddRange(rule.Kinds.Select(kind => (kind, rule.Descriptor, callback)));
                }
            }

            if (handlers.Count == 0)
            {
                return;
            }

            var all = handlers.ToImmutable();
            start.RegisterOperationAction(
                c =>
                {
                    var kind = c.Operation.Kind;
                    var tree = c.Operation.Syntax.SyntaxTree;
                    foreach (var handler in all)
                    {
                        if (handler.Kind == kind && switches.IsOn(handler.Rule, tree))
                        {
                            handler.Callback(c);
                        }
                    }
                },
                all.Select(h => h.Kind).Distinct().ToImmutableArray());
        });
}
