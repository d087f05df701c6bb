using System;

namespace TplPractices.Benchmarks.Reporting;

/// <summary>
/// A class whose baselines' bytes per operation depend on a race the smoke run cannot fix: work queued to the thread
/// pool, then waited for, allocates a little less or more as the pool takes it up before or after the wait. The smoke
/// run's allocation check allows the class <see cref="Bytes"/> of noise instead of the default; the measured runs in the
/// report show the real figures.
/// </summary>
[AttributeUsage(AttributeTargets.Class)]
public sealed class BaselineBytesVaryAttribute : Attribute
{
    public BaselineBytesVaryAttribute(int bytes, string reason)
    {
        Bytes = bytes;
        Reason = reason;
    }

    public int Bytes { get; }

    public string Reason { get; }
}
