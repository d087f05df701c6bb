#!/usr/bin/env bash
# Fixes in a multi-targeted library, the way most libraries ship: the packed nupkg is added to a project built for
# netstandard2.0 and net10.0, `dotnet format analyzers` fixes it twice, and after each run every target must build
# with warnings as errors (the rules' own remaining diagnostics excepted). Two configurations of the same sources
# (.ci/multitarget/*.cs): "legacy", the SDK defaults (C# 7.3 on netstandard2.0, C# 14 with nullable warnings as
# errors on net10.0), and "modern" (the newest C# and nullable on both).
# Usage: .ci/multitarget-check.sh <folder-with-nupkg>
set -euo pipefail
feed=$(cd "$1" && pwd)
sources=$(cd "$(dirname "$0")/multitarget" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
source "$(dirname "$0")/consumer-project.sh"
rules="TPL0001 TPL0002 TPL0003 TPL0004 TPL0005 TPL0006 TPL0007 TPL0008 TPL0009 TPL0010"

fail() { echo "multi-target ($1): $2"; shift 2; for f in "$@"; do echo "--- $f"; cat "$f"; done; exit 1; }

# build <config> <log>: every target, compiler warnings as errors, the rules' warnings left as warnings.
build() {
  dotnet build "$work/$1" -c Release --no-incremental -p:TreatWarningsAsErrors=true \
    "-p:WarningsNotAsErrors=${rules// /%3B}" > "$2" 2>&1
}

check() { # <config> <properties>
  local config=$1 project="$work/$1"
  mkdir -p "$project"
  cp "$sources"/*.cs "$project/"
  # TPL0007 is off by default, TPL0008 and TPL0010 suggestions, which a build does not print.
  printf 'root = true\n[*.cs]\ndotnet_diagnostic.TPL0007.severity = warning\ndotnet_diagnostic.TPL0008.severity = warning\ndotnet_diagnostic.TPL0010.severity = warning\n' > "$project/.editorconfig"
  consumer_project "$project/MultiTarget.csproj" "$feed" "$work/packages" \
    "<TargetFrameworks>netstandard2.0;net10.0</TargetFrameworks>$2<WarningsAsErrors>nullable</WarningsAsErrors>" \
    '<PackageReference Include="System.Threading.Tasks.Extensions" Version="4.5.4" Condition="'"'"'$(TargetFramework)'"'"' == '"'"'netstandard2.0'"'"'" />'
  build "$config" "$work/$config-before.log" || fail "$config" "the sources do not build before any fix" "$work/$config-before.log"
  for run in 1 2; do
    dotnet format analyzers "$project/MultiTarget.csproj" --diagnostics $rules --severity info -v q
    build "$config" "$work/$config-$run.log" || fail "$config" "fix run $run broke the build" "$work/$config-$run.log" "$project"/*.cs
  done
  local left; left=$(grep -oE "[A-Za-z]+\.cs\([0-9]+,[0-9]+\): warning TPL[0-9]+" "$work/$config-2.log" | sort -u | tr '\n' ' ' || true)
  echo "multi-target ($config): both targets build after two fix runs; left without a fix: ${left:-nothing}"
}

expect() { # <config> <file> <text that must be there>
  grep -qF -- "$3" "$work/$1/$2" || fail "$1" "$2 lacks: $3" "$work/$1/$2"
}
expect_not() { # <config> <file> <text that must be gone>
  ! grep -qF -- "$3" "$work/$1/$2" || fail "$1" "$2 still has: $3" "$work/$1/$2"
}

check legacy '<Nullable Condition="'"'"'$(TargetFramework)'"'"' == '"'"'net10.0'"'"'">enable</Nullable>'
check modern '<LangVersion>latest</LangVersion><Nullable>enable</Nullable>'

for config in legacy modern; do
  # Sites that only one target compiles are fixed too.
  expect $config Targets.cs "Modern() => s_int4242Task;"
  expect $config Targets.cs "Legacy() => s_boolTrueTask;"
  # The async wait gets the form netstandard2.0 compiles.
  expect $config Targets.cs "await Task.WhenAny(task).ConfigureAwait(true)"
  # The chains keep ContinueWith's context: the awaits do not resume on the caller's.
  expect $config Chains.cs ".ConfigureAwait(false)"
  # The multi-line call keeps its other lines.
  expect $config Closures.cs "                TaskScheduler.Default);"
  # ValueTask<T> where both targets have it and every call awaits; Task<T> where one target's #if branch keeps the task.
  expect $config ValueTasks.cs "private async ValueTask<string> LookupAsync(int key)"
  expect $config ValueTasks.cs "private async Task<string> KeptAsync(int key)"
  expect $config ValueTasks.cs "internal async ValueTask<string> FindAsync(int key)"
  # AttachedToParent goes only where it did nothing.
  expect $config Attach.cs "TaskCreationOptions.LongRunning));"
  expect $config Attach.cs "}, TaskCreationOptions.AttachedToParent);"
  # The constructor's plain operations, in C# 7.3 too; the lock another member pairs with stays.
  expect $config Ctors.cs "_created++;"
  expect $config Ctors.cs "lock (_gate)"
done
# The callback fixes take the form netstandard2.0 compiles (the object overload), in C# 8+ (legacy: no fix, as TPL0001).
expect modern Callbacks.cs "ThreadPool.QueueUserWorkItem(static state => { var item = (int)state!; Console.WriteLine(item); }, item)"
expect modern Callbacks.cs ", this, Timeout.Infinite, Timeout.Infinite)"
expect modern Callbacks.cs "TaskScheduler.Default).Unwrap()"
expect legacy Callbacks.cs "token.Register(() => Console.WriteLine(name))"
# C# 7.3 cannot read the state back without a nullable warning on net10.0: TPL0001 offers no fix there.
expect legacy Closures.cs "Task.Factory.StartNew(() => Console.WriteLine(message))"
# With C# 8+ everywhere it does, nested lambdas included (on the second run).
expect modern Closures.cs "static state =>"
expect_not modern Closures.cs "StartNew(() =>"
echo "multi-target: passed"
