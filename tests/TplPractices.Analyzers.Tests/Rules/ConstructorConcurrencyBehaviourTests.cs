using TplPractices.Analyzers.Tests.Verifiers;
using Verify = TplPractices.Analyzers.Tests.Verifiers.CSharpCodeFixVerifier<
    TplPractices.Analyzers.Rules.ConstructorConcurrencyAnalyzer,
    TplPractices.Analyzers.CodeFixes.Rules.ConstructorConcurrencyFixer>;

namespace TplPractices.Analyzers.Tests.Rules;

/// <summary>TPL0010: the constructor the fix leaves builds the same object as the protected one.</summary>
public sealed class ConstructorConcurrencyBehaviourTests
{
    private const string Before = /* lang=c#-test */ """
        using System.Collections.Generic;
        using System.Threading;

        public sealed class Thing
        {
            private readonly object _gate = new object();
            private readonly List<int> _items = new List<int>();
            private int _count;
            private long _total;
            private string _name = "";
            private bool _ready;

            public Thing(int seed)
            {
                {|#0:lock|} (_gate)
                {
                    _items.Add(seed);
                    _items.Add(seed * 2);
                }

                var first = {|#1:Interlocked.Increment(ref _count)|};
                {|#2:Interlocked.Add(ref _total, seed + first)|};
                {|#3:Interlocked.Exchange(ref _name, "thing" + seed)|};
                {|#4:Volatile.Write(ref _ready, seed > 0)|};
                _total += {|#5:Volatile.Read(ref _count)|};
            }

            public override string ToString() => string.Join(",", _items) + "|" + _count + "|" + _total + "|" + _name + "|" + _ready;
        }

        public static class Api
        {
            public static string Build(int seed) => new Thing(seed).ToString();
        }
        """;

    private const string After = /* lang=c#-test */ """
        using System.Collections.Generic;
        using System.Threading;

        public sealed class Thing
        {
            private readonly object _gate = new object();
            private readonly List<int> _items = new List<int>();
            private int _count;
            private long _total;
            private string _name = "";
            private bool _ready;

            public Thing(int seed)
            {
                _items.Add(seed);
                _items.Add(seed * 2);

                var first = ++_count;
                _total += seed + first;
                _name = "thing" + seed;
                _ready = seed > 0;
                _total += _count;
            }

            public override string ToString() => string.Join(",", _items) + "|" + _count + "|" + _total + "|" + _name + "|" + _ready;
        }

        public static class Api
        {
            public static string Build(int seed) => new Thing(seed).ToString();
        }
        """;

    [Fact]
    public async Task TheFix_IsTheOneRunHere()
    {
        var test = new Verify.Test { TestCode = Before, FixedCode = After };
        test.ExpectedDiagnostics.Add(Verify.Diagnostic().WithLocation(0).WithArguments("'lock'", "_gate"));
        test.ExpectedDiagnostics.Add(Verify.Diagnostic().WithLocation(1).WithArguments("'Interlocked.Increment'", "_count"));
        test.ExpectedDiagnostics.Add(Verify.Diagnostic().WithLocation(2).WithArguments("'Interlocked.Add'", "_total"));
        test.ExpectedDiagnostics.Add(Verify.Diagnostic().WithLocation(3).WithArguments("'Interlocked.Exchange'", "_name"));
        test.ExpectedDiagnostics.Add(Verify.Diagnostic().WithLocation(4).WithArguments("'Volatile.Write'", "_ready"));
        test.ExpectedDiagnostics.Add(Verify.Diagnostic().WithLocation(5).WithArguments("'Volatile.Read'", "_count"));
        await test.RunAsync();
    }

    [Theory]
    [InlineData(3)]
    [InlineData(-4)]
    public async Task FixedConstructor_BuildsTheSameObject(int seed)
    {
        var original = await CodeRunner.RunAsync(TestMarkup.Strip(Before), "Api", "Build", seed);
        Assert.StartsWith("returned ", original, StringComparison.Ordinal);
        Assert.Equal(original, await CodeRunner.RunAsync(After, "Api", "Build", seed));
    }
}
