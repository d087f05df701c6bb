using Microsoft.CodeAnalysis;

namespace TplPractices.Analyzers.Tests.Gauntlet.Contexts;

/// <summary>
/// The .editorconfig asks for CRLF while the file's lines end in LF (MQTTnet's setup), with a comment at the end of
/// each line of the code a fix may rewrite, as in <see cref="Comments"/>: the formatter writes CRLF where a fix moves
/// one of them. No line of the fixed file may end otherwise than the file's own.
/// </summary>
internal sealed class ConfiguredLineEnds : GauntletContext
{
    private readonly Comments _comments = new();

    public override string Name => "CRLF configured, LF files";

    public override Variant? Apply(GauntletCase gauntletCase, GauntletSetup setup) =>
        _comments.Apply(gauntletCase, setup) is { } commented
            ? commented with
            {
                Context = Name,
                Transform = solution => GauntletSetup.WithEditorConfig(solution, "end_of_line = crlf\n"),
                Expectation = ExpectAsync,
            }
            : null;

    private static async Task<string?> ExpectAsync(Solution before, Solution after)
    {
        foreach (var document in after.Projects.SelectMany(p => p.Documents))
        {
            var text = (await document.GetTextAsync()).ToString();
            if (text.IndexOf('\r', StringComparison.Ordinal) is var at and >= 0)
            {
                return $"{document.Name} has a CR at line {text[..at].Count(c => c == '\n') + 1}";
            }
        }

        return null;
    }
}
