using System.Reflection;
using Microsoft.CodeAnalysis.Diagnostics;

// One line per rule ID found in the given analyzer assemblies; an assembly or type that cannot load is skipped.
var ids = new SortedSet<string>(StringComparer.Ordinal);
foreach (var path in args)
{
    Type[] types;
    try
    {
        types = Assembly.LoadFrom(path).GetTypes();
    }
    catch (ReflectionTypeLoadException partial)
    {
        types = partial.Types.Where(t => t is not null).ToArray()!;
    }
    catch (Exception e) when (e is BadImageFormatException or FileLoadException or FileNotFoundException)
    {
        Console.Error.WriteLine($"skipped {path}: {e.Message}");
        continue;
    }

    foreach (var type in types.Where(t => !t.IsAbstract && typeof(DiagnosticAnalyzer).IsAssignableFrom(t) && t.GetConstructor(Type.EmptyTypes) is not null))
    {
        try
        {
            foreach (var descriptor in ((DiagnosticAnalyzer)Activator.CreateInstance(type)!).SupportedDiagnostics)
            {
                ids.Add(descriptor.Id);
            }
        }
        catch (Exception e)
        {
            Console.Error.WriteLine($"skipped {type.FullName}: {e.GetType().Name}");
        }
    }
}

foreach (var id in ids)
{
    Console.WriteLine($"dotnet_diagnostic.{id}.severity = warning");
}
