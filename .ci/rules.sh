# Rule lists for the scripts, read from the presets that the tests generate from the rule catalog
# (src/Analyzers/Catalog/RuleCatalog.cs): a rule added there reaches every script without an edit.
# Source it, then: rule_ids (every rule), below_warning_ids (off or a suggestion by default).
_rules_presets="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)/src/Package/configuration"

rule_ids() {
  grep -oE '^dotnet_diagnostic\.TPL[0-9]{4}' "$_rules_presets/all-warnings.globalconfig" | cut -d. -f2 | tr '\n' ' ' | sed 's/ $//'
}

below_warning_ids() {
  grep -E '^dotnet_diagnostic\.TPL[0-9]{4}\.severity = (none|silent|suggestion)$' "$_rules_presets/default.globalconfig" | cut -d. -f2 | tr '\n' ' ' | sed 's/ $//'
}
