#!/usr/bin/env bash
# Measures docs/comparison.md: the samples (every rule's reported and not-reported cases) and Neighbours.cs (patterns
# next to our rules that peers may catch) built in one project
# with TplPractices.Analyzers and the peer packages, every peer rule raised to a warning; then `dotnet format`
# applies our fixes and the project is built again. Prints, per sample file, which peer rules fire on the lines
# our rules report, and which peer warnings the fixes add or remove. Not part of .ci/run (it restores five
# more packages); run it when a rule or a fix changes.
# Usage: [PEER_RULES=default] .ci/peer-comparison/run.sh <folder-with-nupkg> [output folder]
set -euo pipefail
repo=$(cd "$(dirname "$0")/../.." && pwd)
feed=$(cd "$1" && pwd)
out=${2:-$(mktemp -d)}
mkdir -p "$out"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
source "$repo/.ci/consumer-project.sh"
consumer_project "$work/Peers/Peers.csproj" "$feed" "$work/packages" \
  '<TargetFrameworks>net10.0;netstandard2.0</TargetFrameworks><LangVersion>latest</LangVersion><Nullable>enable</Nullable><AnalysisMode>All</AnalysisMode><NoWarn>$(NoWarn);CS1591</NoWarn>'
# The peers, at the versions the mirror serves; every rule they ship is raised to a warning below.
sed -i 's#</ItemGroup>#  <PackageReference Include="Microsoft.VisualStudio.Threading.Analyzers" Version="18.12.1" PrivateAssets="all" />\
    <PackageReference Include="Meziantou.Analyzer" Version="3.0.321" PrivateAssets="all" />\
    <PackageReference Include="Roslynator.Analyzers" Version="5.0.1" PrivateAssets="all" />\
    <PackageReference Include="AsyncFixer" Version="2.1.0" PrivateAssets="all" />\
    <PackageReference Include="SonarAnalyzer.CSharp" Version="10.36.0.15337" PrivateAssets="all" />\
  </ItemGroup>#' "$work/Peers/Peers.csproj"
# ValueTask<T> on netstandard2.0, as the samples project has it (TPL0008 reports and is fixed on both targets).
sed -i 's#</ItemGroup>#  <PackageReference Include="System.Threading.Tasks.Extensions" Version="4.5.4" Condition="'"'"'$(TargetFramework)'"'"' == '"'"'netstandard2.0'"'"'" />\
  </ItemGroup>#' "$work/Peers/Peers.csproj"
cp "$repo"/samples/TplPractices.Samples/TPL*.cs "$repo/.ci/peer-comparison/Neighbours.cs" "$work/Peers/"
cat > "$work/Peers/.globalconfig" <<'INI'
is_global = true
# Every rule of every analyzer as a warning: the bulk setting for the rules on by default, and (appended below) each
# rule's own ID, which is what turns on the rules a package ships disabled. Formatting and naming rules off.
dotnet_analyzer_diagnostic.severity = warning
roslynator_analyzers.enabled_by_default = true
dotnet_analyzer_diagnostic.category-Style.severity = none
dotnet_analyzer_diagnostic.category-Formatting.severity = none
dotnet_analyzer_diagnostic.category-Documentation.severity = none
dotnet_analyzer_diagnostic.category-Naming.severity = none
INI
dotnet restore "$work/Peers" > "$work/restore.log" 2>&1 || { cat "$work/restore.log"; exit 1; }
# The analyzer assemblies the compiler loads for this project (each package's folder for this compiler's Roslyn).
analyzers=$(dotnet msbuild "$work/Peers/Peers.csproj" -t:ResolveLockFileAnalyzers -getItem:Analyzer -p:TargetFramework=net10.0 \
  | grep -oE '"Identity": "[^"]+\.dll"' | sed -E 's/"Identity": "(.*)"/\1/')
dotnet run --project "$repo/.ci/peer-comparison/ListRules" -- $analyzers > "$work/ids.txt" 2> "$out/listrules.log"
echo "peer comparison: $(wc -l < "$work/ids.txt") rule IDs turned on by ID ($(grep -c '^skipped' "$out/listrules.log" || true) assemblies or types skipped)"
echo "dotnet_diagnostic.TPL0007.severity = warning" >> "$work/Peers/.globalconfig"   # ours, off by default
printf 'dotnet_diagnostic.TPL0008.severity = warning\ndotnet_diagnostic.TPL0010.severity = warning\n' >> "$work/Peers/.globalconfig"   # ours, suggestions
# PEER_RULES=default measures each package as shipped (its rules on by default, raised to warnings) instead.
[ "${PEER_RULES:-all}" = default ] || cat "$work/ids.txt" >> "$work/Peers/.globalconfig"

warnings() { # log -> "file<TAB>line<TAB>id<TAB>tfm", one per distinct warning
  grep -E "\.cs\([0-9]+,[0-9]+\): warning [A-Za-z]+[0-9]+" "$1" \
    | sed -E 's#^.*/([^/]+\.cs)\(([0-9]+),[0-9]+\): warning ([A-Za-z]+[0-9]+):.*TargetFramework=([^]]+)\]$#\1\t\2\t\3\t\4#' \
    | sort -u
}

dotnet build "$work/Peers" -c Release --no-incremental > "$out/before.log" 2>&1 || { tail -30 "$out/before.log"; exit 1; }
warnings "$out/before.log" > "$out/before.tsv"
cp "$work/Peers"/*.cs "$out/"
dotnet format analyzers "$work/Peers/Peers.csproj" --diagnostics TPL0001 TPL0002 TPL0003 TPL0004 TPL0005 TPL0006 TPL0007 TPL0008 TPL0009 TPL0010 --severity info --no-restore -v q
dotnet build "$work/Peers" -c Release --no-incremental > "$out/after.log" 2>&1 || { tail -30 "$out/after.log"; exit 1; }
warnings "$out/after.log" > "$out/after.tsv"
for f in "$work/Peers"/*.cs; do cp "$f" "$out/$(basename "$f" .cs).fixed.cs"; done

echo "== peer rules on the lines our rules report (before the fixes; net10.0 and netstandard2.0 together)"
awk -F'\t' '$3 ~ /^TPL/ { hit[$1 "\t" $2] = hit[$1 "\t" $2] (hit[$1 "\t" $2] ~ $3 ? "" : " " $3) }
            { all[$1 "\t" $2] = all[$1 "\t" $2] (all[$1 "\t" $2] ~ $3 ? "" : " " $3) }
            END { for (k in hit) print k "\t" hit[k] "\t|" all[k] }' "$out/before.tsv" | sort -t$'\t' -k1,1 -k2,2n
echo
echo "== peer warnings per sample file and rule: before -> after the fixes (only counts that change)"
count() { awk -F'\t' '{ print $1 "\t" $3 }' "$1" | sort | uniq -c | awk '{ print $2 "\t" $3 "\t" $1 }'; }
join -t$'\t' -a1 -a2 -e0 -o '0,1.2,2.2' <(count "$out/before.tsv" | awk -F'\t' '{print $1 ":" $2 "\t" $3}' | sort) \
  <(count "$out/after.tsv" | awk -F'\t' '{print $1 ":" $2 "\t" $3}' | sort) \
  | awk -F'\t' '$2 != $3 { print $1 "\t" $2 " -> " $3 }'
echo
echo "raw lists: $out/before.tsv and $out/after.tsv; fixed sources: $out/*.fixed.cs"
