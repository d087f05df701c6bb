using System.Threading;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp.Syntax;
using Microsoft.CodeAnalysis.Diagnostics;
using Microsoft.CodeAnalysis.Editing;
using Microsoft.CodeAnalysis.Text;
using TplPractices.Analyzers.Internals;

namespace TplPractices.Analyzers.CodeFixes.Internals;

/// <summary>
/// A rule whose fix adds one flag of an options enum to the call at the site (TPL0011 on ContinueWith, TPL0013 on a
/// TaskCompletionSource's creation), through <see cref="OptionsFlag"/>.
/// </summary>
public abstract class FlagRuleFixer : SiteRuleFixer
{
    private readonly string _optionsType;
    private readonly string _flag;
    private readonly string _parameterName;

    /// <param name="analyzer">The rule's analyzer.</param>
    /// <param name="kind">The rewrite the analyzer names.</param>
    /// <param name="equivalenceKey">The key of every code action of the rule.</param>
    /// <param name="fixAllTitle">The Fix All action's title.</param>
    /// <param name="optionsType">The options enum's metadata name.</param>
    /// <param name="flag">The flag's member name.</param>
    /// <param name="parameterName">The options parameter's name, for a call that names its arguments.</param>
    protected FlagRuleFixer(DiagnosticAnalyzer analyzer, string kind, string equivalenceKey, string fixAllTitle, string optionsType, string flag, string parameterName)
        : base(analyzer, kind, equivalenceKey, fixAllTitle)
    {
        _optionsType = optionsType;
        _flag = flag;
        _parameterName = parameterName;
    }

    protected sealed override void FixSite(DocumentEditor editor, TextSpan span, string kind, CancellationToken cancellationToken)
    {
        var call = (ExpressionSyntax?)editor.OriginalRoot.FindNode(span, getInnermostNodeForTie: true)
            .FirstAncestorOrSelf<SyntaxNode>(n => n is InvocationExpressionSyntax or BaseObjectCreationExpressionSyntax);
        if (call is null
            || editor.SemanticModel.GetOperation(call, cancellationToken)?.Call() is not var (_, arguments)
            || editor.SemanticModel.Compilation.GetTypeByMetadataName(_optionsType) is not { } optionsType)
        {
            return;
        }

        OptionsFlag.Add(editor, call, arguments, optionsType, _flag, _parameterName);
    }
}
