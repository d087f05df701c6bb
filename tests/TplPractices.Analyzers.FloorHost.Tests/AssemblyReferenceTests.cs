using System.Reflection.Metadata;
using System.Reflection.PortableExecutable;

namespace TplPractices.Analyzers.FloorHost.Tests;

/// <summary>
/// A host binds the shipped assemblies' references to the copies it carries. Roslyn 4.8's own netstandard2.0
/// assemblies (what Visual Studio 17.8 loads) say which versions those are at least: a reference to anything newer,
/// or to anything they do not reference, may not bind in the oldest host the package claims.
/// </summary>
public sealed class AssemblyReferenceTests
{
    public static TheoryData<string> ShippedFiles() => new(Shipped.Paths.Select(Path.GetFileName)!);

    [Theory]
    [MemberData(nameof(ShippedFiles))]
    public void EveryReference_IsOneTheFloorHostShips(string file)
    {
        var floor = FloorHost();
        var shippedNames = Shipped.Paths.Select(Path.GetFileNameWithoutExtension).ToHashSet();
        var references = AssemblyInfo(Path.Combine(Shipped.Folder, file)).References;
        Assert.NotEmpty(references);
        Assert.All(
            references.Where(r => !shippedNames.Contains(r.Name)),
            r =>
            {
                Assert.True(floor.TryGetValue(r.Name, out var shipped), $"{file} references {r.Name} {r.Version}, which Roslyn 4.8 neither is nor references");
                Assert.True(r.Version <= shipped, $"{file} references {r.Name} {r.Version}; the floor host ships {shipped}");
            });
    }

    [Fact]
    public void FloorHost_IsRoslyn48()
    {
        var floor = FloorHost();
        Assert.Equal(new Version(4, 8, 0, 0), floor["Microsoft.CodeAnalysis"]);
        Assert.Equal(new Version(4, 8, 0, 0), floor["Microsoft.CodeAnalysis.Workspaces"]);
        Assert.Equal(new Version(7, 0, 0, 0), floor["System.Composition.AttributedModel"]);
    }

    /// <summary>Each Roslyn 4.8 assembly and everything it references, with the lowest version asked for.</summary>
    private static Dictionary<string, Version> FloorHost()
    {
        var floor = new Dictionary<string, Version>(StringComparer.Ordinal);
        void Add(string name, Version version)
        {
            floor[name] = floor.TryGetValue(name, out var seen) && seen < version ? seen : version;
        }

        var files = Shipped.Metadata("FloorRoslyn").Split(';', StringSplitOptions.RemoveEmptyEntries)
            .SelectMany(folder => Directory.GetFiles(folder, "Microsoft.CodeAnalysis*.dll"))
            .ToList();
        Assert.Equal(4, files.Count);
        foreach (var info in files.Select(AssemblyInfo))
        {
            Add(info.Name, info.Version);
            foreach (var reference in info.References)
            {
                Add(reference.Name, reference.Version);
            }
        }

        return floor;
    }

    private static (string Name, Version Version, List<(string Name, Version Version)> References) AssemblyInfo(string path)
    {
        using var pe = new PEReader(File.OpenRead(path));
        var reader = pe.GetMetadataReader();
        var definition = reader.GetAssemblyDefinition();
        var references = reader.AssemblyReferences
            .Select(h => reader.GetAssemblyReference(h))
            .Select(r => (reader.GetString(r.Name), r.Version))
            .ToList();
        return (reader.GetString(definition.Name), definition.Version, references);
    }
}
