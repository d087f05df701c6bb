using System;
using System.Collections.Immutable;
using System.Linq;
using System.Runtime.CompilerServices;
using Microsoft.CodeAnalysis;

namespace TplPractices.Analyzers.Internals;

/// <summary>
/// A rule's symbols (and what they work out lazily, such as TPL0008's index of every file's identifiers), kept for
/// the compilation they came from. The compiler runs each analysis on a copy of the compilation of its own, and hosts
/// start one analysis per request: the IDE per file, Fix All per document it checks. Made once per compilation
/// rather than once per analysis, that work stays linear in the project. An entry serves a compilation with the very
/// same trees, options and bound references, which only the copies of one compilation share; it is keyed weakly by
/// the first tree, so it lives no longer than that, and a newer compilation replaces it.
/// </summary>
internal static class PerCompilation<TSymbols>
    where TSymbols : class
{
    private static readonly ConditionalWeakTable<SyntaxTree, Entry> Table = new();

    public static TSymbols? GetOrCreate(Compilation compilation, Func<Compilation, TSymbols?> resolve)
    {
        if (compilation.SyntaxTrees.FirstOrDefault() is not { } first)
        {
            return resolve(compilation);
        }

        if (Table.TryGetValue(first, out var entry) && entry.Serves(compilation))
        {
            return entry.Symbols;
        }

        var created = new Entry(compilation, resolve(compilation));
        Table.Remove(first);
        try
        {
            Table.Add(first, created);
        }
        catch (ArgumentException)
        {
            // Another analysis stored its entry first; both were made from the same compilation.
        }

        return created.Symbols;
    }

    private sealed class Entry
    {
        private readonly ImmutableArray<SyntaxTree> _trees;
        private readonly CompilationOptions _options;
        private readonly ImmutableArray<IAssemblySymbol> _references;

        public Entry(Compilation compilation, TSymbols? symbols)
        {
            _trees = compilation.SyntaxTrees.ToImmutableArray();
            _options = compilation.Options;
            _references = compilation.SourceModule.ReferencedAssemblySymbols;
            Symbols = symbols;
        }

        public TSymbols? Symbols { get; }

        public bool Serves(Compilation compilation) =>
            ReferenceEquals(_options, compilation.Options)
            && SameItems(_trees, compilation.SyntaxTrees.ToImmutableArray())
            && SameItems(_references, compilation.SourceModule.ReferencedAssemblySymbols);

        private static bool SameItems<T>(ImmutableArray<T> a, ImmutableArray<T> b)
            where T : class
        {
            if (a.Length != b.Length)
            {
                return false;
            }

            for (var i = 0; i < a.Length; i++)
            {
                if (!ReferenceEquals(a[i], b[i]))
                {
                    return false;
                }
            }

            return true;
        }
    }
}
