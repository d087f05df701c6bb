#!/usr/bin/env bash
# Consumes the packed nupkg the way a user does, from outside the repository:
#   1. a net10.0 + netstandard2.0 project references TplPractices.Analyzers by version from a local folder;
#   2. its build must report each rule exactly where expected for each target (the advice differs);
#   3. `dotnet format analyzers` must rewrite the sites, and the result must build with no TPL diagnostics and no errors.
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
cat > "$work/Consumer/Waits.cs" <<'CS'
using System;
using System.IO;
using System.Threading.Tasks;

namespace Consumer;

public class Waits
{
    public bool Block(Task task) => ((IAsyncResult)task).AsyncWaitHandle.WaitOne(100);  // TPL0004

    public async Task<string> ThenContinue(Task<int> task)                             // TPL0004, awaited
    {
        ((IAsyncResult)task).AsyncWaitHandle.WaitOne();
        await Task.Yield();
        return task.Status.ToString();
    }

    public int Apm(Stream stream, byte[] buffer)                                        // never: a real APM result
    {
        var pending = stream.BeginRead(buffer, 0, buffer.Length, null, null);
        pending.AsyncWaitHandle.WaitOne();
        return stream.EndRead(pending);
    }
}
CS
cat > "$work/Consumer/Closures.cs" <<'CS'
using System;
using System.Threading.Tasks;

namespace Consumer;

public class Closures
{
    public Task Log(string message) => Task.Factory.StartNew(() => Console.WriteLine(message));   // TPL0001

    public Task<int> Next(Task<int> task, int step) => task.ContinueWith(_ => task.Result + step); // TPL0001

    public Task Quiet() => Task.Factory.StartNew(static () => Console.WriteLine("quiet"));        // never: no capture
}
CS

count() { grep -E "warning $1.*TargetFramework=$2\]" "$3" | sort -u | wc -l; }
expect() { # rule target expected log
  local got; got=$(count "$1" "$2" "$4")
  echo "consumer: $1 on $2: $got (expected $3)"
  [ "$got" -eq "$3" ] || { grep "warning $1" "$4" | sort -u; exit 1; }
}

echo "consumer: build against TplPractices.Analyzers $version from $feed"
dotnet build "$work/Consumer" -c Release --no-incremental > "$work/build1.log" 2>&1 || { cat "$work/build1.log"; exit 1; }
expect TPL0003 net10.0 3 "$work/build1.log"
expect TPL0003 netstandard2.0 4 "$work/build1.log"
expect TPL0001 net10.0 2 "$work/build1.log"
expect TPL0001 netstandard2.0 2 "$work/build1.log"
expect TPL0004 net10.0 2 "$work/build1.log"
expect TPL0004 netstandard2.0 2 "$work/build1.log"

echo "consumer: dotnet format analyzers --diagnostics TPL0001 TPL0003 TPL0004 --severity info"
dotnet format analyzers "$work/Consumer/Consumer.csproj" --diagnostics TPL0001 TPL0003 TPL0004 --severity info --no-restore -v q
cat "$work/Consumer/Service.cs" "$work/Consumer/Waits.cs" "$work/Consumer/Closures.cs"

dotnet build "$work/Consumer" -c Release --no-incremental > "$work/build2.log" 2>&1 || { cat "$work/build2.log"; exit 1; }
left=$(grep -cE "warning TPL[0-9]+" "$work/build2.log" || true)
errors=$(grep -cE ": error " "$work/build2.log" || true)
echo "consumer: after format: $left TPL warnings, $errors errors (expected 0 and 0)"
[ "$left" -eq 0 ] && [ "$errors" -eq 0 ] || { cat "$work/build2.log"; exit 1; }
grep -q "Task.CompletedTask" "$work/Consumer/Service.cs"
grep -q "Task.WhenAny" "$work/Consumer/Waits.cs"
grep -q "static state =>" "$work/Consumer/Closures.cs"
grep -q "pending.AsyncWaitHandle.WaitOne()" "$work/Consumer/Waits.cs"
echo "consumer: passed"
