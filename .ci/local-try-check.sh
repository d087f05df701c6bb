#!/usr/bin/env bash
# docs/editors.md's recipe for trying a local build, followed twice in a row: each pack is a newer prerelease, and the
# consuming project picks the new one up after `dotnet restore --force-evaluate` (the NuGet cache would otherwise
# serve a package it already holds under the same version).
# Usage: .ci/local-try-check.sh   (after a Release build of src/)
set -euo pipefail
cd "$(dirname "$0")/.."
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
prefix=$(dotnet msbuild src/Package -getProperty:VersionPrefix)
mkdir -p "$work/App"
cat > "$work/App/App.csproj" <<XML
<Project Sdk="Microsoft.NET.Sdk">
  <PropertyGroup>
    <TargetFramework>net10.0</TargetFramework>
    <RestoreAdditionalProjectSources>$work/feed</RestoreAdditionalProjectSources>
    <RestorePackagesPath>$work/packages</RestorePackagesPath>
  </PropertyGroup>
  <ItemGroup>
    <PackageReference Include="TplPractices.Analyzers" Version="$prefix-*" PrivateAssets="all" />
  </ItemGroup>
</Project>
XML
echo 'class C { System.Threading.Tasks.Task<int> A() => System.Threading.Tasks.Task.FromResult(42); }' > "$work/App/C.cs"
for round in 1 2; do
  [ "$round" -eq 1 ] || sleep 1   # the prerelease is stamped to the second
  dotnet pack src/Package -c Release --no-build -o "$work/feed" -v q > /dev/null
  newest=$(ls "$work"/feed/*.nupkg | sed -E 's/.*TplPractices\.Analyzers\.(.*)\.nupkg/\1/' | sort -V | tail -n 1)
  (cd "$work/App" && dotnet restore --force-evaluate -v q > /dev/null && dotnet build --no-restore > "$work/build.log" 2>&1) \
    || { cat "$work/build.log"; exit 1; }
  used=$(grep -oE '"TplPractices.Analyzers/[^"]+"' "$work/App/obj/project.assets.json" | head -n 1 | sed -E 's|.*/(.*)"|\1|')
  echo "local try $round: packed $newest, the project uses $used"
  [ "$newest" != "${previous:-}" ] || { echo "local try: the second pack has the first one's version; the cache would serve the old one"; exit 1; }
  previous=$newest
  [ "$used" == "$newest" ] || { echo "local try: the project did not pick up the new pack"; exit 1; }
  grep -q "warning TPL0003" "$work/build.log" || { echo "local try: the build reported no TPL0003"; exit 1; }
done
