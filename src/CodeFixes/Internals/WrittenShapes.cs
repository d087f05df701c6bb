using System.Linq;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.Diagnostics;
using Microsoft.CodeAnalysis.CSharp.Syntax;
using Microsoft.CodeAnalysis.Text;

namespace TplPractices.Analyzers.CodeFixes.Internals;

/// <summary>How the file's author lays out what a fix also writes: statements in a block, arguments of a long call.</summary>
internal readonly struct WrittenShapes
{
    private WrittenShapes(bool statementsShareLines, bool argumentsOneALine)
    {
        StatementsShareLines = statementsShareLines;
        ArgumentsOneALine = argumentsOneALine;
    }

    public bool StatementsShareLines { get; }

    public bool ArgumentsOneALine { get; }

    /// <summary>
    /// Read once per fixed document. Statements from the file as it was before the fix (a fix never writes two on a
    /// line, so fixes taken one by one or all at once read the same), leaving out a member's one-line body on a line
    /// longer than the file allows: a fix that writes into it lays it out one statement a line (LongLines,
    /// BodyBlocks), and the answer must not change with whether another rule's fix did so first. Arguments from the
    /// project: where it runs StyleCop with SA1117 on, every list over several lines must put each argument on a line
    /// of its own; read from the file, the answer would change once an earlier fix had spread a list, and the IDE's
    /// single fixes and Fix All would lay the same code out differently.
    /// </summary>
    public static WrittenShapes Of(SyntaxNode root, Project project, System.Func<TextLine, bool> tooLong)
    {
        var text = root.SyntaxTree.GetText();
        var shareLines = false;
        foreach (var block in root.DescendantNodes().OfType<BlockSyntax>())
        {
            if (StatementsShareALine(text, block) && !(BodyBlocks.IsMemberBody(block) && tooLong(text.Lines.GetLineFromPosition(block.SpanStart)) && Layout.Spans(text, block) == 1))
            {
                shareLines = true;
                break;
            }
        }

        return new WrittenShapes(shareLines, RunsStyleCopArgumentRules(project, root.SyntaxTree));
    }

    /// <summary>
    /// StyleCop is among the project's analyzers and SA1117 is not turned off. An <c>.editorconfig</c>'s
    /// <c>dotnet_diagnostic.SA1117.severity</c> reaches the compilation's tree options, not the analyzer options (the
    /// compiler keeps <c>dotnet_diagnostic</c> keys for itself); the project's own (NoWarn) are its specific options.
    /// </summary>
    private static bool RunsStyleCopArgumentRules(Project project, SyntaxTree tree)
    {
        if (!project.AnalyzerReferences.Any(r => r.Display?.IndexOf("StyleCop", System.StringComparison.OrdinalIgnoreCase) >= 0
            || (r.FullPath?.IndexOf("StyleCop", System.StringComparison.OrdinalIgnoreCase) ?? -1) >= 0))
        {
            return false;
        }

        const string Id = "SA1117";
        var compilation = project.CompilationOptions;
        var provider = compilation?.SyntaxTreeOptionsProvider;
        var severity = ReportDiagnostic.Default;
        if (provider is not null
            && (provider.TryGetDiagnosticValue(tree, Id, System.Threading.CancellationToken.None, out severity)
                || provider.TryGetGlobalDiagnosticValue(Id, System.Threading.CancellationToken.None, out severity)))
        {
            return severity is not (ReportDiagnostic.Suppress or ReportDiagnostic.Hidden);
        }

        return !(compilation?.SpecificDiagnosticOptions.TryGetValue(Id, out severity) == true && severity is ReportDiagnostic.Suppress or ReportDiagnostic.Hidden);
    }

    /// <summary>Two of the block's statements begin on one line.</summary>
    public static bool StatementsShareALine(SourceText text, BlockSyntax block)
    {
        for (var i = 1; i < block.Statements.Count; i++)
        {
            if (Layout.SameLine(text, block.Statements[i - 1].Span.End, block.Statements[i].SpanStart))
            {
                return true;
            }
        }

        return false;
    }

    /// <summary>Each argument begins a line.</summary>
    public static bool IsOneALine(SourceText text, BaseArgumentListSyntax list)
    {
        foreach (var argument in list.Arguments)
        {
            if (!Layout.BeginsLine(text, argument))
            {
                return false;
            }
        }

        return true;
    }
}
