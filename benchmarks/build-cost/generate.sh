#!/usr/bin/env bash
# Writes FILES C# files of about 120 lines each into DIR, from FileTemplate.txt: ordinary code, with one hit
# of each TPL rule (the lines marked // HIT) and near-misses mixed in. The analyzer cost benchmark reads the
# same template. With HITS=0 the marked lines are left out: the same code once the hits are fixed, as after
# `dotnet format`, so a build measures the analysis without the cost of reporting a warning per hit.
# Usage: [HITS=0] generate.sh DIR [FILES]
set -euo pipefail
dir=$1
files=${2:-1000}
template="$(dirname "$0")/FileTemplate.txt"
drop_hits=''; [ "${HITS:-1}" = 0 ] && drop_hits='/\/\/ HIT$/d'
mkdir -p "$dir"
for ((i = 0; i < files; i++)); do
  sed -e "$drop_hits" -e "s/{N}/$i/g" -e "s/{N7}/$(( (i % 7) + 1 ))/g" -e "s/{N5}/$((i % 5))/g" "$template" > "$dir/File$i.cs"
done
