using System.Collections.Generic;
using System.Collections.Immutable;
using System.Linq;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp;
using Microsoft.CodeAnalysis.CSharp.Syntax;
using Microsoft.CodeAnalysis.Operations;
using Microsoft.CodeAnalysis.Text;

namespace TplPractices.Analyzers.Rules;

/// <summary>
/// TPL0012's reading of a method: a fast path (a first <c>if</c> that returns), and in the rest what keeps the JIT from
/// inlining the whole method (docs/rules/TPL0012.md says which JIT rules, and what we measured on .NET 10).
/// </summary>
internal static class HotPathInlining
{
    public const string FixExtractSlowPath = "ExtractSlowPath";

    /// <summary>RyuJIT's DEFAULT_MAX_INLINE_SIZE: a method with more IL is never inlined unless marked AggressiveInlining.</summary>
    public const int MaxInlineIlBytes = 100;

    /// <summary>What the fast path may hold: a few simple statements, well inside the inlining limit once alone.</summary>
    private const int MaxFastPathStatements = 3;
    private const int MaxFastPathIlBytes = MaxInlineIlBytes / 2;

    /// <summary>Nothing per compilation but the check that it binds at all: the rule's JIT facts hold on every target.</summary>
    internal sealed class Context
    {
        private static readonly Context Instance = new();

        private Context()
        {
        }

        public static Context? TryCreate(Compilation compilation) =>
            compilation.GetSpecialType(SpecialType.System_Object) is { TypeKind: not TypeKind.Error } ? Instance : null;
    }

    /// <summary>
    /// The method's fast path, read as syntax before anything is bound: its first statement is an <c>if</c> without
    /// <c>else</c> whose branch ends in <c>return</c> after at most two simple statements, and more statements follow.
    /// </summary>
    public static IfStatementSyntax? FastPath(MethodDeclarationSyntax declaration) =>
        declaration.Body is { Statements: { Count: >= 2 } statements }
        && statements[0] is IfStatementSyntax { Else: null } first
        && EndsInReturn(first.Statement)
        && !first.DescendantNodes().Any(IsComplex)
            ? first
            : null;

    /// <summary>
    /// A method the JIT may inline at a direct call, and whose inlining the user has not decided already: ref returns
    /// included, and members of a C# 14 extension block (compiled to static methods of the enclosing class).
    /// </summary>
    public static bool IsInlineCandidate(IMethodSymbol method) =>
        method is { MethodKind: MethodKind.Ordinary, IsAsync: false, IsAbstract: false, IsExtern: false }
        && (!method.IsVirtual && !method.IsOverride || method.IsSealed)
        && (method.ContainingType.TypeKind is TypeKind.Class or TypeKind.Struct || IsExtensionBlock(method.ContainingType))
        && !method.GetAttributes().Any(a => a.AttributeClass?.Name == "MethodImplAttribute");

    /// <summary>
    /// Where the fix cannot move the rest: a ref return (the new method would return by ref too, and the ref may point
    /// at a parameter it is passed by value) or an extension block's member (its receiver is the block's parameter).
    /// </summary>
    public static bool CanMoveTheRest(IMethodSymbol method) =>
        !method.ReturnsByRef && !method.ReturnsByRefReadonly && !IsExtensionBlock(method.ContainingType);

    // TypeKind.Extension (C# 14) is newer than the Roslyn the package builds against; its value is fixed.
    private static bool IsExtensionBlock(INamedTypeSymbol type) => (int)type.TypeKind == 14;

    /// <summary>
    /// What in the method keeps it from being inlined, worded for the message; null when nothing does or the fast path
    /// itself is too big to inline alone. One walk over the code after the fast path gives both its shapes and its size.
    /// </summary>
    public static string? WhyNotInlined(IBlockOperation body)
    {
        var fastPathSize = body.Operations.Length < 2 ? int.MaxValue : EstimatedIl(body.Operations[0]);
        if (fastPathSize > MaxFastPathIlBytes)
        {
            return null;
        }

        bool locks = false, catches = false, hasFinally = false, loops = false;
        var size = fastPathSize;
        foreach (var operation in body.Operations.Skip(1).SelectMany(Own))
        {
            size += SmallestIl(operation);
            switch (operation)
            {
                case ILockOperation:
                    locks = true;
                    break;
                case ITryOperation attempt:
                    catches |= !attempt.Catches.IsEmpty;
                    hasFinally |= attempt.Finally is not null;
                    break;
                case IUsingOperation or IUsingDeclarationOperation:
                    hasFinally = true;
                    break;
                case ILoopOperation:
                    loops = true;
                    break;
            }
        }

        return catches ? "catches exceptions"
            : size > MaxInlineIlBytes ? $"compiles to over {MaxInlineIlBytes} bytes of IL (at least {size})"
            : locks ? "takes a lock"
            : hasFinally ? "has a finally block (try/finally, using)"
            : loops ? "loops"
            : null;
    }

    /// <summary>
    /// The parameters the statements after the fast path use, in declaration order (what the slow path is passed), or
    /// null where those statements cannot move into a method of their own: a ref, out or in parameter (passed by value
    /// it would no longer alias), a local of the fast path they use (a pattern or out variable of the condition), a
    /// label, or a local function of theirs that the fast path calls. Read from the operations, lambdas included.
    /// </summary>
    public static ImmutableArray<IParameterSymbol>? SlowPathInputs(IMethodSymbol method, MethodDeclarationSyntax declaration, IBlockOperation body)
    {
        if (method.Parameters.Any(p => p.RefKind != RefKind.None)
            || declaration.Body is not { } block
            || block.DescendantNodes().Any(n => n is GotoStatementSyntax or LabeledStatementSyntax))
        {
            return null;
        }

        var rest = TextSpan.FromBounds(block.Statements[1].SpanStart, block.Statements[block.Statements.Count - 1].Span.End);
        var ownFunctions = block.Statements.Skip(1).OfType<LocalFunctionStatementSyntax>().Select(f => f.Identifier.ValueText).ToList();
        if (ownFunctions.Count > 0
            && block.Statements[0].DescendantNodes().OfType<IdentifierNameSyntax>().Any(n => ownFunctions.Contains(n.Identifier.ValueText)))
        {
            return null;
        }

        var used = new HashSet<IParameterSymbol>(SymbolEqualityComparer.Default);
        foreach (var operation in body.Operations.Skip(1).SelectMany(o => o.DescendantsAndSelf()))
        {
            switch (operation)
            {
                case IParameterReferenceOperation { Parameter: var parameter } when SymbolEqualityComparer.Default.Equals(parameter.ContainingSymbol, method):
                    used.Add(parameter);
                    break;
                case ILocalReferenceOperation { Local: var local } when !local.DeclaringSyntaxReferences.All(r => rest.Contains(r.Span)):
                    return null;
            }
        }

        return method.Parameters.Where(used.Contains).ToImmutableArray();
    }

    /// <summary>
    /// A lower bound of the IL the operation compiles to: each operation counted at its smallest encoding (a call or a
    /// field access five bytes, a local or a constant one), lambdas' bodies left out. Reporting size only where even
    /// this is over the JIT's limit keeps the rule from guessing.
    /// </summary>
    public static int EstimatedIl(IOperation operation) => Own(operation).Sum(SmallestIl);

    private static int SmallestIl(IOperation operation) => operation switch
    {
        IInvocationOperation or IObjectCreationOperation or IFieldReferenceOperation or IPropertyReferenceOperation
            or IEventReferenceOperation or IArrayCreationOperation or ITypeOfOperation or IDelegateCreationOperation
            or IAnonymousFunctionOperation => 5,
        ILocalReferenceOperation or IParameterReferenceOperation or IInstanceReferenceOperation or ILiteralOperation
            or IBinaryOperation or IUnaryOperation or IArrayElementReferenceOperation or IReturnOperation
            or IThrowOperation or IIsPatternOperation or IIsTypeOperation => 1,
        IConditionalOperation or ILoopOperation or ICoalesceOperation => 2,
        ITryOperation => 3,
        ILockOperation => 12,
        _ => 0,
    };

    /// <summary>The operation and those below it that compile into this method: a lambda's or local function's body does not.</summary>
    private static IEnumerable<IOperation> Own(IOperation root)
    {
        var stack = new Stack<IOperation>();
        stack.Push(root);
        while (stack.Count > 0)
        {
            var operation = stack.Pop();
            yield return operation;
            if (operation is IAnonymousFunctionOperation or ILocalFunctionOperation)
            {
                continue;
            }

            foreach (var child in operation.ChildOperations)
            {
                stack.Push(child);
            }
        }
    }

    private static bool EndsInReturn(StatementSyntax statement) => statement switch
    {
        ReturnStatementSyntax => true,
        BlockSyntax { Statements: { Count: > 0 and <= MaxFastPathStatements } statements } =>
            statements.Last() is ReturnStatementSyntax
            && statements.Take(statements.Count - 1).All(s => s is ExpressionStatementSyntax or LocalDeclarationStatementSyntax),
        _ => false,
    };

    /// <summary>What a fast path holds only when it is not one: control flow the JIT weighs heavily, or code of its own.</summary>
    private static bool IsComplex(SyntaxNode node) =>
        node is ForStatementSyntax or ForEachStatementSyntax or ForEachVariableStatementSyntax or WhileStatementSyntax or DoStatementSyntax
            or TryStatementSyntax or LockStatementSyntax or UsingStatementSyntax or SwitchStatementSyntax or SwitchExpressionSyntax
            or AnonymousFunctionExpressionSyntax or LocalFunctionStatementSyntax or AwaitExpressionSyntax or StackAllocArrayCreationExpressionSyntax
        || node is LocalDeclarationStatementSyntax { UsingKeyword.RawKind: (int)SyntaxKind.UsingKeyword };
}
