using System;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.Diagnostics;

namespace TplPractices.Analyzers.Internals;

internal static class RuleRegistration
{
    /// <summary>
    /// Resolves a rule's symbols once per compilation and registers its operation callback with them; registers
    /// nothing when the compilation lacks them (no TPL types, half-typed references).
    /// </summary>
    public static void RegisterOperationActionWith<TSymbols>(
        this AnalysisContext context,
        Func<Compilation, TSymbols?> resolve,
        Action<OperationAnalysisContext, TSymbols> analyze,
        OperationKind kind)
        where TSymbols : class =>
        context.RegisterCompilationStartAction(start =>
        {
            if (resolve(start.Compilation) is { } symbols)
            {
                start.RegisterOperationAction(c => analyze(c, symbols), kind);
            }
        });
}
