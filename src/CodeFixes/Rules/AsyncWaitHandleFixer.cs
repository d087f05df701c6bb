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

    /// <summary>Every title says the rewritten wait does not throw, because that is the behaviour kept.</summary>
    protected override string Title(string kind) => kind switch
    {
        AsyncWaitHandleUse.FixAwaitWhenAny => "Await Task.WhenAny(task) (does not throw, like WaitOne)",
        AsyncWaitHandleUse.FixAwaitSuppressThrowing => "Await the task with SuppressThrowing (does not throw, like WaitOne)",
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
        if (AsyncWaitHandleUse.Context.TryCreate(model.Compilation) is not { } symbols)
        {
            return document;
        }

        var builder = new WaitBuilder(editor.Generator, symbols.Task, model.Compilation);
        var done = new HashSet<SyntaxNode>();
        foreach (var (span, kind) in FixSites.Of(diagnostics, PortableKind))
        {
            if (model.GetOperation(editor.OriginalRoot.FindNode(span, getInnermostNodeForTie: true), cancellationToken)
                    is not IPropertyReferenceOperation { Instance: { } instance } handle
                || AsyncWaitHandleUse.TaskBehind(instance, symbols.Task) is not { } task
                || model.GetEnclosingSymbol(span.Start, cancellationToken) is not { } containing)
            {
                continue;
            }

            var use = AsyncWaitHandleUse.Classify(handle, task, symbols, containing);
            if (use.Replaced is not { Syntax: ExpressionSyntax replaced } || !done.Add(replaced))
            {
                continue;
            }

            var replacement = builder.Build(kind, use);
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

        public SyntaxNode Build(string kind, AsyncWaitHandleUse use)
        {
            var tasks = use.Tasks.Select(TaskExpression).ToArray();
            var timeout = use.Timeout?.Syntax.WithoutTrivia();
            return kind switch
            {
                AsyncWaitHandleUse.FixAwaitWhenAny => _generator.AwaitExpression(OnCapturedContext(CallTask("WhenAny", tasks))),
                AsyncWaitHandleUse.FixAwaitSuppressThrowing => AwaitSuppressingExceptions(use.Tasks[0], tasks[0]),
                AsyncWaitHandleUse.FixWaitAnyTask => CallTask("WaitAny", tasks),
                AsyncWaitHandleUse.FixWaitAllTasks => Completed(CallTask("WaitAny", CallTask("WhenAll", tasks)), use),
                AsyncWaitHandleUse.FixWaitAllTasksWithTimeout =>
                    Completed(CallTask("WaitAny", TaskArray(CallTask("WhenAll", tasks)), timeout!), use),
                AsyncWaitHandleUse.FixWaitAnyWithTimeout => Completed(CallTask("WaitAny", TaskArray(tasks), timeout!), use),
                _ => Completed(CallTask("WaitAny", tasks), use),
            };
        }

        /// <summary>A task, or <c>(Task)local</c> for an IAsyncResult local known to hold one.</summary>
        private SyntaxNode TaskExpression(IOperation task) => task is ILocalReferenceOperation local
            ? _generator.CastExpression(_taskType, _generator.IdentifierName(local.Local.Name))
            : task.Syntax.WithoutTrivia();

        /// <summary>WaitOne and WaitAll return true once done; Task.WaitAny returns the index 0, or -1 on timeout.</summary>
        private SyntaxNode Completed(SyntaxNode waitAny, AsyncWaitHandleUse use) => use.ResultUsed
            ? SyntaxFactory.ParenthesizedExpression((ExpressionSyntax)_generator.ValueEqualsExpression(waitAny, _generator.LiteralExpression(0)))
            : waitAny;

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
