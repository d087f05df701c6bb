using System.Collections.Immutable;
using System.Linq;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp;
using Microsoft.CodeAnalysis.CSharp.Syntax;
using Microsoft.CodeAnalysis.Operations;
using TplPractices.Analyzers.Internals;

namespace TplPractices.Analyzers.Rules;

/// <summary>
/// TPL0013's questions: is an object creation a TaskCompletionSource made without RunContinuationsAsynchronously, and
/// can its task have continuations when it is completed (it escapes before the code that made it completes it).
/// </summary>
internal static class CompletionSourceContinuations
{
    public const string FixAddFlag = "AddRunContinuationsAsynchronously";

    internal sealed class Context
    {
        private Context(Compilation compilation, INamedTypeSymbol options)
        {
            Sources = new CompletionSources(compilation);
            Options = options;
            ContinuationOptions = compilation.GetTypeByMetadataName(WellKnownTypeNames.TaskContinuationOptions);
        }

        public CompletionSources Sources { get; }

        public INamedTypeSymbol Options { get; }

        public INamedTypeSymbol? ContinuationOptions { get; }

        /// <summary>Null where the target has no RunContinuationsAsynchronously (.NET Framework 4.5).</summary>
        public static Context? TryCreate(Compilation compilation) =>
            compilation.GetTypeByMetadataName(WellKnownTypeNames.TaskCreationOptions) is { } options
            && !options.GetMembers(nameof(CompletionSources.RunContinuationsAsynchronously)).IsEmpty
                ? new Context(compilation, options)
                : null;
    }

    /// <summary>
    /// True for a creation the rule reports: a source made without options, whose task escapes before the code that
    /// made it has completed it. Options passed as the state (CA2247's mistake) are left alone, and so are options
    /// passed as options, whatever they say.
    /// </summary>
    public static bool IsReported(IObjectCreationOperation creation, Context symbols)
    {
        if (creation.Constructor is null || creation.Type is null || creation.Type.ContainsErrorType())
        {
            return false;
        }

        var derived = !symbols.Sources.IsSource(creation.Type);
        if (derived && !IsDerivedWithoutFlag(creation.Constructor, symbols))
        {
            return false;
        }

        // A derived type's own arguments are not the source's: its constructor chain was read instead.
        foreach (var argument in derived ? ImmutableArray<IArgumentOperation>.Empty : creation.Arguments)
        {
            var type = argument.Parameter?.Type;
            if (SymbolEqualityComparer.Default.Equals(type, symbols.Options))
            {
                // Options written out are a choice, TaskCreationOptions.None too: code that wants its continuations
                // inline says so that way (and grpc-dotnet's comments say why).
                return false;
            }
            else if (argument.Value.WithoutImplicitConversions().Type is { TypeKind: TypeKind.Enum } stateType
                && (SymbolEqualityComparer.Default.Equals(stateType, symbols.ContinuationOptions) || SymbolEqualityComparer.Default.Equals(stateType, symbols.Options)))
            {
                return false;
            }
        }

        if (!EscapesBeforeCompletion(creation, symbols))
        {
            return false;
        }

        // Where the rule can read the completions: they rely on running the awaiting code inline, nothing continues on
        // the task, or each is the last act of pool work, where inline costs nothing and the flag only adds a queue hop.
        // Where there are none (a local or private field read only for its task), no continuation can run inline; a
        // derived source's own code (a token registration in its constructor) may complete it unseen.
        return CompletionSites.Of(creation) is not { } sites || !(sites.AreHarmless() || (!derived && sites.NothingCompletes));
    }

    /// <summary>
    /// A type derived directly from a TaskCompletionSource whose constructor, as called here, makes its base without
    /// options: it is declared in this compilation and its initializer is absent or <c>base()</c> (an implicit
    /// constructor too). Read from the syntax alone, so any other chain (<c>this(…)</c>, <c>base(options)</c>, a base
    /// call with arguments) is left alone: which base constructor it reaches would take another file's semantic model.
    /// </summary>
    public static bool IsDerivedWithoutFlag(IMethodSymbol constructor, Context symbols)
    {
        if (constructor.ContainingType is not { BaseType: { } baseType } || !symbols.Sources.IsSource(baseType))
        {
            return false;
        }

        if (constructor.IsImplicitlyDeclared)
        {
            return constructor.ContainingType.DeclaringSyntaxReferences.Length > 0;
        }

        return constructor.DeclaringSyntaxReferences is { Length: 1 } references
            && references[0].GetSyntax() is ConstructorDeclarationSyntax declaration
            && declaration.Initializer is null or { RawKind: (int)SyntaxKind.BaseConstructorInitializer, ArgumentList.Arguments.Count: 0 };
    }

    /// <summary>
    /// Whether someone other than the creating code can attach a continuation before the source completes: the source
    /// is stored, returned or handed out, or a local holding it is read for anything but completing it before a
    /// statement of its own block completes it.
    /// </summary>
    private static bool EscapesBeforeCompletion(IObjectCreationOperation creation, Context symbols)
    {
        var value = creation.WithImplicitConversionsAround();
        switch (value.Parent)
        {
            case IVariableInitializerOperation { Parent: IVariableDeclaratorOperation declarator }:
                return LocalEscapes(declarator.Symbol, StatementOf(declarator), symbols);
            case ISimpleAssignmentOperation { Target: ILocalReferenceOperation local } assignment when assignment.Value == value:
                return LocalEscapes(local.Local, StatementOf(assignment), symbols);
            case IPropertyReferenceOperation:
            case IInvocationOperation:
            case IExpressionStatementOperation:
                // new TaskCompletionSource<T>().Task: nobody can complete it; a discarded source: nobody can await it.
                return false;
            default:
                return true;
        }
    }

    private static bool LocalEscapes(ILocalSymbol local, IOperation? statement, Context symbols)
    {
        if (statement is null)
        {
            return true;
        }

        var completedAt = CompletedAt(local, statement, symbols);
        foreach (var operation in statement.Root().Descendants())
        {
            if (operation is ILocalReferenceOperation reference
                && SymbolEqualityComparer.Default.Equals(reference.Local, local)
                && !IsWritten(reference)
                && !IsCompletion(reference.Parent, local, symbols)
                && reference.Syntax.SpanStart < completedAt)
            {
                return true;
            }
        }

        return false;
    }

    /// <summary>
    /// Where the first statement after <paramref name="declaration"/> in the same block that completes the source
    /// unconditionally ends; int.MaxValue where none does.
    /// </summary>
    private static int CompletedAt(ILocalSymbol local, IOperation declaration, Context symbols)
    {
        if (declaration.Parent is not IBlockOperation block)
        {
            return int.MaxValue;
        }

        System.Func<IOperation, bool> completes = s => s is IExpressionStatementOperation expression && IsCompletion(Discarded(expression.Operation), local, symbols);
        var after = false;
        foreach (var statement in block.Operations)
        {
            if (statement == declaration)
            {
                after = true;
            }
            else if (after && ControlPaths.DoesOnEveryPath(statement, completes))
            {
                return statement.Syntax.Span.End;
            }
        }

        return int.MaxValue;
    }

    /// <summary><c>source.TrySetResult(x)</c> for <c>_ = source.TrySetResult(x)</c>.</summary>
    private static IOperation Discarded(IOperation operation) =>
        operation is ISimpleAssignmentOperation { Target: IDiscardOperation } discard ? discard.Value : operation;

    /// <summary>A call to one of the source's SetX/TrySetX methods on the local, or to a derived type's method that only makes one.</summary>
    private static bool IsCompletion(IOperation? operation, ILocalSymbol local, Context symbols) =>
        operation is IInvocationOperation { Instance: ILocalReferenceOperation receiver } call
        && SymbolEqualityComparer.Default.Equals(receiver.Local, local)
        && symbols.Sources.IsCompletionOrWrapper(call.TargetMethod);

    private static bool IsWritten(ILocalReferenceOperation reference) =>
        reference.Parent is ISimpleAssignmentOperation assignment && assignment.Target == reference;

    /// <summary>The statement that declares or assigns the local: the operation whose parent is a block, or the outermost.</summary>
    private static IOperation? StatementOf(IOperation operation)
    {
        for (var current = operation; current is not null; current = current.Parent)
        {
            if (current.Parent is IBlockOperation)
            {
                return current;
            }

            if (current.Parent is IAnonymousFunctionOperation or ILocalFunctionOperation or null)
            {
                return null;
            }
        }

        return null;
    }
}
