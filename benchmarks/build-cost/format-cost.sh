#!/usr/bin/env bash
# Times a whole `dotnet format analyzers` run (the README's command, every rule) on the build-cost consumer with its
# hits, at each size given, and prints the fixes it made: what a user's bulk fix costs, once and per diagnostic.
# The consumer is restored before the clock starts; the run does its own design-time build.
# Usage: format-cost.sh WORK [FILES ...]   (default: 50 200)
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
source "$root/.ci/rules.sh"
work=$1; shift
sizes=("${@:-50 200}"); [ $# -eq 0 ] && sizes=(50 200)
ids=$(rule_ids)
echo "| files | hit lines | hit lines changed | dotnet format | per hit line changed | date (UTC) |"
echo "|---:|---:|---:|---:|---:|---|"
for files in "${sizes[@]}"; do
  rm -rf "$work"; mkdir -p "$work"
  FILES=$files RULES=all "$root/benchmarks/build-cost/consumer.sh" "$work" > /dev/null
  git -C "$work/Consumer" init -q && git -C "$work/Consumer" add -A && git -C "$work/Consumer" -c user.email=b@b -c user.name=b commit -qm before
  start=$(date +%s.%N)
  dotnet format analyzers "$work/Consumer/Consumer.csproj" --no-restore --diagnostics $ids --severity info > "$work/format.log" 2>&1
  seconds=$(echo "$(date +%s.%N) - $start" | bc)
  hits=$(git -C "$work/Consumer" grep -c '// HIT$' HEAD -- '*.cs' | awk -F: '{ s += $NF } END { print s }')
  changed=$(git -C "$work/Consumer" diff -U0 -- '*.cs' | grep -c '^-.*// HIT$' || true)
  printf '| %s | %s | %s | %.1f s | %.0f ms | %s |\n' "$files" "$hits" "$changed" "$seconds" "$(echo "$seconds * 1000 / ($changed + ($changed == 0))" | bc -l)" "$(date -u '+%Y-%m-%d %H:%M')"
done
