using System.Diagnostics;

// The runtime compiles this assembly's methods without optimizing them. A compiler process that does not tier its
// JIT (Visual Studio's and MSBuild's .NET Framework csc, or DOTNET_TieredCompilation=0) otherwise optimizes each of our
// methods on first call, and that JIT cost more than every call after it: 0.6 to 0.9 G instructions once, against
// about 16 M for all our methods' own work on 150 files (docs/performance.md, "Our code, compiled unoptimized").
// Where the JIT tiers (the .NET SDK's csc), our methods never ran often enough to gain from it, and builds took the
// same time either way. The runtime honours DisableOptimizations only beside Default (its JIT-tracking bit).
[assembly: Debuggable(
    DebuggableAttribute.DebuggingModes.Default
    | DebuggableAttribute.DebuggingModes.IgnoreSymbolStoreSequencePoints
    | DebuggableAttribute.DebuggingModes.DisableOptimizations)]
