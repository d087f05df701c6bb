#!/usr/bin/env bash
# Writes FILES C# files of about 100 lines each into DIR, from FileTemplate.txt: ordinary code, with one hit
# of each TPL rule and near-misses mixed in. The analyzer cost benchmark reads the same template.
# Usage: generate.sh DIR [FILES]
set -euo pipefail
dir=$1
files=${2:-1000}
template="$(dirname "$0")/FileTemplate.txt"
mkdir -p "$dir"
for ((i = 0; i < files; i++)); do
  sed -e "s/{N}/$i/g" -e "s/{N7}/$(( (i % 7) + 1 ))/g" -e "s/{N5}/$((i % 5))/g" "$template" > "$dir/File$i.cs"
done
