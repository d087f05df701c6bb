using Microsoft.CodeAnalysis.Testing;
using Verify = TplPractices.Analyzers.Tests.Verifiers.CSharpCodeFixVerifier<
    TplPractices.Analyzers.Rules.CacheConstantTaskResultAnalyzer,
    TplPractices.Analyzers.CodeFixes.Rules.CacheConstantTaskResultFixer>;

namespace TplPractices.Analyzers.Tests.Rules;

/// <summary>
/// TPL0003: what the new static field is called where the project says how static fields are named. Found on Polly:
/// its .editorconfig asks PascalCase of private static fields (IDE1006 as a warning), and a file whose only fields
/// were instance fields named <c>_policy</c> got <c>_stringDummyTask</c>.
/// </summary>
public sealed class CacheConstantTaskResultNamingTests
{
    private const string Source = /* lang=c#-test */ """
        using System.Threading.Tasks;

        class C
        {
            private readonly object _gate = new object();

            public object Gate => _gate;

            public Task<string> M() => [|Task.FromResult("dummy")|];
        }
        """;

    private const string PascalStatics = """
        dotnet_naming_rule.statics.severity = warning
        dotnet_naming_rule.statics.symbols = statics
        dotnet_naming_rule.statics.style = pascal
        dotnet_naming_symbols.statics.applicable_kinds = field
        dotnet_naming_symbols.statics.required_modifiers = static
        dotnet_naming_symbols.statics.applicable_accessibilities = private, internal, private_protected
        dotnet_naming_style.pascal.capitalization = pascal_case
        """;

    private const string UnderscoreFields = """
        dotnet_naming_rule.fields.severity = suggestion
        dotnet_naming_rule.fields.symbols = fields
        dotnet_naming_rule.fields.style = underscored
        dotnet_naming_symbols.fields.applicable_kinds = field
        dotnet_naming_symbols.fields.applicable_accessibilities = private
        dotnet_naming_style.underscored.capitalization = camel_case
        dotnet_naming_style.underscored.required_prefix = _
        """;

    /// <summary>
    /// The rule that takes a private static readonly field names it, whatever the file's own fields show: the more
    /// specific rule (static required) before the general one, a <c>priority</c> before both, and a rule for
    /// constants or other kinds, or with a capitalization the IDE does not know, not at all (the file's <c>_gate</c> then
    /// names it).
    /// </summary>
    [Theory]
    [InlineData(PascalStatics, "StringDummyTask")]
    [InlineData(PascalStatics + "\n" + UnderscoreFields, "StringDummyTask")]
    [InlineData(UnderscoreFields, "_stringDummyTask")]
    [InlineData(PascalStatics + "\n" + UnderscoreFields + "\ndotnet_naming_rule.fields.priority = -1", "_stringDummyTask")]
    [InlineData("""
        dotnet_naming_rule.s.severity = error
        dotnet_naming_rule.s.symbols = s
        dotnet_naming_rule.s.style = s
        dotnet_naming_symbols.s.applicable_kinds = *
        dotnet_naming_symbols.s.required_modifiers = static, readonly
        dotnet_naming_style.s.capitalization = all_upper
        dotnet_naming_style.s.word_separator = _
        dotnet_naming_style.s.required_suffix = _T
        """, "STRING_DUMMY_TASK_T")]
    [InlineData("""
        dotnet_naming_rule.s.severity = warning
        dotnet_naming_rule.s.symbols = s
        dotnet_naming_rule.s.style = s
        dotnet_naming_symbols.s.applicable_kinds = field
        dotnet_naming_symbols.s.required_modifiers = const
        dotnet_naming_style.s.capitalization = all_upper
        """, "_stringDummyTask")]
    [InlineData(PascalStatics + "\ndotnet_naming_style.pascal.capitalization = title_case", "_stringDummyTask")]
    [InlineData("""
        dotnet_naming_rule.s.severity = warning
        dotnet_naming_rule.s.symbols = s
        dotnet_naming_rule.s.style = s
        dotnet_naming_symbols.s.applicable_kinds = property, method
        dotnet_naming_style.s.capitalization = all_upper
        """, "_stringDummyTask")]
    public async Task ANamingRuleForStaticFields_NamesTheNewField(string rules, string name)
    {
        var config = "root = true\n[*.cs]\n" + rules + "\n";
        var test = new Verify.Test
        {
            TestCode = Source,
            FixedCode = Fixed(name),
        };
        await WithConfig(test, config).RunAsync();
    }

    /// <summary>
    /// A library compiled for netstandard2.0 (C# 7.3) and, as a linked copy, for net10.0 names the field once, by the
    /// rule, in both copies: each target reads the same naming rules.
    /// </summary>
    [Fact]
    public async Task ANamingRule_NamesTheFieldAlike_InBothTargetsOfALibrary()
    {
        var config = "root = true\n[*.cs]\n" + PascalStatics + "\n";
        var test = new Verify.Test
        {
            SharedByNetStandardAndNet10 = true,
            TestCode = Source,
            FixedCode = Fixed("StringDummyTask"),
        };
        await WithConfig(test, config).RunAsync();
    }

    /// <summary>
    /// Without a rule, a file whose only fields are <c>_camelCase</c> instance fields names its static field as the
    /// project's other files name theirs (PascalCase here, <c>s_</c> in the runtime's style); the instance fields' style
    /// decides only where no file names a static field.
    /// </summary>
    [Theory]
    [InlineData("private static readonly object Shared = new object();", "StringDummyTask")]
    [InlineData("private static readonly object s_shared = new object();", "s_stringDummyTask")]
    [InlineData("private readonly object _other = new object();", "_stringDummyTask")]
    public async Task InstanceFieldsAlone_DoNotNameAStaticField_WhereTheProjectNamesStatics(string otherField, string name)
    {
        var other = "class Other\n{\n    " + otherField + "\n}\n";
        var test = new Verify.Test
        {
            TestState = { Sources = { ("C.cs", Source), ("Other.cs", other) } },
            FixedState =
            {
                Sources =
                {
                    ("C.cs", Fixed(name)),
                    ("Other.cs", other),
                },
            },
        };
        await test.RunAsync();
    }

    /// <summary>
    /// Where the project asks that a default accessibility go unwritten (<c>omit_if_default</c>, which IDE0040 enforces,
    /// or <c>never</c>, RestSharp's setting, whose static fields have no <c>private</c>), the new field has none either;
    /// otherwise it is <c>private</c>.
    /// </summary>
    [Theory]
    [InlineData("omit_if_default", "")]
    [InlineData("never:suggestion", "")]
    [InlineData("always", "private ")]
    public async Task TheAccessibilitySetting_DecidesWhetherPrivateIsWritten(string setting, string modifier)
    {
        var config = "root = true\n[*.cs]\ndotnet_style_require_accessibility_modifiers = " + setting + "\n";
        var test = new Verify.Test
        {
            TestCode = Source,
            FixedCode = Fixed("_stringDummyTask", modifier),
        };
        await WithConfig(test, config).RunAsync();
    }

    /// <summary>The test with one .editorconfig before and after the fix.</summary>
    private static Verify.Test WithConfig(Verify.Test test, string config)
    {
        test.TestState.AnalyzerConfigFiles.Add(("/.editorconfig", config));
        test.FixedState.AnalyzerConfigFiles.Add(("/.editorconfig", config));
        return test;
    }

    /// <summary>
    /// Where no setting says, the file's own members decide, as they decide the field's name: DotNetty's TLS stream
    /// writes no <c>private</c> on its fields, methods and nested classes, and its new field got one. A file that
    /// writes it, or mixes the two evenly, gets <c>private</c>.
    /// </summary>
    [Theory]
    [InlineData("readonly object gate = new object();\n    object Gate() => gate;\n    sealed class Inner { }", "")]
    [InlineData("private readonly object gate = new object();\n    object Gate() => gate;", "private ")]
    [InlineData("private readonly object gate = new object();\n    private object Gate() => gate;\n    object Other() => gate;", "private ")]
    public async Task WithoutASetting_TheFilesOwnMembersDecide(string members, string modifier)
    {
        var source = Source.Replace("    private readonly object _gate = new object();\n\n    public object Gate => _gate;\n", "    " + members + "\n", StringComparison.Ordinal);
        var test = new Verify.Test
        {
            // A file netstandard2.0 at C# 7.3 and net10.0 share: one text in both copies.
            SharedByNetStandardAndNet10 = true,
            TestCode = source,
            FixedCode = source
                .Replace("class C\n{\n", "class C\n{\n    " + modifier + "static readonly Task<string> s_stringDummyTask = Task.FromResult(\"dummy\");\n", StringComparison.Ordinal)
                .Replace("[|Task.FromResult(\"dummy\")|]", "s_stringDummyTask", StringComparison.Ordinal),
        };
        await test.RunAsync();
    }

    /// <summary>The source fixed: the new field first in the class, under <paramref name="name"/>, read at the site.</summary>
    private static string Fixed(string name, string modifier = "private ") => Source
        .Replace("class C\n{\n", "class C\n{\n    " + modifier + "static readonly Task<string> " + name + " = Task.FromResult(\"dummy\");\n", StringComparison.Ordinal)
        .Replace("[|Task.FromResult(\"dummy\")|]", name, StringComparison.Ordinal);
}
