using System.Collections.Generic;
using System.Globalization;
using System.Linq;
using System.Threading;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp;
using Microsoft.CodeAnalysis.CSharp.Syntax;
using Microsoft.CodeAnalysis.Editing;
using Microsoft.CodeAnalysis.Formatting;
using Microsoft.CodeAnalysis.Operations;
using Microsoft.CodeAnalysis.Text;
using TplPractices.Analyzers.CodeFixes.Internals;
using TplPractices.Analyzers.Internals;
using TplPractices.Analyzers.Rules;
using static Microsoft.CodeAnalysis.CSharp.SyntaxFactory;

namespace TplPractices.Analyzers.CodeFixes.Rules;

/// <summary>
/// TPL0015's key rewrite: <c>cache.GetOrAdd(type, _ =&gt; Create(type))</c> → <c>cache.GetOrAdd(type, static type =&gt;
/// Create(type))</c>. Each factory that captures the key reads it from its first parameter: a parameter with a name
/// of its own takes the place of the key in the body; a <c>_</c> is renamed to the key's name from C# 8, where a
/// lambda's parameter may hide a local, and to a free name before. The lambda becomes <c>static</c> from C# 9.
/// </summary>
internal static class StateOverloadKeyRewrite
{
    public static (SyntaxNode Node, SyntaxNode Replacement)? Rewrite(DocumentEditor editor, TextSpan span, Diagnostic reported, LanguageVersion version, CancellationToken cancellationToken)
    {
        var root = editor.OriginalRoot;
        if (root.FindNode(span, getInnermostNodeForTie: true) is not AnonymousFunctionExpressionSyntax first
            || StateRuleFixer.OutsideParentheses(first).Parent is not ArgumentSyntax { Parent: ArgumentListSyntax { Parent: InvocationExpressionSyntax callSyntax } }
            || editor.SemanticModel.GetOperation(callSyntax, cancellationToken) is not IInvocationOperation call
            || !reported.Properties.TryGetValue(StateOverload.KeyOrdinalKey, out var ordinalText)
            || !int.TryParse(ordinalText, NumberStyles.None, CultureInfo.InvariantCulture, out var ordinal)
            || call.Arguments.FirstOrDefault(a => a.Parameter?.Ordinal == ordinal)?.Value is not { } key
            || StateCapture.ReferencedSymbol(key) is not { } variable)
        {
            return null;
        }

        var lambdas = FixSites.PartsOf(reported).Select(s => FixSites.Part<AnonymousFunctionExpressionSyntax>(root, s)).Prepend(first).ToList();
        var replacements = new Dictionary<SyntaxNode, SyntaxNode>();
        foreach (var syntax in lambdas)
        {
            if (syntax is null
                || StateRuleFixer.LambdaIn(call, syntax) is not { } lambda
                || Rewritten(editor, callSyntax, syntax, lambda, variable, version) is not { } rewritten)
            {
                return null;
            }

            replacements[syntax] = rewritten;
        }

        return (callSyntax, callSyntax.ReplaceNodes(replacements.Keys, (original, _) => replacements[original]));
    }

    /// <summary>The lambda reading the key from its first parameter, or null where a name in the body would bind elsewhere.</summary>
    private static SyntaxNode? Rewritten(DocumentEditor editor, SyntaxNode call, AnonymousFunctionExpressionSyntax syntax, IAnonymousFunctionOperation lambda, ISymbol variable, LanguageVersion version)
    {
        if (lambda.Symbol.Parameters.IsEmpty || FirstParameter(syntax) is not { } parameterSyntax)
        {
            return null;
        }

        var parameter = lambda.Symbol.Parameters[0];
        // References to the key, and to the parameter where it is renamed; nameof(key) names the variable, not its value.
        var keyReferences = lambda.Body.Descendants().Where(o => SymbolEqualityComparer.Default.Equals(StateCapture.ReferencedSymbol(o), variable)).ToList();
        var keyReads = keyReferences.Where(o => !StateCapture.IsInNameOf(o)).Select(o => o.Syntax).ToList();
        var parameterReads = lambda.Body.Descendants()
            .Where(o => o is IParameterReferenceOperation reference && SymbolEqualityComparer.Default.Equals(reference.Parameter, parameter))
            .Select(o => o.Syntax)
            .ToList();
        if (keyReads.Any(r => r is not IdentifierNameSyntax) || parameterReads.Any(r => r is not IdentifierNameSyntax))
        {
            return null;
        }

        string name;
        if (parameter.Name != "_" && !parameter.IsDiscard)
        {
            // The parameter keeps its name: the analyzer reports no site where the body declares that name again.
            name = parameter.Name;
        }
        else
        {
            // From C# 8 the parameter may hide the variable and takes its name; before, a name nothing in scope uses. No
            // other name in the lambda may be the new one (a local of the lambda would clash with its parameter).
            var member = call.FirstAncestorOrSelf<MemberDeclarationSyntax>() ?? call;
            name = version >= LanguageVersion.CSharp8
                ? variable.Name
                : FieldNaming.FreeLocal(editor, member, syntax.SpanStart, variable.Name + "Key");
            // nameof(key) names the parameter once renamed, with the same text.
            var keyTokens = new HashSet<SyntaxToken>(keyReferences.Select(o => o.Syntax).OfType<IdentifierNameSyntax>().Select(n => n.Identifier));
            var newName = name;
            if (syntax.DescendantTokens().Any(t => t.IsKind(SyntaxKind.IdentifierToken) && t.ValueText == newName && !keyTokens.Contains(t)))
            {
                return null;
            }
        }

        var given = StateRewrite.EscapedName(name);
        var rewritten = syntax.ReplaceNodes(
            keyReads.Concat(parameterReads).Distinct(),
            (original, _) => IdentifierName(Identifier(given)).WithTriviaFrom(original));
        rewritten = rewritten.ReplaceNode(
            FirstParameter(rewritten)!,
            parameterSyntax.WithIdentifier(Identifier(given).WithTriviaFrom(parameterSyntax.Identifier)));
        if (version >= LanguageVersion.CSharp9 && !rewritten.Modifiers.Any(SyntaxKind.StaticKeyword))
        {
            // 'static' goes first and takes the lambda's leading trivia (a lambda on a line of its own keeps its indent).
            var leading = rewritten.GetLeadingTrivia();
            rewritten = rewritten.WithoutLeadingTrivia();
            rewritten = rewritten.WithModifiers(rewritten.Modifiers.Insert(0, Token(leading, SyntaxKind.StaticKeyword, TriviaList(Space))));
        }

        return rewritten.WithAdditionalAnnotations(Formatter.Annotation);
    }

    private static ParameterSyntax? FirstParameter(AnonymousFunctionExpressionSyntax lambda) => lambda switch
    {
        SimpleLambdaExpressionSyntax simple => simple.Parameter,
        ParenthesizedLambdaExpressionSyntax { ParameterList.Parameters.Count: > 0 } parenthesized => parenthesized.ParameterList.Parameters[0],
        _ => null,
    };
}
