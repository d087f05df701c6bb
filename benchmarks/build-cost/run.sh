#!/usr/bin/env bash
# Whole-build cost of the analyzers: generates a consumer of about 100,000 lines, then builds it in
# Release with analyzers on and off (-p:RunAnalyzers=false), alternating, RUNS times each; prints the
# median wall times, the overhead, and the per-analyzer ranking from -p:ReportAnalyzer=true.
# The SDK's own analyzers are switched off so that only the package under test runs.
# With SDK_ANALYZERS=1, the SDK's analyzers stay on (the default for .NET 5+ projects) and the comparison is
# the package's analyzers on against the same build with only the package's analyzers removed: what
# installing the package adds to a default build.
# Usage: [SDK_ANALYZERS=1] benchmarks/build-cost/run.sh [RUNS] [PEER_PACKAGE PEER_VERSION]
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
runs=${1:-5}
peer=${2:-}
peer_version=${3:-}
sdk_analyzers=${SDK_ANALYZERS:-0}
net_analyzers=false; [ "$sdk_analyzers" = 1 ] && net_analyzers=true
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

dotnet pack "$root/src/Package" -c Release -o "$work/feed" > /dev/null
version=$(ls "$work"/feed/TplPractices.Analyzers.*.nupkg | sed -E 's/.*TplPractices\.Analyzers\.(.*)\.nupkg/\1/')
"$root/benchmarks/build-cost/generate.sh" "$work/Consumer" 1000
reference="<PackageReference Include=\"TplPractices.Analyzers\" Version=\"$version\" PrivateAssets=\"all\" />"
[ -n "$peer" ] && reference="<PackageReference Include=\"$peer\" Version=\"$peer_version\" PrivateAssets=\"all\" />"
cat > "$work/Consumer/Consumer.csproj" <<XML
<Project Sdk="Microsoft.NET.Sdk">
  <PropertyGroup>
    <TargetFramework>net10.0</TargetFramework>
    <Nullable>disable</Nullable>
    <EnableNETAnalyzers>$net_analyzers</EnableNETAnalyzers>
    <NoWarn>\$(NoWarn);CS1998</NoWarn>
    <RestoreAdditionalProjectSources>$work/feed</RestoreAdditionalProjectSources>
    <RestorePackagesPath>$work/packages</RestorePackagesPath>
  </PropertyGroup>
  <ItemGroup>$reference</ItemGroup>
  <!-- -p:DropPackageAnalyzers=true: the same build with only the package's analyzers taken out. -->
  <Target Name="DropPackageAnalyzers" BeforeTargets="CoreCompile" Condition="'\$(DropPackageAnalyzers)' == 'true'">
    <ItemGroup>
      <Analyzer Remove="@(Analyzer)" Condition="\$([System.String]::Copy('%(Analyzer.Filename)').StartsWith('TplPractices')) Or \$([System.String]::Copy('%(Analyzer.Filename)').StartsWith('Microsoft.VisualStudio.Threading'))" />
    </ItemGroup>
  </Target>
</Project>
XML
lines=$(cat "$work"/Consumer/*.cs | wc -l)
echo "consumer: $lines lines in $(ls "$work"/Consumer/*.cs | wc -l) files; analyzers: ${peer:-TplPractices.Analyzers} ${peer_version:-$version}"
dotnet restore "$work/Consumer" > /dev/null
dotnet build "$work/Consumer" -c Release --no-restore > /dev/null 2>&1 || true   # warm the build server

timed() {
  local start end
  start=$(date +%s%N)
  dotnet build "$work/Consumer" -c Release --no-restore --no-incremental "$@" > "$work/last.log" 2>&1 || { cat "$work/last.log" >&2; exit 1; }
  end=$(date +%s%N)
  echo $(( (end - start) / 1000000 ))
}
off_switch=-p:RunAnalyzers=false
[ "$sdk_analyzers" = 1 ] && off_switch=-p:DropPackageAnalyzers=true
echo "comparing: analyzers on against $off_switch (SDK analyzers: $net_analyzers)"
on=(); off=()
for ((r = 0; r < runs; r++)); do
  on+=("$(timed -p:RunAnalyzers=true)")
  off+=("$(timed "$off_switch")")
done
median() { printf '%s\n' "$@" | sort -n | awk '{a[NR]=$1} END {print (NR % 2) ? a[(NR + 1) / 2] : int((a[NR / 2] + a[NR / 2 + 1]) / 2)}'; }
m_on=$(median "${on[@]}"); m_off=$(median "${off[@]}")
echo "analyzers on  (ms): ${on[*]} -> median $m_on"
echo "analyzers off (ms): ${off[*]} -> median $m_off"
awk -v a="$m_on" -v b="$m_off" 'BEGIN { printf "overhead: %.1f %%\n", (a - b) * 100 / b }'
timed -p:RunAnalyzers=true > /dev/null
echo "diagnostics in an analyzers-on build: $(grep -E 'warning (TPL|VSTHRD)[0-9]+' "$work/last.log" | sort -u | wc -l)"
timed "$off_switch" > /dev/null
left=$(grep -cE 'warning (TPL|VSTHRD)[0-9]+' "$work/last.log" || true)
echo "diagnostics in an analyzers-off build: $left (must be 0, or the comparison measured nothing)"
[ "$left" -eq 0 ] || exit 1

dotnet build "$work/Consumer" -c Release --no-restore --no-incremental -p:ReportAnalyzer=true -v:d > "$work/report.log" 2>&1
echo "per-analyzer time (ReportAnalyzer; a ranking of summed callback time, not wall time):"
grep -E "^\s+[0-9.]+\s+[0-9]+\s+(TplPractices|Microsoft\.VisualStudio\.Threading)" "$work/report.log" | sort -u | sort -rn | head -12 || true
grep -E "Total analyzer execution time" "$work/report.log" | head -2 || true
grep -oE 'warning (TPL|VSTHRD)[0-9]+' "$work/report.log" | sort | uniq -c | sort -rn | head
