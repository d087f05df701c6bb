#!/usr/bin/env bash
# Whole-build cost of the analyzers: generates a consumer of about 120,000 lines, then builds it in Release
# with the analyzers on and off, alternating, RUNS times each; prints the medians, the median of the paired
# overheads (on/off of each adjacent pair) with a distribution-free 95 % interval, the verdict against the
# 3 % budget, and the per-analyzer ranking from -p:ReportAnalyzer=true.
#
# What "off" means (BASELINE):
#   package (default)  the same build with only the package's analyzers taken out of the compiler's inputs:
#                      what the package adds.
#   none               -p:RunAnalyzers=false: every analyzer off, including the ones the .NET targeting pack
#                      brings to every .NET 8+ project (SYSLIB1099 and others), so their cost counts as ours.
# SDK_ANALYZERS=1 keeps the SDK's code-analysis analyzers on (the default for .NET 5+ projects); by default
# they are switched off (EnableNETAnalyzers=false).
# Builds use the compiler server, as `dotnet build` does by default (this VM's environment turns it off with
# UseSharedCompilation=false; the script turns it back on for its own builds). SHARED_COMPILATION=0 starts a
# fresh compiler per build instead: slower, and noisier because each build pays the compiler's JIT again.
# Usage: [BASELINE=package|none] [SDK_ANALYZERS=1] [SHARED_COMPILATION=0] benchmarks/build-cost/run.sh [RUNS] [PEER_PACKAGE PEER_VERSION]
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
runs=${1:-15}
peer=${2:-}
peer_version=${3:-}
sdk_analyzers=${SDK_ANALYZERS:-0}
net_analyzers=false; [ "$sdk_analyzers" = 1 ] && net_analyzers=true
shared=true; [ "${SHARED_COMPILATION:-1}" = 0 ] && shared=false
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
build() { dotnet build "$work/Consumer" -c Release --no-restore --no-incremental -p:UseSharedCompilation=$shared "$@"; }
# Warm the compiler server (and the file cache) both ways before anything is timed.
for warm in 1 2; do build -p:RunAnalyzers=true > /dev/null 2>&1 || true; build -p:RunAnalyzers=false > /dev/null 2>&1 || true; done

timed() {
  local start end
  start=$(date +%s%N)
  build "$@" > "$work/last.log" 2>&1 || { cat "$work/last.log" >&2; exit 1; }
  end=$(date +%s%N)
  echo $(( (end - start) / 1000000 ))
}
off_switch=-p:DropPackageAnalyzers=true
[ "${BASELINE:-package}" = none ] && off_switch=-p:RunAnalyzers=false
echo "comparing: analyzers on against $off_switch (SDK analyzers: $net_analyzers; compiler server: $shared)"
on=(); off=()
# The order alternates pair by pair (on off, off on, ...), so a drift in the machine's speed favours neither.
for ((r = 0; r < runs; r++)); do
  if ((r % 2 == 0)); then
    on+=("$(timed -p:RunAnalyzers=true)"); off+=("$(timed "$off_switch")")
  else
    off+=("$(timed "$off_switch")"); on+=("$(timed -p:RunAnalyzers=true)")
  fi
done
median() { printf '%s\n' "$@" | sort -n | awk '{a[NR]=$1} END {print (NR % 2) ? a[(NR + 1) / 2] : int((a[NR / 2] + a[NR / 2 + 1]) / 2)}'; }
m_on=$(median "${on[@]}"); m_off=$(median "${off[@]}")
echo "analyzers on  (ms): ${on[*]} -> median $m_on"
echo "analyzers off (ms): ${off[*]} -> median $m_off"
awk -v a="$m_on" -v b="$m_off" 'BEGIN { printf "overhead of the medians: %.1f %%\n", (a - b) * 100 / b }'
# Each on build is paired with the off build run next to it, so a slow spell of the machine hits both sides.
# The interval is the order-statistic 95 % interval of the median of the pairs (binomial, normal approximation).
# The 3 % budget is ours alone: a peer's run, or one against RunAnalyzers=false, is not judged against it.
judged=1; { [ -n "$peer" ] || [ "${BASELINE:-package}" = none ]; } && judged=0
for ((r = 0; r < runs; r++)); do echo "${on[r]} ${off[r]}"; done | awk '{ print ($1 - $2) * 100 / $2 }' | sort -g | awk -v judged="$judged" '
  { p[NR] = $1 }
  END {
    n = NR; med = (n % 2) ? p[(n + 1) / 2] : (p[n / 2] + p[n / 2 + 1]) / 2
    k = int((n - 1.96 * sqrt(n)) / 2); if (k < 1) k = 1
    lo = p[k]; hi = p[n - k + 1]
    printf "paired overhead: median %.1f %%, 95 %% interval %.1f %% to %.1f %% (%d pairs)\n", med, lo, hi, n
    verdict = hi <= 3 ? "met (the whole interval is at or under 3 %)" : lo > 3 ? "missed (the whole interval is over 3 %)" : "not resolved (the interval spans 3 %)"
    if (judged) print "budget, at most 3 %: " verdict
  }'
timed -p:RunAnalyzers=true > /dev/null
echo "diagnostics in an analyzers-on build: $(grep -E 'warning (TPL|VSTHRD)[0-9]+' "$work/last.log" | sort -u | wc -l)"
timed "$off_switch" > /dev/null
left=$(grep -cE 'warning (TPL|VSTHRD)[0-9]+' "$work/last.log" || true)
echo "diagnostics in an analyzers-off build: $left (must be 0, or the comparison measured nothing)"
[ "$left" -eq 0 ] || exit 1

build -p:ReportAnalyzer=true -v:d > "$work/report.log" 2>&1
echo "per-analyzer time (ReportAnalyzer; a ranking of summed callback time, not wall time):"
grep -E "^\s+[0-9.]+\s+[0-9]+\s+(TplPractices|Microsoft\.VisualStudio\.Threading)" "$work/report.log" | sort -u | sort -rn | head -12 || true
grep -E "Total analyzer execution time" "$work/report.log" | head -2 || true
grep -oE 'warning (TPL|VSTHRD)[0-9]+' "$work/report.log" | sort | uniq -c | sort -rn | head
