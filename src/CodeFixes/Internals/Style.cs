using System;
using System.Linq;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp.Syntax;
using Microsoft.CodeAnalysis.Diagnostics;
using Microsoft.CodeAnalysis.Text;

namespace TplPractices.Analyzers.CodeFixes.Internals;

/// <summary>
/// The file's layout settings, from .editorconfig where it sets them, else from the file: its line break, its indent
/// (a tab where it indents with tabs), the longest line a fix may write (<c>max_line_length</c>, else 160), and how
/// its author lays out statements and argument lists (<see cref="WrittenShapes"/>).
/// </summary>
internal sealed class Style
{
    private const int DefaultMaxLineLength = 160;

    private const int DefaultIndentSize = 4;

    private const int MaxWrittenIndent = 8;

    private Style(string newLine, bool tabs, int indentSize, int maxLineLength, WrittenShapes shapes, string? braces = null)
    {
        _braces = braces;
        NewLine = newLine;
        Tabs = tabs;
        IndentSize = indentSize;
        MaxLineLength = maxLineLength;
        StatementsShareLines = shapes.StatementsShareLines;
        ArgumentsOneALine = shapes.ArgumentsOneALine;
    }

    public string NewLine { get; }

    public bool Tabs { get; }

    public int IndentSize { get; }

    public int MaxLineLength { get; }

    /// <summary>The author writes two statements on one line somewhere in the file: a block the fix writes may do so too.</summary>
    public bool StatementsShareLines { get; }

    /// <summary>
    /// The project runs StyleCop's SA1116 and SA1117: a list over several lines puts each argument on a line of its own,
    /// the first after the parenthesis, so a list the fix spreads over lines does so too.
    /// </summary>
    public bool ArgumentsOneALine { get; }

    /// <summary>
    /// Where <c>csharp_new_line_before_open_brace</c> puts a <c>{</c>: <c>all</c> (also when unset, the formatter's
    /// default), <c>none</c>, or the kinds of code it lists (<c>lambdas, methods, …</c>).
    /// </summary>
    private readonly string? _braces;

    /// <summary>
    /// Whether a body block's <c>{</c> begins a line of its own: a lambda's or anonymous method's where the setting
    /// names <c>lambdas</c> or <c>anonymous_methods</c>, a member's or local function's where it names its kind.
    /// </summary>
    public bool BraceOnItsOwnLine(BlockSyntax block)
    {
        if (_braces is null || _braces.Equals("all", StringComparison.OrdinalIgnoreCase))
        {
            return true;
        }

        var kind = block.Parent switch
        {
            AnonymousMethodExpressionSyntax => "anonymous_methods",
            AnonymousFunctionExpressionSyntax => "lambdas",
            LocalFunctionStatementSyntax => "local_functions",
            AccessorDeclarationSyntax => "accessors",
            _ => "methods",
        };
        return _braces.Split(',').Any(k => k.Trim().Equals(kind, StringComparison.OrdinalIgnoreCase));
    }

    public static Style Of(AnalyzerConfigOptions options, SyntaxNode root, Project project)
    {
        var text = root.SyntaxTree.GetText();
        var (tabs, size) = IndentOf(options, text);
        var max = options.TryGetValue("max_line_length", out var limit) && int.TryParse(limit, out var m) && m > 0 ? m : DefaultMaxLineLength;
        var newLine = NewLines.Of(root).ToString();
        var measure = new Style(newLine, tabs, size, max, default);
        var braces = options.TryGetValue("csharp_new_line_before_open_brace", out var written) ? written.Split(':')[0].Trim() : null;
        return new Style(newLine, tabs, size, max, WrittenShapes.Of(root, project, line => measure.Width(line) > max), braces);
    }

    /// <summary>
    /// How the file indents: with tabs or spaces as <c>indent_style</c> says, else as most of its indented lines begin;
    /// by <c>indent_size</c> (a tab's width: <c>tab_width</c>), else by the step its author used (a file written two
    /// spaces a level, with no setting that says so, gets code written two spaces a level too).
    /// </summary>
    private static (bool Tabs, int Size) IndentOf(AnalyzerConfigOptions options, SourceText text)
    {
        var tabs = options.TryGetValue("indent_style", out var indentStyle)
            ? indentStyle.Equals("tab", StringComparison.OrdinalIgnoreCase)
            : BeginWithTabs(text);
        if (!tabs)
        {
            return (false, ConfiguredIndentSize(options) ?? WrittenIndentSize(text) ?? DefaultIndentSize);
        }

        return (true, options.TryGetValue("tab_width", out var width) && int.TryParse(width, out var w) && w > 0
            ? w
            : ConfiguredIndentSize(options) ?? DefaultIndentSize);
    }

    /// <summary>More of the file's indented lines begin with a tab than with a space.</summary>
    private static bool BeginWithTabs(SourceText text)
    {
        var balance = 0;
        foreach (var line in text.Lines)
        {
            if (line.Span.Length > 0 && text[line.Start] is '\t' or ' ')
            {
                balance += text[line.Start] == '\t' ? 1 : -1;
            }
        }

        return balance > 0;
    }

    private static int? ConfiguredIndentSize(AnalyzerConfigOptions options) =>
        options.TryGetValue("indent_size", out var value) && int.TryParse(value, out var n) && n > 0 ? n : null;

    /// <summary>
    /// The step the author indents by: the commonest step from a line that ends with <c>{</c> to the next line of code,
    /// deeper by one to eight spaces (a body, a block, a type's members). Null where no line shows it.
    /// </summary>
    private static int? WrittenIndentSize(SourceText text)
    {
        var steps = new int[MaxWrittenIndent + 1];
        int? opened = null;
        foreach (var line in text.Lines)
        {
            var content = text.ToString(line.Span);
            var indentation = content.Length - content.TrimStart(' ').Length;
            if (indentation == content.Length || content[indentation] == '#')
            {
                // A directive is written at any column (often the first): the step is in the code around it.
                continue;
            }

            if (opened is { } outer && indentation - outer is > 0 and <= MaxWrittenIndent)
            {
                steps[indentation - outer]++;
            }

            opened = content.TrimEnd().EndsWith("{", StringComparison.Ordinal) ? indentation : null;
        }

        var most = steps.Max();
        return most == 0 ? null : Array.IndexOf(steps, most);
    }

    /// <summary>The column of the first character that is not white space, tabs counted to the next tab stop.</summary>
    public int Indentation(string line)
    {
        var column = 0;
        foreach (var c in line)
        {
            if (c == '\t')
            {
                column += IndentSize - (column % IndentSize);
            }
            else if (c == ' ')
            {
                column++;
            }
            else
            {
                break;
            }
        }

        return column;
    }

    /// <summary>The column of a position, tabs counted to the next tab stop.</summary>
    public int Column(SourceText text, int position)
    {
        var line = text.Lines.GetLineFromPosition(position);
        var column = 0;
        for (var i = line.Start; i < position; i++)
        {
            column += text[i] == '\t' ? IndentSize - (column % IndentSize) : 1;
        }

        return column;
    }

    /// <summary>The width of a line as an editor shows it.</summary>
    public int Width(TextLine line) => Column(line.Text!, line.End);

    /// <summary>White space reaching <paramref name="column"/>, in tabs where the file indents with them.</summary>
    public string Whitespace(int column) =>
        Tabs ? new string('\t', column / IndentSize) + new string(' ', column % IndentSize) : new string(' ', column);
}
