#!/usr/bin/env bash
# What each rule costs the compiler, one rule at a time: the consumer from consumer.sh (no hits, FILES files, 200 by
# default) compiled by the compiler alone under cachegrind, the settings of instructions.sh, once per variant:
#   without    the package's analyzers left out;
#   none       the package loaded, every rule set to none (what loading it costs);
#   TPLnnnn    that rule on as a warning, every other one set to none;
#   shipped    every rule at the severity it ships with (what a project that adds the package pays);
#   all        shipped, with the rules that do not ship as warnings (off or suggestions, .ci/rules.sh) raised.
# Severities go in a global analyzer config, so a rule set to none is not run at all (the compiler drops an analyzer
# whose every rule is off; the shared analyzer of the warning rules drops each rule that is off, RuleSwitches). A
# rule's row includes what the first rule to run pays for every rule once (its shared code compiled, its callbacks):
# the rows add up to more than "shipped". Runs two compilers at a time; about 2 minutes each at 200 files.
# VARIANTS='none TPL0008' runs only those (with 'without', which every row is measured against).
# TIERED=1 leaves tiered compilation on, as the runtime runs a user's compiler (the default, 0, compiles every method
# at full optimization: counts that repeat more closely, and a one-off JIT cost several times a real build's). Its
# call counting then starts at once: the runtime's 100 ms delay is wall time, which valgrind stretches fiftyfold, and
# with it every method stayed at tier 0 (a first try ran three times as long as a count without tiering).
# Usage: [FILES=200] [VARIANTS=...] [TIERED=1] benchmarks/build-cost/per-rule.sh
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
source "$root/.ci/rules.sh"
command -v valgrind > /dev/null || { echo "per-rule.sh needs valgrind (apt-get install valgrind)" >&2; exit 2; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
HITS=0 RULES=default FILES=${FILES:-200} "$root/benchmarks/build-cost/consumer.sh" "$work"

# The compiler's own command line, from a detailed build, as a response file without its outputs.
dotnet build "$work/Consumer" -c Release --no-restore --no-incremental -p:UseSharedCompilation=false -v:d > "$work/build.log" 2>&1
csc=$(grep -m1 -oE '/[^ ]*/Roslyn/bincore/csc ' "$work/build.log" | sed 's/ $//')
grep -m1 -E '/Roslyn/bincore/csc /noconfig' "$work/build.log" | sed -E 's|^ *[^ ]*/csc ||' > "$work/args.txt"
python3 - "$work" <<'PY'
import shlex, sys
work = sys.argv[1]
args = [a for a in shlex.split(open(work + '/args.txt').read())
        if a != '/noconfig' and not a.startswith(('/out:', '/refout:', '/analyzerconfig:' + work + '/.editorconfig'))]
with open(work + '/base.rsp', 'w') as rsp:
    rsp.write('\n'.join('"%s"' % a if ' ' in a or ',' in a else a for a in args) + '\n/parallel-\n')
PY

ids=$(rule_ids)
mkdir "$work/variants"
for variant in none $ids; do
  { echo "is_global = true"; for id in $ids; do s=none; [ "$id" = "$variant" ] && s=warning; echo "dotnet_diagnostic.$id.severity = $s"; done; } > "$work/variants/$variant.globalconfig"
done
echo "is_global = true" > "$work/variants/shipped.globalconfig"
{ echo "is_global = true"; for id in $(below_warning_ids); do echo "dotnet_diagnostic.$id.severity = warning"; done; } > "$work/variants/all.globalconfig"
cp "$work/variants/shipped.globalconfig" "$work/variants/without.globalconfig"

# count VARIANT: one compiler run; prints "VARIANT instructions".
count() {
  local variant=$1 dir="$work/runs/$1"
  mkdir -p "$dir"
  { if [ "$variant" = without ]; then grep -v 'TplPractices' "$work/base.rsp"; else cat "$work/base.rsp"; fi
    echo "/analyzerconfig:$work/variants/$variant.globalconfig"; echo "/out:$dir/Consumer.dll"; } > "$dir/args.rsp"
  (cd "$work/Consumer" && env DOTNET_PROCESSOR_COUNT=1 DOTNET_TieredCompilation="${TIERED:-0}" DOTNET_TC_CallCountingDelayMs=0 DOTNET_gcConcurrent=0 \
      DOTNET_ThreadPool_UnfairSemaphoreSpinLimit=0 DOTNET_GCHeapHardLimit=0x100000000 DOTNET_EnableWriteXorExecute=0 \
      DOTNET_ThreadPool_ForceMaxWorkerThreads=1 DOTNET_HillClimbing_Disable=1 \
    valgrind --fair-sched=yes --tool=cachegrind --cache-sim=no --cachegrind-out-file=/dev/null --log-file="$dir/valgrind.log" \
    dotnet "$csc.dll" @"$dir/args.rsp" > "$dir/out.txt" 2>&1) || { cat "$dir/out.txt" >&2; return 1; }
  echo "$variant $(grep -E 'I +refs:' "$dir/valgrind.log" | awk '{ gsub(",", "", $NF); print $NF }')"
}
export -f count; export work csc TIERED
printf '%s\n' without ${VARIANTS:-none $ids shipped all} | xargs -P2 -I{} bash -c 'count {}' > "$work/counts.txt"

awk '{ n[$1] = $2 } END {
  printf "%-9s %14s %12s\n", "variant", "instructions", "added"
  split("without none '"$(echo $ids)"' shipped all", order, " ")
  for (i = 1; i in order; i++) { v = order[i]; if (!(v in n)) continue; printf "%-9s %12.3f G %+10.3f G\n", v, n[v] / 1e9, (n[v] - n["without"]) / 1e9 }
}' "$work/counts.txt"
