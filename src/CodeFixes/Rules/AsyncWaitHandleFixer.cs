using System.Collections.Generic;
using System.Collections.Immutable;
using System.Linq;
using System.Threading;
using System.Threading.Tasks;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CodeActions;
using Microsoft.CodeAnalysis.CodeFixes;
using Microsoft.CodeAnalysis.CSharp;
using Microsoft.CodeAnalysis.CSharp.Syntax;
using Microsoft.CodeAnalysis.Editing;
using Microsoft.CodeAnalysis.Formatting;
using Microsoft.CodeAnalysis.Operations;
using Microsoft.CodeAnalysis.Simplification;
using TplPractices.Analyzers.CodeFixes.Internals;
using TplPractices.Analyzers.Rules;

namespace TplPractices.Analyzers.CodeFixes.Rules;

/// <summary>
/// TPL0004: waits on the task instead of its wait handle, and never throws where the handle did not:
/// <c>Task.WaitAny</c> for blocking waits, <c>await Task.WhenAny(t).ConfigureAwait(true)</c> or a SuppressThrowing await in async code.
/// </summary>
[ExportCodeFixProvider(LanguageNames.CSharp, Name = nameof(AsyncWaitHandleFixer))]
public sealed class AsyncWaitHandleFixer : RuleFixer
{
    public const string EquivalenceKey = DiagnosticIds.AsyncWaitHandle + "_WaitOnTask";

    public AsyncWaitHandleFixer()
        : base(new AsyncWaitHandleAnalyzer(), AsyncWaitHandleUse.FixAwaitWhenAny, EquivalenceKey, "Wait on the tasks, not their wait handles")
    {
    }

    /// <summary>
    /// Every title says the rewritten wait does not throw, because that is the behaviour kept; an await's also says, after
    /// it (<see cref="AsyncWaitHandleUse.AwaitReason"/>), what changes.
    /// </summary>
    protected override string Title(string kind) => kind switch
    {
        AsyncWaitHandleUse.FixAwaitWhenAny => "Await Task.WhenAny(task), which does not throw, like WaitOne",
        AsyncWaitHandleUse.FixAwaitSuppressThrowing => "Await the task with SuppressThrowing, which does not throw, like WaitOne",
        AsyncWaitHandleUse.FixWaitAllTasks or AsyncWaitHandleUse.FixWaitAllTasksWithTimeout =>
            "Wait for Task.WhenAll with Task.WaitAny (does not throw, like WaitHandle.WaitAll)",
        AsyncWaitHandleUse.FixWaitAnyTask => "Use Task.WaitAny over the tasks (does not throw, like WaitHandle.WaitAny)",
        _ => "Wait with Task.WaitAny (does not throw, like WaitOne)",
    };

    /// <summary>The wait is rebuilt, and an async one may change the statement around it.</summary>
    protected override SyntaxNode? RestructuredNode(SyntaxNode root, Diagnostic diagnostic) =>
        Restructured.Statement(root.FindNode(diagnostic.Location.SourceSpan, getInnermostNodeForTie: true));

    protected override async Task<Document> FixDocumentAsync(
        Document document,
        ImmutableArray<Diagnostic> diagnostics,
        CancellationToken cancellationToken)
    {
        var editor = await DocumentEditor.CreateAsync(document, cancellationToken).ConfigureAwait(false);
        var model = editor.SemanticModel;
        if (model.Compilation.GetTypeByMetadataName(WellKnownTypeNames.Task) is not { } taskType)
        {
            return document;
        }

        // The analyzer's verdict travels in the diagnostic: the replaced call, the tasks and the timeout it found.
        var builder = new WaitBuilder(editor.Generator, taskType, model.Compilation);
        var done = new HashSet<SyntaxNode>();
        foreach (var (_, kind, parts) in FixSites.WithParts(diagnostics, PortableKind))
        {
            var timed = kind is AsyncWaitHandleUse.FixWaitAnyWithTimeout or AsyncWaitHandleUse.FixWaitAllTasksWithTimeout;
            var taskCount = parts.Length - 1 - (timed ? 1 : 0);
            if (taskCount < 1
                || FixSites.Part<ExpressionSyntax>(editor.OriginalRoot, parts[0]) is not { } replaced
                || !done.Add(replaced))
            {
                continue;
            }

            var tasks = new List<IOperation>();
            foreach (var part in parts.Skip(1).Take(taskCount))
            {
                if (FixSites.Part<ExpressionSyntax>(editor.OriginalRoot, part) is { } taskSyntax && model.GetOperation(taskSyntax, cancellationToken) is { } task)
                {
                    tasks.Add(task);
                }
            }

            var timeout = timed ? FixSites.Part<ExpressionSyntax>(editor.OriginalRoot, parts[parts.Length - 1]) : null;
            if (tasks.Count != taskCount || (timed && timeout is null))
            {
                continue;
            }

            // As the analyzer decided it: a void method's expression body discards the result as a statement does.
            var resultUsed = model.GetOperation(replaced, cancellationToken) is not { } wait || AsyncWaitHandleUse.IsResultUsed(wait);
            var replacement = builder.Build(kind, tasks, timeout, resultUsed);
            editor.ReplaceNode(replaced, replacement.WithTriviaFrom(replaced).WithAdditionalAnnotations(Simplifier.Annotation, Formatter.Annotation));
        }

        return editor.GetChangedDocument();
    }


    /// <summary>Builds the replacement expressions; names resolve through the simplifier and import adder.</summary>
    private sealed class WaitBuilder
    {
        private readonly SyntaxGenerator _generator;
        private readonly SyntaxNode _taskType;
        private readonly Compilation _compilation;

        public WaitBuilder(SyntaxGenerator generator, INamedTypeSymbol task, Compilation compilation)
        {
            _generator = generator;
            _compilation = compilation;
            _taskType = Type(task);
        }

        public SyntaxNode Build(string kind, IReadOnlyList<IOperation> taskOperations, ExpressionSyntax? timeoutSyntax, bool resultUsed)
        {
            var tasks = taskOperations.Select(TaskExpression).ToArray();
            var timeout = timeoutSyntax?.WithoutTrivia();
            SyntaxNode Completed(SyntaxNode waitAny) => resultUsed ? Done(waitAny) : waitAny;
            return kind switch
            {
                AsyncWaitHandleUse.FixAwaitWhenAny => _generator.AwaitExpression(OnCapturedContext(CallTask("WhenAny", tasks))),
                AsyncWaitHandleUse.FixAwaitSuppressThrowing => AwaitSuppressingExceptions(taskOperations[0], tasks[0]),
                AsyncWaitHandleUse.FixWaitAnyTask => CallTask("WaitAny", tasks),
                AsyncWaitHandleUse.FixWaitAllTasks => Completed(CallTask("WaitAny", CallTask("WhenAll", tasks))),
                AsyncWaitHandleUse.FixWaitAllTasksWithTimeout =>
                    Completed(CallTask("WaitAny", TaskArray(CallTask("WhenAll", tasks)), timeout!)),
                AsyncWaitHandleUse.FixWaitAnyWithTimeout => Completed(CallTask("WaitAny", TaskArray(tasks), timeout!)),
                _ => Completed(CallTask("WaitAny", tasks)),
            };
        }

        /// <summary>A task, or <c>(Task)local</c> for an IAsyncResult local known to hold one.</summary>
        private SyntaxNode TaskExpression(IOperation task) => task is ILocalReferenceOperation local
            ? _generator.CastExpression(_taskType, _generator.IdentifierName(local.Local.Name))
            : task.Syntax.WithoutTrivia();

        /// <summary>WaitOne and WaitAll return true once done; Task.WaitAny returns the index 0, or -1 on timeout.</summary>
        private SyntaxNode Done(SyntaxNode waitAny) =>
            SyntaxFactory.ParenthesizedExpression((ExpressionSyntax)_generator.ValueEqualsExpression(waitAny, _generator.LiteralExpression(0)));

        /// <summary><c>await ((Task)t).ConfigureAwait(ContinueOnCapturedContext | SuppressThrowing)</c>: Task&lt;T&gt; rejects SuppressThrowing.</summary>
        private SyntaxNode AwaitSuppressingExceptions(IOperation task, SyntaxNode expression)
        {
            var options = Type(_compilation.GetTypeByMetadataName(WellKnownTypeNames.ConfigureAwaitOptions)!);
            var receiver = task is ILocalReferenceOperation ? expression : _generator.CastExpression(_taskType, expression);
            return _generator.AwaitExpression(_generator.InvocationExpression(
                _generator.MemberAccessExpression(receiver, "ConfigureAwait"),
                _generator.BitwiseOrExpression(
                    _generator.MemberAccessExpression(options, "ContinueOnCapturedContext"),
                    _generator.MemberAccessExpression(options, "SuppressThrowing"))));
        }

        /// <summary>
        /// <c>.ConfigureAwait(true)</c>: what a plain await does, as WaitOne stayed on its thread. Written out because
        /// CA2007, MA0004 and VSTHRD111 ask every await to say which it wants (docs/comparison.md).
        /// </summary>
        private SyntaxNode OnCapturedContext(SyntaxNode task) =>
            _generator.InvocationExpression(_generator.MemberAccessExpression(task, "ConfigureAwait"), _generator.TrueLiteralExpression());

        private SyntaxNode TaskArray(params SyntaxNode[] elements) => _generator.ArrayCreationExpression(_taskType, elements);

        private SyntaxNode CallTask(string method, params SyntaxNode[] arguments) =>
            _generator.InvocationExpression(_generator.MemberAccessExpression(_taskType, method), arguments);

        private SyntaxNode Type(INamedTypeSymbol type) => ImportedType.Of(_generator, type);
    }
}
