using System;
using System.Collections.Generic;
using System.Globalization;
using System.Linq;
using System.Text;
using Microsoft.CodeAnalysis.Diagnostics;

namespace TplPractices.Analyzers.CodeFixes.Internals;

/// <summary>
/// How a new static readonly field's words are written: a prefix, a suffix, a word separator and a capitalization, as
/// an .editorconfig naming style says them. <see cref="Configured"/> reads the style the project's naming rules ask
/// (read as the IDE's naming rule, IDE1006, reads them: of the rules whose symbols take the field, the one taken first
/// by <c>priority</c>, then the more specific, more required modifiers, fewer accessibilities, fewer kinds, then by
/// title); a project that enforces its naming in the build breaks on a field named any other way. The three presets
/// are the styles <see cref="FieldNaming"/> reads from the code where no rule says.
/// </summary>
internal sealed class FieldNameStyle
{
    /// <summary><c>s_camelCase</c>, the .NET runtime's style.</summary>
    public static readonly FieldNameStyle StaticPrefix = new("s_", string.Empty, string.Empty, "camel_case");

    /// <summary><c>_camelCase</c>.</summary>
    public static readonly FieldNameStyle Underscore = new("_", string.Empty, string.Empty, "camel_case");

    /// <summary><c>PascalCase</c>.</summary>
    public static readonly FieldNameStyle Pascal = new(string.Empty, string.Empty, string.Empty, "pascal_case");

    private const string RulePrefix = "dotnet_naming_rule.";

    private readonly string _prefix;
    private readonly string _suffix;
    private readonly string _separator;
    private readonly string _capitalization;

    private FieldNameStyle(string prefix, string suffix, string separator, string capitalization)
    {
        _prefix = prefix;
        _suffix = suffix;
        _separator = separator;
        _capitalization = capitalization;
    }

    /// <summary>The style the naming rules ask of a static readonly field of that accessibility, or null where no rule takes one.</summary>
    public static FieldNameStyle? Configured(AnalyzerConfigOptions options, bool isPrivate)
    {
        var rules = new List<(int Priority, int Modifiers, int Accessibilities, int Kinds, string Title, FieldNameStyle Style)>();
        foreach (var key in options.Keys)
        {
            var parts = key.Trim().Split('.');
            if (parts.Length != 3 || !key.Trim().StartsWith(RulePrefix, StringComparison.Ordinal) || parts[2] != "symbols")
            {
                continue;
            }

            var title = parts[1];
            if (!options.TryGetValue(RulePrefix + title + ".symbols", out var symbols)
                || !options.TryGetValue(RulePrefix + title + ".style", out var styleName)
                || !options.TryGetValue(RulePrefix + title + ".severity", out _)
                || Matches(options, symbols.Trim(), isPrivate) is not { } specificity
                || StyleOf(options, styleName.Trim()) is not { } style)
            {
                continue;
            }

            var priority = options.TryGetValue(RulePrefix + title + ".priority", out var p) && int.TryParse(p.Trim(), NumberStyles.Integer, CultureInfo.InvariantCulture, out var n) ? n : 0;
            rules.Add((priority, specificity.Modifiers, specificity.Accessibilities, specificity.Kinds, title, style));
        }

        return rules
            .OrderBy(r => r.Priority)
            .ThenByDescending(r => r.Modifiers)
            .ThenBy(r => r.Accessibilities)
            .ThenBy(r => r.Kinds)
            .ThenBy(r => r.Title, StringComparer.OrdinalIgnoreCase)
            .ThenBy(r => r.Title, StringComparer.Ordinal)
            .Select(r => r.Style)
            .FirstOrDefault();
    }

    /// <summary>The words written in this style: each word of several capitals splits at them where words are separated.</summary>
    public string Format(IEnumerable<string> words)
    {
        var list = words.Where(w => w.Length > 0).SelectMany(w => _separator.Length > 0 ? Humps(w) : new[] { w }).ToList();
        var written = list.Select((word, i) => _capitalization switch
        {
            "camel_case" => i == 0 ? Lower(word) : FieldNaming.Capitalize(word),
            "first_word_upper" => i == 0 ? FieldNaming.Capitalize(word) : Lower(word),
            "all_upper" => word.ToUpperInvariant(),
            "all_lower" => word.ToLowerInvariant(),
            _ => FieldNaming.Capitalize(word),
        });
        return _prefix + string.Join(_separator, written) + _suffix;
    }

    /// <summary>How specific the symbol group is, where it takes a static readonly field; null where it does not.</summary>
    private static (int Modifiers, int Accessibilities, int Kinds)? Matches(AnalyzerConfigOptions options, string symbols, bool isPrivate)
    {
        const string Group = "dotnet_naming_symbols.";
        var kinds = ListOf(options, Group + symbols + ".applicable_kinds");
        var accessibilities = ListOf(options, Group + symbols + ".applicable_accessibilities");
        var modifiers = ListOf(options, Group + symbols + ".required_modifiers") ?? new List<string>();
        var kindCount = kinds is null || kinds.Contains("*") ? AllKinds : kinds.Count;
        var accessibilityCount = accessibilities is null || accessibilities.Contains("*") ? AllAccessibilities : accessibilities.Count;
        var ownAccessibility = isPrivate ? new[] { "private" } : new[] { "internal", "friend" };
        var matches = (kinds is null || kinds.Contains("*") || kinds.Contains("field"))
            && (accessibilities is null || accessibilities.Contains("*") || accessibilities.Any(ownAccessibility.Contains))
            && modifiers.All(m => m is "static" or "shared" or "readonly");
        return matches ? (modifiers.Count, accessibilityCount, kindCount) : null;
    }

    private static FieldNameStyle? StyleOf(AnalyzerConfigOptions options, string name)
    {
        const string Group = "dotnet_naming_style.";
        // A style without a capitalization the IDE knows is no style: IDE1006 ignores its rule, and so does this.
        if (!options.TryGetValue(Group + name + ".capitalization", out var capitalization)
            || !Capitalizations.Contains(capitalization.Trim().ToLowerInvariant()))
        {
            return null;
        }

        string Value(string property) => options.TryGetValue(Group + name + "." + property, out var value) ? value.Trim() : string.Empty;
        return new FieldNameStyle(Value("required_prefix"), Value("required_suffix"), Value("word_separator"), capitalization.Trim().ToLowerInvariant());
    }

    private static List<string>? ListOf(AnalyzerConfigOptions options, string key) =>
        options.TryGetValue(key, out var value)
            ? value.Split(',').Select(v => v.Trim().ToLowerInvariant()).Where(v => v.Length > 0).ToList()
            : null;

    /// <summary>A word such as <c>ResultPrimitive</c> as the words its capitals begin.</summary>
    private static IEnumerable<string> Humps(string word)
    {
        var current = new StringBuilder();
        for (var i = 0; i < word.Length; i++)
        {
            if (i > 0 && char.IsUpper(word[i]) && char.IsLower(word[i - 1]))
            {
                yield return current.ToString();
                current.Clear();
            }

            current.Append(word[i]);
        }

        yield return current.ToString();
    }

    private static string Lower(string word) => char.ToLowerInvariant(word[0]) + word.Substring(1);

    /// <summary>The kinds and accessibilities <c>*</c> (or no list) stands for, as counts for the ordering.</summary>
    private const int AllKinds = 15;

    private const int AllAccessibilities = 7;

    private static readonly string[] Capitalizations = ["pascal_case", "camel_case", "first_word_upper", "all_upper", "all_lower"];
}
