using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp;
using Microsoft.CodeAnalysis.Testing;
using TplPractices.Analyzers.CodeFixes.Rules;
using TplPractices.Analyzers.Tests.Verifiers;
using Verify = TplPractices.Analyzers.Tests.Verifiers.CSharpCodeFixVerifier<
    TplPractices.Analyzers.Rules.CacheConstantTaskResultAnalyzer,
    TplPractices.Analyzers.CodeFixes.Rules.CacheConstantTaskResultFixer>;

namespace TplPractices.Analyzers.Tests.Rules;

/// <summary>
/// TPL0003: the two rewrites, Fix All, field reuse and naming. Every case here is checked one fix at a
/// time and through Fix All in document, project and solution scope, and the result must compile.
/// </summary>
public sealed class CacheConstantTaskResultFixTests
{
    /// <summary>
    /// A #pragma or #region by the usings, or an #if around the whole file, leaves the usings in force wherever the code
    /// compiles: the new field is written with the names the file's usings allow, not global::-qualified.
    /// </summary>
    [Theory]
    [InlineData("#pragma warning disable CS1591\n", "", "")]
    [InlineData("#region Usings\n", "#endregion\n", "")]
    [InlineData("#if NET\n", "", "#endif\n")]
    public async Task DirectivesThatDoNotCondition_TheUsings_KeepPlainNames(string before, string after, string end)
    {
        var test = new Verify.Test
        {
            TestCode = before + "using System.Threading.Tasks;\n" + after + "\nclass C\n{\n    public Task<int> M() => [|Task.FromResult(42)|];\n}\n" + end,
            FixedCode = before + "using System.Threading.Tasks;\n" + after + "\nclass C\n{\n    private static readonly Task<int> s_int42Task = Task.FromResult(42);\n\n    public Task<int> M() => s_int42Task;\n}\n" + end,
        };
        test.PreprocessorSymbols.Add("NET");
        await test.RunAsync();
    }

    /// <summary>
    /// A call that quotes its argument ([CallerArgumentExpression]) would receive the field's name instead of the
    /// code it quoted: the shared layer leaves that site alone. The site beside it is fixed.
    /// </summary>
    [Fact]
    public async Task ArgumentACallQuotes_IsNotRewritten()
    {
        var test = new Verify.Test
        {
            TestCode = /* lang=c#-test */ """
            using System.Runtime.CompilerServices;
            using System.Threading.Tasks;

            class C
            {
                public Task<int> Quoted() => Check([|Task.FromResult(42)|]);
                public Task<int> Plain() => [|Task.FromResult(42)|];

                static Task<int> Check(Task<int> task, [CallerArgumentExpression(nameof(task))] string? expression = null) => task;
            }
            """,
            FixedCode = /* lang=c#-test */ """
            using System.Runtime.CompilerServices;
            using System.Threading.Tasks;

            class C
            {
                private static readonly Task<int> s_int42Task = Task.FromResult(42);

                public Task<int> Quoted() => Check({|TPL0003:Task.FromResult(42)|});
                public Task<int> Plain() => s_int42Task;

                static Task<int> Check(Task<int> task, [CallerArgumentExpression(nameof(task))] string? expression = null) => task;
            }
            """,
        };
        test.FixedState.MarkupHandling = Microsoft.CodeAnalysis.Testing.MarkupMode.Allow;
        await test.RunAsync();
    }

    [Fact]
    public async Task UncachedInt_IsReplacedByStaticField()
    {
        await Verify.VerifyCodeFixAsync(
            /* lang=c#-test */ """
            using System.Threading.Tasks;

            class C
            {
                public Task<int> M() => [|Task.FromResult(42)|];
            }
            """,
            /* lang=c#-test */ """
            using System.Threading.Tasks;

            class C
            {
                private static readonly Task<int> s_int42Task = Task.FromResult(42);

                public Task<int> M() => s_int42Task;
            }
            """);
    }

    [Fact]
    public async Task BoxedNullableAndEmptyString_AreReplacedByStaticFields()
    {
        await Verify.VerifyCodeFixAsync(
            /* lang=c#-test */ """
            using System.Threading.Tasks;

            class C
            {
                public Task<long?> A() => [|Task.FromResult<long?>(0)|];
                public Task<object> B() => [|Task.FromResult<object>(0)|];
                public Task<string> D() => [|Task.FromResult(string.Empty)|];
                public Task<string> E() => [|Task.FromResult(string.Empty)|];
            }
            """,
            /* lang=c#-test */ """
            using System.Threading.Tasks;

            class C
            {
                private static readonly Task<long?> s_nullableLongZeroTask = Task.FromResult<long?>(0);
                private static readonly Task<object> s_objectZeroTask = Task.FromResult<object>(0);
                private static readonly Task<string> s_stringEmptyTask = Task.FromResult(string.Empty);

                public Task<long?> A() => s_nullableLongZeroTask;
                public Task<object> B() => s_objectZeroTask;
                public Task<string> D() => s_stringEmptyTask;
                public Task<string> E() => s_stringEmptyTask;
            }
            """);
    }

    [Fact]
    public async Task ConvertedToTask_IsReplacedByCompletedTask()
    {
        await Verify.VerifyCodeFixAsync(
            /* lang=c#-test */ """
            using System;
            using System.Threading.Tasks;

            class C
            {
                public Task A() => [|Task.FromResult(42)|];

                public Task B()
                {
                    return [|Task.FromResult("ignored")|];
                }

                public Func<Task> C1() => () => [|Task.FromResult(1.5)|];

                public Task D() => Task.WhenAll([|Task.FromResult(7L)|], Task.Delay(1));
            }
            """,
            /* lang=c#-test */ """
            using System;
            using System.Threading.Tasks;

            class C
            {
                public Task A() => Task.CompletedTask;

                public Task B()
                {
                    return Task.CompletedTask;
                }

                public Func<Task> C1() => () => Task.CompletedTask;

                public Task D() => Task.WhenAll(Task.CompletedTask, Task.Delay(1));
            }
            """);
    }

    [Fact]
    public async Task CachedValue_OnNetStandard_UsesCompletedTaskOrField()
    {
        await Verify.VerifyCodeFixAsync(
            /* lang=c#-test */ """
            using System.Threading.Tasks;

            class C
            {
                public Task Done() => [|Task.FromResult(true)|];

                public Task<bool> IsReady() => [|Task.FromResult(true)|];

                public Task<string?> Nothing() => [|Task.FromResult<string?>(null)|];
            }
            """,
            /* lang=c#-test */ """
            using System.Threading.Tasks;

            class C
            {
                private static readonly Task<bool> s_boolTrueTask = Task.FromResult(true);
                private static readonly Task<string?> s_stringNullTask = Task.FromResult<string?>(null);

                public Task Done() => Task.CompletedTask;

                public Task<bool> IsReady() => s_boolTrueTask;

                public Task<string?> Nothing() => s_stringNullTask;
            }
            """,
            TestTarget.NetStandard20);
    }

    [Fact]
    public async Task FixAll_CreatesOneFieldPerTypeAndValue()
    {
        await Verify.VerifyCodeFixAsync(
            /* lang=c#-test */ """
            using System.Threading.Tasks;

            class C
            {
                private int _calls;

                public Task<int> A() => [|Task.FromResult(42)|];
                public Task<int> B() => [|Task.FromResult(42)|];
                public Task<long> C1() => [|Task.FromResult(42L)|];
                public Task<int> D() => [|Task.FromResult(100)|];
                public Task<int> E() => [|Task.FromResult<int>(42)|];
                public int Calls => _calls;
            }
            """,
            /* lang=c#-test */ """
            using System.Threading.Tasks;

            class C
            {
                private static readonly Task<int> _int42Task = Task.FromResult(42);
                private static readonly Task<long> _long42Task = Task.FromResult(42L);
                private static readonly Task<int> _int100Task = Task.FromResult(100);
                private int _calls;

                public Task<int> A() => _int42Task;
                public Task<int> B() => _int42Task;
                public Task<long> C1() => _long42Task;
                public Task<int> D() => _int100Task;
                public Task<int> E() => _int42Task;
                public int Calls => _calls;
            }
            """);
    }

    [Fact]
    public async Task ExistingEquivalentField_IsReused()
    {
        await Verify.VerifyCodeFixAsync(
            /* lang=c#-test */ """
            using System.Threading.Tasks;

            class C
            {
                private static readonly Task<int> Cached = Task.FromResult(42);
                private static Task<int> s_mutable = Task.FromResult(100);

                public Task<int> A() => [|Task.FromResult(42)|];
                public Task<int> B() => [|Task.FromResult(100)|];
                public Task<int> Swap() => s_mutable = [|Task.FromResult(101)|];
            }
            """,
            /* lang=c#-test */ """
            using System.Threading.Tasks;

            class C
            {
                private static readonly Task<int> Cached = Task.FromResult(42);
                private static Task<int> s_mutable = Task.FromResult(100);
                private static readonly Task<int> s_int100Task = Task.FromResult(100);
                private static readonly Task<int> s_int101Task = Task.FromResult(101);

                public Task<int> A() => Cached;
                public Task<int> B() => s_int100Task;
                public Task<int> Swap() => s_mutable = s_int101Task;
            }
            """);
    }

    [Fact]
    public async Task PascalCaseFile_GetsPascalCaseField_AndNameClashesAreAvoided()
    {
        await Verify.VerifyCodeFixAsync(
            /* lang=c#-test */ """
            using System.Threading.Tasks;

            class C
            {
                private static readonly object Gate = new object();

                public int Int42Task => 0;

                public Task<int> M() => [|Task.FromResult(42)|];
            }
            """,
            /* lang=c#-test */ """
            using System.Threading.Tasks;

            class C
            {
                private static readonly object Gate = new object();
                private static readonly Task<int> Int42Task2 = Task.FromResult(42);

                public int Int42Task => 0;

                public Task<int> M() => Int42Task2;
            }
            """);
    }

    [Fact]
    public async Task LocalConstant_IsWrittenAsLiteralWithExplicitType_AndItsDeclarationGoesWhenUnused()
    {
        await Verify.VerifyCodeFixAsync(
            /* lang=c#-test */ """
            using System;
            using System.Threading.Tasks;

            class C
            {
                public Task<long> M()
                {
                    const long answer = 42;
                    return [|Task.FromResult(answer)|];
                }

                public Task<DayOfWeek> Day()
                {
                    const DayOfWeek day = DayOfWeek.Friday;
                    return [|Task.FromResult(day)|];
                }
            }
            """,
            /* lang=c#-test */ """
            using System;
            using System.Threading.Tasks;

            class C
            {
                private static readonly Task<long> s_long42Task = Task.FromResult(42L);
                private static readonly Task<DayOfWeek> s_dayOfWeekFridayTask = Task.FromResult(DayOfWeek.Friday);

                public Task<long> M()
                {
                    return s_long42Task;
                }

                public Task<DayOfWeek> Day()
                {
                    return s_dayOfWeekFridayTask;
                }
            }
            """);
    }

    /// <summary>
    /// A <c>[Flags]</c> value held in a local constant is written as the members it combines, as the author wrote them,
    /// and names the field by them, not as <c>(Changes)6</c> in <c>s_changes6Task</c>; the blank line that set the constant apart stays before the
    /// statement after it (found on a media server's photo provider, whose result was
    /// <c>const ItemUpdateType Result = ImageUpdate | MetadataImport;</c>). A value no members make up exactly keeps the cast.
    /// </summary>
    [Fact]
    public async Task FlagsInALocalConstant_AreWrittenAsTheirMembers_AndTheBlankLineStays()
    {
        await Verify.VerifyCodeFixAsync(
            /* lang=c#-test */ """
            using System;
            using System.Threading.Tasks;

            [Flags]
            enum Changes { None = 0, Image = 2, Metadata = 4, Thumbnail = 8 }

            class C
            {
                public Task<Changes> Refresh(int width)
                {
                    if (width > 0)
                    {
                        Console.WriteLine(width);
                    }

                    const Changes Result = Changes.Metadata | Changes.Image;
                    return [|Task.FromResult(Result)|];
                }

                public Task<Changes> Direct() => [|Task.FromResult(Changes.Thumbnail | Changes.Image)|];

                public Task<Changes> Odd()
                {
                    const Changes Unnamed = (Changes)9;
                    return [|Task.FromResult(Unnamed)|];
                }
            }
            """,
            /* lang=c#-test */ """
            using System;
            using System.Threading.Tasks;

            [Flags]
            enum Changes { None = 0, Image = 2, Metadata = 4, Thumbnail = 8 }

            class C
            {
                private static readonly Task<Changes> s_changesMetadataImageTask = Task.FromResult(Changes.Metadata | Changes.Image);
                private static readonly Task<Changes> s_changesThumbnailImageTask = Task.FromResult(Changes.Thumbnail | Changes.Image);
                private static readonly Task<Changes> s_changes9Task = Task.FromResult((Changes)9);

                public Task<Changes> Refresh(int width)
                {
                    if (width > 0)
                    {
                        Console.WriteLine(width);
                    }

                    return s_changesMetadataImageTask;
                }

                public Task<Changes> Direct() => s_changesThumbnailImageTask;

                public Task<Changes> Odd()
                {
                    return s_changes9Task;
                }
            }
            """);
    }

    /// <summary>
    /// A [Flags] constant built from another local constant (<c>const Changes Both = Image | Changes.Metadata;</c>) is
    /// written as the members it names, type-qualified: the other constant is out of a field initializer's scope, so
    /// the author's text cannot be copied there. Both constants go, the second having been read only by the first
    /// (CS0219 otherwise, an error under warnings as errors).
    /// </summary>
    [Fact]
    public async Task FlagsBuiltFromAnotherLocalConstant_AreWrittenAsMembers()
    {
        await Verify.VerifyCodeFixAsync(
            /* lang=c#-test */ """
            using System;
            using System.Threading.Tasks;

            [Flags]
            enum Changes { None = 0, Image = 2, Metadata = 4 }

            class C
            {
                public Task<Changes> Refresh()
                {
                    const Changes Image = Changes.Image;
                    const Changes Both = Image | Changes.Metadata;
                    return [|Task.FromResult(Both)|];
                }
            }
            """,
            /* lang=c#-test */ """
            using System;
            using System.Threading.Tasks;

            [Flags]
            enum Changes { None = 0, Image = 2, Metadata = 4 }

            class C
            {
                private static readonly Task<Changes> s_changesImageMetadataTask = Task.FromResult(Changes.Image | Changes.Metadata);

                public Task<Changes> Refresh()
                {
                    return s_changesImageMetadataTask;
                }
            }
            """);
    }

    /// <summary>
    /// A file whose type declares no field (one part of a partial class, a class of explicit interface members) names
    /// its new field the way the project's other files name theirs, not in the default s_ style; and the blank line the
    /// author left above the first member stays the one line between the new fields and it, not two (SA1507). Found
    /// on Discord.Net: the part of its socket client that handles events got s_ fields and a double blank line.
    /// Generated files name fields as their generator does and have no say, by any name or header the compiler knows.
    /// </summary>
    [Fact]
    public async Task AFileWithoutFields_NamesAsTheProjectDoes_AndKeepsOneBlankLine()
    {
        const string GeneratedOne = "// <auto-generated/>\nclass G1 { private static readonly object s_one = new object(); }\n";
        const string GeneratedTwo = "class G2 { private static readonly object s_two = new object(); }\n";
        const string GeneratedOld = "// <autogenerated />\nclass G3 { private static readonly object s_three = new object(); }\n";
        const string GeneratedView = "class G4 { private static readonly object s_four = new object(); }\n";
        const string Other = /* lang=c#-test */ """
            partial class Client
            {
                private readonly object _gate = new object();
                private int _count;
            }

            class Cache
            {
                private static readonly object _shared = new object();
            }
            """;
        var test = new Verify.Test
        {
            TestState =
            {
                Sources =
                {
                    ("Events.cs", /* lang=c#-test */ """
                    using System.Threading.Tasks;

                    partial class Client
                    {

                        public Task<int> Find(int id) => id > 0 ? [|Task.FromResult(42)|] : [|Task.FromResult(42)|];
                    }
                    """),
                    ("Client.cs", Other),
                    ("G1.cs", GeneratedOne),
                    ("Resources.g.cs", GeneratedTwo),
                    ("Legacy.cs", GeneratedOld),
                    ("View.g.i.cs", GeneratedView),
                },
            },
            FixedState =
            {
                Sources =
                {
                    ("Events.cs", /* lang=c#-test */ """
                    using System.Threading.Tasks;

                    partial class Client
                    {
                        private static readonly Task<int> _int42Task = Task.FromResult(42);

                        public Task<int> Find(int id) => id > 0 ? _int42Task : _int42Task;
                    }
                    """),
                    ("Client.cs", Other),
                    ("G1.cs", GeneratedOne),
                    ("Resources.g.cs", GeneratedTwo),
                    ("Legacy.cs", GeneratedOld),
                    ("View.g.i.cs", GeneratedView),
                },
            },
        };
        await test.RunAsync();
    }

    /// <summary>
    /// A new field the line length wraps onto two lines is set apart from the field after it by a blank line, as
    /// StyleCop's SA1516 asks (an error under warnings as errors; Jellyfin's photo provider broke its build so); one
    /// that fits on its line joins the fields as before.
    /// </summary>
    [Fact]
    public async Task ANewFieldOnTwoLines_IsSetApartByABlankLine()
    {
        var test = new Verify.Test
        {
            TestCode = /* lang=c#-test */ """
                using System;
                using System.Threading.Tasks;

                class Provider
                {
                    private readonly string _name = "photos";

                    public Task<DayOfWeek> Fetch() => [|Task.FromResult(DayOfWeek.Wednesday)|];
                }
                """,
            FixedCode = /* lang=c#-test */ """
                using System;
                using System.Threading.Tasks;

                class Provider
                {
                    private static readonly Task<DayOfWeek> _dayOfWeekWednesdayTask =
                        Task.FromResult(DayOfWeek.Wednesday);

                    private readonly string _name = "photos";

                    public Task<DayOfWeek> Fetch() => _dayOfWeekWednesdayTask;
                }
                """,
        };
        test.TestState.AnalyzerConfigFiles.Add(("/.editorconfig", "root = true\n[*.cs]\nmax_line_length = 80\n"));
        await test.RunAsync();
    }

    /// <summary>
    /// The blank line the author left before the next field stays, and one sets the new field apart from a constant
    /// laid over several lines (Stateless's test fixture: such a constant, a blank line, an instance field), as
    /// StyleCop's SA1516 asks. Once, the formatter redid the line break after the new field and the blank line went.
    /// </summary>
    [Fact]
    public async Task TheBlankLineBeforeTheNextField_Stays()
    {
        var test = new Verify.Test
        {
            TestCode = /* lang=c#-test */ """
                using System.Threading.Tasks;

                class Fixture
                {
                    const string
                        StateA = "A", StateB = "B",
                        TriggerX = "X";

                    int _calls = 0;

                    public Task<int> Fetch() => [|Task.FromResult(42)|];
                    public Task<int> Other() => [|Task.FromResult(42)|];
                }
                """,
            FixedCode = /* lang=c#-test */ """
                using System.Threading.Tasks;

                class Fixture
                {
                    const string
                        StateA = "A", StateB = "B",
                        TriggerX = "X";

                    static readonly Task<int> _int42Task = Task.FromResult(42);

                    int _calls = 0;

                    public Task<int> Fetch() => _int42Task;
                    public Task<int> Other() => _int42Task;
                }
                """,
        };
        await test.RunAsync();
    }

    [Fact]
    public async Task NamedConstants_NameTheField()
    {
        await Verify.VerifyCodeFixAsync(
            /* lang=c#-test */ """
            using System;
            using System.Collections.Generic;
            using System.Threading.Tasks;

            class C
            {
                private const int MaxRetries = 42;

                public Task<int> Retries() => [|Task.FromResult(MaxRetries)|];
                public Task<DayOfWeek> Day() => [|Task.FromResult(DayOfWeek.Monday)|];
                public Task<string> Greeting() => [|Task.FromResult("hello, world!")|];
                public Task<string> Empty() => [|Task.FromResult("")|];
                public Task<double> Half() => [|Task.FromResult(-0.5)|];
                public Task<KeyValuePair<string, int>> None() => [|Task.FromResult(default(KeyValuePair<string, int>))|];
            }
            """,
            /* lang=c#-test */ """
            using System;
            using System.Collections.Generic;
            using System.Threading.Tasks;

            class C
            {
                private const int MaxRetries = 42;
                private static readonly Task<int> s_intMaxRetriesTask = Task.FromResult(MaxRetries);
                private static readonly Task<DayOfWeek> s_dayOfWeekMondayTask = Task.FromResult(DayOfWeek.Monday);
                private static readonly Task<string> s_stringHelloWorldTask = Task.FromResult("hello, world!");
                private static readonly Task<string> s_stringEmptyTask = Task.FromResult("");
                private static readonly Task<double> s_doubleMinus0Point5Task = Task.FromResult(-0.5);
                private static readonly Task<KeyValuePair<string, int>> s_keyValuePairDefaultTask = Task.FromResult(default(KeyValuePair<string, int>));

                public Task<int> Retries() => s_intMaxRetriesTask;
                public Task<DayOfWeek> Day() => s_dayOfWeekMondayTask;
                public Task<string> Greeting() => s_stringHelloWorldTask;
                public Task<string> Empty() => s_stringEmptyTask;
                public Task<double> Half() => s_doubleMinus0Point5Task;
                public Task<KeyValuePair<string, int>> None() => s_keyValuePairDefaultTask;
            }
            """);
    }

    [Fact]
    public async Task StructsRecordsStaticGenericAndNestedTypes_GetTheirOwnField()
    {
        await Verify.VerifyCodeFixAsync(
            /* lang=c#-test */ """
            using System.Threading.Tasks;

            struct S
            {
                public Task<int> M() => [|Task.FromResult(42)|];
            }

            record R(int X)
            {
                public Task<int> M() => [|Task.FromResult(42)|];
            }

            static class Helpers
            {
                public static Task<int> M() => [|Task.FromResult(42)|];
            }

            class Generic<T>
            {
                public Task<int> M() => [|Task.FromResult(42)|];

                public class Nested
                {
                    public Task<int> M() => [|Task.FromResult(42)|];
                }
            }
            """,
            /* lang=c#-test */ """
            using System.Threading.Tasks;

            struct S
            {
                private static readonly Task<int> s_int42Task = Task.FromResult(42);

                public Task<int> M() => s_int42Task;
            }

            record R(int X)
            {
                private static readonly Task<int> s_int42Task = Task.FromResult(42);

                public Task<int> M() => s_int42Task;
            }

            static class Helpers
            {
                private static readonly Task<int> s_int42Task = Task.FromResult(42);

                public static Task<int> M() => s_int42Task;
            }

            class Generic<T>
            {
                private static readonly Task<int> s_int42Task = Task.FromResult(42);

                public Task<int> M() => s_int42Task;

                public class Nested
                {
                    private static readonly Task<int> s_int42Task = Task.FromResult(42);

                    public Task<int> M() => s_int42Task;
                }
            }
            """);
    }

    [Fact]
    public async Task NestedLambdasAndLocalFunctions_AreFixed()
    {
        await Verify.VerifyCodeFixAsync(
            /* lang=c#-test */ """
            using System;
            using System.Threading.Tasks;

            class C
            {
                public Func<Func<Task<int>>> M() => () => () => [|Task.FromResult(42)|];

                public Task<int> L()
                {
                    return Inner();
                    static Task<int> Inner() => [|Task.FromResult(42)|];
                }
            }
            """,
            /* lang=c#-test */ """
            using System;
            using System.Threading.Tasks;

            class C
            {
                private static readonly Task<int> s_int42Task = Task.FromResult(42);

                public Func<Func<Task<int>>> M() => () => () => s_int42Task;

                public Task<int> L()
                {
                    return Inner();
                    static Task<int> Inner() => s_int42Task;
                }
            }
            """);
    }

    [Fact]
    public async Task NamesWrittenInTheType_AreAvoided()
    {
        // A local of that name would hide the field; an unresolved name would start binding to it.
        await Verify.VerifyCodeFixAsync(
            /* lang=c#-test */ """
            using System.Threading.Tasks;

            class C
            {
                public Task<int> M()
                {
                    var s_int42Task = 1;
                    return [|Task.FromResult(42)|];
                }
            }
            """,
            /* lang=c#-test */ """
            using System.Threading.Tasks;

            class C
            {
                private static readonly Task<int> s_int42Task2 = Task.FromResult(42);

                public Task<int> M()
                {
                    var s_int42Task = 1;
                    return s_int42Task2;
                }
            }
            """);
    }

    [Fact]
    public async Task AwaitedCall_IsFixed()
    {
        await Verify.VerifyCodeFixAsync(
            /* lang=c#-test */ """
            using System.Threading.Tasks;

            class C
            {
                public async Task<int> M() => await [|Task.FromResult(42)|] + 1;
            }
            """,
            /* lang=c#-test */ """
            using System.Threading.Tasks;

            class C
            {
                private static readonly Task<int> s_int42Task = Task.FromResult(42);

                public async Task<int> M() => await s_int42Task + 1;
            }
            """);
    }

    [Fact]
    public Task PartialTypeAcrossFiles_FixAllAddsOneField() =>
        FixAllTwoFilesAsync(
            /* lang=c#-test */ """
            using System.Threading.Tasks;

            partial class C
            {
                public Task<int> A() => [|Task.FromResult(42)|];
            }
            """,
            /* lang=c#-test */ """
            using System.Threading.Tasks;

            partial class C
            {
                private static readonly Task<int> s_int42Task = Task.FromResult(42);

                public Task<int> A() => s_int42Task;
            }
            """,
            /* lang=c#-test */ """
            using System.Threading.Tasks;

            partial class C
            {
                public Task<int> B() => [|Task.FromResult(42)|];
            }
            """,
            /* lang=c#-test */ """
            using System.Threading.Tasks;

            partial class C
            {
                public Task<int> B() => s_int42Task;
            }
            """);

    /// <summary>
    /// The parts name their fields in different styles, so the two fields a batch would add do not collide: Fix All
    /// still adds one, because the second part is fixed after the first and reuses its field.
    /// </summary>
    [Fact]
    public Task PartialTypeAcrossFilesWithTwoNamingStyles_FixAllAddsOneField() =>
        FixAllTwoFilesAsync(
            /* lang=c#-test */ """
            using System.Threading.Tasks;

            partial class C
            {
                private static int _count = 1;

                public int Count => _count;

                public Task<int> A() => [|Task.FromResult(42)|];
            }
            """,
            /* lang=c#-test */ """
            using System.Threading.Tasks;

            partial class C
            {
                private static int _count = 1;
                private static readonly Task<int> _int42Task = Task.FromResult(42);

                public int Count => _count;

                public Task<int> A() => _int42Task;
            }
            """,
            /* lang=c#-test */ """
            using System.Threading.Tasks;

            partial class C
            {
                public Task<int> B() => [|Task.FromResult(42)|];
            }
            """,
            /* lang=c#-test */ """
            using System.Threading.Tasks;

            partial class C
            {
                public Task<int> B() => _int42Task;
            }
            """);

    /// <summary>Fix All over two files of one project, each with its expected result.</summary>
    private static async Task FixAllTwoFilesAsync(string test0, string fixed0, string test1, string fixed1)
    {
        var test = new Verify.Test { TestCode = test0, FixedCode = fixed0 };
        test.TestState.Sources.Add(("Test1.cs", test1));
        test.FixedState.Sources.Add(("Test1.cs", fixed1));
        await test.RunAsync();
    }

    /// <summary>
    /// A project that targets net8.0 and netstandard2.0 compiles each file twice, and the targets disagree:
    /// only netstandard reports FromResult(true). Fixing each copy separately would leave Roslyn to merge two
    /// different edits of one file, which it does with conflict markers; Fix All fixes the union once. A single
    /// fix from the net8.0 copy fixes the sites net8.0 reports.
    /// </summary>
    [Fact]
    public async Task MultiTargetedProject_FixAllGivesEveryTargetTheSameCompilingFile()
    {
        var test = new Verify.Test
        {
            Target = TestTarget.Net80,
            TestCode = /* lang=c#-test */ """
                using System.Threading.Tasks;

                class C
                {
                    public Task<int> Answer() => [|Task.FromResult(42)|];
                    public Task Flush() => [|Task.FromResult("done")|];
                    public Task<bool> Ready() => Task.FromResult(true);
                    public Task Done() => Task.FromResult(0);
                }
                """,
            FixedCode = /* lang=c#-test */ """
                using System.Threading.Tasks;

                class C
                {
                    private static readonly Task<int> s_int42Task = Task.FromResult(42);

                    public Task<int> Answer() => s_int42Task;
                    public Task Flush() => Task.CompletedTask;
                    public Task<bool> Ready() => Task.FromResult(true);
                    public Task Done() => Task.FromResult(0);
                }
                """,
            BatchFixedCode = /* lang=c#-test */ """
                using System.Threading.Tasks;

                class C
                {
                    private static readonly Task<int> s_int42Task = Task.FromResult(42);
                    private static readonly Task<bool> s_boolTrueTask = Task.FromResult(true);

                    public Task<int> Answer() => s_int42Task;
                    public Task Flush() => Task.CompletedTask;
                    public Task<bool> Ready() => s_boolTrueTask;
                    public Task Done() => Task.CompletedTask;
                }
                """,
        };
        test.LinkedTargets.Add(TestTarget.NetStandard20);
        test.LinkedTargets.Add(TestTarget.Net472);
        await test.RunAsync();
    }

    /// <summary>
    /// A site in an #if branch is code in one target's copy only. Fix All fixes each where it compiles: before,
    /// the copies were fixed once, in one copy, and the other target's sites were silently left.
    /// </summary>
    [Fact]
    public async Task MultiTargetedProject_SitesInIfBranches_AreFixedForTheirTarget()
    {
        var test = new Verify.Test
        {
            PreprocessorSymbols = { "NET" },
            TestCode = /* lang=c#-test */ """
                using System.Threading.Tasks;

                class C
                {
                #if NET
                    public Task<int> Modern() => [|Task.FromResult(4242)|];
                #else
                    public Task<int> Legacy() => Task.FromResult(-7);
                #endif
                }
                """,
            FixedCode = /* lang=c#-test */ """
                using System.Threading.Tasks;

                class C
                {
                    private static readonly Task<int> s_int4242Task = Task.FromResult(4242);

                #if NET
                    public Task<int> Modern() => s_int4242Task;
                #else
                    public Task<int> Legacy() => Task.FromResult(-7);
                #endif
                }
                """,
            BatchFixedCode = /* lang=c#-test */ """
                using System.Threading.Tasks;

                class C
                {
                    private static readonly Task<int> s_intMinus7Task = Task.FromResult(-7);
                    private static readonly Task<int> s_int4242Task = Task.FromResult(4242);

                #if NET
                    public Task<int> Modern() => s_int4242Task;
                #else
                    public Task<int> Legacy() => s_intMinus7Task;
                #endif
                }
                """,
            LinkedTargets = { new LinkedTarget(TestTarget.NetStandard20, PreprocessorSymbols: ["NETSTANDARD2_0"]) },
        };
        await test.RunAsync();
    }

    [Fact]
    public async Task GenericMethodTypeParameter_ReportsWithoutFix()
    {
        const string Source = /* lang=c#-test */ """
            using System.Collections.Generic;
            using System.Threading.Tasks;

            class C
            {
                public Task<List<T>?> M<T>() => [|Task.FromResult<List<T>?>(null)|];
            }
            """;
        await Verify.VerifyCodeFixAsync(Source, Source, TestTarget.NetStandard20);
    }

    /// <summary>Regression (FuzzTests): a discarded call became a bare field reference, which is not a statement.</summary>
    [Fact]
    public async Task DiscardedCall_ReportsWithoutFix()
    {
        const string Source = /* lang=c#-test */ """
            using System;
            using System.Threading.Tasks;

            class C
            {
                void Statement() { [|Task.FromResult(42)|]; }

                void ExpressionBodied() => [|Task.FromResult(43)|];

                Action Lambda() => () => [|Task.FromResult(44)|];
            }
            """;
        await Verify.VerifyCodeFixAsync(Source, Source);
    }

    [Fact]
    public async Task InterfaceDefaultMethod_ReportsWithoutFix()
    {
        const string Source = /* lang=c#-test */ """
            using System.Threading.Tasks;

            interface I
            {
                Task<int> M() => [|Task.FromResult(42)|];
            }
            """;
        await Verify.VerifyCodeFixAsync(Source, Source);
    }

    [Fact]
    public async Task TopLevelStatements_LambdaGetsCompletedTaskButNoField()
    {
        const string Fixed = /* lang=c#-test */ """
            using System;
            using System.Threading.Tasks;

            Func<Task> done = () => Task.CompletedTask;
            Func<Task<int>> value = () => [|Task.FromResult(42)|];
            await done();
            Console.WriteLine(await value());
            """;
        await new Verify.Test
        {
            TestState = { OutputKind = OutputKind.ConsoleApplication },
            TestCode = Fixed.Replace("() => Task.CompletedTask", "() => [|Task.FromResult(42)|]", StringComparison.Ordinal),
            FixedCode = Fixed,

            // The diagnostic left in the fixed code has no fix; by default the library ignores markup of fixable IDs there.
            FixedState = { MarkupHandling = MarkupMode.Allow },
        }.RunAsync();
    }

    /// <summary>No C# 8 syntax in the fix; the new field writes no <c>private</c>, as the file's own members write none.</summary>
    [Fact]
    public async Task CSharp73_FixUsesOnlyOldSyntax()
    {
        await new Verify.Test
        {
            OnCSharp73NetFramework = true,
            TestCode = /* lang=c#-test */ """
                using System.Threading.Tasks;

                class C
                {
                    Task<string> M() { return [|Task.FromResult<string>(null)|]; }
                    Task N() { return [|Task.FromResult(0)|]; }
                }
                """,
            FixedCode = /* lang=c#-test */ """
                using System.Threading.Tasks;

                class C
                {
                    static readonly Task<string> s_stringNullTask = Task.FromResult<string>(null);

                    Task<string> M() { return s_stringNullTask; }
                    Task N() { return Task.CompletedTask; }
                }
                """,
        }.RunAsync();
    }

    [Fact]
    public async Task CommentsAndTrivia_ArePreserved()
    {
        await Verify.VerifyCodeFixAsync(
            /* lang=c#-test */ """
            using System.Threading.Tasks;

            class C
            {
                /// <summary>Docs stay on the method.</summary>
                public Task<int> M()
                {
                    return /* before */ [|Task.FromResult(42)|] /* after */;
                }
            }
            """,
            /* lang=c#-test */ """
            using System.Threading.Tasks;

            class C
            {
                private static readonly Task<int> s_int42Task = Task.FromResult(42);

                /// <summary>Docs stay on the method.</summary>
                public Task<int> M()
                {
                    return /* before */ s_int42Task /* after */;
                }
            }
            """);
    }

    private const string RunnableBefore = /* lang=c#-test */ """
        using System.Threading.Tasks;

        public static class Values
        {
            public static Task<int> Answer() => [|Task.FromResult(42)|];

            public static Task Done() => [|Task.FromResult("done")|];

            public static async Task<string> Use()
            {
                var first = Answer();
                var second = Answer();
                await Done();
                return $"{await first + await second} {first.Status} {Done().IsCompletedSuccessfully}";
            }
        }
        """;

    private const string RunnableAfter = /* lang=c#-test */ """
        using System.Threading.Tasks;

        public static class Values
        {
            private static readonly Task<int> s_int42Task = Task.FromResult(42);

            public static Task<int> Answer() => s_int42Task;

            public static Task Done() => Task.CompletedTask;

            public static async Task<string> Use()
            {
                var first = Answer();
                var second = Answer();
                await Done();
                return $"{await first + await second} {first.Status} {Done().IsCompletedSuccessfully}";
            }
        }
        """;

    /// <summary>The fixer produces the "after" code, and it computes what the original computed.</summary>
    [Fact]
    public async Task FixedCode_ReturnsWhatTheOriginalReturned()
    {
        await Verify.VerifyCodeFixAsync(RunnableBefore, RunnableAfter);
        var original = await CodeRunner.RunAsync(TestMarkup.Strip(RunnableBefore), "Values", "Use");
        var rewritten = await CodeRunner.RunAsync(RunnableAfter, "Values", "Use");
        Assert.Equal("returned 84 RanToCompletion True", original);
        Assert.Equal(original, rewritten);
    }

    [Fact]
    public void EquivalenceKey_IsStableAndNamesTheRule()
    {
        Assert.Equal("TPL0003_CacheTask", CacheConstantTaskResultFixer.EquivalenceKey);
    }

    /// <summary>
    /// Static initializers run in text order, and one may reach the fixed code before a new field below it is set. Where
    /// the type has any initializer that runs code or reads another type, the cached tasks go into a nested holder
    /// class, whose own initializer runs on first use: no order can see them unset.
    /// </summary>
    [Fact]
    public async Task TypeWithInitializersThatRunCode_GetsAHolderClass()
    {
        await Verify.VerifyCodeFixAsync(
            /* lang=c#-test */ """
            using System;
            using System.Threading.Tasks;

            class C
            {
                private const int Limit = 3;
                private static readonly Task<int> s_first = Get();
                private static readonly Func<Task<int>> s_factory = () => [|Task.FromResult(70)|];

                static Task<int> Get() => [|Task.FromResult(42)|];
            }
            """,
            /* lang=c#-test */ """
            using System;
            using System.Threading.Tasks;

            class C
            {
                private const int Limit = 3;
                private static readonly Task<int> s_first = Get();
                private static readonly Func<Task<int>> s_factory = () => CachedTasks.s_int70Task;

                static Task<int> Get() => CachedTasks.s_int42Task;

                // Cached tasks in a class of their own: its initializer runs on first use, whatever order this type's static initializers run in.
                private static class CachedTasks
                {
                    internal static readonly Task<int> s_int70Task = Task.FromResult(70);
                    internal static readonly Task<int> s_int42Task = Task.FromResult(42);
                }
            }
            """);
    }

    /// <summary>
    /// A directive the author wrote at the start of its line stays there: the holder class goes in before an
    /// <c>#endregion</c> that ends the type, and formatting the class indented that directive (found in Akka.NET).
    /// </summary>
    [Fact]
    public async Task HolderClassBeforeAFlushEndRegion_LeavesTheDirectiveWhereItWas()
    {
        await Verify.VerifyCodeFixAsync(
            /* lang=c#-test */ """
            using System;
            using System.Threading.Tasks;

            class C
            {
            #region Members
                private static readonly Task<int> s_first = Get();

                static Task<int> Get() => [|Task.FromResult(42)|];
            #endregion
            }
            """,
            /* lang=c#-test */ """
            using System;
            using System.Threading.Tasks;

            class C
            {
            #region Members
                private static readonly Task<int> s_first = Get();

                static Task<int> Get() => CachedTasks.s_int42Task;

                // Cached tasks in a class of their own: its initializer runs on first use, whatever order this type's static initializers run in.
                private static class CachedTasks
                {
                    internal static readonly Task<int> s_int42Task = Task.FromResult(42);
                }
            #endregion
            }
            """);
    }

    /// <summary>
    /// A new field goes above a <c>#region</c> that opens the type with a blank line between, even where the region
    /// starts with a field; a cached interface-typed task is named for the noun, not its <c>I</c> prefix (found on
    /// Discord.Net, whose channel classes open with a region and return <c>Task.FromResult&lt;IUser&gt;(null)</c>).
    /// </summary>
    [Fact]
    public async Task AFieldAboveARegion_IsSetApartAndNamedWithoutTheInterfacePrefix()
    {
        await Verify.VerifyCodeFixAsync(
            /* lang=c#-test */ """
            using System.Threading.Tasks;

            interface IUser { }

            class Channel
            {
                #region Channel
                private int _count;

                public Task<IUser> GetUserAsync(int id) => [|Task.FromResult<IUser>(null)|];
                #endregion
            }
            """,
            /* lang=c#-test */ """
            using System.Threading.Tasks;

            interface IUser { }

            class Channel
            {
                private static readonly Task<IUser> _userNullTask = Task.FromResult<IUser>(null);

                #region Channel
                private int _count;

                public Task<IUser> GetUserAsync(int id) => _userNullTask;
                #endregion
            }
            """,
            TestTarget.NetStandard20);
    }

    /// <summary>The shapes that placement by text order got wrong: the fixed programs compute what the originals did.</summary>
    [Theory]
    [InlineData("Totals", "returned 120")]
    [InlineData("Warmed", "returned 700")]
    public async Task InitializationThroughAnotherTypeOrADelegateField_KeepsItsResult(string type, string result)
    {
        const string Code = """
            using System;
            using System.Threading.Tasks;

            public static class Totals
            {
                // Reads Other, whose initializer calls back into Twenty while Totals is still being initialized.
                public static readonly int Sum = Other.Value + 100;
                public static Task<int> Twenty() => Task.FromResult(20);
                public static string Read() => Sum.ToString();
            }

            public static class Other
            {
                public static readonly int Value = Totals.Twenty().Result;
            }

            public static class Warmed
            {
                private static readonly Func<Task<int>> Default = Make;
                public static readonly Task<int> Warm = Default();
                private static Task<int> Make() => Task.FromResult(700);
                public static string Read() => Warm.Result.ToString();
            }
            """;
        await FixedBehaviour.AssertAsync(Code, "TPL0003", type, "Read", result, result);
    }
}
