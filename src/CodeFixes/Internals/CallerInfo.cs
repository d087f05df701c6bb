using System.Collections.Generic;
using System.Linq;
using System.Threading;
using System.Threading.Tasks;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp;
using Microsoft.CodeAnalysis.CSharp.Syntax;
using Microsoft.CodeAnalysis.Operations;
using Microsoft.CodeAnalysis.Text;
using TplPractices.Analyzers.Internals;

namespace TplPractices.Analyzers.CodeFixes.Internals;

/// <summary>
/// What the compiler passes for caller-information parameters the call leaves out: the calling member's name
/// (<c>[CallerMemberName]</c>) and an argument's text (<c>[CallerArgumentExpression]</c>). A fix that moves such a call
/// into another member (TPL0012's slow path) or rewrites the argument a call quotes (a cached task for
/// <c>Task.FromResult(0)</c>) would change what the program logs or checks: no fix does that. Line numbers change
/// with any edit above them and are left out; file paths never change.
/// </summary>
internal static class CallerInfo
{
    /// <summary>
    /// Whether every caller-information value the calls in the changed members receive is the same after the rewrite.
    /// Only calls in members a change reaches are bound: members the rewrite did not touch keep their values.
    /// </summary>
    public static async Task<bool> KeptAsync(Document before, Document after, CancellationToken cancellationToken)
    {
        var changes = (await after.GetTextChangesAsync(before, cancellationToken).ConfigureAwait(false)).OrderBy(c => c.Span.Start).ToList();
        if (changes.Count == 0)
        {
            return true;
        }

        var newSpans = TextEdits.NewSpans(changes);

        // No rewrite adds a call of the user's: where the changed code had no such value, the result has none either.
        var was = await ValuesAsync(before, changes.Select(c => c.Span).ToList(), cancellationToken).ConfigureAwait(false);
        return was.Count == 0 || was.SequenceEqual(await ValuesAsync(after, newSpans, cancellationToken).ConfigureAwait(false));
    }

    /// <summary>
    /// Whether the site lies in an argument that a call quotes through an implicit [CallerArgumentExpression]: any
    /// rewrite of it changes the text the call receives, so no fix is offered there.
    /// </summary>
    public static async Task<bool> IsQuotedAsync(Document document, TextSpan site, CancellationToken cancellationToken)
    {
        if (await document.GetSyntaxRootAsync(cancellationToken).ConfigureAwait(false) is not { } root
            || !root.FullSpan.Contains(site)
            || root.FindNode(site).AncestorsAndSelf().OfType<ArgumentSyntax>().ToList() is not { Count: > 0 } arguments
            || await document.GetSemanticModelAsync(cancellationToken).ConfigureAwait(false) is not { } model)
        {
            return false;
        }

        foreach (var argument in arguments)
        {
            if (argument.Parent?.Parent is not { } call
                || model.GetOperation(call, cancellationToken)?.Call() is not { } bound
                || bound.Arguments.FirstOrDefault(a => a.Syntax == argument)?.Parameter is not { } parameter)
            {
                continue;
            }

            if (bound.Arguments.Any(a => a.ArgumentKind == ArgumentKind.DefaultValue && QuotedParameter(a.Parameter) == parameter.Name))
            {
                return true;
            }
        }

        return false;
    }

    /// <summary>The values the calls in the members <paramref name="spans"/> reach receive, sorted.</summary>
    private static async Task<List<string>> ValuesAsync(Document document, List<TextSpan> spans, CancellationToken cancellationToken)
    {
        var values = new List<string>();
        if (await document.GetSyntaxRootAsync(cancellationToken).ConfigureAwait(false) is not { } root)
        {
            return values;
        }

        // The members a change touches, whole: a move can leave the moved text itself unchanged and only write a new
        // member's head and a call around it, so the calls to compare are those of every member a change reaches.
        var members = root.DescendantNodes(n => spans.Any(s => Touches(n, s)))
            .OfType<MemberDeclarationSyntax>()
            .Where(m => m is not BaseTypeDeclarationSyntax and not BaseNamespaceDeclarationSyntax && spans.Any(s => Touches(m, s)))
            .Select(m => m.FullSpan)
            .Concat(spans)
            .ToList();
        var calls = root.DescendantNodes(n => members.Any(s => Touches(n, s)))
            .Where(n => n is InvocationExpressionSyntax or BaseObjectCreationExpressionSyntax or ConstructorInitializerSyntax
                && members.Any(s => Touches(n, s)))
            .ToList();
        if (calls.Count == 0 || await document.GetSemanticModelAsync(cancellationToken).ConfigureAwait(false) is not { } model)
        {
            return values;
        }

        foreach (var node in calls)
        {
            if (model.GetOperation(node, cancellationToken)?.Call() is not { } call)
            {
                continue;
            }

            foreach (var argument in call.Arguments.Where(a => a.ArgumentKind == ArgumentKind.DefaultValue && a.Parameter is not null))
            {
                if (argument.Parameter!.GetAttributes().Any(a => a.AttributeClass?.Name == "CallerMemberNameAttribute"))
                {
                    values.Add("member " + MemberName(node));
                }
                else if (QuotedParameter(argument.Parameter) is { } quoted)
                {
                    var source = call.Arguments.FirstOrDefault(a => a.Parameter?.Name == quoted && a.ArgumentKind == ArgumentKind.Explicit);
                    values.Add("argument " + (source?.Value.Syntax.ToString() ?? string.Empty));
                }
            }
        }

        values.Sort(System.StringComparer.Ordinal);
        return values;
    }

    /// <summary>The parameter whose argument's text <paramref name="parameter"/> receives ([CallerArgumentExpression]), or null.</summary>
    private static string? QuotedParameter(IParameterSymbol? parameter) =>
        parameter?.GetAttributes().FirstOrDefault(a => a.AttributeClass?.Name == "CallerArgumentExpressionAttribute")?.ConstructorArguments.FirstOrDefault().Value as string;

    private static bool Touches(SyntaxNode node, TextSpan span) =>
        node.FullSpan.OverlapsWith(span) || (span.IsEmpty && node.FullSpan.Contains(span.Start));

    /// <summary>The member the compiler names: the nearest method, property, event, field or constructor around the call.</summary>
    private static string MemberName(SyntaxNode node) => node.Ancestors().FirstOrDefault(a => a is MemberDeclarationSyntax) switch
    {
        MethodDeclarationSyntax method => method.Identifier.ValueText,
        PropertyDeclarationSyntax property => property.Identifier.ValueText,
        IndexerDeclarationSyntax => "this[]",
        EventDeclarationSyntax @event => @event.Identifier.ValueText,
        BaseFieldDeclarationSyntax field => string.Join(",", field.Declaration.Variables.Select(v => v.Identifier.ValueText)),
        ConstructorDeclarationSyntax => ".ctor",
        OperatorDeclarationSyntax or ConversionOperatorDeclarationSyntax => "op",
        { } other => other.Kind().ToString(),
        null => string.Empty,
    };
}
