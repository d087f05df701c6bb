using System.Collections.Generic;
using System.Collections.Immutable;
using System.Linq;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.Diagnostics;

namespace TplPractices.Analyzers.Internals;

/// <summary>
/// How the state rules (TPL0001, TPL0006, TPL0007, TPL0015) report a capture: on the lambda, naming what it captures,
/// with what the fixer rewrites (<see cref="StateFacts"/>) where there is a fix.
/// </summary>
internal static class StateDiagnostics
{
    /// <summary>
    /// Reports <paramref name="capture"/> with the rewrite <paramref name="fixKind"/>, or none where the capture has no
    /// fix; a rule's own facts for its fixer come in <paramref name="extra"/> and <paramref name="parts"/>. Where one state
    /// serves several callbacks (TPL0015), <paramref name="described"/> is the reported callback as it captures: the
    /// diagnostic's place and message. <paramref name="advice"/> turns the pronoun for the captures ("it", "them") into a
    /// rule's closing words, where its message ends in them.
    /// </summary>
    public static void Report(
        OperationAnalysisContext context,
        RuleOptions options,
        DiagnosticDescriptor rule,
        StateCapture capture,
        string fixKind,
        ImmutableDictionary<string, string?>? extra = null,
        IEnumerable<Location>? parts = null,
        StateCapture? described = null,
        System.Func<string, string>? advice = null)
    {
        described ??= capture;
        var names = described.CapturedNames.ToList();
        var properties = DiagnosticPropertyKeys.ForFix(capture.NoFixReason is null ? fixKind : null);
        if (capture.NoFixReason is null)
        {
            properties = StateFacts.With(properties, capture);
            if (extra is not null)
            {
                properties = properties.SetItems(extra);
            }
        }

        options.Report(context, Diagnostic.Create(
            rule,
            described.Lambda.Syntax.GetLocation(),
            capture.NoFixReason is null ? parts : null,
            properties,
            MessageText.QuotedList(names),
            described.Allocations,
            advice is null ? Pronoun(names.Count) : advice(Pronoun(names.Count))));
    }

    private static string Pronoun(int count) => count == 1 ? "it" : "them";
}
