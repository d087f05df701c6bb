#!/usr/bin/env bash
# Packs this package into WORK/feed and writes the consumer project the whole-build checks build: WORK/Consumer,
# 1,000 files (FILES) from generate.sh, referencing this package (or PEER_PACKAGE at PEER_VERSION), restored. Prints one
# line saying what it made. run.sh and instructions.sh both start here, so they measure the same project.
# SDK_ANALYZERS=1 keeps the SDK's code-analysis analyzers on (the default for .NET 5+ projects); by default they are
# off. HITS=0 leaves the rules' hits out (see generate.sh).
# -p:DropPackageAnalyzers=true builds the same project with only the package's analyzers taken out.
# Usage: [SDK_ANALYZERS=1] [HITS=0] [RULES=default|all|TPL0008,...] [FILES=1000] consumer.sh WORK [PEER_PACKAGE PEER_VERSION]
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
source "$root/.ci/rules.sh"
work=$1
peer=${2:-}
peer_version=${3:-}
net_analyzers=false; [ "${SDK_ANALYZERS:-0}" = 1 ] && net_analyzers=true

dotnet pack "$root/src/Package" -c Release -o "$work/feed" > /dev/null
version=$(ls "$work"/feed/TplPractices.Analyzers.*.nupkg | sed -E 's/.*TplPractices\.Analyzers\.(.*)\.nupkg/\1/')
"$root/benchmarks/build-cost/generate.sh" "$work/Consumer" "${FILES:-1000}"
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
# Every rule runs: those off by default or suggestions (which command-line builds skip) are raised to warnings.
# Above both sides' folders, so the build without the package reads the same configuration. RULES=default leaves every
# rule at its shipped severity instead: what a project that only adds the package pays. RULES=TPL0008 (or a comma
# list) raises only those, to split what the raised rules cost between them.
case "${RULES:-all}" in
  default) raised= ;;
  all) raised=$(below_warning_ids) ;;
  *) raised=${RULES//,/ } ;;
esac
if [ -n "$raised" ]; then
  { printf 'root = true\n[*.cs]\n'; for id in $raised; do printf 'dotnet_diagnostic.%s.severity = warning\n' "$id"; done; } > "$work/.editorconfig"
fi
dotnet restore "$work/Consumer" > /dev/null
lines=$(cat "$work"/Consumer/*.cs | wc -l)
echo "consumer: $lines lines in $(ls "$work"/Consumer/*.cs | wc -l) files; analyzers: ${peer:-TplPractices.Analyzers} ${peer_version:-$version}; SDK analyzers: $net_analyzers"
