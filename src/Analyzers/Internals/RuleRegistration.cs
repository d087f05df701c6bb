using System;
using System.Collections.Immutable;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.Diagnostics;

namespace TplPractices.Analyzers.Internals;

internal static class RuleRegistration
{
    /// <summary>
    /// Resolves a rule's symbols once per compilation and registers its operation callback with them and with the
    /// rule's .editorconfig options for that compilation; registers nothing when the compilation lacks the symbols
    /// (no TPL types, half-typed references).
    /// </summary>
    public static void RegisterOperationActionWith<TSymbols>(
        this AnalysisContext context,
        DiagnosticDescriptor rule,
        Func<Compilation, TSymbols?> resolve,
        Action<OperationAnalysisContext, TSymbols, RuleOptions> analyze,
        OperationKind kind,
        params NumberOption[] numbers)
        where TSymbols : class =>
        context.RegisterOperationActionWith(rule, resolve, analyze, ImmutableArray.Create(kind), numbers);

    /// <inheritdoc cref="RegisterOperationActionWith{TSymbols}(AnalysisContext, DiagnosticDescriptor, Func{Compilation, TSymbols}, Action{OperationAnalysisContext, TSymbols, RuleOptions}, OperationKind, NumberOption[])"/>
    public static void RegisterOperationActionWith<TSymbols>(
        this AnalysisContext context,
        DiagnosticDescriptor rule,
        Func<Compilation, TSymbols?> resolve,
        Action<OperationAnalysisContext, TSymbols, RuleOptions> analyze,
        ImmutableArray<OperationKind> kinds,
        params NumberOption[] numbers)
        where TSymbols : class
    {
        var declared = numbers.ToImmutableArray();
        context.RegisterCompilationStartAction(start =>
        {
            if (resolve(start.Compilation) is { } symbols)
            {
                var options = new RuleOptions(start.Options.AnalyzerConfigOptionsProvider, rule, declared);
                start.RegisterOperationAction(c => analyze(c, symbols, options), kinds);
            }
        });
    }
}
