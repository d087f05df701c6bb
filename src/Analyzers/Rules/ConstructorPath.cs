using System.Collections.Generic;
using System.Linq;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp;
using Microsoft.CodeAnalysis.CSharp.Syntax;
using Microsoft.CodeAnalysis.Operations;
using TplPractices.Analyzers.Internals;

namespace TplPractices.Analyzers.Rules;

/// <summary>
/// TPL0010's analysis of one instance constructor: the concurrency measures on the object's own fields that run
/// before <c>this</c> can have reached another thread, directly or in a non-virtual method of the type the constructor calls.
/// </summary>
internal static class ConstructorPath
{
    /// <summary>One measure: the operation reported, what it is called in the message, the field, and the helper it is in.</summary>
    /// <remarks>A class, like every type the rule keeps in lists: a generic collection of a struct is code the JIT
    /// compiles in every compiler process, a one-off cost per build (docs/performance.md).</remarks>
    internal sealed class Measure
    {
        public Measure(IOperation operation, string name, IFieldSymbol field, IMethodSymbol? helper)
        {
            Operation = operation;
            Name = name;
            Field = field;
            Helper = helper;
        }

        public IOperation Operation { get; }

        public string Name { get; }

        public IFieldSymbol Field { get; }

        public IMethodSymbol? Helper { get; }
    }

    internal sealed class Context
    {
        private readonly INamedTypeSymbol? _volatile;
        private readonly INamedTypeSymbol? _lazyInitializer;
        private readonly HashSet<INamedTypeSymbol> _starters;

        private Context(Compilation compilation, INamedTypeSymbol interlocked)
        {
            Interlocked = interlocked;
            _volatile = compilation.GetTypeByMetadataName("System.Threading.Volatile");
            _lazyInitializer = compilation.GetTypeByMetadataName("System.Threading.LazyInitializer");
            _starters = new HashSet<INamedTypeSymbol>(
                new[] { "System.Threading.Thread", "System.Threading.ThreadPool", WellKnownTypeNames.Timer, "System.Timers.Timer", WellKnownTypeNames.Task, WellKnownTypeNames.TaskFactory, "System.Threading.Tasks.Parallel" }
                    .Select(compilation.GetTypeByMetadataName)
                    .OfType<INamedTypeSymbol>(),
                SymbolEqualityComparer.Default);
        }

        public INamedTypeSymbol Interlocked { get; }

        public static Context? TryCreate(Compilation compilation) =>
            compilation.GetTypeByMetadataName("System.Threading.Interlocked") is { } interlocked ? new Context(compilation, interlocked) : null;

        /// <summary>Interlocked.*, Volatile.* and LazyInitializer.EnsureInitialized: the calls that take the field by ref.</summary>
        public bool IsMeasureCall(IMethodSymbol method) =>
            SymbolEqualityComparer.Default.Equals(method.ContainingType, Interlocked)
            || SymbolEqualityComparer.Default.Equals(method.ContainingType, _volatile)
            || (method.Name == "EnsureInitialized" && SymbolEqualityComparer.Default.Equals(method.ContainingType, _lazyInitializer));

        /// <summary>A thread, task or timer started (or any member of those types called): the object may escape to it.</summary>
        public bool StartsConcurrentWork(IMethodSymbol method) =>
            method.ContainingType is { } type && (_starters.Contains(type) || _starters.Contains(type.OriginalDefinition));
    }

    /// <summary>
    /// The measures on the constructor path of <paramref name="body"/>, in source order, up to the first point where
    /// <c>this</c> may escape. Empty when the object may be visible before the body runs: a base class other than
    /// object (its constructor may publish <c>this</c>), a <c>: this(…)</c> initializer, or a <c>goto</c>.
    /// </summary>
    public static List<Measure> Analyze(IConstructorBodyOperation body, IMethodSymbol constructor, Context symbols)
    {
        var measures = new List<Measure>();
        var type = constructor.ContainingType;
        if (constructor.IsStatic
            || (type.TypeKind == TypeKind.Class && type.BaseType?.SpecialType != SpecialType.System_Object)
            || body.Initializer?.Descendants().OfType<IInvocationOperation>().Any(i => SymbolEqualityComparer.Default.Equals(i.TargetMethod.ContainingType, type)) == true)
        {
            return measures;
        }

        var root = (IOperation?)body.BlockBody ?? body.ExpressionBody;
        // The keyword searched in the text rather than every operation walked: most constructors have none.
        if (root is null || root.Syntax.HasTokenNamed("goto", SyntaxKind.GotoKeyword))
        {
            return measures;
        }

        Walk(root, type, symbols, helper: null, measures, depth: 0);
        return measures;
    }

    /// <summary>
    /// Collects the measures in <paramref name="root"/> that come before its first escape, and returns the position
    /// of that escape (int.MaxValue when there is none). An escape inside a loop counts from the loop's start, since
    /// the next iteration runs after it.
    /// </summary>
    private static int Walk(IOperation root, INamedTypeSymbol type, Context symbols, IMethodSymbol? helper, List<Measure> measures, int depth)
    {
        var found = new List<Measure>();
        var escape = int.MaxValue;
        foreach (var operation in InSourceOrder(root))
        {
            if (operation.Syntax.SpanStart >= escape)
            {
                break;
            }

            if (MeasureOf(operation, type, symbols, helper) is { } measure)
            {
                found.Add(measure);
            }
            else if (operation is IInvocationOperation call && IsHelperCall(call, type))
            {
                // One level: the helper's own measures before its own escape. If it can let this escape (or calls
                // another helper, or its body is not in this file), so can the call.
                var inner = new List<Measure>();
                var helperEscape = depth == 0 && BodyOf(call) is { } helperBody
                    ? Walk(helperBody, type, symbols, call.TargetMethod, inner, depth + 1)
                    : call.Syntax.SpanStart;
                // One report a call, naming the helper's first measure: the call is what the constructor can change.
                if (inner.Count > 0)
                {
                    found.Add(new Measure(operation, inner[0].Name, inner[0].Field, call.TargetMethod));
                }

                if (helperEscape != int.MaxValue)
                {
                    escape = System.Math.Min(escape, StartOfLoopAround(operation, root));
                }
            }
            else if (Escapes(operation, type, symbols))
            {
                escape = System.Math.Min(escape, StartOfLoopAround(operation, root));
            }
        }

        // A measure still running when the escape begins (the escape is inside it) may meet another thread.
        foreach (var measure in found)
        {
            if (measure.Operation.Syntax.Span.End <= escape)
            {
                measures.Add(measure);
            }
        }

        return escape;
    }

    private static Measure? MeasureOf(IOperation operation, INamedTypeSymbol type, Context symbols, IMethodSymbol? helper) => operation switch
    {
        ILockOperation { LockedValue: var locked } when OwnField(locked, type) is { } field && IsPrivateGate(field) => new Measure(operation, "lock", field, helper),
        IInvocationOperation { Arguments.Length: > 0 } call when symbols.IsMeasureCall(call.TargetMethod)
            && OwnField(call.Arguments[0].Value, type) is { } field => new Measure(operation, call.TargetMethod.ContainingType.Name + "." + call.TargetMethod.Name, field, helper),
        _ => null,
    };

    /// <summary>The instance field of this object that <paramref name="value"/> names (<c>_f</c> or <c>this._f</c>).</summary>
    private static IFieldSymbol? OwnField(IOperation value, INamedTypeSymbol type) =>
        value.WithoutImplicitConversions() is IFieldReferenceOperation { Field: { IsStatic: false } field, Instance: IInstanceReferenceOperation { ReferenceKind: InstanceReferenceKind.ContainingTypeInstance } }
        && SymbolEqualityComparer.Default.Equals(field.ContainingType, type)
            ? field
            : null;

    /// <summary>
    /// True when the lock object is one this instance created and nobody else can see: a private field that only
    /// ever holds a new object and is only locked or used as a receiver (<c>_items.Add</c>). A lock object passed in (a shared SyncRoot) or a process-wide
    /// gate serializes the constructor against other objects, and that protection is real. Read from syntax across
    /// the type's parts; any other use of the name, even a look-alike, counts as the gate being seen.
    /// </summary>
    private static bool IsPrivateGate(IFieldSymbol field)
    {
        if (field.DeclaredAccessibility != Accessibility.Private)
        {
            return false;
        }

        var created = false;
        foreach (var part in field.ContainingType.DeclaringSyntaxReferences)
        {
            foreach (var token in part.GetSyntax().TokensNamed(field.Name, SyntaxKind.IdentifierToken))
            {
                var node = token.Parent;
                if (node is VariableDeclaratorSyntax { Initializer.Value: var initial } declarator
                    && declarator.Parent?.Parent is FieldDeclarationSyntax)
                {
                    if (!IsCreation(initial))
                    {
                        return false;
                    }

                    created = true;
                }
                else if (node is IdentifierNameSyntax name)
                {
                    var use = name.Parent is MemberAccessExpressionSyntax { Expression: ThisExpressionSyntax } self && self.Name == name ? self : (ExpressionSyntax)name;
                    switch (use.Parent)
                    {
                        case LockStatementSyntax lockStatement when lockStatement.Expression == use:
                        case MemberAccessExpressionSyntax access when access.Expression == use:
                        case ConditionalAccessExpressionSyntax conditional when conditional.Expression == use:
                            break;
                        case AssignmentExpressionSyntax assignment when assignment.Left == use
                            && assignment.IsKind(SyntaxKind.SimpleAssignmentExpression)
                            && IsCreation(assignment.Right):
                            created = true;
                            break;
                        default:
                            return false;
                    }
                }
            }
        }

        return created;

        static bool IsCreation(ExpressionSyntax value) => value is BaseObjectCreationExpressionSyntax;
    }

    /// <summary>
    /// A call of a non-virtual instance method of the type, on this object, not passing <c>this</c> along. Its body is
    /// what runs, whatever its accessibility: a public AddItem the constructor calls (the whitepaper's example) is
    /// followed like a private one.
    /// </summary>
    public static bool IsHelperCall(IInvocationOperation call, INamedTypeSymbol type) =>
        call.Instance is IInstanceReferenceOperation { ReferenceKind: InstanceReferenceKind.ContainingTypeInstance }
        && call.TargetMethod is { IsVirtual: false, IsAbstract: false, IsOverride: false, IsStatic: false, MethodKind: MethodKind.Ordinary } method
        && SymbolEqualityComparer.Default.Equals(method.ContainingType, type)
        && !call.Arguments.Any(a => a.Value.WithoutImplicitConversions() is IInstanceReferenceOperation);

    /// <summary>The helper's body, from the semantic model of this file; a helper in another file of a partial type is not followed.</summary>
    private static IOperation? BodyOf(IInvocationOperation call)
    {
        var model = call.SemanticModel;
        return call.TargetMethod.DeclaringSyntaxReferences.FirstOrDefault()?.GetSyntax() is MethodDeclarationSyntax declaration
            && model is not null
            && declaration.SyntaxTree == model.SyntaxTree
            && model.GetOperation(declaration) is IMethodBodyOperation body
                ? (IOperation?)body.BlockBody ?? body.ExpressionBody
                : null;
    }

    /// <summary>
    /// True where <c>this</c> may reach other code: used as a value, captured by a lambda, an instance method group, a
    /// virtual or non-helper call on it, a local function called, an event subscription, concurrent work started.
    /// </summary>
    private static bool Escapes(IOperation operation, INamedTypeSymbol type, Context symbols) => operation switch
    {
        IInstanceReferenceOperation { ReferenceKind: InstanceReferenceKind.ContainingTypeInstance } self => !IsReceiverOfFieldOrAutoProperty(self),
        // A lambda that uses this object captures it; one that does not, like a static method group, cannot leak it.
        IAnonymousFunctionOperation lambda => lambda.Descendants().Any(o => o is IInstanceReferenceOperation { ReferenceKind: InstanceReferenceKind.ContainingTypeInstance }),
        IMethodReferenceOperation reference => !reference.Method.IsStatic,
        IEventAssignmentOperation => true,
        IInvocationOperation { TargetMethod.MethodKind: MethodKind.LocalFunction } => true,
        IInvocationOperation call => symbols.StartsConcurrentWork(call.TargetMethod),
        IObjectCreationOperation { Constructor: { } created } => symbols.StartsConcurrentWork(created),
        _ => false,
    };

    /// <summary>
    /// <c>this._f</c>, <c>this.P</c> with P an auto-property, or the receiver of a helper call (which the walk follows):
    /// the object's own state, not the object handed to other code.
    /// </summary>
    private static bool IsReceiverOfFieldOrAutoProperty(IInstanceReferenceOperation self) => self.Parent switch
    {
        IFieldReferenceOperation field => field.Instance == self,
        IInvocationOperation call => call.Instance == self && IsHelperCall(call, call.TargetMethod.ContainingType),
        IPropertyReferenceOperation { Property: { IsVirtual: false, IsOverride: false, IsAbstract: false } property } reference =>
            reference.Instance == self && property.IsAutoProperty(),
        _ => false,
    };

    /// <summary>The operation's position, or the start of the outermost loop around it within <paramref name="root"/>.</summary>
    private static int StartOfLoopAround(IOperation operation, IOperation root)
    {
        var start = operation.Syntax.SpanStart;
        for (var current = operation.Parent; current is not null && current != root; current = current.Parent)
        {
            if (current is ILoopOperation)
            {
                start = current.Syntax.SpanStart;
            }
        }

        return start;
    }

    /// <summary>The operations of <paramref name="root"/> in source order, not entering lambdas or local functions (they run later, if at all).</summary>
    private static IEnumerable<IOperation> InSourceOrder(IOperation root)
    {
        var all = new List<IOperation>();
        var pending = new Stack<IOperation>();
        pending.Push(root);
        while (pending.Count > 0)
        {
            var operation = pending.Pop();
            all.Add(operation);
            if (operation.Kind is OperationKind.AnonymousFunction or OperationKind.LocalFunction && operation != root)
            {
                continue;
            }

            foreach (var child in operation.ChildOperations)
            {
                pending.Push(child);
            }
        }

        return all.OrderBy(o => o.Syntax.SpanStart);
    }
}
