using System;
using System.Collections.Immutable;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.Diagnostics;
using Microsoft.CodeAnalysis.Operations;

namespace TplPractices.Analyzers.Internals;

/// <summary>
/// What one rule registers: its descriptor, the operation kinds it looks at, and how it makes its callback for a
/// compilation. A value rather than a registration, so that one analyzer can carry several rules and the compiler calls
/// it once per operation instead of once per rule (<see cref="RuleRegistration"/>).
/// </summary>
internal abstract class OperationRule
{
    protected OperationRule(DiagnosticDescriptor descriptor, ImmutableArray<OperationKind> kinds)
    {
        Descriptor = descriptor;
        Kinds = kinds;
    }

    public DiagnosticDescriptor Descriptor { get; }

    public ImmutableArray<OperationKind> Kinds { get; }

    /// <summary>
    /// Whether the rule reports only in members carrying an attribute its options name (TPL0012): where no file names
    /// one, it has nothing to report and registers nothing, so a build pays nothing for it (docs/performance.md).
    /// </summary>
    public bool ReportsOnlyWhereAttributesAreRequired { get; private set; }

    /// <summary>Marks the rule as <see cref="ReportsOnlyWhereAttributesAreRequired"/>; for the rule's static field.</summary>
    public OperationRule OnlyWhereAttributesAreRequired()
    {
        ReportsOnlyWhereAttributesAreRequired = true;
        return this;
    }

    /// <summary>
    /// Whether the rule's whole payoff is gone where async methods are runtime-async (<see cref="RuntimeAsync"/>): it
    /// then registers nothing for the compilation (TPL0008, TPL0016).
    /// </summary>
    public bool QuietUnderRuntimeAsync { get; private set; }

    /// <summary>Marks the rule as <see cref="QuietUnderRuntimeAsync"/>; for the rule's static field.</summary>
    public OperationRule QuietWhereRuntimeAsync()
    {
        QuietUnderRuntimeAsync = true;
        return this;
    }

    /// <summary>
    /// The names of the methods whose invocations the rule looks at; null when it looks at every operation of its kinds.
    /// The registration tests the name before calling the rule: read once per invocation for all the rules that share an
    /// analyzer, instead of once per rule (docs/performance.md).
    /// </summary>
    public string[]? InvokedNames { get; private set; }

    /// <summary>Sets <see cref="InvokedNames"/>; for the rule's static field.</summary>
    public OperationRule OnlyForCallsOf(params string[] names)
    {
        InvokedNames = names;
        return this;
    }

    /// <summary>
    /// Whether the rule looks at every invocation on purpose, because what it looks for has no name (TPL0015 finds
    /// state overloads by their shape); its own first test must be as cheap as the name test (a lambda among the
    /// written arguments).
    /// </summary>
    public bool LooksAtEveryCall { get; private set; }

    /// <summary>Sets <see cref="LooksAtEveryCall"/>; for the rule's static field.</summary>
    public OperationRule ForEveryCall()
    {
        LooksAtEveryCall = true;
        return this;
    }

    /// <summary>Whether the rule looks at <paramref name="operation"/>, as far as the name of an invoked method tells.</summary>
    public static bool LooksAt(string[]? names, IOperation operation, ref string? invoked)
    {
        if (names is null || operation.Kind != OperationKind.Invocation)
        {
            return true;
        }

        invoked ??= ((IInvocationOperation)operation).TargetMethod.Name;
        foreach (var name in names)
        {
            if (name == invoked)
            {
                return true;
            }
        }

        return false;
    }

    /// <summary>
    /// A rule whose symbols are resolved once per compilation and whose .editorconfig options are read for that
    /// compilation; it makes no callback when the compilation lacks the symbols (no TPL types, half-typed references).
    /// </summary>
    public static OperationRule Create<TSymbols>(
        DiagnosticDescriptor descriptor,
        Func<Compilation, TSymbols?> resolve,
        Action<OperationAnalysisContext, TSymbols, RuleOptions> analyze,
        ImmutableArray<OperationKind> kinds,
        params NumberOption[] numbers)
        where TSymbols : class =>
        new WithSymbols<TSymbols>(descriptor, resolve, analyze, kinds, numbers.ToImmutableArray());

    /// <inheritdoc cref="Create{TSymbols}(DiagnosticDescriptor, Func{Compilation, TSymbols}, Action{OperationAnalysisContext, TSymbols, RuleOptions}, ImmutableArray{OperationKind}, NumberOption[])"/>
    public static OperationRule Create<TSymbols>(
        DiagnosticDescriptor descriptor,
        Func<Compilation, TSymbols?> resolve,
        Action<OperationAnalysisContext, TSymbols, RuleOptions> analyze,
        OperationKind kind,
        params NumberOption[] numbers)
        where TSymbols : class =>
        Create(descriptor, resolve, analyze, ImmutableArray.Create(kind), numbers);

    /// <summary>The rule's callback for a compilation being started, or null when the rule has nothing to look for in it.</summary>
    public abstract Action<OperationAnalysisContext>? CallbackFor(Compilation compilation, AnalyzerOptions options);

    private sealed class WithSymbols<TSymbols> : OperationRule
        where TSymbols : class
    {
        private readonly Func<Compilation, TSymbols?> _resolve;
        private readonly Action<OperationAnalysisContext, TSymbols, RuleOptions> _analyze;
        private readonly ImmutableArray<NumberOption> _numbers;

        public WithSymbols(
            DiagnosticDescriptor descriptor,
            Func<Compilation, TSymbols?> resolve,
            Action<OperationAnalysisContext, TSymbols, RuleOptions> analyze,
            ImmutableArray<OperationKind> kinds,
            ImmutableArray<NumberOption> numbers)
            : base(descriptor, kinds)
        {
            _resolve = resolve;
            _analyze = analyze;
            _numbers = numbers;
        }

        public override Action<OperationAnalysisContext>? CallbackFor(Compilation compilation, AnalyzerOptions options)
        {
            // The options first: where they leave the rule nothing to report, its symbols are not worth resolving.
            if (QuietUnderRuntimeAsync && RuntimeAsync.IsOn(compilation))
            {
                return null;
            }

            var ruleOptions = new RuleOptions(options.AnalyzerConfigOptionsProvider, Descriptor, _numbers);
            if ((ReportsOnlyWhereAttributesAreRequired && !ruleOptions.NamesRequiredAttributesIn(compilation.SyntaxTrees))
                || PerCompilation<TSymbols>.GetOrCreate(compilation, _resolve) is not { } symbols)
            {
                return null;
            }

            var analyze = _analyze;
            return c => analyze(c, symbols, ruleOptions);
        }
    }
}
