using System;
using System.Collections.Generic;
using System.Collections.Immutable;
using System.Linq;
using System.Threading;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp;
using Microsoft.CodeAnalysis.CSharp.Syntax;
using Microsoft.CodeAnalysis.Diagnostics;
using Microsoft.CodeAnalysis.Operations;
using TplPractices.Analyzers.Internals;

namespace TplPractices.Analyzers.Rules;

/// <summary>
/// TPL0008: a private async method or local function returning Task&lt;T&gt; that can return before its first
/// await. Each such call allocates a Task&lt;T&gt;; as ValueTask&lt;T&gt; it allocates nothing. Reported only when
/// every call in the type awaits the result once, directly, so changing the return type is invisible to callers.
/// </summary>
/// <remarks>
/// Calls are collected per type, from its symbol start to its symbol end: a private method can be called only from
/// its type and the types nested in it, so the answer is complete, and it comes as the IDE analyzes the type, not at
/// the end of the compilation, which the IDE shows only with full-solution analysis (docs/rules/TPL0008.md).
/// </remarks>
[DiagnosticAnalyzer(LanguageNames.CSharp)]
public sealed class ValueTaskFastPathAnalyzer : DiagnosticAnalyzer
{
    public const string FixReturnValueTask = "ReturnValueTask";

    internal static readonly DiagnosticDescriptor Rule = DescriptorFactory.Create(
        DiagnosticIds.ValueTaskFastPath,
        title: "Return ValueTask<T> from a private async method that often completes synchronously",
        messageFormat: "'{0}' can return before its first await, and each such call allocates a Task<{1}>; every caller awaits it, so return ValueTask<{1}>",
        DiagnosticCategories.Performance,
        DiagnosticSeverity.Info,
        description: "An async method that completes synchronously (a cache hit, a validated argument) still allocates "
            + "the Task<T> it returns, unless the runtime caches the result (bool, small ints, null, zeros). Returning "
            + "ValueTask<T> stores the result in the struct instead. Reported for private methods and local functions "
            + "whose every call awaits the result once, directly, where the change cannot break a caller.");

    public override ImmutableArray<DiagnosticDescriptor> SupportedDiagnostics { get; } = ImmutableArray.Create(Rule);

    public override void Initialize(AnalysisContext context)
    {
        context.EnableConcurrentExecution();

        // Calls in generated code count: a generated partial that stores the task must keep the method as it is.
        context.ConfigureGeneratedCodeAnalysis(GeneratedCode.AnalyzedNotReported);
        context.RegisterCompilationStartAction(start =>
        {
            if (ValueTaskFastPath.Context.TryCreate(start.Compilation) is not { } symbols)
            {
                return;
            }

            var options = new RuleOptions(start.Options.AnalyzerConfigOptionsProvider, Rule, ImmutableArray<NumberOption>.Empty);
            start.RegisterSymbolStartAction(
                typeStart =>
                {
                    // Enums and delegates hold no code.
                    if (typeStart.Symbol is INamedTypeSymbol { TypeKind: TypeKind.Class or TypeKind.Struct or TypeKind.Interface })
                    {
                        new TypeScope(symbols, options).Register(typeStart);
                    }
                },
                SymbolKind.NamedType);
        });
    }

    /// <summary>What one type declares and calls (its nested types have their own); lives from its symbol start to its symbol end.</summary>
    private sealed class TypeScope
    {
        private readonly ValueTaskFastPath.Context _symbols;
        private readonly RuleOptions _options;

        // Created on first use under the lock: most types call no async method of their own, and pay for none.
        private readonly object _gate = new();
        private Dictionary<IMethodSymbol, (SyntaxToken Name, ITypeSymbol Result)>? _candidates;
        private HashSet<IMethodSymbol>? _awaited;
        private HashSet<IMethodSymbol>? _otherwiseUsed;

        public TypeScope(ValueTaskFastPath.Context symbols, RuleOptions options)
        {
            _symbols = symbols;
            _options = options;
        }

        public void Register(SymbolStartAnalysisContext context)
        {
            context.RegisterOperationAction(c => OnBody(c.ContainingSymbol as IMethodSymbol, c.Operation), OperationKind.MethodBody);
            context.RegisterOperationAction(c => OnBody(((ILocalFunctionOperation)c.Operation).Symbol, c.Operation), OperationKind.LocalFunction);
            context.RegisterOperationAction(c => OnCall((IInvocationOperation)c.Operation), OperationKind.Invocation);
            context.RegisterOperationAction(c => OnReference(((IMethodReferenceOperation)c.Operation).Method), OperationKind.MethodReference);
            context.RegisterSymbolEndAction(OnTypeEnd);
        }

        private void OnBody(IMethodSymbol? method, IOperation body)
        {
            if (method is null
                || _symbols.AsyncTaskResult(method) is not { } result
                || !ValueTaskFastPath.IsPrivateToItsType(method)
                || NameOf(method, body.Syntax) is not { } name
                || body.Syntax.IsInBrokenMember()
                || !ValueTaskFastPath.HasUncachedFastPath(body, result, _symbols.CacheLevel))
            {
                return;
            }

            lock (_gate)
            {
                _candidates ??= new Dictionary<IMethodSymbol, (SyntaxToken, ITypeSymbol)>(SymbolEqualityComparer.Default);
                _candidates[ValueTaskFastPath.Canonical(method)] = (name, result);
            }
        }

        private void OnCall(IInvocationOperation call)
        {
            var method = call.TargetMethod;
            if (_symbols.AsyncTaskResult(method) is null)
            {
                return;
            }

            var awaited = ValueTaskFastPath.IsAwaitedDirectly(call, _symbols.TaskOfT);
            lock (_gate)
            {
                Add(ref awaited ? ref _awaited : ref _otherwiseUsed, ValueTaskFastPath.Canonical(method));
            }
        }

        private void OnReference(IMethodSymbol method)
        {
            if (ValueTaskFastPath.IsAsync(method))
            {
                lock (_gate)
                {
                    Add(ref _otherwiseUsed, ValueTaskFastPath.Canonical(method));
                }
            }
        }

        private static void Add(ref HashSet<IMethodSymbol>? set, IMethodSymbol method) =>
            (set ??= new HashSet<IMethodSymbol>(SymbolEqualityComparer.Default)).Add(method);

        private void OnTypeEnd(SymbolAnalysisContext context)
        {
            // The symbol end runs after every callback of the type's scope: nothing writes these any more.
            if (_candidates is null || _awaited is null)
            {
                return;
            }

            var namesInNestedTypes = NamesInNestedTypes((INamedTypeSymbol)context.Symbol, context.CancellationToken);
            foreach (var entry in _candidates.OrderBy(e => e.Value.Name.SyntaxTree?.FilePath).ThenBy(e => e.Value.Name.SpanStart))
            {
                var (name, result) = entry.Value;
                if (!_awaited.Contains(entry.Key)
                    || _otherwiseUsed?.Contains(entry.Key) == true
                    || namesInNestedTypes.Contains(entry.Key.Name)
                    || !_options.Includes(entry.Key, name.SyntaxTree!))
                {
                    continue;
                }

                context.ReportDiagnostic(Diagnostic.Create(
                    Rule,
                    name.GetLocation(),
                    DiagnosticPropertyKeys.ForFix(IsDeclaredIn(entry.Key, name.SyntaxTree!) ? FixReturnValueTask : null),
                    entry.Key.Name,
                    result.ToDisplayString(SymbolDisplayFormat.MinimallyQualifiedFormat)));
            }
        }

        /// <summary>
        /// True when every declaration of the method is in <paramref name="tree"/>. A fix edits one file, so the two
        /// parts of a partial method in two files (one of them generated, often) get no fix.
        /// </summary>
        private static bool IsDeclaredIn(IMethodSymbol method, SyntaxTree tree) =>
            method.DeclaringSyntaxReferences.Concat(method.PartialImplementationPart?.DeclaringSyntaxReferences ?? ImmutableArray<SyntaxReference>.Empty)
                .All(reference => reference.SyntaxTree == tree);

        /// <summary>
        /// Every identifier written in the type's nested types. Their code runs in their own symbol-start scope, not
        /// this one, so a candidate whose name appears there is left alone rather than bound again (rare: only
        /// types with both a candidate and nested types pay for the walk).
        /// </summary>
        private static HashSet<string> NamesInNestedTypes(INamedTypeSymbol type, CancellationToken cancellationToken)
        {
            var names = new HashSet<string>(StringComparer.Ordinal);
            var pending = new Stack<INamedTypeSymbol>(type.GetTypeMembers());
            while (pending.Count > 0)
            {
                var nested = pending.Pop();
                foreach (var reference in nested.DeclaringSyntaxReferences)
                {
                    foreach (var token in reference.GetSyntax(cancellationToken).DescendantTokens())
                    {
                        if (token.IsKind(SyntaxKind.IdentifierToken))
                        {
                            names.Add(token.ValueText);
                        }
                    }
                }

                foreach (var inner in nested.GetTypeMembers())
                {
                    pending.Push(inner);
                }
            }

            return names;
        }

        /// <summary>The name of the declaration whose body this is: a method's or a local function's identifier.</summary>
        private static SyntaxToken? NameOf(IMethodSymbol method, SyntaxNode body) => body switch
        {
            LocalFunctionStatementSyntax local => local.Identifier,
            MethodDeclarationSyntax declared when method.MethodKind == MethodKind.Ordinary => declared.Identifier,
            _ => null,
        };
    }
}
