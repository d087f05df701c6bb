#!/usr/bin/env bash
# Consumes the packed nupkg the way a user does, from outside the repository:
#   1. a net10.0 + netstandard2.0 project references TplPractices.Analyzers by version from a local folder;
#   2. its build must report TPL0003 exactly where expected for each target (the advice differs);
#   3. `dotnet format analyzers` must rewrite the sites, and the result must build with no TPL0003 and no errors.
# Usage: .ci/consumer-check.sh <folder-with-nupkg>
set -euo pipefail
feed=$(cd "$1" && pwd)
version=$(ls "$feed"/TplPractices.Analyzers.*.nupkg | head -n 1 | sed -E 's/.*TplPractices\.Analyzers\.(.*)\.nupkg/\1/')
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/Consumer"
cat > "$work/Consumer/Consumer.csproj" <<XML
<Project Sdk="Microsoft.NET.Sdk">
  <PropertyGroup>
    <TargetFrameworks>net10.0;netstandard2.0</TargetFrameworks>
    <LangVersion>latest</LangVersion>
    <Nullable>enable</Nullable>
    <RestoreAdditionalProjectSources>$feed</RestoreAdditionalProjectSources>
    <RestorePackagesPath>$work/packages</RestorePackagesPath>
  </PropertyGroup>
  <ItemGroup>
    <PackageReference Include="TplPractices.Analyzers" Version="$version" PrivateAssets="all" />
  </ItemGroup>
</Project>
XML
cat > "$work/Consumer/Service.cs" <<'CS'
using System.Threading.Tasks;

namespace Consumer;

public class Service
{
    public Task<int> Answer() => Task.FromResult(42);          // both targets
    public Task<int> AnswerAgain() => Task.FromResult(42);     // both targets, same cached field
    public Task Flush() => Task.FromResult("done");            // both targets, Task.CompletedTask
    public Task<bool> Ready() => Task.FromResult(true);        // netstandard2.0 only
    public Task<int> Count(int n) => Task.FromResult(n);       // never: not a constant
}
CS

count() { grep -E "Service\.cs.*warning TPL0003.*TargetFramework=$1\]" "$2" | sort -u | wc -l; }

echo "consumer: build against TplPractices.Analyzers $version from $feed"
dotnet build "$work/Consumer" -c Release --no-incremental > "$work/build1.log" 2>&1 || { cat "$work/build1.log"; exit 1; }
net=$(count net10.0 "$work/build1.log"); ns=$(count netstandard2.0 "$work/build1.log")
echo "consumer: TPL0003 on net10.0: $net (expected 3); on netstandard2.0: $ns (expected 4)"
[ "$net" -eq 3 ] && [ "$ns" -eq 4 ] || { grep TPL0003 "$work/build1.log" | sort -u; exit 1; }

echo "consumer: dotnet format analyzers --diagnostics TPL0003 --severity info"
dotnet format analyzers "$work/Consumer/Consumer.csproj" --diagnostics TPL0003 --severity info --no-restore -v q
cat "$work/Consumer/Service.cs"

dotnet build "$work/Consumer" -c Release --no-incremental > "$work/build2.log" 2>&1 || { cat "$work/build2.log"; exit 1; }
left=$(grep -c "warning TPL0003" "$work/build2.log" || true)
errors=$(grep -cE ": error " "$work/build2.log" || true)
echo "consumer: after format: $left TPL0003 warnings, $errors errors (expected 0 and 0)"
[ "$left" -eq 0 ] && [ "$errors" -eq 0 ] || { cat "$work/build2.log"; exit 1; }
grep -q "Task.CompletedTask" "$work/Consumer/Service.cs"
echo "consumer: passed"
