#!/usr/bin/env bash
# The package in an editor: csharp-ls (a Roslyn language server, a .NET tool from the mirror, pinned in
# .ci/editor-host/dotnet-tools.json) loads a copy of the samples that takes TplPractices.Analyzers from the packed
# nupkg, and is asked over LSP, as an editor asks, for each file's diagnostics with analyzers on. It must report
# exactly the TPL warnings the build reports for the target it analyzes (it analyzes one: the first, net10.0).
# csharp-ls runs analyzers but offers no analyzer-supplied code fixes; docs/editors.md says what each editor does.
# Usage: .ci/editor-host-check.sh <folder-with-nupkg>
set -euo pipefail
feed=$(cd "$1" && pwd)
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
source "$here/consumer-project.sh"

project="$work/Samples"
consumer_project "$project/Samples.csproj" "$feed" "$work/packages" \
  '<TargetFrameworks>net10.0;netstandard2.0</TargetFrameworks><LangVersion>latest</LangVersion><Nullable>enable</Nullable>
    <RootNamespace>TplPractices.Samples</RootNamespace><EnableNETAnalyzers>false</EnableNETAnalyzers>' \
  '<PackageReference Include="System.Threading.Tasks.Extensions" Version="4.5.4" Condition="'"'"'$(TargetFramework)'"'"' == '"'"'netstandard2.0'"'"'" />'
cp "$here"/../samples/TplPractices.Samples/*.cs "$here"/../samples/TplPractices.Samples/.editorconfig "$project/"
(cd "$work" && dotnet new sln -n Samples --format sln >/dev/null && dotnet sln Samples.sln add Samples/Samples.csproj >/dev/null)

# What the build reports, per target: "File.cs(line,col): warning TPLnnnn".
dotnet build "$work/Samples.sln" -nologo 2>&1 | tee "$work/build.log" | grep -E "error|Build succeeded" | sort -u | head -5
for target in net10.0 netstandard2.0; do
  grep -E "warning TPL[0-9]{4}:.*::TargetFramework=$target\]" "$work/build.log" \
    | sed -E 's#^.*/([^/]+\.cs)\(([0-9]+),([0-9]+)\): warning (TPL[0-9]{4}):.*#\1(\2,\3): warning \4#' | sort -u > "$work/build.$target"
done
[ -s "$work/build.net10.0" ] || { echo "the build reported no TPL warning for net10.0"; exit 1; }

# What the editor shows: the language server's answers for every file, TPL ones only.
(cd "$here/editor-host" && dotnet tool restore >/dev/null)
started=$(date +%s)
(cd "$here/editor-host" && python3 lsp_diagnostics.py "$project" 300 "$project"/*.cs -- dotnet tool run csharp-ls --loglevel warning) \
  > "$work/lsp.all" || { echo "the language server did not answer in time:"; cat "$work/lsp.all"; exit 1; }
grep -E ": warning TPL[0-9]{4}$" "$work/lsp.all" | sort -u > "$work/lsp" || true
echo "csharp-ls: $(wc -l < "$work/lsp") TPL warnings in $(( $(date +%s) - started )) s; the build: $(wc -l < "$work/build.net10.0") on net10.0, $(wc -l < "$work/build.netstandard2.0") on netstandard2.0 ($(comm -3 "$work/build.net10.0" "$work/build.netstandard2.0" | wc -l) differ)"

if ! diff -u "$work/build.net10.0" "$work/lsp" > "$work/diff"; then
  echo "csharp-ls does not show what the build reports on net10.0 (- build only, + editor only):"
  cat "$work/diff"
  exit 1
fi
echo "editor host: csharp-ls shows every TPL warning the build reports on net10.0, and no other"
