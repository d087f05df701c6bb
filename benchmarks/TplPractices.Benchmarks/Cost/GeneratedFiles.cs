using System.IO;
using System.Linq;

namespace TplPractices.Benchmarks.Cost;

/// <summary>benchmarks/build-cost/FileTemplate.txt (embedded) rendered as generate.sh renders it: file <c>n</c>, with or without its hits.</summary>
public static class GeneratedFiles
{
    private static readonly string[] Lines = Read().Replace("\r\n", "\n").Split('\n');

    public static string Render(int n, bool hits = true) =>
        string.Join("\n", Lines.Where(line => hits || !line.EndsWith("// HIT", System.StringComparison.Ordinal)))
            .Replace("{N7}", ((n % 7) + 1).ToString())
            .Replace("{N5}", (n % 5).ToString())
            .Replace("{N}", n.ToString());

    private static string Read()
    {
        using var stream = typeof(GeneratedFiles).Assembly.GetManifestResourceStream("FileTemplate.txt")!;
        return new StreamReader(stream).ReadToEnd();
    }
}
