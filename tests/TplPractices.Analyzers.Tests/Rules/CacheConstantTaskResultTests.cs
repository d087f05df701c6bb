using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp;
using Microsoft.CodeAnalysis.Testing;
using TplPractices.Analyzers.Tests.Verifiers;
using Verify = TplPractices.Analyzers.Tests.Verifiers.CSharpCodeFixVerifier<
    TplPractices.Analyzers.Rules.CacheConstantTaskResultAnalyzer,
    TplPractices.Analyzers.CodeFixes.Rules.CacheConstantTaskResultFixer>;

namespace TplPractices.Analyzers.Tests.Rules;

/// <summary>TPL0003: where Task.FromResult(constant) is reported, and where it is not.</summary>
public sealed class CacheConstantTaskResultTests
{
    /// <summary>Results the .NET 8+ runtime caches (TaskResultCacheTests checks them on the running runtime).</summary>
    public static TheoryData<string, string> RuntimeCachedValues => new()
    {
        { "bool", "true" },
        { "bool", "false" },
        { "int", "0" },
        { "int", "-1" },
        { "int", "8" },
        { "long", "0" },
        { "char", "default" },
        { "string?", "null" },
        { "object?", "null" },
        { "int?", "null" },
        { "uint", "0" },
        { "ushort", "0" },
        { "double", "0.0" },
        { "decimal", "0m" },
        { "System.Guid", "default" },
        { "System.DateTime", "default" },
        { "System.DayOfWeek", "default" },
        { "(int, int)", "default" },
    };

    /// <summary>Constants the runtime never caches: every target reports them.</summary>
    public static TheoryData<string, string> UncachedValues => new()
    {
        { "int", "42" },
        { "int", "9" },
        { "int", "-2" },
        { "long", "1" },
        { "double", "-0.0" },
        { "double", "1.5" },
        { "decimal", "0.0m" },
        { "string", "\"done\"" },
        { "string", "\"\"" },
        { "System.DayOfWeek", "System.DayOfWeek.Monday" },
        { "System.Collections.Generic.KeyValuePair<string, int>", "default" },
        { "(string, int)", "default" },
    };

    [Theory]
    [MemberData(nameof(RuntimeCachedValues))]
    public async Task ValueCachedByRuntime_OnNet80AndNet100_DoesNotReport(string type, string value)
    {
        await Verify.VerifyAnalyzerAsync(Source(type, value, marked: false), TestTarget.Net80);
        await Verify.VerifyAnalyzerAsync(Source(type, value, marked: false), TestTarget.Net100);
    }

    [Theory]
    [MemberData(nameof(RuntimeCachedValues))]
    public async Task ValueCachedByRuntime_OnNetStandardAndNetFramework_Reports(string type, string value)
    {
        await Verify.VerifyAnalyzerAsync(Source(type, value, marked: true), TestTarget.NetStandard20);
        await Verify.VerifyAnalyzerAsync(Source(type, value, marked: true), TestTarget.Net472);
    }

    [Theory]
    [MemberData(nameof(UncachedValues))]
    public async Task UncachedValue_OnEveryTarget_Reports(string type, string value)
    {
        // .NET Framework 4.6.2 has no ValueTuple: a tuple result does not compile there.
        foreach (var target in Enum.GetValues<TestTarget>().Where(t => t != TestTarget.Net462 || !type.StartsWith('(')))
        {
            await Verify.VerifyAnalyzerAsync(Source(type, value, marked: true), target);
        }
    }

    [Fact]
    public async Task ConstFieldAndLocalConst_Reports()
    {
        await Verify.VerifyAnalyzerAsync(/* lang=c#-test */ """
            using System.Threading.Tasks;

            class C
            {
                private const int Answer = 42;

                Task<int> A() => [|Task.FromResult(Answer)|];

                Task<int> B()
                {
                    const int local = 100;
                    return [|Task.FromResult(local)|];
                }

                Task<long> Widened() => [|Task.FromResult<long>(1)|];
            }
            """);
    }

    [Fact]
    public async Task NonConstantArgument_DoesNotReport()
    {
        await Verify.VerifyAnalyzerAsync(/* lang=c#-test */ """
            using System.Threading.Tasks;

            class C
            {
                private static readonly int s_notConst = 42;

                Task<int> A(int x) => Task.FromResult(x);
                Task<int> B() => Task.FromResult(s_notConst);
                Task<int> C1() => Task.FromResult(41 + Helper());
                static int Helper() => 1;
            }
            """);
    }

    [Fact]
    public async Task CodeThatRunsOnce_DoesNotReport()
    {
        await Verify.VerifyAnalyzerAsync(/* lang=c#-test */ """
            using System.Threading.Tasks;

            class C
            {
                private static readonly Task<int> s_field = Task.FromResult(42);
                private static Task<int> Property { get; } = Task.FromResult(43);
                private static readonly Task<int> s_fromStaticConstructor;

                static C()
                {
                    s_fromStaticConstructor = Task.FromResult(44);
                }
            }
            """);
    }

    /// <summary>A task stored only while its field is empty is a cache already: a second one would sit in front of it.</summary>
    [Fact]
    public async Task TasksTheCodeAlreadyCaches_DoNotReport()
    {
        await Verify.VerifyAnalyzerAsync(/* lang=c#-test */ """
            using System;
            using System.Threading;
            using System.Threading.Tasks;

            class C
            {
                private static Task<int>? s_one;
                private Task<int>? _two;
                private Task<int>? _three;
                private Task<int>? _four;
                private Task<int>? _five;
                private Task<int>? _six;
                private static readonly Lazy<Task<int>> s_seven = new Lazy<Task<int>>(() => Task.FromResult(47));
                private Task<int>? _notCached;
                private Task<int>? Cached { get; set; }

                Task<int> One() => s_one ??= Task.FromResult(41);
                Task<int> Two() => _two = _two ?? Task.FromResult(42);
                Task<int> Three()
                {
                    if (_three == null)
                    {
                        _three = Task.FromResult(43);
                    }

                    return _three;
                }

                Task<int> Four()
                {
                    if (this._four is null) this._four = Task.FromResult(44);
                    return _four;
                }

                Task<int> Five() => LazyInitializer.EnsureInitialized(ref _five, () => Task.FromResult(45));
                Task<int> Six() => (Task<int>)(_six ??= (Task<int>)Task.FromResult(46));
                Task<int> Seven() => s_seven.Value;
                Task<int> Eight() => Cached ??= Task.FromResult(48);

                // Stored every time, or only when some other member is empty: still a new task per call.
                Task<int> NotCached(Task<int>? other)
                {
                    if (other == null)
                    {
                        _notCached = [|Task.FromResult(49)|];
                    }

                    _notCached = _six ?? [|Task.FromResult(50)|];
                    return _notCached = [|Task.FromResult(51)|];
                }
            }
            """);
    }

    [Fact]
    public async Task InstanceInitializersAndConstructors_Report()
    {
        await Verify.VerifyAnalyzerAsync(/* lang=c#-test */ """
            using System.Threading.Tasks;

            class C
            {
                private readonly Task<int> _field = [|Task.FromResult(42)|];
                private Task<int> Property { get; } = [|Task.FromResult(43)|];
                private readonly Task<int> _fromConstructor;

                public C()
                {
                    _fromConstructor = [|Task.FromResult(44)|];
                }
            }
            """);
    }

    [Fact]
    public async Task AccessorsOperatorsLambdasAndLocalFunctions_Report()
    {
        await Verify.VerifyAnalyzerAsync(/* lang=c#-test */ """
            using System;
            using System.Threading.Tasks;

            class C
            {
                // A lambda in a static initializer runs on every call of the delegate.
                private static readonly Func<Task<int>> s_factory = () => [|Task.FromResult(42)|];

                Task<int> Property => [|Task.FromResult(1000)|];

                Task<int> this[int i] { get { return [|Task.FromResult(1001)|]; } }

                public static Task<int> operator +(C a, C b) => [|Task.FromResult(1002)|];

                Task<int> Local()
                {
                    return Inner();
                    Task<int> Inner() => [|Task.FromResult(1003)|];
                }

                Func<Func<Task<string>>> Nested() => () => () => [|Task.FromResult("nested")|];
            }
            """);
    }

    [Fact]
    public async Task TopLevelStatements_ReportOnlyInsideLambdasAndLocalFunctions()
    {
        await new Verify.Test
        {
            TestState = { OutputKind = OutputKind.ConsoleApplication },
            TestCode = /* lang=c#-test */ """
                using System;
                using System.Threading.Tasks;

                var once = await Task.FromResult(42);
                Func<Task<int>> again = () => [|Task.FromResult(43)|];
                Console.WriteLine(once + await again() + await Local());

                Task<int> Local() => [|Task.FromResult(44)|];
                """,
        }.RunAsync();
    }

    [Fact]
    public async Task GeneratedCode_DoesNotReport()
    {
        await Verify.VerifyAnalyzerAsync(/* lang=c#-test */ """
            // <auto-generated/>
            using System.Threading.Tasks;

            class C
            {
                Task<int> M() => Task.FromResult(42);
            }
            """);
    }

    [Fact]
    public async Task GeneratedCodeAttribute_DoesNotReport()
    {
        await Verify.VerifyAnalyzerAsync(/* lang=c#-test */ """
            using System.CodeDom.Compiler;
            using System.Threading.Tasks;

            [GeneratedCode("tool", "1.0")]
            class C
            {
                Task<int> M() => Task.FromResult(42);
            }
            """);
    }

    /// <summary>
    /// A constant boxed or made nullable is no constant to the compiler but never changes, and the runtime caches
    /// only the null of such types; string.Empty is a field, yet always the same empty string. Every target allocates.
    /// </summary>
    [Fact]
    public async Task ConstantsBoxedOrMadeNullable_AndStringEmpty_ReportOnEveryTarget()
    {
        foreach (var target in Enum.GetValues<TestTarget>())
        {
            await Verify.VerifyAnalyzerAsync(/* lang=c#-test */ """
                using System.Threading.Tasks;

                class C
                {
                    const int Answer = 42;
                    Task<long?> A() => [|Task.FromResult<long?>(0)|];
                    Task<object> B() => [|Task.FromResult<object>(0)|];
                    Task<string> D() => [|Task.FromResult(string.Empty)|];
                    Task<object> E() => [|Task.FromResult<object>("done")|];
                    Task<int?> F() => [|Task.FromResult<int?>(Answer)|];
                    Task<System.IComparable> G() => [|Task.FromResult<System.IComparable>(true)|];
                }
                """, target);
        }
    }

    [Fact]
    public async Task ExpressionTree_DoesNotReport()
    {
        await Verify.VerifyAnalyzerAsync(/* lang=c#-test */ """
            using System;
            using System.Linq.Expressions;
            using System.Threading.Tasks;

            class C
            {
                Expression<Func<Task<int>>> M() => () => Task.FromResult(42);
            }
            """);
    }

    [Fact]
    public async Task TypeParameterResult_DoesNotReport()
    {
        await Verify.VerifyAnalyzerAsync(/* lang=c#-test */ """
            using System.Threading.Tasks;

            class C<TClass>
            {
                Task<TMethod?> A<TMethod>() => Task.FromResult<TMethod?>(default);
                Task<TClass?> B() => Task.FromResult<TClass?>(default);
            }
            """, TestTarget.NetStandard20);
    }

    [Fact]
    public async Task OtherFromResultMethods_DoNotReport()
    {
        await Verify.VerifyAnalyzerAsync(/* lang=c#-test */ """
            using System.Threading.Tasks;

            static class Custom
            {
                public static Task<T> FromResult<T>(T value) => Task.FromResult(value);
            }

            class C
            {
                Task<int> A() => Custom.FromResult(42);
                ValueTask<int> B() => new ValueTask<int>(42);
            }
            """);
    }

    [Fact]
    public async Task Message_NamesValueAndTaskType()
    {
        await new Verify.Test
        {
            TestCode = /* lang=c#-test */ """
                using System.Threading.Tasks;

                class C
                {
                    Task<string> A() => {|#0:Task.FromResult("ready")|};
                    Task<double> B() => {|#1:Task.FromResult(1.5)|};
                }
                """,
            ExpectedDiagnostics =
            {
                Verify.Diagnostic().WithLocation(0).WithMessage("'Task.FromResult(\"ready\")' allocates a new Task<string> every time it runs; reuse one cached task"),
                Verify.Diagnostic().WithLocation(1).WithMessage("'Task.FromResult(1.5)' allocates a new Task<double> every time it runs; reuse one cached task"),
            },
        }.RunAsync();
    }

    [Theory]
    [InlineData("Task.FromResult(")]
    [InlineData("Task.FromResult(42")]
    [InlineData("Task.FromResult<Missing>(null)")]
    [InlineData("Task.FromResult<int>(\"text\")")]
    [InlineData("Task.FromResult(42, 43)")]
    [InlineData("Task.FromResult(UnknownConstant)")]
    [InlineData("Task.")]
    public async Task IncompleteOrInvalidCode_DoesNotReportOrThrow(string expression)
    {
        await new Verify.Test
        {
            CompilerDiagnostics = CompilerDiagnostics.None,
            TestCode = "using System.Threading.Tasks;\nclass C\n{\n    object M() => " + expression + ";\n}\n",
        }.RunAsync();
    }

    /// <summary>Regression (FuzzTests, long mode): a broken type header left TClass unbound, and the fix added errors.</summary>
    [Fact]
    public async Task BrokenTypeHeader_DoesNotReport()
    {
        await new Verify.Test
        {
            CompilerDiagnostics = CompilerDiagnostics.None,
            Target = TestTarget.NetStandard20,
            TestCode = "using System.Threading.Tasks;\nclass C< <TClass>\n{\n    Task<TClass?> B() => Task.FromResult<TClass?>(default);\n    Task<int> D() => Task.FromResult<Missing<int>>(null).ContinueWith(_ => 1);\n}\n",
        }.RunAsync();
    }

    [Fact]
    public async Task MissingTaskType_DoesNotThrow()
    {
        await new Verify.Test
        {
            CompilerDiagnostics = CompilerDiagnostics.None,
            TestCode = "namespace System.Threading.Tasks { }\nclass C { object M() => Task.FromResult(42); }\n",
        }.RunAsync();
    }

    [Fact]
    public async Task OlderLanguageVersion_Reports()
    {
        await new Verify.Test
        {
            LanguageVersion = LanguageVersion.CSharp7_3,
            NullableContext = NullableContextOptions.Disable,
            TestCode = /* lang=c#-test */ """
                using System.Threading.Tasks;

                class C
                {
                    Task<int> M() { return [|Task.FromResult(42)|]; }
                }
                """,
        }.RunAsync();
    }

    private static string Source(string type, string value, bool marked)
    {
        var call = $"Task.FromResult<{type}>({value})";
        return $$"""
            using System.Threading.Tasks;

            class C
            {
                public Task<{{type}}> M() => {{(marked ? "[|" + call + "|]" : call)}};
            }
            """;
    }
}
